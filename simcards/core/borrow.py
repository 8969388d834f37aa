"""Borrowed (unreferenced) array views for compiled hot loops.

numba keeps a reference count per array and updates it with an atomic instruction
whenever an array is passed to a function that is not inlined: a policy called
through a first-class function, a helper, the per-hand function. In a kernel that
makes ~40 policy calls per hand this was a third of the run time (Spades, measured
with perf: ``NRT_incref``/``NRT_decref``).

``borrowed(a)`` returns the same array (data, shape, strides) with a NULL meminfo, so
every reference-count update on it is a no-op. The caller must keep the owner alive
while the borrowed view is used: allocate the owners, borrow them, and end the
function with ``keep_alive(owners)``::

    owners = (np.zeros(64, np.int64), np.zeros(4, np.uint64))
    view, hands = borrowed(owners[0]), borrowed(owners[1])
    ... hot loop using view and hands ...
    keep_alive(owners)

Arrays passed in from Python are kept alive by the Python caller.
"""
import numba as nb
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, arr):
    """``arr`` without its reference count (meminfo NULL); see the module docstring."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        dst = context.make_array(arr)(context, builder)
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        dst.parent = cgutils.get_null_value(dst.parent.type)
        dst.nitems = src.nitems
        dst.itemsize = src.itemsize
        dst.data = src.data
        dst.shape = src.shape
        dst.strides = src.strides
        return dst._getvalue()

    return arr(arr), codegen


@nb.njit(cache=True)
def keep_alive(owners):
    """A use of ``owners`` (a tuple of arrays): they stay allocated until this point."""
    return len(owners)
