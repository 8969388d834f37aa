"""``simcards bid cutthroat``: how each bid of a known hand fares.

You give your cards (17, 13, 10 or 11 by form), your seat and the dealer, the bids
already made (``--bids "1=5,2=NIL"``), optionally the scores before the hand
(``--scores 120:180:95``, seat order; the bag counters with ``--bags 3:0:7`` where the
rules do not make them the scores' last digits) and ``--require``/``--accept`` knowledge of the
hidden hands. The other cards are dealt uniformly around yours; a deal is kept only if
the seats that already bid would have bid exactly so with their policies (rejection).
Each of your bids (ordinary 1..max, NIL, 1F, 2F, SM; the blind B6 and BN as "had you
bid it blind") is played on the same deals: the later seats bid with their policies
after seeing yours and everybody plays with their policies. Per bid: how often it
succeeds, your expected points and bags this hand, how the later seats bid, and with
``--scores`` how often you go on to win the game (played out from the scores).

With no cards (``--hand ""``) the question is the one a blind bid really answers:
before looking, is B6 or BN worth more than looking and bidding (your policy's bid)?
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from simcards.core.cards import cards_of, format_card
from simcards.core.deal import compile_accept, parse_constraints
from simcards.core.errors import IllegalAnswer, SimcardsError, kernel_errors
from simcards.core.game import Column, OddsSupport
from simcards.core import stats
from simcards.core.stats import rank_options
from simcards.games.cutthroat import referee, rules
from simcards.games.cutthroat.layout import B_1F, B_2F, B_B6, B_BN, B_SM, MAX_SEATS, NIL, bid_name, parse_bid
from simcards.games.cutthroat.policies import CATALOG, FORMATS
from simcards.games.cutthroat.rules import ODDS_FIELDS, ODDS_HANDS, ODDS_SLOTS
from simcards.games.cutthroat.variant import form_of

LOOK = rules.LOOK
# option slots of the records: ordinary k -> k - 1, then the special bids
_SPECIAL_SLOTS = {NIL: 17, B_1F: 18, B_2F: 19, B_SM: 20, B_B6: 21, B_BN: 22, LOOK: 23}
_SLOT_NAMES = [str(k) for k in range(1, 18)] + ["nil", "1f", "2f", "sm", "b6", "bn", "look"]


def slot_of(code: int) -> int:
    return _SPECIAL_SLOTS.get(code, code - 1)


def option_label(code: int, blind_only: bool) -> str:
    """The bid as shown: blind bids after looking are "had you bid it blind"."""
    if code == LOOK:
        return "look, then bid"
    name = bid_name(code)
    return f"{name} (if blind)" if code in (B_B6, B_BN) and not blind_only else name


def hand_sizes(variant, dealer: int) -> list[int]:
    """Cards per seat (1.3): T each, but 10 for the dealer in the 2-joker form."""
    f = form_of(variant)
    return [f.tricks - 1 if f.dealer_sits_out and s == dealer else f.tricks for s in range(f.n)]


def bags_from_scores(variant, scores) -> tuple[int, ...] | None:
    """Bag counters implied by the scores, where the rules make them the units digits.

    Only when the counter's surplus carries over a bag-out (``bag_out_penalty=fixed_carry``
    with ``bag_limit`` 10), each bag scores 1, no jack relieves bags and every bid value,
    penalty and prize is a multiple of 10 is a player's counter his score mod 10 (312 = 31
    tens and 2 bags; -48 = 2 bags). Under the default bag-out (10 per bag held, counter
    back to 0) the overshoot stays in the digit, so the scores do not tell: None. Where the
    counter plays no part in the score (``bag_mode`` per_bag or none) it is 0.
    """
    v = variant
    if v.bag_mode != "accumulate":
        return tuple(0 for _ in scores)
    if _digits_are_bags(v):
        return tuple(s % 10 for s in scores)
    return None


def _digits_are_bags(variant) -> bool:
    v = variant
    values = (v.nil_value, v.blind_nil_value, v.one_for_fifty_value, v.two_for_forty_value, v.blind_six_value,
              v.shoot_moon_value, v.shoot_moon_fail_value, v.prize_jack_points, v.bag_penalty_per_bag)
    jh_relief = "JH" in v.prize_jacks and v.jack_of_hearts_bag_relief > 0
    return (v.bag_out_penalty == "fixed_carry" and v.bag_limit == 10 and v.bag_point_value == 1
            and not jh_relief and not v.shoot_moon_overtricks_score and all(x % 10 == 0 for x in values))


def _bags_rule(variant) -> str:
    """Why the scores' digits are not the bag counters under ``variant`` (for the error)."""
    v = variant
    if v.bag_out_penalty != "fixed_carry":
        return f"bag_out_penalty={v.bag_out_penalty} (a bag-out zeroes the counter, not the digit)"
    if v.bag_limit != 10:
        return f"bag_limit={v.bag_limit}"
    return "these scoring rules"


