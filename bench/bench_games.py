"""Per game on the Realm board: random games generated, and records validated, per second.

Run: .venv/bin/python bench/bench_games.py [--games N] [--presets classic,medieval]

For each preset: N games played by the game's random player (``pbem generate``'s
policy) and written as canonical records, then the N records read and validated
(``pbem validate``'s code, one process, one core). Wall-clock and CPU rates are both
printed; on a shared machine the CPU figure is the steadier one. Asserts nothing.
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
from pbem.records.rulesets import load_ruleset, preset_names  # noqa: E402
from pbem.records.validate import validate_source  # noqa: E402

DEFAULT = ("classic", "classic-placement", "classic-double", "medieval", "medieval-placement")


def measure(name: str, games: int, seed: int) -> dict[str, float]:
    ruleset = load_ruleset(name)
    wall, cpu = time.perf_counter(), time.process_time()
    played = [generate_game(seed, i, ruleset) for i in range(games)]
    texts = [record_text(p, seed, i) for i, p in enumerate(played)]
    gen_wall, gen_cpu = time.perf_counter() - wall, time.process_time() - cpu
    wall, cpu = time.perf_counter(), time.process_time()
    valid = 0
    for text in texts:
        for source in read_games(text, path="<bench>"):
            valid += validate_source(source).valid
    val_wall, val_cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert valid == games, f"{name}: {games - valid} generated records do not validate"
    turns = [len(p.turns) for p in played]
    ended = sum(1 for p in played if not p.capped)
    return {
        "gen_wall": games / gen_wall, "gen_cpu": games / gen_cpu,
        "val_wall": games / val_wall, "val_cpu": games / val_cpu,
        "turns": statistics.mean(turns), "ended": 100 * ended / games,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", default=",".join(n for n in DEFAULT if n in preset_names()))
    args = ap.parse_args()
    n = args.games
    print(f"{n} games per preset, seed {args.seed}; games/s wall (cpu), one core")
    print(f"  {'preset':<20} {'generated+written':>18} {'validated':>16} {'turns':>6} "
          f"{'ended':>6}")
    for name in args.presets.split(","):
        m = measure(name, n, args.seed)
        print(
            f"  {name:<20} {m['gen_wall']:>8.0f} ({m['gen_cpu']:>5.0f})   "
            f"{m['val_wall']:>7.0f} ({m['val_cpu']:>5.0f}) {m['turns']:>6.1f} "
            f"{m['ended']:>5.0f}%"
        )


if __name__ == "__main__":
    main()
