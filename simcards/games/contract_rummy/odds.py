"""``simcards odds contract-rummy``: how soon the hand you hold goes down, and what it costs.

You give the cards dealt to you at the start of deal N (``--deal N``, default the
variant's ``contract``; 10 or 12 cards as ``hand_sizes`` says; with several decks a card
may be written as often as there are decks; jokers as ``JK``, ``LJ``, ``MJ`` or ``BJ``),
optionally your seat and the dealer (default: you sit left of the dealer, so you play
first). The deal is dealt exactly around your hand: your cards leave the pack, the rest
is shuffled uniformly and dealt to the other seats, the up-card and the stock in the
usual order (rules.deal_cards with ``known``), then played out by the policies.

Reported, with 95 % intervals: P(contract down by your own turn k) for k in ``KS``, P(down
at all), P(you go out first), your expected penalty for the deal and the opponents'.
There is no decision to compare, so there is no "recommended" row: the table is the
odds of the hand as it will be played by your policy (``--policy``/``--seat-policy``).
With ``--scores`` (the penalty totals before this deal, one per seat) the game is played on
from this deal to its end and P(win the game) is added (ties under tie_break=shared count
as a win for each tied seat). ``--bids``, ``--require`` and ``--accept`` are refused with
one line.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import Column, OddsSupport
from simcards.core import stats
from simcards.games.contract_rummy import notation
from simcards.games.contract_rummy.melds import JOKER, NT
from simcards.games.contract_rummy.records import DEAL_COLUMNS, GAME_COLUMNS
from simcards.games.contract_rummy.view import MAX_SEATS

# own turns k at which P(down by turn k) is tallied: every turn to 20, then a coarser grid
# for long deals (the final deal, played all at once, lasts a hundred turns and more)
KS = tuple(range(1, 21)) + (25, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500)
WHO = "contract-rummy odds"


def parse_hand(text: str) -> list[int]:
    """Card types of ``text`` (repeats allowed: several decks); jokers (JK/LJ/MJ/BJ) -> JOKER."""
    return [min(t, JOKER) for t in notation.parse_types(text)]


def prepare(variant, request):
    """Validate the request; the query is plain data: seat, dealer, deal, counts, variant to run."""
    if request.bids:
        raise SimcardsError(f"{WHO}: there is no auction in Contract Rummy; --bids does not apply")
    if request.constraints:
        raise SimcardsError(f"{WHO}: --require is not supported (hidden hands are dealt uniformly "
                            f"from the remaining cards)")
    if request.accept:
        raise SimcardsError(f"{WHO}: --accept is not supported (hands are card-type counts with "
                            f"repeats, not bit masks)")
    extra = sorted(k for k, v in request.options.items() if v is not None and k != "deal")
    if extra:
        raise SimcardsError(f"{WHO}: --{extra[0]} does not apply")
    deal = request.options.get("deal")
    deal = variant.contract if deal is None else deal
    nd = len(variant.contracts)
    if isinstance(deal, bool) or not isinstance(deal, (int, np.integer)) or not 1 <= deal <= nd:
        raise SimcardsError(f"{WHO}: --deal must be 1..{nd} (the game has {nd} deals), got {deal!r}")
    deal = int(deal)
    n = variant.num_players
    for name, value in (("seat", request.seat), ("dealer", request.dealer)):
        if value is not None and not 0 <= value < n:
            raise SimcardsError(f"{WHO}: {name} must be 0..{n - 1} ({n} players), got {value}")
    if request.seat is None:
        dealer = n - 1 if request.dealer is None else request.dealer
        seat = (dealer + 1) % n
    else:
        seat = request.seat
        dealer = (seat - 1) % n if request.dealer is None else request.dealer
    scores = tuple(int(x) for x in request.scores)
    if scores and len(scores) != n:
        raise SimcardsError(f"{WHO}: --scores needs {n} penalty totals (one per seat, seat 0 first), "
                            f"got {len(scores)}")
    if scores and variant.tie_break != "shared":
        raise SimcardsError(f"{WHO}: --scores needs tie_break=shared (the deals won before this one "
                            f"are not known)")
    h = variant.hand_sizes[deal - 1]
    code = variant.contracts[deal - 1]
    cards = [min(int(c), JOKER) for c in request.hand]
    if len(cards) != h:
        raise SimcardsError(f"{WHO}: deal {deal} (contract {code}) deals {h} cards; the hand has {len(cards)}")
    counts = np.zeros(NT, np.int64)
    for c in cards:
        if not 0 <= c < NT:
            raise SimcardsError(f"{WHO}: {c} is not a card")
        counts[c] += 1
    decks, jokers = variant.decks(), variant.jokers()
    for t in range(NT):
        have = jokers if t == JOKER else decks
        if counts[t] > have:
            name = notation.type_name(t)
            if have == 0:
                raise SimcardsError(f"{WHO}: {name} is not in the pack (num_jokers gives no jokers)")
            pack = f"{jokers} joker(s)" if t == JOKER else f"{decks} deck(s)"
            raise SimcardsError(f"{WHO}: {name} is written {counts[t]} times but the pack has {pack} "
                                f"(num_decks/num_jokers with {n} players)")
    run = variant.replace(contract=deal, first_dealer=(dealer - (deal - 1)) % n)
    return {"seat": seat, "dealer": dealer, "deal": deal, "code": code, "counts": counts, "variant": run,
            "hand": notation.hand_text(counts), "players": n, "scores": scores}


COLUMNS = DEAL_COLUMNS + (
    Column("game_winners", "With --scores: bitmask of the game's winners (lowest total), else -1."),
) + tuple(Column(f"game_total_{q}", f"With --scores: seat {q}'s final game total, else -1.") for q in range(MAX_SEATS))
_DEAL = [c.name for c in DEAL_COLUMNS]
_GAME = [c.name for c in GAME_COLUMNS]


def simulate(query, variant, table, seed, start, count):
    """Records (``COLUMNS``) of deals dealt around the known hand: the deal-unit columns of
    that deal and, with --scores, the game played on to its end from those totals."""
    from simcards.games.contract_rummy.sim import run_chunk

    out = np.full((count, len(COLUMNS)), -1, np.int64)
    if not query["scores"]:
        out[:, :len(_DEAL)] = run_chunk("deal", query["variant"], table, seed, start, count, known=query["counts"],
                                        seat=query["seat"])
        return out
    g = run_chunk("game", query["variant"], table, seed, start, count, known=query["counts"], seat=query["seat"],
                  totals=query["scores"])
    d = query["deal"]
    pairs = [("turns", f"d{d}_turns"), ("exhausted", f"d{d}_exhausted"), ("out_seat", f"d{d}_out"),
             ("game_winners", "winners"), ("num_players", "num_players")]
    pairs += [(f"{a}_{q}", f"{b}_{q}") for q in range(MAX_SEATS)
              for a, b in (("score", f"d{d}_score"), ("down_turn", f"d{d}_down"), ("game_total", "total"))]
    names = [c.name for c in COLUMNS]
    for a, b in pairs:
        out[:, names.index(a)] = g[:, _GAME.index(b)]
    out[:, names.index("contract")] = d
    return out


def tally(query, df, variant):
    """Rates P(down by own turn k) (group ``k=..``), P(down at all), P(out first), P(deal
    exhausted); means: own penalty, opponents' mean penalty, own turn of going down."""
    s, n = query["seat"], query["players"]
    rows = stats.TallyRows()

    down = df[f"down_turn_{s}"].to_numpy()
    for k in KS:
        rows.rate("down_by_turn", f"k={k}", (down > 0) & (down <= k))
    rows.rate("down", "deal", down > 0)
    rows.rate("out_first", "deal", df["out_seat"].to_numpy() == s)
    rows.rate("exhausted", "deal", df["exhausted"].to_numpy() == 1)
    rows.mean("penalty", "seat", df[f"score_{s}"].to_numpy())
    others = [q for q in range(n) if q != s]
    rows.mean("penalty", "opponents", df[[f"score_{q}" for q in others]].to_numpy().mean(axis=1))
    rows.mean("turn_down", "when down", down[down > 0])
    if query["scores"]:
        rows.rate("win_game", "game", (df["game_winners"].to_numpy() >> s) & 1)
        rows.mean("game_total", "seat", df[f"game_total_{s}"].to_numpy())
    return rows.frame()