def bags_note(query, variant) -> str:
    """The line that says which bag counters the answer used and where they came from."""
    counters = ", ".join(f"seat {s} {b}" for s, b in enumerate(query["bags"]))
    if variant.bag_mode != "accumulate":
        how = f"not used: bag_mode={variant.bag_mode}"
    elif not query["play_out"]:
        how = "a game's start; give --scores and --bags for a game in progress"
    else:
        how = query["bags_from"]
    return f"bag counters used: {counters} ({how})"


def prepare(variant, request):
    """Validate the request: the cards, seat, dealer, the earlier bids in order, scores."""
    f = form_of(variant)
    n = f.n
    if request.options.get("deal") is not None:
        raise SimcardsError("cutthroat bid: --deal does not apply (give the scores with --scores)")
    if variant.misdeal_condition != "none" and variant.misdeal_optional:
        raise SimcardsError("cutthroat bid: misdeal_optional=true is not supported (a player asked about a "
                            "redeal may not bid blind); use misdeal_optional=false or misdeal_condition=none")
    for name, value in (("seat", request.seat), ("dealer", request.dealer)):
        if value is not None and not 0 <= value < n:
            raise SimcardsError(f"cutthroat bid: {name} must be a seat 0..{n - 1} with {n} players; got {value}")
    seat = 0 if request.seat is None else request.seat
    dealer = (seat - 1) % n if request.dealer is None else request.dealer
    sizes = hand_sizes(variant, dealer)
    cards = tuple(int(c) for c in request.hand)
    blind_only = len(cards) == 0
    if not blind_only and len(cards) != sizes[seat]:
        raise SimcardsError(f"cutthroat bid: give your {sizes[seat]} cards (got {len(cards)}), "
                            "or none to weigh the blind bids before looking")
    deck = [c for c in range(64) if f.deck >> c & 1]
    bad = [c for c in cards if c not in deck]
    if bad:
        raise SimcardsError(f"cutthroat bid: {format_card(bad[0])} is not in the deck of the "
                            f"{n}-player{f' {variant.jokers}-joker' if variant.jokers else ''} form")

    given = tuple(int(x) for x in request.scores)
    if len(given) not in (0, n, 2 * n, 3 * n):
        raise SimcardsError(f"cutthroat bid: --scores takes the {n} scores in seat order (e.g. "
                            f"{':'.join(['120', '180', '95', '40', '0'][:n])}), then {n} bag counters (or --bags) "
                            f"and optionally {n} B6 uses; got {len(given)} numbers")
    scores = list(given[:n]) or [0] * n
    bags, bags_from = list(given[n:2 * n]) or [0] * n, "given"
    if len(given) == n:
        guess = bags_from_scores(variant, scores)
        if guess is None:
            raise SimcardsError(f"cutthroat bid: under {_bags_rule(variant)} the scores' last digits are not the "
                                f"bag counters; give them: --scores {':'.join(map(str, scores))} "
                                f"--bags {':'.join(['3', '0', '7', '1', '2'][:n])} (the counters in seat order)")
        bags, bags_from = list(guess), "the scores' last digits"
    b6used = list(given[2 * n:3 * n]) or [0] * n
    if variant.bag_mode == "accumulate" and not all(0 <= b < variant.bag_limit for b in bags):
        raise SimcardsError(f"cutthroat bid: bag counters must be 0..{variant.bag_limit - 1}; got {bags}")
    if any(b < 0 for b in b6used):
        raise SimcardsError(f"cutthroat bid: B6 uses cannot be negative; got {b6used}")
    if given and rules.game_winner(np.array(scores + [0] * (MAX_SEATS - n), np.int64), n, variant.target_score) >= 0:
        raise SimcardsError(f"cutthroat bid: the game is already over at {':'.join(map(str, scores))} "
                            f"(target {variant.target_score})")

    order = [(dealer + 1 + i) % n for i in range(n)]
    before = order[:order.index(seat)]
    prior = [-1] * MAX_SEATS
    for who, text in request.bids.items():
        if who not in before:
            raise SimcardsError(f"cutthroat bid: seat {who} bids after seat {seat} when seat {dealer} deals; give "
                                f"only earlier bids (seats {', '.join(map(str, before)) or 'none'})")
        try:
            prior[who] = parse_bid(text)
        except ValueError:
            raise SimcardsError(f"cutthroat bid: bid of seat {who} must be NIL, 1..{f.max_ordinary_bid}, 1F, 2F, "
                                f"SM, B6 or BN; got {text!r}") from None
    missing = [s for s in before if prior[s] < 0]
    if missing:
        raise SimcardsError(f"cutthroat bid: give the earlier bids of seat(s) {', '.join(map(str, missing))} "
                            f"(e.g. --bids \"{missing[0]}=4\")")
    made: list[str] = []
    used = list(b6used)
    for s in before:
        blind, others = referee.legal_bids(variant, s, dealer, scores, used, made, looked=False)
        name = bid_name(prior[s])
        if name not in blind | others:
            raise SimcardsError(f"cutthroat bid: seat {s} may not bid {name} here")
        used[s] += name == "B6"
        made.append(name)
    blind, others = referee.legal_bids(variant, seat, dealer, scores, used, made, looked=False)
    codes = lambda names: sorted(parse_bid(b) for b in names)  # noqa: E731
    ordinary = [c for c in codes(others) if 1 <= c <= 17]
    special = [c for c in (NIL, B_1F, B_2F, B_SM) if bid_name(c) in others]
    blind_codes = [c for c in (B_B6, B_BN) if bid_name(c) in blind]
    options = ([LOOK] if blind_only else ordinary + special) + blind_codes

    known = {seat: list(cards)} if cards else {}
    cons = parse_constraints(request.constraints, n, known=known)
    for s in range(n):
        outside = int(cons.fixed[s]) & ~f.deck
        if outside:
            raise SimcardsError(f"cutthroat bid: {format_card(cards_of(outside)[0])} is not in this form's deck")
        if bin(int(cons.fixed[s])).count("1") > sizes[s]:
            raise SimcardsError(f"cutthroat bid: seat {s} holds {sizes[s]} cards, more are required")
    if variant.misdeal_condition != "none" and cards and rules.deficient(np.uint64(cons.fixed[seat]),
                                                                         _MISDEAL[variant.misdeal_condition]):
        raise SimcardsError(f"cutthroat bid: your hand would be redealt (misdeal_condition={variant.misdeal_condition})")
    return {"cards": cards, "seat": seat, "dealer": dealer, "n": n, "prior": tuple(prior), "options": tuple(options),
            "blind_only": blind_only, "scores": tuple(scores), "bags": tuple(bags), "bags_from": bags_from, "b6used": tuple(b6used),
            "play_out": bool(given), "constraints": cons, "accept": request.accept, "deck": tuple(deck),
            "sizes": tuple(sizes), "tricks": f.tricks}


