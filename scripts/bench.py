#!/usr/bin/env python
"""Records per second for each game, unit and policy set; one line each, plus compile time.

    python scripts/bench.py                         # every game, default unit, basic and expert
    python scripts/bench.py --game spades --unit game --threads 1
    python scripts/bench.py --game spades --policy expert --policy fitted --threads 1 --cpu --rounds 7
    python scripts/bench.py --cold                  # compile from scratch (empty numba cache)
    python scripts/bench.py --startup               # start-up of simcards --help, games, rules X
    python scripts/bench.py --dd --dd-deals 100 --dd-strains S --dd-slow 5   # double dummy beside DDS, one thread
    python scripts/bench.py --dd --dd-cards 8,10 --dd-ablation   # nodes and time with each technique off
    python scripts/bench.py --dd --dd-cards 10 --dd-table-bits 12 # a small table (a full pool is swept)
    python scripts/bench.py --dd --dd-play --dd-deals 200   # played deals card by card beside DDS's AnalysePlay
    python scripts/bench.py --dd --dd-modes bridge,spades,cutthroat3,cutthroat4,cutthroat5,kierki --dd-cards 10,13

Each line runs the real runner in memory (records="summary": kernels plus the
streaming summary, no disk I/O) for at least --seconds. ``--cpu`` times the process's CPU
time instead of the wall clock (steadier on a shared machine; with --threads 1), and
``--rounds N`` measures the policies in turn N times and reports each one's median rate, so
policies compared in one run see the same load.
"First call" is the time to import the game and load (or, with --cold, compile) its
kernels and policies and run a tiny batch; the first line's figure includes the
shared imports (numba, pandas). Never used by tests: timings belong here, not in assertions.

--startup times whole processes (``python -m simcards.cli ...``, the median of --runs
runs after one warm-up) of the commands that must start at once, and the first call
with an empty description cache (simcards.describe) for comparison.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def measure(game: str, unit: str | None, policy: str, threads: int, seconds: float, settings: list[str],
            records: str = "summary", clock=time.perf_counter) -> dict:
    from simcards.core.game import get_game
    from simcards.experiment.runner import execute
    from simcards.experiment.spec import make_spec

    t0 = time.perf_counter()  # import (eager compile of signature-typed policies) counts too
    g = get_game(game)
    u = g.unit(unit)
    spec = make_spec(g, unit=u.name, count=min(64, u.chunk_size), policy=policy, settings=settings, records="none")
    execute(spec, threads=1)
    first = time.perf_counter() - t0
    count = max(u.chunk_size // 4, 1)
    while True:
        spec = make_spec(g, unit=u.name, count=count, seed=1, policy=policy, settings=settings, records=records,
                         chunk_size=max(count // (4 * threads), 1))
        t = clock()
        execute(spec, threads=threads)
        elapsed = clock() - t
        if elapsed >= seconds or count > 10**9:
            break
        count = int(count * min(max(seconds / max(elapsed, 1e-3) * 1.2, 2), 50))
    return {"game": g.name, "unit": u.name, "policy": policy, "threads": threads, "records": count,
            "seconds": elapsed, "rate": count / elapsed, "first_call": first}


STARTUP_COMMANDS = (["--help"], ["games"], ["rules", "spades"], ["rules", "contract-rummy"])


def startup(runs: int) -> list[dict]:
    """Median wall time of each start-up command, warm, and its first call (empty cache)."""
    import statistics

    cache = tempfile.mkdtemp(prefix="simcards-startup-")
    env = dict(os.environ, SIMCARDS_CACHE_DIR=cache)
    env.pop("SIMCARDS_GAMES", None)

    def once(argv: list[str]) -> float:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcards.cli", *argv], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - t

    rows = []
    for argv in STARTUP_COMMANDS:
        first = once(argv)  # fills the cache (games and rules)
        warm = [once(argv) for _ in range(runs)]
        rows.append({"command": "simcards " + " ".join(argv), "median_s": statistics.median(warm),
                     "max_s": max(warm), "first_call_s": first, "runs": runs})
    return rows


def dds_solve(hands, denom, leader: int) -> tuple[int, int]:
    """(tricks of the side on lead, DDS's node count) from DDS's SolveBoard, one optimal card."""
    import endplay._dds as _dds
    from endplay.types import Deal, Player

    from test_against_dds import pbn

    deal = Deal(pbn(hands))
    deal.first = Player(leader)
    deal.trump = denom
    fut = _dds.futureTricks()
    _dds.SolveBoard(deal._data, -1, 1, 0, fut, 0)
    return max(fut.score[i] for i in range(fut.cards)), int(fut.nodes)


def dd_bench(deals: int, cards: int, strains: str, ablation: bool, table_bits: int | None = None,
             seed: int = 2026, slow: int = 0, only: str | None = None) -> list[dict]:
    """Side by side on one thread: each deal solved from the opening lead by ours (a fresh table)
    and then by DDS (endplay, SolveBoard with one optimal card), deal by deal, seat on lead =
    deal number mod 4, the side on lead measured. Times are the process's CPU time (steadier
    than wall time on a shared machine). Per solver: solves/s over all deals, median, 90th
    percentile and maximum of one solve; for ours also nodes (every card played in the search),
    ``searched`` trick starts (stored: searched past the table and quick tricks; DDS counts as
    nodes the trick starts it enters) and, beside DDS, the ratio of times: in total, the
    geometric mean, median, 99th percentile and worst of the per-deal ratios (our time over
    DDS's), and the ``slow`` deals of the worst ratios."""
    import numpy as np

    from simcards.core import dd
    from simcards.core.cards import SUIT_MASKS

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "dd"))
    from test_against_dds import random_hands

    from endplay.types import Denom

    rng = np.random.default_rng(seed)
    hands = [random_hands(rng, cards) for _ in range(deals)]
    trumps = {"N": (-1, Denom.nt), "S": (3, Denom.spades), "H": (2, Denom.hearts)}
    variants = [("all", dd.F_ALL)]
    if ablation:
        variants += [(f"no {name}", dd.F_ALL & ~bit) for name, bit in (
            ("relevant-rank patterns", dd.F_CLASSES), ("quick tricks", dd.F_QUICK), ("move ordering", dd.F_ORDER),
            ("low-card skipping", dd.F_LOWSKIP), ("first guess", dd.F_GUESS), ("table", dd.F_TT),
            ("sure trump tricks", dd.F_SURE), ("killer move", dd.F_KILLER), ("lead weights", dd.F_WEIGHTS),
            ("later tricks", dd.F_LATER), ("follow weights", dd.F_FOLLOW),
            ("second hand", dd.F_SECOND), ("cash then cross", dd.F_CROSS))]
        if only:
            variants = variants[:1] + [v for v in variants[1:] if v[0].removeprefix("no ") in only.split(",")]
    for letter in strains:
        trump, denom = trumps[letter]
        dds_solve(random_hands(np.random.default_rng(seed + 1), cards), denom, 0)  # load DDS
        for name, features in variants:
            table = dd.Table() if table_bits is None else dd.Table(table_bits)
            rules = dd.rules_row(4, trump, features=features)
            dd.solve(random_hands(np.random.default_rng(seed + 1), cards), rules, [1, 3], SUIT_MASKS, leader=1,
                     table=table)  # compile / load
            table.counters[:] = 0
            ours, times, theirs, dds_times, dds_nodes, nodes = [], [], [], [], [], []
            for i, h in enumerate(hands):
                leader = i % 4
                table.fresh()
                before = int(table.counters[dd.C_NODES])
                t = time.process_time()
                ours.append(dd.solve(h, rules, [leader, (leader + 2) % 4], SUIT_MASKS, leader=leader, table=table))
                times.append(time.process_time() - t)
                nodes.append(int(table.counters[dd.C_NODES]) - before)
                if name == "all":
                    t = time.process_time()
                    v, k = dds_solve(h, denom, leader)
                    dds_times.append(time.process_time() - t)
                    theirs.append(v)
                    dds_nodes.append(k)
            seconds = sum(times)
            row = {"strain": letter, "cards": cards, "deals": deals, "solver": f"simcards ({name})",
                   "solves_per_s": deals / seconds, "nodes_per_solve": int(table.counters[dd.C_NODES] / deals),
                   "searched_per_solve": int(table.counters[dd.C_TT_STORES] / deals),
                   "entered_per_solve": int(table.counters[dd.C_ENTERED] / deals),
                   "tt_hits_per_solve": int(table.counters[dd.C_TT_HITS] / deals),
                   "quick_cuts_per_solve": int(table.counters[dd.C_QUICK_CUTS] / deals),
                   "ns_per_node": seconds / max(1, int(table.counters[dd.C_NODES])) * 1e9,
                   "median_s": float(np.median(times)), "p90_s": float(np.percentile(times, 90)),
                   "max_s": max(times), "pool_sweeps": int(table.counters[dd.C_TT_RESETS])}
            if name != "all":
                yield row
                continue
            ratio = np.array(times) / np.maximum(np.array(dds_times), 1e-6)
            row.update({"dds_solves_per_s": deals / sum(dds_times), "dds_nodes_per_solve": sum(dds_nodes) // deals,
                        "dds_median_s": float(np.median(dds_times)), "dds_p90_s": float(np.percentile(dds_times, 90)),
                        "dds_max_s": max(dds_times), "agree": sum(a == b for a, b in zip(ours, theirs)),
                        "ratio_total": seconds / sum(dds_times), "ratio_geomean": float(np.exp(np.log(ratio).mean())),
                        "ratio_median": float(np.median(ratio)), "ratio_p99": float(np.percentile(ratio, 99)),
                        "ratio_max": float(ratio.max()),
                        "slowest": [{"deal": int(i), "leader": int(i % 4), "ours_s": times[i], "dds_s": dds_times[i],
                                     "ratio": float(ratio[i]), "nodes": nodes[i], "dds_nodes": dds_nodes[i]}
                                    for i in np.argsort(-ratio)[:slow]]})
            yield row