def _curve(summary):
    c = summary[summary.metric == "down_by_turn"].copy()
    c["k"] = c.group.str.slice(2).astype(int)
    return c.sort_values("k")


def present(query, summary, variant):
    """One row per quantity: P(down by own turn k) for k in KS (until the curve is within
    0.005 of P(down at all), at least 10 rows), then P(down), P(out first), P(exhausted)
    and the expected penalties, each with its 95 % interval."""
    by = {(m, g): r for m, g, r in zip(summary.metric, summary.group, summary.itertuples())}
    rows = []

    def add(name, r, digits):
        rows.append({"quantity": name, "estimate": round(r.estimate, digits),
                     "95% CI": f"[{r.ci_low:.{digits}f}, {r.ci_high:.{digits}f}]"})

    ever = by[("down", "deal")].estimate
    for r in _curve(summary).itertuples():
        add(f"P(down by turn {r.k})", r, 4)
        if r.k >= 10 and r.estimate >= ever - 0.005:
            break
    add("P(down this deal)", by[("down", "deal")], 4)
    add("P(out first)", by[("out_first", "deal")], 4)
    add("P(deal exhausted)", by[("exhausted", "deal")], 4)
    add("mean turn down (when down)", by[("turn_down", "when down")], 2)
    add("expected penalty (you)", by[("penalty", "seat")], 2)
    add("expected penalty (an opponent)", by[("penalty", "opponents")], 2)
    if query["scores"]:
        add("P(win the game)", by[("win_game", "game")], 4)
        add("expected final total (you)", by[("game_total", "seat")], 1)
    return pd.DataFrame(rows)


