"""Oriental and Modern Realm: games generated and validated per second. Prints figures.

Run: python bench/bench_family.py [--games N] [--presets oriental,oriental-warning,modern]

One process, one core; CPU-time rates (steadier than wall clock on a shared machine).
"generate" plays a game with the game's random player and writes its record text;
"validate" reads that text back and replays it through the rules, as
``pbem validate`` does. The finished share and the turn counts come with them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.records.generate import generate_game, record_text  # noqa: E402
from pbem.records.reader import read_games  # noqa: E402
from pbem.records.rulesets import load_ruleset  # noqa: E402
from pbem.records.validate import validate_source  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", default="oriental,oriental-warning,modern")
    args = ap.parse_args()
    n = args.games
    print(f"{n} games per preset, seed {args.seed}; games/s of CPU time")
    print(f"  {'preset':<18} {'generate':>9} {'validate':>9} {'finished':>9} {'turns med/max':>14}")
    for name in args.presets.split(","):
        ruleset = load_ruleset(name)
        cpu = time.process_time()
        played = [generate_game(args.seed, i, ruleset) for i in range(n)]
        texts = [record_text(p, args.seed, i) for i, p in enumerate(played)]
        gen = time.process_time() - cpu
        cpu = time.process_time()
        valid = sum(validate_source(next(iter(read_games(t)))).valid for t in texts)
        val = time.process_time() - cpu
        assert valid == n, f"{name}: {n - valid} generated games do not validate"
        finished = sum(1 for p in played if not p.capped)
        turns = [len(p.turns) for p in played]
        print(f"  {name:<18} {n / gen:9.1f} {n / val:9.1f} {finished / n:8.0%} "
              f"{statistics.median(turns):7.0f}/{max(turns):<6d}")


if __name__ == "__main__":
    main()
