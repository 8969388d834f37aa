"""``simcards bid spades``: how each legal bid of a known hand fares.

You give your 13 cards, your seat and the dealer, the bids already made at the table
(``--bids "E=3,S=nil"``) and optionally the scores (``NS:EW``, with ``--bags NS:EW`` where the rules
do not make the scores' last digits the bag counters)
and ``--require``/``--accept`` knowledge of the hidden hands. The other 39 cards are
dealt uniformly around yours; a deal is kept only if the seats that already bid would
have bid exactly so with their policies (rejection). Each legal bid is played on the
same deals (the later seats bid and everybody plays with their policies), and the table
shows, per bid, how often it makes (your Nil: no trick), the team's expected points and
bags, and with ``--scores`` how often the team goes on to win the game. With ``--dd``
(``query["dd"]``) every deal is also solved double dummy for the team (column ``dd_tricks``):
``P(DD tricks>=bid)``, ``makeable DD`` (the team contract of that deal: your bid plus the
partner's number bid, whether he bid before you or his bot bids after your bid; the kernel
records the partner's bid per option, ``partner_bid_*``) and ``P(partner Nil)`` per bid, the
mean and distribution under the table.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.cards import format_card
from simcards.core.deal import compile_accept, parse_constraints
from simcards.core.errors import IllegalAnswer, SimcardsError, kernel_errors
from simcards.core.game import Column, OddsSupport
from simcards.core import stats
from simcards.core.stats import rank_options
from simcards.games.spades import rules
from simcards.games.spades.kernel import FORMATS, error_text, prepared, seats
from simcards.games.spades.policies import BN_BIT, DECISIONS
from simcards.games.spades.referee import legal_bid_set

SEATS = "NESW"
BN_LABEL = "BN (if blind)"  # you have seen your hand: Blind Nil is shown as "had you bid it blind"
TRICKS = range(14)


def bid_name(b: int) -> str:
    return "Nil" if b == 0 else ("BN" if b == BN_BIT else str(b))


def option_label(b: int) -> str:
    """The bid as shown in the table (the Blind Nil row is hypothetical)."""
    return BN_LABEL if b == BN_BIT else bid_name(b)


def _parse_bid(text: str, who: int) -> int:
    t = text.strip().lower()
    if t in ("nil", "0"):
        return 0
    if t in ("bn", "blind", "blind_nil", "blindnil"):
        return BN_BIT
    if t.isdigit() and 1 <= int(t) <= 13:
        return int(t)
    raise SimcardsError(f"bid of {SEATS[who]} must be 1..13, nil or bn; got {text!r}")


def bags_from_scores(variant, scores) -> tuple[int, int] | None:
    """Bag counters implied by the scores, where the rules make them the units digits.

    Rules 7.19: with bags accumulating at 1 point each, a limit of 10 whose surplus carries
    over, and every other amount a multiple of 10, a team's bag counter is its score mod 10
    (312 = 31 tens and 2 bags; -48 = 2 bags). Where the counter plays no part in the score
    (``bag_mode`` per_bag or none) it is 0. Otherwise (e.g. ``bag_overflow=reset``, where a
    penalty zeroes the counter but not the digit) the scores do not tell: None.
    """
    v = variant
    if v.bag_mode != "accumulate":
        return 0, 0
    tens = all(x % 10 == 0 for x in (v.nil_value, v.blind_nil_value, v.bag_limit_penalty, v.boston_bonus))
    if v.bag_overflow == "carry" and v.bag_point_value == 1 and v.bag_limit == 10 and tens:
        return scores[0] % 10, scores[1] % 10
    return None


def _bags_rule(variant) -> str:
    """Why the scores' digits are not the bag counters under ``variant`` (for the error)."""
    v = variant
    if v.bag_overflow != "carry":
        return f"bag_overflow={v.bag_overflow}"
    if v.bag_point_value != 1:
        return f"bag_point_value={v.bag_point_value}"
    if v.bag_limit != 10:
        return f"bag_limit={v.bag_limit}"
    return "these scoring values (not all multiples of 10)"


def bags_note(query, variant) -> str:
    """The line that says which bag counters the answer used and where they came from."""
    ns, ew = query["bags"]
    if variant.bag_mode != "accumulate":
        how = f"not used: bag_mode={variant.bag_mode}"
    elif not query["play_out"]:
        how = "a game's start; give --scores and --bags for a game in progress"
    else:
        how = query["bags_from"]
    return f"bag counters used: NS {ns}, EW {ew} ({how})"