def dd_play_bench(deals: int, seed: int = 2026, policy: str = "expert") -> dict:
    """The work of ``run --records dd`` beside DDS's: Spades deals ``0..deals-1`` of ``seed`` as
    ``policy`` played them, every card valued double dummy (``dd.play_costs``, one table a
    deal) and by DDS (endplay, AnalysePlayBin), deal by deal on one thread, CPU time. Bridge
    rules with spades trump (DDS has no spades-broken rule). Also counts the deals whose costs
    agree card for card."""
    import numpy as np

    from simcards.core import dd
    from simcards.core.cards import SUIT_MASKS
    from simcards.core.game import get_game
    from simcards.core.policy import seat_policies
    from simcards.games.spades import dd as spades_dd

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "dd"))
    from test_against_dds import dds_play_costs

    from endplay.types import Denom

    game = get_game("spades")
    played = spades_dd.played_deals(game.variant(), game.policies.table(seat_policies(policy, None, 4)), seed, 0,
                                    deals)
    rules = dd.rules_row(4, 3)
    sides = [(0, 2), (1, 3), (0, 2), (1, 3)]
    table = dd.Table()
    first = played[0]
    dd.play_costs(first["hands"], rules, SUIT_MASKS, sides, first["leader"], first["cards"], table=table)  # load
    ours, theirs, agree = [], [], 0
    for d in played:
        t = time.process_time()
        steps = dd.play_costs(d["hands"], rules, SUIT_MASKS, sides, d["leader"], d["cards"], table=table)
        ours.append(time.process_time() - t)
        t = time.process_time()
        want = dds_play_costs(d["hands"], Denom.spades, d["leader"], d["cards"], [x["seat"] for x in steps])
        theirs.append(time.process_time() - t)
        agree += [x["cost"] for x in steps] == want
    ratio = np.array(ours) / np.maximum(np.array(theirs), 1e-6)
    return {"deals": deals, "seed": seed, "policy": policy, "deals_per_s": deals / sum(ours),
            "dds_deals_per_s": deals / sum(theirs), "median_s": float(np.median(ours)),
            "dds_median_s": float(np.median(theirs)), "ratio_total": sum(ours) / sum(theirs),
            "ratio_geomean": float(np.exp(np.log(ratio).mean())), "ratio_p99": float(np.percentile(ratio, 99)),
            "ratio_max": float(ratio.max()), "agree": agree}