_MISDEAL = {"none": 0, "no_spades": 1, "at_most_one_spade": 2, "no_face_cards": 3}


@lru_cache(maxsize=8)
def _accept(spec):
    """The accept function compiled once per process (batches run in threads)."""
    return compile_accept(spec)


def _pad(values, fill):
    return np.array(list(values) + [fill] * (MAX_SEATS - len(values)), np.int64)


def _prior_text(query) -> str:
    return ",".join(f"{s}={bid_name(b)}" for s, b in enumerate(query["prior"]) if b >= 0)


def simulate(query, variant, table, seed, start, count):
    """Records of deals ``start..``: per option slot the ``rules.ODDS_FIELDS``, then the deal."""
    cons = query["constraints"]
    out = np.full((count, len(COLUMNS)), -99, np.int64)
    err = np.zeros(4, np.int64)
    options = np.array(query["options"], np.int64)
    with kernel_errors("cutthroat", CATALOG.decisions, table, formats=FORMATS):
        try:
            deal = rules.OddsDeal(np.array(query["deck"], np.int64), cons.fixed, np.array(query["sizes"], np.int64),
                                  cons.min_len, cons.max_len)
            state = np.stack([_pad(query["scores"], 0), _pad(query["bags"], 0), _pad(query["b6used"], 0)])
            rules.simulate_bid_options(
                rules.prepared(variant), rules.seats(table), (_accept(query["accept"]),), deal, query["seat"],
                query["dealer"], np.array(query["prior"], np.int64), options,
                np.array([slot_of(int(o)) for o in options], np.int64), state, query["play_out"], np.uint64(seed),
                np.int64(start), np.int64(count), out, err)
        except IllegalAnswer:
            raise
        except ValueError as exc:
            if not err[0]:
                raise  # not one of the odds kernel's own codes: kernel_errors words it
            code = int(err[0])
            tried = f"{rules.MAX_TRIES:,} deals tried"
            if code == rules.E_CONSTRAINTS:
                raise SimcardsError("cutthroat bid: no deal satisfies the --require constraints (10,000 deals tried)") from None
            if code == rules.E_MISDEAL:
                raise SimcardsError(f"cutthroat bid: no deal satisfies the constraints without a redeal "
                                    f"(misdeal_condition={variant.misdeal_condition}; {tried})") from None
            if code == rules.E_ACCEPT:
                raise SimcardsError(f"cutthroat bid: no deal satisfies the accept function (it keeps refusing: {tried})"
                                    ) from None
            if code == rules.E_PRIOR:
                raise SimcardsError(f"cutthroat bid: no deal satisfies the earlier bids {_prior_text(query)}: the seats' "
                                    f"policies never bid so ({tried}; other policies? --seat-policy)") from None
            if code == rules.E_REPLAY:
                raise SimcardsError(f"cutthroat bid: the policy of seat {int(err[1])} bid differently on the same deal "
                                    "(a policy must depend only on its view and its random stream)") from None
            raise SimcardsError(f"cutthroat bid: {exc}") from None
    return out


