"""Legal-move generator rate over positions from seeded random playouts under every preset.
Prints figures; asserts nothing.

Run: .venv/bin/python bench/bench_legal.py [--games N] [--seconds S] [--seed K]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.records.rulesets import load_ruleset, preset_names  # noqa: E402
from pbem.rules.geometry import REALMS  # noqa: E402
from pbem.rules.realm.legal import (  # noqa: E402
    count_actions,
    count_rearrangements,
    legal_actions,
    legal_moves,
    legal_placements,
    legal_sacrifices,
    rearrangements,
)
from pbem.rules.realm.position import Phase, Position, initial_position  # noqa: E402
from pbem.rules.realm.ruleset import Ruleset  # noqa: E402
from pbem.rules.realm.setup import apply_placement  # noqa: E402
from pbem.rules.realm.turns import (  # noqa: E402
    apply_move,
    apply_pass,
    apply_rearrangement,
    apply_sacrifice,
    begin_turn,
    finish_turn,
)


def playout(ruleset: Ruleset, rng: random.Random, max_plies: int = 200) -> list[Position]:
    """Every position of one random game played through the generator."""
    position = initial_position(ruleset)
    seen = [position]
    for _ in range(max_plies):
        if position.phase is Phase.OVER:
            break
        if position.phase is Phase.SETUP:
            position, _ = apply_placement(position, rng.choice(legal_placements(position)))
        else:
            state = begin_turn(position)
            moves = list(legal_moves(state))
            sacrifices = legal_sacrifices(position)
            realms = [r for r in REALMS if count_rearrangements(position, r)]
            roll = rng.random()
            if sacrifices and roll < 0.1:
                state, _ = apply_sacrifice(state, rng.choice(sacrifices))
                state, _ = apply_move(state, rng.choice(list(legal_moves(state))))
                position = finish_turn(state)
            elif realms and (roll < 0.2 or not moves):
                realm = rng.choice(realms)
                n = rng.randrange(min(count_rearrangements(position, realm), 100))
                action = next(islice(rearrangements(position, realm), n, None))
                position, _ = apply_rearrangement(position, action)
            elif moves:
                for _ in range(rng.choice((1, 1, 2, 3))):
                    state, _ = apply_move(state, rng.choice(moves))
                    moves = list(legal_moves(state))
                    if not moves:
                        break
                position = finish_turn(state)
            else:
                position, _ = apply_pass(position)
        seen.append(position)
    return seen


def rate(label: str, positions: list[Position], work: Callable[[Position], int],
         seconds: float) -> None:
    done = items = 0
    start = time.perf_counter()
    while True:
        for p in positions:
            items += work(p)
        done += len(positions)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    print(
        f"{label:<44} {done / elapsed:>9,.0f} positions/s  {1e6 * elapsed / done:>8.1f} us each"
        f"  {items / elapsed:>11,.0f} actions/s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4, help="random games per preset")
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    positions: list[Position] = []
    for name in preset_names():
        ruleset = load_ruleset(name)
        for _ in range(args.games):
            positions.extend(p for p in playout(ruleset, rng) if p.phase is Phase.PLAY)
    print(f"{len(positions)} play positions from {args.games} random games under each of "
          f"{len(preset_names())} presets ({', '.join(preset_names())})")
    rate("legal_actions(rearrangements=False)", positions,
         lambda p: sum(1 for _ in legal_actions(p, rearrangements=False)), args.seconds)
    rate("legal_moves(begin_turn(p)) (first moves)", positions,
         lambda p: sum(1 for _ in legal_moves(begin_turn(p))), args.seconds)
    rate("count_actions (rearrangements counted)", positions,
         lambda p: sum(count_actions(p).values()), args.seconds)
    rate("legal_actions (every Rearrangement listed)", positions,
         lambda p: sum(1 for _ in legal_actions(p)), args.seconds)


if __name__ == "__main__":
    main()
