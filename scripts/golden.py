"""Regenerate tests/golden/ (digests of every game x unit x policy x preset, replay texts).

Only for a deliberate rules change, committed on its own with the reason:
    .venv/bin/python scripts/golden.py            # all games
    .venv/bin/python scripts/golden.py --check    # compare only, exit 1 on a difference
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from simcards.experiment import golden

ROOT = Path(__file__).resolve().parent.parent / "tests" / "golden"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    args = parser.parse_args()
    digests = golden.all_digests()
    replays = {g: golden.replay_text(g) for g in golden.BUILTIN_GAMES}
    if args.check:
        stored = json.loads((ROOT / "digests.json").read_text())
        bad = [k for k in sorted(set(stored) | set(digests)) if stored.get(k) != digests.get(k)]
        bad += [f"replay-{g}.txt" for g, t in replays.items() if (ROOT / f"replay-{g}.txt").read_text() != t]
        for k in bad:
            print(f"changed: {k}")
        print(f"{len(digests)} configurations, {len(bad)} changed")
        return 1 if bad else 0
    ROOT.mkdir(parents=True, exist_ok=True)
    (ROOT / "digests.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    for g, text in replays.items():
        (ROOT / f"replay-{g}.txt").write_text(text)
    print(f"wrote {len(digests)} digests and {len(replays)} replays to {ROOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