COLUMNS = (tuple(Column(f"{field}_{_SLOT_NAMES[slot]}", f"{field} with the bid {_SLOT_NAMES[slot].upper()} "
                        "(-99: not an option)") for slot in range(ODDS_SLOTS) for field in ODDS_FIELDS)
           + tuple(Column(f"hand{s}", f"cards dealt to seat {s} (bit mask, -1 no seat)") for s in range(MAX_SEATS)))
assert len(COLUMNS) == ODDS_HANDS + MAX_SEATS


def column(code: int, field: str) -> str:
    return f"{field}_{_SLOT_NAMES[slot_of(code)]}"


def tally(query, df, variant):
    """Per option: the rates the user reads (bid succeeds, game won) and means (points,
    tricks, bags; the share of each trick count and each later seat's bids, for the
    figure and the table, which are not --precision targets)."""
    rows = stats.TallyRows()

    later = _later_seats(query)
    for code in query["options"]:
        name = option_label(code, query["blind_only"])
        col = {f: df[column(code, f)].to_numpy() for f in ODDS_FIELDS}
        rows.rate("succeeds", name, col["made"] == 1)
        if query["play_out"]:
            rows.rate("wins_game", name, col["win"] == 1)
        rows.mean("points", name, col["delta"])
        rows.mean("tricks", name, col["tricks"])
        rows.mean("bags", name, col["bags"])
        counts = np.bincount(col["tricks"], minlength=query["tricks"] + 1)
        for k in range(query["tricks"] + 1):
            rows.share(f"tricks={k}", name, counts[k], col["tricks"].size)
        if code == LOOK:
            bids, freq = np.unique(col[f"bid{query['seat']}"], return_counts=True)
            for b, c in zip(bids, freq):
                rows.share(f"own bid={bid_name(b)}", name, c, col["tricks"].size)
        for s in later:
            bids, freq = np.unique(col[f"bid{s}"], return_counts=True)
            for b, c in zip(bids, freq):
                rows.share(f"seat {s} bid={bid_name(b)}", name, c, col["tricks"].size)
    return rows.frame()