def prepare(variant, request):
    """Validate the request: 13 known cards, seat, dealer, the earlier bids in order, scores."""
    if request.options.get("deal") is not None:
        raise SimcardsError("spades bid: --deal does not apply (give the scores with --scores NS:EW)")
    cards = tuple(request.hand)
    if len(cards) != 13:
        raise SimcardsError(f"spades bid: give your 13 cards (got {len(cards)})")
    deck = set(int(c) for c in prepared(variant)[1])
    bad = [c for c in cards if c not in deck]
    if bad:
        raise SimcardsError(f"spades bid: {format_card(bad[0])} is not in the deck of this variant")
    for name, value in (("seat", request.seat), ("dealer", request.dealer)):
        if value is not None and not 0 <= value < 4:
            raise SimcardsError(f"spades bid: {name} must be one of N, E, S, W (0..3); got {value}")
    seat = 0 if request.seat is None else request.seat
    dealer = (seat + 3) % 4 if request.dealer is None else request.dealer
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    before = order[:order.index(seat)]
    prior = [-1, -1, -1, -1]
    for who, text in request.bids.items():
        if who not in before:
            raise SimcardsError(f"spades bid: {SEATS[who]} bids after {SEATS[seat]} when {SEATS[dealer]} deals; "
                                f"give only earlier bids ({', '.join(SEATS[s] for s in before) or 'none'})")
        prior[who] = _parse_bid(text, who)
    missing = [SEATS[s] for s in before if prior[s] < 0]
    if missing:
        raise SimcardsError(f"spades bid: give the earlier bids of {', '.join(missing)} (e.g. --bids \"{missing[0]}=3\")")
    given = tuple(int(x) for x in request.scores)
    if len(given) not in (0, 2, 4):
        raise SimcardsError("spades bid: --scores takes the two team scores NS:EW (then --bags NS:EW, the bag "
                            f"counters), got {len(given)} numbers")
    scores = given[:2] or (0, 0)
    bags, bags_from = given[2:] or (0, 0), "given"
    if len(given) == 2:
        bags, bags_from = bags_from_scores(variant, scores), "the scores' last digits"
        if bags is None:
            raise SimcardsError(f"spades bid: under {_bags_rule(variant)} the scores' last digits are not the bag "
                                f"counters; give them: --scores {scores[0]}:{scores[1]} --bags NS:EW (e.g. --bags 3:7)")
    if variant.bag_mode == "accumulate" and not all(0 <= b < variant.bag_limit for b in bags):
        raise SimcardsError(f"spades bid: bag counters must be 0..{variant.bag_limit - 1}, got {bags[0]}:{bags[1]}")
    if given and rules_game_over(variant, scores):
        raise SimcardsError(f"spades bid: the game is already over at {scores[0]}:{scores[1]} "
                            f"(target {variant.target_score})")
    made: dict[int, tuple[int, bool]] = {}
    for s in before:
        b = prior[s]
        legal = legal_bid_set(variant, s, dealer, made, scores, looked=False)
        if ("BN" if b == BN_BIT else b) not in legal:
            raise SimcardsError(f"spades bid: {SEATS[s]} may not bid {bid_name(b)} here")
        made[s] = (0 if b == BN_BIT else b, b == BN_BIT)
    legal = legal_bid_set(variant, seat, dealer, made, scores, looked=True)
    options = sorted(b for b in legal if b != "BN")
    if "BN" in legal_bid_set(variant, seat, dealer, made, scores, looked=False):
        options.append(BN_BIT)  # hypothetical: legal only had you not looked (reported, never recommended)
    cons = parse_constraints(request.constraints, 4, known={seat: list(cards)})
    return {"cards": cards, "seat": seat, "dealer": dealer, "prior": tuple(prior), "options": tuple(options),
            "scores": scores, "bags": tuple(int(b) for b in bags), "bags_from": bags_from, "play_out": bool(given),
            "constraints": cons, "accept": request.accept, "dd": bool(request.options.get("dd"))}


def rules_game_over(variant, scores) -> bool:
    """Rules 5.8: the scores already end the game (no hand to bid on)."""
    s0, s1 = scores
    terminal = max(s0, s1) >= variant.target_score or (
        variant.losing_score is not None and min(s0, s1) <= variant.losing_score)
    return terminal and s0 != s1


def _prior_text(query) -> str:
    return ",".join(f"{SEATS[s]}={bid_name(b)}" for s, b in enumerate(query["prior"]) if b >= 0)