def dd_play_line(r: dict) -> str:
    return (f"played deals analysed card by card ({r['deals']} deals of seed {r['seed']}, {r['policy']}'s play, "
            f"bridge rules, spades trump): simcards {r['deals_per_s']:.1f} deals/s (median {r['median_s'] * 1e3:.1f} ms), "
            f"DDS AnalysePlayBin {r['dds_deals_per_s']:.1f} deals/s (median {r['dds_median_s'] * 1e3:.1f} ms); "
            f"ours/DDS total {r['ratio_total']:.2f}x, geo. mean {r['ratio_geomean']:.2f}x, p99 {r['ratio_p99']:.1f}x, "
            f"worst {r['ratio_max']:.1f}x; costs agree on {r['agree']} of {r['deals']} deals")


DD_MODES = {  # name: (seats, full hand, cards left out of the 52, lead restriction, partnerships)
    "bridge": (4, 13, (), False, True),
    "spades": (4, 13, (), True, True),
    "cutthroat3": (3, 17, (0,), True, False),
    "cutthroat4": (4, 13, (), True, False),
    "cutthroat5": (5, 10, (0, 13), True, False),
    "kierki": (4, 13, (), False, False),
}


def dd_mode_bench(deals: int, cards: int, mode: str, seed: int = 2026) -> dict:
    """Our solver alone (no DDS plays these rules) under a game mode's trick rules, spades trump,
    on random deals of the mode's deck (no jokers), the seat on lead = deal number mod seats,
    solved from the opening lead with spades not yet broken (no forced card on trick 1):
    ``bridge`` (the reference row), ``spades`` (the Spades lead rule: no spade led before one was
    played), ``cutthroatN`` (N players, each measured alone against the rest, the lead rule; the
    3-player deck lacks the 2 of clubs, the 5-player one the 2s of clubs and diamonds) and
    ``kierki`` (each alone, no trump obligation). ``cards`` 13 means the mode's full hand (17
    cards a player for 3 players, 10 for 5), fewer an ending of that many cards a player."""
    import numpy as np

    from simcards.core import dd
    from simcards.core.cards import SUIT_MASKS

    seats, full, out, restrict, pairs = DD_MODES[mode]
    size = full if cards == 13 else min(cards, full)
    deck = np.array([c for c in range(52) if c not in out])
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(deals):
        d = rng.permutation(deck)
        hands.append([sum(1 << int(c) for c in d[size * p: size * (p + 1)]) for p in range(seats)])
    rules = dd.rules_row(seats, 3, lead_restrict=restrict)
    table = dd.Table()
    side_of = (lambda ld: [ld, (ld + 2) % 4]) if pairs else (lambda ld: [ld])
    dd.solve(hands[0], rules, side_of(0), SUIT_MASKS, leader=0, table=table)  # compile / load
    table.counters[:] = 0
    times = []
    for i, h in enumerate(hands):
        leader = i % seats
        table.fresh()
        t = time.process_time()
        dd.solve(h, rules, side_of(leader), SUIT_MASKS, leader=leader, table=table)
        times.append(time.process_time() - t)
    ts = np.array(times)
    return {"mode": mode, "cards": size, "deals": deals, "solves_per_s": deals / ts.sum(),
            "nodes_per_solve": int(table.counters[dd.C_NODES] / deals),
            "entered_per_solve": int(table.counters[dd.C_ENTERED] / deals),
            "median_s": float(np.median(ts)), "p90_s": float(np.percentile(ts, 90)),
            "p99_s": float(np.percentile(ts, 99)), "max_s": float(ts.max()),
            "max_over_median": float(ts.max() / max(np.median(ts), 1e-9))}