def _later_seats(query) -> list[int]:
    n, dealer, seat = query["n"], query["dealer"], query["seat"]
    order = [(dealer + 1 + i) % n for i in range(n)]
    return order[order.index(seat) + 1:]


def _ci(row, digits) -> str:
    return f"[{row.ci_low:.{digits}f}, {row.ci_high:.{digits}f}]"


def _bid_shares(summary, name, prefix, top=2) -> str:
    rows = summary[(summary.group == name) & summary.metric.str.startswith(prefix)]
    rows = rows.sort_values("estimate", ascending=False).head(top)
    return " or ".join(f"{m[len(prefix):]} {e:.0%}" for m, e in zip(rows.metric, rows.estimate))


def present(query, summary, variant):
    """One row per option, best expected points first (hypothetical blind rows last);
    ``recommended`` marks the best bid you may still make by expected points, ``best for
    game`` (with --scores) the one with the highest probability of winning the game."""
    by = {(m, g): r for m, g, r in zip(summary.metric, summary.group, summary.itertuples())}
    later = _later_seats(query)
    rows = []
    for code in query["options"]:
        name = option_label(code, query["blind_only"])
        ok, pts = by[("succeeds", name)], by[("points", name)]
        row = {"bid": name, "P(success)": round(ok.estimate, 4), "success 95% CI": _ci(ok, 3),
               "points": round(pts.estimate, 2), "points 95% CI": _ci(pts, 1),
               "tricks": round(by[("tricks", name)].estimate, 3), "bags": round(by[("bags", name)].estimate, 3)}
        if query["play_out"]:
            win = by[("wins_game", name)]
            row["P(win game)"] = round(win.estimate, 4)
            row["win 95% CI"] = _ci(win, 3)
        if query["blind_only"]:
            row["your bid"] = _bid_shares(summary, name, "own bid=", 3) if code == LOOK else name
        for s in later:
            row[f"seat {s} bids"] = _bid_shares(summary, name, f"seat {s} bid=")
        rows.append(row)
    table = pd.DataFrame(rows)
    table = rank_options(table, "points", hypothetical=table.bid.str.endswith("(if blind)"),
                         win_column="P(win game)" if query["play_out"] else None)
    table.attrs["notes"] = [bags_note(query, variant)]
    return table


