"""User accept functions for the Kierki trump-odds tests (``FILE.py:NAME`` specs)."""
import numpy as np


def east_has_ace_of_spades(hands):
    return (hands[1] >> np.uint64(51)) & np.uint64(1) == np.uint64(1)


def west_has_four_hearts(hands):
    x = (hands[3] >> np.uint64(26)) & np.uint64(8191)
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n == 4


def refuse_all(hands):
    return False
