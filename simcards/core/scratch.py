"""Stack-allocated scratch arrays for compiled helpers.

``np.empty`` inside a numba function calls the runtime allocator (malloc, a reference
count, free): about 50-100 ns. Helpers that need a few dozen integers of workspace and
run millions of times a second (Contract Rummy's contract search runs several times a
turn) spend more on that than on their arithmetic. ``stack_int64(n)``,
``stack_int64_2d(rows, cols)`` and ``stack_float64(n)`` instead reserve the memory in the calling function's
stack frame (an LLVM ``alloca`` in its entry block), with a NULL meminfo like
``borrow.borrowed``.

Rules of use: the sizes are literal integers (compile-time constants); the contents start
undefined, as with ``np.empty``; the array must not outlive the function that created it
(never return it or store it in another array).
"""
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


def _stack_array(context, builder, arrty, shape):
    count = 1
    for n in shape:
        count *= n
    elem = context.get_value_type(arrty.dtype)
    ptr = cgutils.alloca_once(builder, elem, size=count)
    itemsize = context.get_abi_sizeof(elem)
    intp = context.get_value_type(types.intp)
    strides = []
    step = itemsize
    for n in reversed(shape):
        strides.insert(0, ir.Constant(intp, step))
        step *= n
    ary = context.make_array(arrty)(context, builder)
    populate_array(ary, data=ptr, shape=[ir.Constant(intp, n) for n in shape], strides=strides,
                   itemsize=ir.Constant(intp, itemsize), meminfo=None)
    return ary._getvalue()


def _stack_1d(dtype, n):
    """The typing of a 1-d stack array of ``dtype`` (None unless ``n`` is a literal int >= 1)."""
    if not isinstance(n, types.IntegerLiteral) or n.literal_value < 1:
        return None
    arrty = types.Array(dtype, 1, "C")

    def codegen(context, builder, signature, args):
        return _stack_array(context, builder, arrty, (n.literal_value,))

    return arrty(n), codegen


@intrinsic
def stack_int64(typingctx, n):
    """int64[n] in the caller's stack frame (``n`` a literal int); contents undefined."""
    return _stack_1d(types.int64, n)


@intrinsic
def stack_float64(typingctx, n):
    """float64[n] in the caller's stack frame (``n`` a literal int); contents undefined."""
    return _stack_1d(types.float64, n)


@intrinsic
def stack_int64_2d(typingctx, rows, cols):
    """int64[rows, cols] (C order) in the caller's stack frame; literal sizes, contents undefined."""
    if not all(isinstance(x, types.IntegerLiteral) and x.literal_value >= 1 for x in (rows, cols)):
        return None
    arrty = types.Array(types.int64, 2, "C")

    def codegen(context, builder, signature, args):
        return _stack_array(context, builder, arrty, (rows.literal_value, cols.literal_value))

    return arrty(rows, cols), codegen