def simulate(query, variant, table, seed, start, count):
    """Records of deals ``start..``: per option slot the ``rules.ODDS_FIELDS``, then the deal."""
    cons = query["constraints"]
    out = np.full((count, len(COLUMNS)), -99, np.int64)
    err = np.zeros(4, np.int64)
    with kernel_errors("spades", DECISIONS, table, formats=FORMATS):
        try:
            rules.simulate_bid_options(
                prepared(variant, cons.fixed), seats(table), cons.min_len, cons.max_len, (compile_accept(query["accept"]),),
                query["seat"], query["dealer"], np.array(query["prior"], np.int64),
                np.array(query["options"], np.int64), np.array(query["scores"], np.int64),
                np.array(query["bags"], np.int64), query["play_out"],
                np.uint64(seed), np.int64(start), np.int64(count), out, err)
        except IllegalAnswer:
            raise
        except ValueError as exc:
            if not err[0]:
                raise  # not one of the odds kernel's own codes: kernel_errors words it
            code = int(err[0])
            if code == rules.E_REDEALS:
                raise SimcardsError(str(exc)) from None
            if code == rules.E_ACCEPT:
                raise SimcardsError(f"spades bid: no deal satisfies the accept function (it keeps refusing: "
                                    f"{rules.MAX_TRIES:,} deals tried)") from None
            if code == rules.E_PRIOR:
                raise SimcardsError(f"spades bid: no deal satisfies the earlier bids {_prior_text(query)}: the seats' "
                                    f"policies never bid so in {rules.MAX_TRIES:,} deals (other policies? --seat-policy)"
                                    ) from None
            if code == rules.E_REPLAY:
                raise SimcardsError(f"spades bid: the policy of {SEATS[int(err[1])]} bid differently on the same deal "
                                    "(a policy must depend only on its view and its random stream)") from None
            raise SimcardsError(error_text(err)) from None
    if query["dd"]:  # the same deals, solved double dummy (bid --dd; docs/double-dummy.md)
        from simcards.games.spades.dd import team_tricks

        for i in range(count):
            hands = [int(h) for h in out[i, rules.ODDS_HANDS:rules.ODDS_HANDS + 4]]
            out[i, DD_COLUMN] = team_tricks(variant, hands, query["dealer"], query["seat"] % 2)
    return out


COLUMNS = (tuple(Column(f"{field}_{bid_name(b).lower()}", f"{field} with the bid {bid_name(b)} (-99: not an option)")
                 for b in range(rules.ODDS_SLOTS) for field in rules.ODDS_FIELDS)
           + tuple(Column(f"hand{s}", f"cards dealt to seat {s} (bit mask)") for s in range(4))
           + (Column("dd_tricks", "with --dd: tricks the asking seat's team takes double dummy from the actual "
                                  "opening lead, hands as dealt (-99 without --dd)"),)
           + tuple(Column(f"partner_bid_{bid_name(b).lower()}", f"the partner's bid when you bid {bid_name(b)}: 0 Nil, "
                          f"1..13, {BN_BIT} Blind Nil (-99: not an option)") for b in range(rules.ODDS_SLOTS)))
assert len(COLUMNS) == rules.ODDS_WIDTH
DD_COLUMN = rules.ODDS_DD


def dd_contract(b: int, partner) -> np.ndarray:
    """Per deal, the team's number contract with your bid ``b``: ``b`` plus the partner's bid on
    that deal (``partner_bid_*``: his earlier bid, or his bot's bid after yours) when it is a
    number, ``b`` alone when he bid Nil or Blind Nil (his Nil is no part of the contract)."""
    partner = np.asarray(partner, np.int64)
    return b + np.where((partner > 0) & (partner < BN_BIT), partner, 0)


def partner_nil(partner) -> np.ndarray:
    """Per deal, whether the partner bid Nil or Blind Nil (``partner_bid_*`` 0 or ``BN_BIT``)."""
    partner = np.asarray(partner, np.int64)
    return (partner == 0) | (partner == BN_BIT)


