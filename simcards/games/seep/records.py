"""Seep units and record schemas, the tally and the figures (pandas/matplotlib allowed here)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.game import Column, Unit
from simcards.core import stats

DEAL_COLUMNS = (
    Column("dealer", "dealer seat 0..3 (a deal record starts a baazi at D = 0)"),
    Column("bidder", "bidder seat = dealer + 1"),
    Column("redeals", "redeals before this deal (bidder held no card of value min_bid_value..13)"),
    Column("bid", "the bid value"),
    Column("bid_options", "bit v set for every capture value v in the bidder's first four cards"),
    Column("opening_kind", "kind of play 1: 0 capture, 1 build, 4 throw"),
    Column("opening_card", "card played at play 1 (core card number)"),
    Column("points_a", "card points of team A (seats 0, 2)"),
    Column("points_b", "card points of team B (seats 1, 3)"),
    Column("sweep_points_a", "sweep bonus of team A"),
    Column("sweep_points_b", "sweep bonus of team B"),
    Column("score_a", "deal score of team A = card points + sweep bonus"),
    Column("score_b", "deal score of team B"),
    Column("sweeps_early", "sweeps within the first early_sweep_plays plays"),
    Column("sweeps_normal", "sweeps on other plays before play 48"),
    Column("sweeps_last", "sweeps on play 48"),
    Column("last_capture_team", "team that captured last (-1 none)"),
    Column("leftover_cards", "loose cards collected by the last capturer at the end"),
    Column("leftover_points", "card points among them"),
    Column("under_min_team", "team under the 9-point threshold (-1 none): it loses the baazi"),
    Column("bid_card_team", "team whose pile ends with the card played at play 1"),
    Column("bid_house_team", "for build openings: team that captured the opening house, followed through breaks and merges (-1 otherwise)"),
    Column("bid_house_value", "value at which that house was captured (-1)"),
    Column("houses_built", "BUILD moves"),
    Column("houses_added", "ADD moves (cementing or adding)"),
    Column("houses_broken", "BREAK moves"),
    Column("max_moves", "largest legal-move list of the deal"),
    Column("sum_moves", "legal moves summed over the 48 decisions"),
    Column("score_bidder_team", "deal score of the bidder's team"),
    Column("score_dealer_team", "deal score of the dealer's team"),
    Column("bid_value_cards_bidder", "1 if the bidder's team captured the other three cards of the bid value"),
    Column("bid_card_bidder", "1 if the bidder's team captured the card played at play 1"),
    Column("d_before", "running difference D before the deal (0 for deal records)"),
    Column("bid_value_held", "cards of the bid value among the bidder's first four"),
)

BAAZI_COLUMNS = (
    Column("first_dealer", "dealer of the first deal"),
    Column("deals", "deals played in the baazi"),
    Column("winner", "team that won the baazi (-1: stopped by max_deals_per_baazi)"),
    Column("by_min_points", "1 if the baazi ended by the 9-point rule"),
    Column("capped", "1 if stopped by max_deals_per_baazi (reported apart)"),
    Column("redeals", "redeals during the baazi"),
    Column("sweeps", "sweeps during the baazi"),
    Column("d_final", "D when a capped baazi stopped (0 otherwise)"),
    Column("next_dealer", "dealer of the next deal"),
    Column("last_score_a", "team A's score in the last deal"),
    Column("last_score_b", "team B's score in the last deal"),
    Column("loser_dealt_last", "1 if the losing team dealt the deciding deal"),
)

MATCH_COLUMNS = (
    Column("first_dealer", "dealer of the first deal"),
    Column("baazis_a", "baazis won by team A"),
    Column("baazis_b", "baazis won by team B"),
    Column("winner", "team that won the match (-1 tie)"),
    Column("deals", "deals played"),
    Column("redeals", "redeals"),
    Column("sweeps", "sweeps"),
    Column("min_point_baazis", "baazis ended by the 9-point rule"),
    Column("baazis", "baazis played"),
    Column("capped", "baazis stopped by max_deals_per_baazi"),
)

UNITS = (
    Unit("deal", "deals", DEAL_COLUMNS, "one deal: bid, 48 plays, scores (starts a baazi at D = 0)", 20_000),
    Unit("baazi", "baazis", BAAZI_COLUMNS, "deals until a team leads by baazi_lead or falls under the 9-point minimum", 2_000,
         objective=("baazi_won_by_a", "all")),
    Unit("match", "matches", MATCH_COLUMNS, "match_baazis baazis (match_mode decides the end)", 500,
         objective=("match_won", "team_a")),
)
UNIT_CODES = {"deal": 0, "baazi": 1, "match": 2}

SWEEP_KINDS = (("early", "sweeps_early"), ("normal", "sweeps_normal"), ("last_play", "sweeps_last"))


class _Rows(stats.TallyRows):
    """``rate``/``mean`` rows with the group as a keyword (one observation per record)."""

    def add(self, metric, kind, values, group=stats.ALL, where=None, by=None):
        super().add(metric, kind, values, by=by, where=where, group=str(group))

    def rate(self, metric, success, **kw):
        self.add(metric, "rate", np.asarray(success, dtype=bool), **kw)

    def mean(self, metric, values, **kw):
        self.add(metric, "mean", values, **kw)


def tally(unit: str, df: pd.DataFrame, variant) -> pd.DataFrame:
    """Tally rows (see simcards.core.stats) for one chunk of records."""
    r = _Rows()
    c = {name: df[name].to_numpy() for name in df.columns}
    if unit == "deal":
        bid = c["bid"]
        bt = c["bidder"] % 2
        # one deal attempt per redeal plus the deal played: the record is the cluster
        r.add_ratio("redeal_rate", "rate", c["redeals"], c["redeals"] + 1)
        r.rate("bid_card_captured_by_bidder_team", c["bid_card_bidder"] == 1, by=bid)
        r.rate("bid_card_captured_by_bidder_team", c["bid_card_bidder"] == 1)
        r.rate("bid_house_captured_by_bidder_team", c["bid_house_team"] == bt, by=bid, where=c["opening_kind"] == 1)
        r.rate("bid_value_cards_captured_by_bidder_team", c["bid_value_cards_bidder"] == 1, by=bid)
        for kind, code in (("capture", 0), ("build", 1), ("throw", 4)):
            r.rate(f"opening_{kind}", c["opening_kind"] == code, by=bid)
        for v in range(variant.min_bid_value, 14):
            r.rate("bid_distribution", bid == v, group=v)
        for group, col in (("team_a", "score_a"), ("team_b", "score_b"), ("bidder_team", "score_bidder_team"),
                           ("dealer_team", "score_dealer_team")):
            r.mean("score_per_deal", c[col], group=group)
        r.mean("card_points_per_deal", c["points_a"], group="team_a")
        r.mean("card_points_per_deal", c["points_b"], group="team_b")
        r.mean("bidder_team_margin", c["score_bidder_team"] - c["score_dealer_team"], by=bid)
        for name, col in SWEEP_KINDS:
            r.mean("sweeps_per_deal", c[col], group=name)
        r.mean("sweeps_per_deal", c["sweeps_early"] + c["sweeps_normal"] + c["sweeps_last"], group="all")
        r.rate("under_min_points", c["under_min_team"] >= 0)
        r.mean("houses_built_per_deal", c["houses_built"])
        r.mean("houses_broken_per_deal", c["houses_broken"])
        r.mean("legal_moves_per_decision", c["sum_moves"] / 48.0)
    elif unit == "baazi":
        ok = c["capped"] == 0
        r.mean("deals_per_baazi", c["deals"], where=ok)
        r.rate("baazi_won_by_a", c["winner"] == 0, where=ok)
        r.rate("baazi_by_min_points", c["by_min_points"] == 1, where=ok)
        r.rate("baazi_capped", c["capped"] == 1)
        r.rate("baazi_won_by_first_dealer_team", c["winner"] == c["first_dealer"] % 2, where=ok)
        r.mean("sweeps_per_baazi", c["sweeps"], where=ok)
    else:
        r.rate("match_won", c["winner"] == 0, group="team_a")
        r.rate("match_won", c["winner"] == 1, group="team_b")
        r.rate("match_tied", c["winner"] == -1)
        r.mean("deals_per_match", c["deals"])
        r.mean("baazis_per_match", c["baazis"])
    return r.frame()


def figures(unit: str, summary: pd.DataFrame, variant) -> dict:
    """{name: Figure}: capture probability by bid value, scores per team, sweeps by kind."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = {}

    def bars(metric, title, ylabel, name, xlabel=""):
        rows = summary[summary["metric"] == metric]
        if len(rows) > 1:
            rows = rows[rows["group"] != stats.ALL]
        if rows.empty:
            return
        rows = rows.sort_values("group", key=lambda s: pd.to_numeric(s, errors="coerce").fillna(0))
        fig, ax = plt.subplots(figsize=(6, 4))
        err = [rows["estimate"] - rows["ci_low"], rows["ci_high"] - rows["estimate"]]
        ax.bar(rows["group"].astype(str), rows["estimate"], yerr=err, capsize=4, color="#4477aa")
        ax.set_title(title)
        ax.set_ylabel(ylabel)
        ax.set_xlabel(xlabel)
        fig.tight_layout()
        out[name] = fig

    if unit == "deal":
        bars("bid_house_captured_by_bidder_team", "Opening house captured by the bidder's team",
             "probability (95 % CI)", "bid_house_capture_by_bid", "bid value")
        bars("bid_card_captured_by_bidder_team", "Bid card captured by the bidder's team, by bid value",
             "probability (95 % CI)", "bid_card_capture_by_bid", "bid value")
        bars("score_per_deal", "Deal score per team", "points (95 % CI)", "score_per_team")
        bars("sweeps_per_deal", "Sweeps per deal by kind", "sweeps (95 % CI)", "sweeps_by_kind")
    elif unit == "baazi":
        bars("deals_per_baazi", "Deals per baazi", "deals (95 % CI)", "deals_per_baazi")
    else:
        bars("match_won", "Match wins", "probability (95 % CI)", "match_wins")
    return out