def figure(query, summary, variant):
    """The P(down by own turn k) curve with its 95 % band, P(down this deal) and P(out first)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    c = _curve(summary)
    by = summary.set_index(["metric", "group"])
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    ax.plot(c.k, c.estimate, marker="o", ms=3, color="tab:blue", label="P(down by own turn k)")
    ax.fill_between(c.k, c.ci_low, c.ci_high, color="tab:blue", alpha=0.2, label="95 % interval")
    ever = by.loc[("down", "deal"), "estimate"]
    out = by.loc[("out_first", "deal"), "estimate"]
    ax.axhline(ever, color="black", ls="--", lw=1, label=f"P(down this deal) = {ever:.3f}")
    ax.axhline(out, color="tab:red", ls=":", lw=1.5, label=f"P(out first) = {out:.3f}")
    ax.set_xlabel("your own turn k")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    short = c[c.k <= 20]
    if short.estimate.iloc[-1] >= ever - 0.005:  # the curve has levelled off by turn 20
        ax.set_xlim(0.5, 20.5)
        ax.set_xticks(range(1, 21))
    else:
        ax.set_xscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    pen = by.loc[("penalty", "seat"), "estimate"]
    win = f", P(win game) {by.loc[('win_game', 'game'), 'estimate']:.3f}" if query["scores"] else ""
    ax.set_title(f"Contract Rummy deal {query['deal']} ({query['code']}), seat {query['seat']} "
                 f"(dealer {query['dealer']}): expected penalty {pen:.1f}{win}\n{query['hand']}", fontsize=9)
    fig.tight_layout()
    return fig


ODDS = OddsSupport(command="odds", help="P(contract down by own turn k), P(out first) and the expected penalty "
                                        "of the hand you hold", prepare=prepare, simulate=simulate,
                   columns=COLUMNS, tally=tally, present=present, figure=figure, batch=500,
                   parse_hand=parse_hand)
