"""The game interface's cost: generate and validate rates (games/s) against another tree.

For each game (the Featured Game by default; ``--only classic,medieval`` or ``--only
all``), ``--games`` records are written by ``pbem generate``'s code (the game's own
random player) into a fresh folder, then read back and validated (parse + replay).
Each round runs in a new process of the tree under test; each figure is the median
of ``--rounds`` rounds, and the rounds of every tree and game are interleaved, so
each sees the same load on a shared machine.

``--baseline DIR`` times the Featured Game in another checkout too: the code before
the Featured Game moved behind the game interface (``git archive a8894d3 | tar -x -C
DIR``), with the same seed and so the same games. ``bench_games.py`` gives the
per-preset figures of the other games.

Run: .venv/bin/python bench/bench_interface.py [--games N] [--rounds R] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: one round in a fresh process of the tree under test: only API both the code
#: before and after the game interface have (write_games, load_ruleset, parse_game,
#: replay_game), so the same program times either
ROUND = r"""
import json, sys, tempfile, time
from pathlib import Path
import pbem
from pbem.notation.parse import parse_game
from pbem.records.generate import write_games
from pbem.records.replay import replay_game
from pbem.records.rulesets import load_ruleset

name, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ruleset = load_ruleset(name)
warm = write_games(Path(tempfile.mkdtemp()), 2, seed + 1, ruleset)  # imports, grammar, caches
for p in warm.paths:
    replay_game(parse_game(p.read_text(encoding="utf-8")))
with tempfile.TemporaryDirectory() as tmp:
    t0 = time.process_time()
    done = write_games(Path(tmp), n, seed, ruleset)
    generate = time.process_time() - t0
    texts = [p.read_text(encoding="utf-8") for p in done.paths]
    t0 = time.process_time()
    valid = 0
    for text in texts:
        valid += replay_game(parse_game(text)).valid
    validate = time.process_time() - t0
print(json.dumps({"generate": n / generate, "validate": n / validate, "valid": valid,
                  "pbem": pbem.__file__}))
"""


def one_round(tree: Path, game: str, n: int, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = subprocess.run(
        [sys.executable, "-c", ROUND, game, str(n), str(seed)],
        capture_output=True, text=True, env=env, cwd=tree, check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"{tree} {game}: {run.stderr.strip().splitlines()[-1]}")
    data = json.loads(run.stdout.strip().splitlines()[-1])
    assert Path(data["pbem"]).resolve().is_relative_to(tree.resolve()), data["pbem"]
    return data


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100, help="records per game per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="featured",
                    help="comma-separated game names, or 'all' (default: featured)")
    ap.add_argument("--baseline", type=Path, metavar="DIR",
                    help="another checkout to time the Featured Game against, interleaved")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from pbem.rules.registry import game_names

    names = game_names() if args.only == "all" else args.only.split(",")
    runs: list[tuple[str, Path, str]] = [("this", ROOT, g) for g in names]
    if args.baseline is not None:
        runs.insert(1, ("baseline", args.baseline, "featured"))
    figures: dict[tuple[str, str], list[dict[str, float]]] = {(t, g): [] for t, _, g in runs}
    for _ in range(args.rounds):
        for tree_name, tree, game in runs:
            figures[(tree_name, game)].append(one_round(tree, game, args.games, args.seed))
    print(f"{args.games} games per game and round, seed {args.seed}, median of "
          f"{args.rounds} rounds, interleaved; games/s of CPU time, one process")
    print(f"  {'game':<10} {'tree':<9} {'generate':>9} {'validate':>9} {'valid':>6}")
    for (tree_name, game), rows in figures.items():
        gen = statistics.median(r["generate"] for r in rows)
        val = statistics.median(r["validate"] for r in rows)
        valid = min(int(r["valid"]) for r in rows)
        print(f"  {game:<10} {tree_name:<9} {gen:9.0f} {val:9.0f} {valid:>4}/{args.games}")


if __name__ == "__main__":
    main()