def tally(query, df, variant):
    """Per option: the rates the user reads (makes, Nil made, own tricks >= bid, game won)
    and means (points, tricks, bags, and the share of each trick count 0..13 for the figure)."""
    rows = stats.TallyRows()

    for b in query["options"]:
        name = option_label(b)
        col = {f: df[f"{f}_{bid_name(b).lower()}"].to_numpy() for f in rules.ODDS_FIELDS}
        nil = b in (0, BN_BIT)
        rows.rate("makes", name, col["nil"] == 1 if nil else col["made"] == 1)
        if nil:
            rows.rate("nil_made", name, col["nil"] == 1)
            has = col["made"] >= 0  # partner bid a number
            if has.any():
                rows.rate("partner_made", name, col["made"][has] == 1)
        else:
            rows.rate("own_tricks>=bid", name, col["tricks"] >= b)
        if query["play_out"]:
            rows.rate("wins_game", name, col["win"] == 1)
        rows.mean("team_points", name, col["points"])
        rows.mean("own_tricks", name, col["tricks"])
        rows.mean("team_tricks", name, col["team_tricks"])
        rows.mean("team_bags", name, col["bags"])
        counts = np.bincount(col["tricks"], minlength=14)
        for k in TRICKS:  # shares as means of indicators: shown in the figure, not --precision targets
            rows.share(f"tricks={k}", name, counts[k], col["tricks"].size)
        if query["dd"]:
            mate = df[f"partner_bid_{bid_name(b).lower()}"].to_numpy()
            rows.rate("partner_nil", name, partner_nil(mate))
            if not nil:
                rows.rate("dd_tricks>=bid", name, df["dd_tricks"].to_numpy() >= b)
                rows.rate("makeable_dd", name, df["dd_tricks"].to_numpy() >= dd_contract(b, mate))
    if query["dd"]:
        dd_tricks = df["dd_tricks"].to_numpy()
        rows.mean("dd_tricks", "team", dd_tricks)
        counts = np.bincount(dd_tricks, minlength=14)
        for k in TRICKS:
            rows.share(f"dd_tricks={k}", "team", counts[k], dd_tricks.size)
    return rows.frame()


def _ci(row, digits) -> str:
    return f"[{row.ci_low:.{digits}f}, {row.ci_high:.{digits}f}]"


def present(query, summary, variant):
    """One row per option, best expected team points first (the hypothetical Blind Nil row
    last); ``recommended`` marks the best legal bid by expected points, ``best for game``
    (with --scores) the legal bid with the highest probability of winning the game."""
    by = {(m, g): r for m, g, r in zip(summary.metric, summary.group, summary.itertuples())}
    rows = []
    for b in query["options"]:
        name = option_label(b)
        makes, pts = by[("makes", name)], by[("team_points", name)]
        nil, own, partner = by.get(("nil_made", name)), by.get(("own_tricks>=bid", name)), by.get(("partner_made", name))
        row = {"bid": name, "P(makes)": round(makes.estimate, 4), "makes 95% CI": _ci(makes, 3),
               "P(nil made)": "" if nil is None else round(nil.estimate, 4),
               "P(partner makes)": "" if partner is None else round(partner.estimate, 4),
               "P(own tricks>=bid)": "" if own is None else round(own.estimate, 4),
               "team points": round(pts.estimate, 2), "points 95% CI": _ci(pts, 1),
               "own tricks": round(by[("own_tricks", name)].estimate, 3),
               "team bags": round(by[("team_bags", name)].estimate, 3)}
        if query["play_out"]:
            win = by[("wins_game", name)]
            row["P(win game)"] = round(win.estimate, 4)
            row["win 95% CI"] = _ci(win, 3)
        if query["dd"]:
            at_least, makeable = by.get(("dd_tricks>=bid", name)), by.get(("makeable_dd", name))
            row["P(DD tricks>=bid)"] = "" if at_least is None else round(at_least.estimate, 4)
            row["makeable DD"] = "" if makeable is None else round(makeable.estimate, 4)
            row["makeable DD 95% CI"] = "" if makeable is None else _ci(makeable, 3)
            row["P(partner Nil)"] = round(by[("partner_nil", name)].estimate, 4)
        rows.append(row)
    table = pd.DataFrame(rows)
    table = rank_options(table, "team points", hypothetical=table.bid == BN_LABEL,
                         win_column="P(win game)" if query["play_out"] else None)
    best = table.loc[table.recommended == "yes", "bid"]
    table.attrs["notes"] = [bags_note(query, variant)] + (
        dd_notes(query, by, str(best.iloc[0]) if len(best) else None) if query["dd"] else [])
    return table


