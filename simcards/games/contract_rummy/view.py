"""The public state view a policy receives (section 1.8: only what a player may see).

Every decision function is called as ``f(hand, pub, melds, opts, cfg, rng)``:

- ``hand``: int64[53], the deciding player's own cards, count per card type
  (0..51 core card numbers, 52 the joker).
- ``pub``: int64[PUB_SIZE], public information at the offsets below.
- ``melds``: int64[MAX_MELDS, MF], the table melds (first ``pub[P_NMELDS]`` rows; see
  ``melds.py`` for the fields).
- ``opts``: int64[OPT_SIZE], decision-specific options (see policies.py).
- ``cfg``: int64[NCFG], the house rules (slots ``melds.CFG``, constants ``melds.C_*``), which
  the meld helpers of ``melds.py`` take.
- ``rng``: uint64[1], the record's policy random stream (``simcards.core.rng``).
"""
from simcards.core.policy import PARAM_SLOTS, Layout

MAX_SEATS = 8
MAX_MELDS = 96
MAX_CARDS = 168  # 3 decks + 6 jokers, rounded up
OPT_SIZE = MAX_CARDS + 8

# pub: one slot per fact, in this order; VIEW.export makes P_SEAT, P_NPL, ..., P_PILE and PUB_SIZE
VIEW = Layout("contract-rummy view",
              seat=1,  # seat deciding
              npl=1,  # number of players
              deal=1,  # deal number, 1-based
              s=1, r=1,  # contract sets, runs
              final_all=1,  # 1 when this deal is the all-at-once final deal (3.6)
              turn=1,  # turn number in the deal, 1-based
              stock=1,  # cards in the stock
              pile_len=1,  # cards in the discard pile
              nmelds=1,  # melds on the table
              dealer=1,
              draw=1,  # this turn's draw: -1 not yet, 0 stock, 1 top, d >= 2 deep
              single_top=1,  # card type taken by a TOP draw this turn, else -1
              target=1,  # deep-take target type this turn, else -1
              hand_size=1,  # cards dealt this deal
              own_turn=1,  # the deciding player's own turn count in this deal
              down=MAX_SEATS,  # + seat: 1 if down
              down_turn=MAX_SEATS,  # + seat: turn number when he went down, -1
              hlen=MAX_SEATS,  # + seat: cards in hand
              total=MAX_SEATS,  # + seat: game total before this deal
              buys=MAX_SEATS,  # + seat: buys this deal
              pile=MAX_CARDS,  # + i: pile cards, bottom (i = 0) to top (i = pile_len - 1)
              params=PARAM_SLOTS)  # + k: the deciding seat's policy parameter k (param_value)
VIEW.export(globals(), "P_", size="PUB_SIZE")