def dd_mode_line(r: dict) -> str:
    return (f"{r['mode']:<11} {r['cards']:2} cards {r['deals']} deals  {r['solves_per_s']:9.2f} solves/s"
            f"  {r['nodes_per_solve']:>10,} nodes {r['entered_per_solve']:>8,} entered"
            f"  solve median {r['median_s'] * 1000:.1f} ms, p90 {r['p90_s'] * 1000:.1f}, p99 {r['p99_s'] * 1000:.1f},"
            f" max {r['max_s'] * 1000:.1f} ({r['max_over_median']:.0f}x the median)")


def dd_lines(r: dict) -> list[str]:
    """The text of one :func:`dd_bench` row."""
    head = f"{r['strain']} {r['cards']:2} cards {r['deals']} deals"
    lines = [f"{head}  {r['solver']:<34} {r['solves_per_s']:9.2f} solves/s  {r['nodes_per_solve']:>10,} nodes"
             f" {r['entered_per_solve']:>8,} entered {r['searched_per_solve']:>7,} searched"
             f"  {r['tt_hits_per_solve']:>9,} table hits"
             f"  {r['quick_cuts_per_solve']:>8,} quick cuts  {r['ns_per_node']:4.0f} ns/node"
             f"  solve median {r['median_s'] * 1000:.1f} ms, p90 {r['p90_s'] * 1000:.1f}, max {r['max_s'] * 1000:.1f}"
             + (f", {r['pool_sweeps']} pool sweeps" if r['pool_sweeps'] else "")]
    if "dds_solves_per_s" in r:
        lines.append(f"{head}  {'DDS (endplay)':<34} {r['dds_solves_per_s']:9.2f} solves/s  {'':>10}      "
                     f" {r['dds_nodes_per_solve']:>8,} entered"
                     f"  solve median {r['dds_median_s'] * 1000:.1f} ms, p90 {r['dds_p90_s'] * 1000:.1f},"
                     f" max {r['dds_max_s'] * 1000:.1f}  (agrees on {r['agree']} of {r['deals']})")
        lines.append(f"{head}  ours / DDS time: total {r['ratio_total']:.2f}x, geometric mean {r['ratio_geomean']:.2f}x,"
                     f" per deal median {r['ratio_median']:.2f}x, p99 {r['ratio_p99']:.1f}x, worst {r['ratio_max']:.1f}x")
        for x in r["slowest"]:
            lines.append(f"    deal {x['deal']} (leader {x['leader']}): ours {x['ours_s'] * 1000:.1f} ms"
                         f" {x['nodes']:,} nodes, DDS {x['dds_s'] * 1000:.1f} ms {x['dds_nodes']:,} nodes:"
                         f" {x['ratio']:.1f}x")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="game(s) to measure (default: all)")
    ap.add_argument("--unit", help="unit (default: each game's first unit)")
    ap.add_argument("--policy", action="append", help="policies (default: basic and expert)")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="threads (default: all cores)")
    ap.add_argument("--seconds", type=float, default=3.0, help="minimum timed seconds per line")
    ap.add_argument("--set", dest="settings", action="append", default=[], help="variant setting name=value")
    ap.add_argument("--records", choices=["summary", "none"], default="summary",
                    help="summary: kernels plus the streaming summary (default); none: kernels alone")
    ap.add_argument("--cpu", action="store_true", help="time CPU seconds of the process, not the wall clock")
    ap.add_argument("--rounds", type=int, default=1, help="measure the policies in turn this many times (median)")
    ap.add_argument("--cold", action="store_true", help="measure compile time with an empty numba cache")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    ap.add_argument("--startup", action="store_true", help="time the start of --help, games and rules X")
    ap.add_argument("--runs", type=int, default=7, help="runs per command with --startup (median)")
    ap.add_argument("--dd", action="store_true", help="double-dummy solves/s beside DDS (needs the test extra)")
    ap.add_argument("--dd-deals", type=int, default=20, help="deals for --dd")
    ap.add_argument("--dd-cards", default="13", help="cards per hand for --dd, comma-separated (13: full deals)")
    ap.add_argument("--dd-strains", default="NS", help="strains for --dd: N (no trump), S, H")
    ap.add_argument("--dd-ablation", action="store_true", help="with --dd: also each technique switched off")
    ap.add_argument("--dd-features", help="with --dd: only these variants of the ablation, by name, comma-separated")
    ap.add_argument("--dd-table-bits", type=int, help="with --dd: table size, dd.Table(bits) (default: dd.Table())")
    ap.add_argument("--dd-seed", type=int, default=2026, help="with --dd: seed of the deals")
    ap.add_argument("--dd-slow", type=int, default=0, help="with --dd: list the N deals of the worst ratios")
    ap.add_argument("--dd-modes", help="with --dd: our solver alone under game modes' trick rules, comma-separated: "
                    + ", ".join(DD_MODES) + " (instead of the DDS comparison)")
    ap.add_argument("--dd-play", action="store_true",
                    help="with --dd: played Spades deals analysed card by card (run --records dd) beside DDS's "
                    "AnalysePlayBin, --dd-deals deals of --dd-seed, --policy's play (default expert)")
    ap.add_argument("--_child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.dd and args.dd_modes:
        for cards in (int(c) for c in args.dd_cards.split(",")):
            for mode in args.dd_modes.split(","):
                r = dd_mode_bench(args.dd_deals, cards, mode, args.dd_seed)
                print(json.dumps(r) if args.json else dd_mode_line(r), flush=True)
        return

    if args.dd and args.dd_play:
        r = dd_play_bench(args.dd_deals, args.dd_seed, (args.policy or ["expert"])[0])
        print(json.dumps(r) if args.json else dd_play_line(r), flush=True)
        return

    if args.dd:
        for cards in (int(c) for c in args.dd_cards.split(",")):
            for r in dd_bench(args.dd_deals, cards, args.dd_strains, args.dd_ablation, args.dd_table_bits,
                              args.dd_seed, args.dd_slow, args.dd_features):
                print(json.dumps(r) if args.json else "\n".join(dd_lines(r)), flush=True)
        return

    if args.startup:
        for r in startup(args.runs):
            print(json.dumps(r) if args.json else
                  f"{r['command']:<32} median {r['median_s'] * 1000:6.0f} ms (max {r['max_s'] * 1000:.0f} ms, "
                  f"{r['runs']} runs)   first call, empty cache {r['first_call_s'] * 1000:6.0f} ms", flush=True)
        return

    if args.cold and not args._child:
        env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="simcards-cold-"))
        argv = [a for a in sys.argv[1:] if a != "--cold"] + ["--_child"]
        sys.exit(subprocess.call([sys.executable, __file__, *argv], env=env))

    from simcards.core.game import game_names

    games = args.game or game_names()
    clock = time.process_time if args.cpu else time.perf_counter
    for game in games:
        policies = args.policy or ["basic", "expert"]
        runs = {p: [] for p in policies}
        for _ in range(max(args.rounds, 1)):
            for policy in policies:
                runs[policy].append(measure(game, args.unit, policy, args.threads, args.seconds, args.settings,
                                            args.records, clock))
        for policy in policies:
            r = sorted(runs[policy], key=lambda x: x["rate"])[len(runs[policy]) // 2]  # the median rate
            r["first_call"] = runs[policy][0]["first_call"]
            if args.rounds > 1:
                r["rates"] = [round(x["rate"]) for x in runs[policy]]
            if args.cpu:
                r["clock"] = "cpu"
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                print(f"{r['game']:<15} {r['unit']:<10} {r['policy']:<7} threads={r['threads']}  "
                      f"{r['rate']:>12,.0f} {r['unit']}s/s   first call {r['first_call']:.1f} s"
                      f"{'  (cold compile)' if args._child else ''}"
                      f"{f'  median of {args.rounds} rounds' if args.rounds > 1 else ''}"
                      f"{'  (CPU time)' if args.cpu else ''}", flush=True)
        if len(policies) > 1 and not args.json:
            base = sorted(x["rate"] for x in runs[policies[0]])[len(runs[policies[0]]) // 2]
            for policy in policies[1:]:
                rate = sorted(x["rate"] for x in runs[policy])[len(runs[policy]) // 2]
                print(f"{'':<15} {policy} / {policies[0]}: {rate / base:.2f}x", flush=True)


if __name__ == "__main__":
    main()
