"""Write a ladder's tables into a game page (called by scripts/make_ladders.sh).

    python scripts/ladder_table.py RESULTS_FOLDER docs/games/GAME.md "COMMAND"

Replaces the block between ``<!-- ladder: begin -->`` and ``<!-- ladder: end -->`` in the
page with the ladder's pair table (every pair, the policy ahead first, with its paired 95 %
interval: the answer), its Copeland ranking, the double-dummy table where the ladder has
one, and a line that says the command, the date, the machine and the commit, all read from
the folder (``meta.json``, ``ladder.csv``, ``ranking.csv``, ``dd.csv``). No figure in the
block is copied by hand.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

from simcards.experiment.ladder import ordered_pairs

BEGIN, END = "<!-- ladder: begin -->", "<!-- ladder: end -->"


def _table(rows: list[list[str]], head: list[str]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"] + \
        ["| " + " | ".join(r) + " |" for r in rows]


def block(folder: Path, page: Path, command: str) -> list[str]:
    meta = json.loads((folder / "meta.json").read_text())
    ranking = pd.read_csv(folder / "ranking.csv")
    pairs = ordered_pairs(pd.read_csv(folder / "ladder.csv"), list(ranking.policy))
    m = meta.get("machine", {})
    when = meta.get("created", "")
    machine = f"{m.get('cpus', '?')} CPUs, {m.get('platform', '?')}, Python {m.get('python', '?')}"
    examples = Path("..") / "examples" / folder.name
    lines = [BEGIN, "",
             f"`{command}` (written by `bash scripts/make_ladders.sh {meta['game']}` on {when[:10]} at "
             f"{when[11:16]}, {machine}; commit `{(meta.get('git_commit') or '?')[:10]}`; "
             f"{meta['seconds'] / 60:.1f} min). Every pair of policies played the same {meta['count']:,} "
             f"{meta['unit']}s (seed {meta['seed']}) twice, seats swapped; the edge is half the difference in "
             f"`{meta['metric']}` [{meta['group']}], with its paired 95 % interval. **Bold**: the interval "
             "excludes zero (a clear win).", ""]
    rows = []
    for r in pairs.itertuples(index=False):
        clear = r.ci_low > 0 or r.ci_high < 0
        edge = f"{r.edge:+.3f}"
        rows.append([f"`{r.policy}`", f"`{r.opponent}`", f"**{edge}**" if clear else edge,
                     f"[{r.ci_low:+.3f}, {r.ci_high:+.3f}]"])
    lines += _table(rows, ["policy", "over", "edge", "paired 95 % interval"]) + [""]
    lines += ["Ranking by the Copeland score: pairs won clearly minus pairs lost clearly (ties share a rank):", ""]
    lines += _table([[str(r.rank), f"`{r.policy}`", f"{r.copeland:+d}", str(r.clear_wins), str(r.clear_losses)]
                     for r in ranking.itertuples(index=False)],
                    ["rank", "policy", "score", "clear wins", "clear losses"]) + [""]
    if (folder / "dd.csv").exists():
        dd = pd.read_csv(folder / "dd.csv", dtype={"group": str})
        pts = dd[dd.metric == "dd_points_per_decision"]
        if len(pts):
            kinds = ["all", "lead", "second", "third", "fourth", "early", "late"]
            deals = meta["ladder"]["dd_deals"]
            lines += [f"Against double dummy ({deals:,} deals, each policy at every seat): the points a decision "
                      "(a card chosen from two or more) cost against the best card in the same deal, scored by the "
                      "contracts (docs/double-dummy.md, \"Points per decision\"); early: tricks 1-8, late: 9-13; "
                      "95 % intervals, the deal the unit:", ""]
            rows = []
            for p in ranking.policy:
                mine = pts[pts.policy == p].set_index("group")
                rows.append([f"`{p}`"] + [f"{mine.estimate[k]:.3f} [{mine.ci_low[k]:.3f}, {mine.ci_high[k]:.3f}]"
                                          if k in mine.index else "-" for k in kinds])
            lines += _table(rows, ["points lost per decision"] + kinds) + [""]
    lines += [f"![ladder]({examples}/figures/ladder.png)", "",
              f"Every pair with its Holm p-value: [docs/examples/{folder.name}/report.md]({examples}/report.md).",
              "", END]
    return lines


def main(argv: list[str]) -> int:
    folder, page, command = Path(argv[0]), Path(argv[1]), argv[2]
    text = page.read_text()
    if BEGIN not in text or END not in text:
        print(f"{page}: no '{BEGIN}' ... '{END}' block to replace", file=sys.stderr)
        return 2
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    page.write_text(head + "\n".join(block(folder, page, command)) + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
