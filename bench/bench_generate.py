"""Random games per second: played only, and played and written as records. Prints figures.

Run: python bench/bench_generate.py [--games N] [--presets featured,original]

One process, one core. Wall-clock and CPU rates are both printed: on a shared machine
the CPU figure is the steadier one. The coverage counts show what the games exercised.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.players.realm_coverage import Coverage, coverage_of  # noqa: E402
from pbem.records.generate import RANDOM, generate_game, record_text, write_games  # noqa: E402
from pbem.records.rulesets import load_ruleset, preset_names  # noqa: E402

TARGET = 200  # complete games written per second, featured preset, one core


def measure(name: str, games: int, seed: int) -> tuple[float, float, float, float, Coverage, list]:
    ruleset = RANDOM if name == RANDOM else load_ruleset(name)
    wall, cpu = time.perf_counter(), time.process_time()
    playouts = [generate_game(seed, i, ruleset) for i in range(games)]
    play_wall, play_cpu = time.perf_counter() - wall, time.process_time() - cpu
    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu = time.perf_counter(), time.process_time()
        write_games(Path(tmp), games, seed, ruleset)
        write_wall, write_cpu = time.perf_counter() - wall, time.process_time() - cpu
    cov = Coverage()
    for p in playouts:
        cov.add(coverage_of(p.playout))
    return play_wall, play_cpu, write_wall, write_cpu, cov, playouts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", default=",".join([*preset_names(), RANDOM]))
    ap.add_argument("--stats", action="store_true", help="print the coverage of every preset")
    args = ap.parse_args()
    n = args.games
    print(f"{n} games per preset, seed {args.seed}; games/s wall (cpu)")
    print(f"  {'preset':<12} {'played':>16} {'played+written':>18} {'turns':>14} "
          f"{'ends: bases/no-turn/cut':>24} {'redone':>6} {'passing':>7}")
    for name in args.presets.split(","):
        pw, pc, ww, wc, cov, playouts = measure(name, n, args.seed)
        turns = [p.playout.play_turns for p in playouts]
        c = cov.counts
        ends = (f"{c['end: all Bases created']}/{c['end: no legal turn']}/"
                f"{c['end: turn cap']}")
        # games in which a side passed (a siege shut it in)
        passing = sum(1 for p in playouts if coverage_of(p.playout).counts["pass"])
        print(f"  {name:<12} {n / pw:7.0f} ({n / pc:5.0f}) {n / ww:9.0f} ({n / wc:5.0f}) "
              f"{statistics.median(turns):6.0f} med {max(turns):4d} max {ends:>24} "
              f"{sum(p.discarded for p in playouts):>6} {passing:>7}")
        if args.stats or name == "featured":
            print("\n".join("    " + line for line in cov.lines()))
        if name == "featured":
            rate = n / wc
            verdict = "met" if rate >= TARGET else "NOT met"
            print(f"    target >= {TARGET} complete games written/s (cpu): {rate:.0f}, {verdict}")
    sample = record_text(generate_game(args.seed, 0, load_ruleset("featured")), args.seed, 0)
    print(f"a record is about {len(sample)} characters")


if __name__ == "__main__":
    main()
