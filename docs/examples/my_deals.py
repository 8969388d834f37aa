"""Example accept functions for ``--accept FILE.py:NAME`` (the odds commands).

``hands`` holds one card mask per seat (``uint64``, bit ``suit*13 + rank``: clubs 0,
diamonds 1, hearts 2, spades 3; deuce 0 ... ace 12). Return True to keep the deal.
Compiled by numba like a policy: plain arithmetic only.

    simcards trump kierki --cards "KS QS 5H 2D 9C" --accept docs/examples/my_deals.py:east_has_ace
    simcards bid spades --hand "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C" --seat N --dealer W --accept docs/examples/my_deals.py:west_long_hearts
"""
ACE_OF_SPADES = 3 * 13 + 12
HEARTS = ((1 << 13) - 1) << (2 * 13)


def east_has_ace(hands):
    """East (seat 1) holds the ace of spades."""
    return (hands[1] >> ACE_OF_SPADES) & 1 == 1


def west_long_hearts(hands):
    """West (seat 3) holds at least five hearts."""
    h = hands[3] & HEARTS
    n = 0
    while h:
        h &= h - 1
        n += 1
    return n >= 5
