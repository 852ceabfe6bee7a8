"""Seeded random legal games, written as canonical records: a larger set for the benchmark.

A plain random policy over the rules core (the variations issue brings the real
generator with its policy): random set-up, then Dispersals of one to three pieces
from a random Realm, Concentrations of two pieces, occasional Rearrangements,
and passes when a side has no legal turn.
"""

from __future__ import annotations

import random
from pathlib import Path

from pbem.errors import RuleError
from pbem.notation.format import format_game
from pbem.notation.syntax import TurnText
from pbem.notation.write import action_text, game_text
from pbem.rules.geometry import CENTER, REALM_OF, Direction, parse_square
from pbem.rules.pieces import Kind, Side
from pbem.rules.realm.actions import Move, Pass, Placement
from pbem.rules.realm.movement import stops
from pbem.rules.realm.position import Phase, Position, initial_position
from pbem.rules.realm.setup import (
    apply_placement,
    expected_kind,
    legal_base_realms,
    legal_power_squares,
)
from pbem.rules.realm.turns import apply_move, apply_pass, begin_turn, finish_turn, has_legal_turn


def _choose(rng: random.Random, state, move: Move):
    """Apply ``move``, making a random legal choice where the rules ask for one."""
    for _ in range(3):
        try:
            return apply_move(state, move)
        except RuleError as exc:
            if exc.code == "event.enforcer-choice":
                opt = rng.choice(exc.options)  # like "Eg4N"
                sq, facing = parse_square(opt[1:-1]), "NESW".index(opt[-1])
                move = Move(move.frm, move.to, create_at=sq, create_facing=Direction(facing))
            elif exc.code == "event.immobilise-choice":
                move = Move(move.frm, move.to, immobilise=parse_square(rng.choice(exc.options)[2:]))
            else:
                raise
    raise AssertionError("no choice satisfied the rules")


Turns = list[tuple[Side, TurnText]]


def random_game(rng: random.Random, max_turns: int = 160) -> tuple[Turns, Position]:
    pos = initial_position()
    turns: list[tuple[Side, TurnText]] = []
    while pos.phase is Phase.SETUP:
        side = pos.to_move
        if expected_kind(pos) is Kind.BASE:
            sq = CENTER[rng.choice(legal_base_realms(pos, side))]
        else:
            sq = rng.choice(legal_power_squares(pos, side))
        action = Placement(expected_kind(pos), sq)
        new, events = apply_placement(pos, action)
        turns.append((side, TurnText((action_text(action, events, pos.board),))))
        pos = new
    for _ in range(max_turns):
        if pos.phase is Phase.OVER:
            break
        side = pos.to_move
        if not has_legal_turn(pos, side):
            new, _ = apply_pass(pos)
            turns.append((side, TurnText((action_text(Pass(), [], pos.board),))))
            pos = new
            continue
        state = begin_turn(pos)
        board = pos.board
        movers = [
            s
            for s, p in enumerate(board)
            if p is not None and p.side is side and p.mobile and stops(board, p, s)
        ]
        if not movers:
            # only a Rearrangement is left: skip the benchmark game here
            break
        first = rng.choice(movers)
        realm = REALM_OF[first]
        group = [s for s in movers if REALM_OF[s] == realm and s != first]
        rng.shuffle(group)
        plan = [first, *group[: rng.choice((0, 0, 1, 2))]]
        actions = []
        for frm in plan:
            piece = state.position.board[frm]
            if piece is None or not piece.mobile or frm in state.arrived or state.over:
                continue
            options = stops(state.position.board, piece, frm)
            if not options:
                continue
            board = state.position.board
            move = Move(frm, rng.choice(options))
            try:
                state, events = _choose(rng, state, move)
            except RuleError:
                continue  # e.g. neither a Dispersal nor a Concentration: try the next piece
            actions.append(action_text(move, events, board))
        if not actions:
            break
        pos = finish_turn(state)
        turns.append((side, TurnText(tuple(actions))))
    return turns, pos


def write_records(folder: Path, n: int, seed: int = 1) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        turns, pos = random_game(rng)
        headers = {"game": f"random {seed}-{i}", "ruleset": "featured"}
        text = format_game(game_text(turns, headers, pos.result or "*"))
        path = folder / f"random-{seed}-{i:04d}.realm"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "build/random")
    ps = write_records(out, int(sys.argv[2]) if len(sys.argv) > 2 else 20)
    print(f"wrote {len(ps)} records to {out}")