def dd_notes(query, by, best: str | None = None) -> list[str]:
    """The lines under a ``bid --dd`` table: the partnership's double-dummy tricks, their mean
    with its interval and their distribution, what "makeable DD" counts (and why a Nil partner
    makes it optimistic), and for the recommended bid ``best`` how often it was makeable double
    dummy and how often the bots made it."""
    team = "NS" if query["seat"] % 2 == 0 else "EW"
    mean = by[("dd_tricks", "team")]
    shares = {k: by[(f"dd_tricks={k}", "team")].estimate for k in TRICKS}
    dist = ", ".join(f"{k}: {shares[k]:.1%}" for k in TRICKS if shares[k] > 0)
    partner = query["prior"][(query["seat"] + 2) % 4]
    if partner < 0:
        whose = ("your bid plus the bid your partner's bot makes after yours on that deal; your bid alone where he "
                 "bids Nil or Blind Nil")
    elif 0 < partner < BN_BIT:
        whose = f"your bid plus partner's {bid_name(partner)}"
    else:
        whose = f"your bid alone: partner bid {bid_name(partner)}"
    lines = [f"double dummy ({team}, hands as dealt, from the actual opening lead): mean {mean.estimate:.2f} tricks "
             f"{_ci(mean, 2)}; distribution {dist}",
             f"makeable DD: the team's double-dummy tricks reach the team contract of each deal ({whose})",
             "P(partner Nil): share of deals where partner bid Nil or Blind Nil; there makeable DD is an optimistic "
             "bound (the solver maximises the team's tricks, a Nil partner must take none)"]
    if best is not None:
        makeable = by.get(("makeable_dd", best))
        if makeable is None:
            lines.append(f"bid {best}: a Nil has no double-dummy contract (makeable DD counts number bids)")
        else:
            lines.append(f"bid {best}: makeable double dummy in {makeable.estimate:.1%} of deals, made in "
                         f"{by[('makes', best)].estimate:.1%}")
    return lines


def recommended(query, summary, by: str = "points") -> str:
    """Label of the recommended legal bid, by expected team ``points`` or by P(win ``game``)."""
    metric = "team_points" if by == "points" else "wins_game"
    rows = summary[(summary.metric == metric) & (summary.group != BN_LABEL)]
    return str(rows.loc[rows.estimate.idxmax(), "group"])


def figure(query, summary, variant):
    """Left: the distribution of your tricks with the recommended bid (bars, the bid
    marked by a line) and every other legal bid (faint steps). Middle: how often each bid
    makes; right: expected team points by bid; both with 95 % intervals, the recommended
    bid highlighted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best = recommended(query, summary)
    best_game = recommended(query, summary, "game") if query["play_out"] else None

    def shares(name):
        sub = summary[summary.group == name].set_index("metric")
        return np.array([sub.loc[f"tricks={k}", "estimate"] for k in TRICKS])

    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 4), gridspec_kw={"width_ratios": [3, 2, 2]})
    for b in query["options"]:
        name = option_label(b)
        if name != best:
            left.step(list(TRICKS), shares(name), where="mid", color="grey", alpha=0.25, lw=0.8)
    left.bar(list(TRICKS), shares(best), color="tab:blue", alpha=0.8, label=f"tricks you take, bidding {best}")
    value = 0 if best == "Nil" else int(best)
    left.axvline(value, color="tab:red", lw=2, label=f"recommended bid: {best}")
    if best_game is not None and best_game != best:
        v = 0 if best_game == "Nil" else int(best_game)
        left.axvline(v, color="tab:green", lw=2, ls="--", label=f"best for the game: {best_game}")
    left.set_xticks(list(TRICKS))
    left.set_xlabel("tricks you take (grey: the other bids)")
    left.set_ylabel("share of deals")
    left.legend(fontsize=8)
    names = [option_label(b) for b in query["options"]]
    pts = summary[summary.metric == "team_points"].set_index("group").loc[names]
    colors = ["tab:red" if n == best else ("lightgrey" if n == BN_LABEL else "tab:blue") for n in names]
    labels = ["BN" if n == BN_LABEL else n for n in names]
    makes = summary[summary.metric == "makes"].set_index("group").reindex(names)
    middle.bar(labels, makes.estimate, yerr=[makes.estimate - makes.ci_low, makes.ci_high - makes.estimate],
               capsize=2, color=colors)
    middle.set_ylim(0, 1.05)
    middle.set_xlabel("bid (Nil: your Nil made)")
    middle.set_ylabel("P(makes), 95 % interval")
    right.bar(labels, pts.estimate,
              yerr=[pts.estimate - pts.ci_low, pts.ci_high - pts.estimate], capsize=2, color=colors)
    right.axhline(0, color="grey", lw=0.8)
    right.set_xlabel("bid (BN: had you bid it blind)")
    right.set_ylabel("expected team points this hand")
    hand = " ".join(format_card(c) for c in sorted(query["cards"], reverse=True))
    fig.suptitle(f"Spades: {SEATS[query['seat']]} holding {hand}", fontsize=10)
    fig.tight_layout()
    return fig


BID = OddsSupport(command="bid", help="how often each legal bid makes, expected team points, bags, P(win game)",
                  prepare=prepare, simulate=simulate, columns=COLUMNS, tally=tally, present=present,
                  figure=figure, batch=2000)
