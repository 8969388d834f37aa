"""The public state view a policy receives (section 1.8: only what a player may see).

Every decision function is called as ``f(hand, pub, melds, opts, rng)``:

- ``hand``: int64[53], the deciding player's own cards, count per card type
  (0..51 core card numbers, 52 the joker).
- ``pub``: int64[PUB_SIZE], public information at the offsets below.
- ``melds``: int64[MAX_MELDS, MF], the table melds (first ``pub[P_NMELDS]`` rows; see
  ``melds.py`` for the fields).
- ``opts``: int64[OPT_SIZE], decision-specific options (see policies.py).
- ``rng``: uint64[1], the record's policy random stream (``simcards.core.rng``).
"""
MAX_SEATS = 8
MAX_MELDS = 96
MAX_CARDS = 168  # 3 decks + 6 jokers, rounded up
OPT_SIZE = MAX_CARDS + 8

P_SEAT = 0         # seat deciding
P_NPL = 1          # number of players
P_DEAL = 2         # deal number, 1-based
P_S = 3            # contract sets
P_R = 4            # contract runs
P_FINAL_ALL = 5    # 1 when this deal is the all-at-once final deal (3.6)
P_TURN = 6         # turn number in the deal, 1-based
P_STOCK = 7        # cards in the stock
P_PILE_LEN = 8     # cards in the discard pile
P_NMELDS = 9       # melds on the table
P_DEALER = 10
P_DRAW = 11        # this turn's draw: -1 not yet, 0 stock, 1 top, d >= 2 deep
P_SINGLE_TOP = 12  # card type taken by a TOP draw this turn, else -1
P_TARGET = 13      # deep-take target type this turn, else -1
P_HAND_SIZE = 14   # cards dealt this deal
P_OWN_TURN = 15    # the deciding player's own turn count in this deal
P_DOWN = 16        # + seat: 1 if down
P_DOWN_TURN = 24   # + seat: turn number when he went down, -1
P_HLEN = 32        # + seat: cards in hand
P_TOTAL = 40       # + seat: game total before this deal
P_BUYS = 48        # + seat: buys this deal
P_CFG = 56         # + NCFG: the rule configuration (melds.C_*)
P_PILE = 160       # + i: pile cards, bottom (i = 0) to top (i = pile_len - 1)
PUB_SIZE = P_PILE + MAX_CARDS