def recommended(query, summary, by: str = "points") -> str:
    """Label of the recommended bid (never a hypothetical blind row), by expected
    ``points`` or by P(win ``game``)."""
    metric = "points" if by == "points" else "wins_game"
    rows = summary[(summary.metric == metric) & ~summary.group.str.endswith("(if blind)")]
    return str(rows.loc[rows.estimate.idxmax(), "group"])


def _bid_value(name: str, query, variant) -> float | None:
    """Tricks a bid aims at, for the figure's marker."""
    f = form_of(variant)
    key = name.split(" ")[0]
    return {"NIL": 0, "BN": 0, "1F": 1, "2F": 2, "B6": variant.blind_six_tricks,
            "SM": f.shoot_moon_min_tricks}.get(key, int(key) if key.isdigit() else None)


def figure(query, summary, variant):
    """Left: the distribution of your tricks with the recommended bid (bars, the bid
    marked by a line) and every other bid (faint steps). Middle: how often each bid
    succeeds; right: expected points by bid; both with 95 % intervals, the recommended bid
    highlighted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best = recommended(query, summary)
    best_game = recommended(query, summary, "game") if query["play_out"] else None
    ks = list(range(query["tricks"] + 1))

    def shares(name):
        sub = summary[summary.group == name].set_index("metric")
        return np.array([sub.loc[f"tricks={k}", "estimate"] for k in ks])

    names = [option_label(c, query["blind_only"]) for c in query["options"]]
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(16, 4), gridspec_kw={"width_ratios": [3, 2, 2]})
    for name in names:
        if name != best:
            left.step(ks, shares(name), where="mid", color="grey", alpha=0.25, lw=0.8)
    left.bar(ks, shares(best), color="tab:blue", alpha=0.8, label=f"tricks you take, bidding {best}")
    value = _bid_value(best, query, variant)
    if value is not None:
        left.axvline(value, color="tab:red", lw=2, label=f"recommended bid: {best}")
    if best_game is not None and best_game != best and _bid_value(best_game, query, variant) is not None:
        left.axvline(_bid_value(best_game, query, variant), color="tab:green", lw=2, ls="--",
                     label=f"best for the game: {best_game}")
    left.set_xticks(ks)
    left.set_xlabel("tricks you take (grey: the other bids)")
    left.set_ylabel("share of deals")
    left.legend(fontsize=8)
    pts = summary[summary.metric == "points"].set_index("group").loc[names]
    colors = ["tab:red" if m == best else ("lightgrey" if m.endswith("(if blind)") else "tab:blue") for m in names]
    labels = [m.split(" ")[0] for m in names]
    made = summary[summary.metric == "succeeds"].set_index("group").reindex(names)
    middle.bar(labels, made.estimate, yerr=[made.estimate - made.ci_low, made.ci_high - made.estimate], capsize=2,
               color=colors)
    middle.set_ylim(0, 1.05)
    middle.tick_params(axis="x", labelsize=7)
    middle.set_xlabel("bid")
    middle.set_ylabel("P(succeeds), 95 % interval")
    right.bar(labels, pts.estimate,
              yerr=[pts.estimate - pts.ci_low, pts.ci_high - pts.estimate], capsize=2, color=colors)
    right.axhline(0, color="grey", lw=0.8)
    right.tick_params(axis="x", labelsize=7)
    right.set_xlabel("bid (grey: blind, had you bid it before looking)")
    right.set_ylabel("expected points this hand")
    hand = " ".join(format_card(c) for c in sorted(query["cards"], reverse=True)) or "an unseen hand"
    fig.suptitle(f"Cutthroat Spades ({query['n']} players): seat {query['seat']} holding {hand}", fontsize=9)
    fig.tight_layout()
    return fig


BID = OddsSupport(command="bid", help="how often each bid succeeds, expected points and bags, P(win game)",
                  prepare=prepare, simulate=simulate, columns=COLUMNS, tally=tally, present=present,
                  figure=figure, batch=1000)
