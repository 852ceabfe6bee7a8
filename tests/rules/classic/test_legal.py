"""The move generator agrees with the validator, in Classic and Medieval, by brute force.

Positions come from random playouts under every ruleset of both games. At each, a
superset of candidate moves goes through the validator: from every own piece, every
walk over adjacent Centers that goes on only from friendly ones (plus one step past a
stop, and one step back onto the walk), with and without ``off``; for each legal
path, every square of the two Realms (and none) as the rescue or replacement and as
the dislodging square. The validator must accept exactly what the generator yields,
fill in a left-out choice only when it is forced, and the generator must yield each
move once.
"""

from __future__ import annotations

import random

import pytest

from pbem.errors import RuleError
from pbem.players.classic import choose_turn, play_game
from pbem.rules.classic.actions import Move
from pbem.rules.classic.legal import legal_moves, legal_turns
from pbem.rules.classic.position import Phase, Position, initial_position
from pbem.rules.classic.ruleset import CLASSIC_RULES
from pbem.rules.classic.turns import TurnState, apply_move, apply_turn, begin_turn, may_double
from pbem.rules.geometry import CENTER, NEIGHBOUR_REALM, REALM_OF, REALM_SQUARES
from pbem.rules.medieval.variant import MEDIEVAL_RULES

RULESETS = [
    CLASSIC_RULES,
    CLASSIC_RULES.with_options({"setup": "placement"}),
    CLASSIC_RULES.with_options({"double_moves": True}),
    CLASSIC_RULES.with_options({"setup": "placement", "double_moves": True}),
    MEDIEVAL_RULES,
    MEDIEVAL_RULES.with_options({"setup": "placement"}),
]
IDS = [r.name for r in RULESETS]


def _walks(position: Position, frm: int) -> set[tuple[tuple[int, ...], bool]]:
    board = position.board
    side = position.to_move
    out: set[tuple[tuple[int, ...], bool]] = {((frm,), True), ((frm,), False)}
    stack = [(frm,)]
    while stack:
        path = stack.pop()
        for n in NEIGHBOUR_REALM[REALM_OF[path[-1]]]:
            if n < 0:
                continue
            c = CENTER[n]
            longer = (*path, c)
            out.add((longer, False))
            out.add((longer, True))
            q = board[c]
            if c in path or q is None or q.side is not side:
                # one step past a stop or onto the walk again
                for m in NEIGHBOUR_REALM[n]:
                    if m >= 0:
                        out.add(((*longer, CENTER[m]), False))
                continue
            stack.append(longer)
    return out


def _try(state: TurnState, move: Move) -> Move | None:
    try:
        return apply_move(state, move)[2]
    except RuleError:
        return None


def check_agreement(state: TurnState) -> None:
    position = state.position
    generated = legal_moves(position) if not state.moves or may_double(state.start) else []
    assert len(set(generated)) == len(generated), "a move listed twice"
    for m in generated:
        assert _try(state, m) == m, m
    paths = {(m.path, m.off) for m in generated}
    board = position.board
    for frm in CENTER:
        p = board[frm]
        if p is None or p.side is not position.to_move:
            continue
        for path, off in _walks(position, frm):
            if (path, off) not in paths:
                # not a legal path: refused whatever the choices
                assert _try(state, Move(path, off)) is None, (path, off)
                assert _try(state, Move(path, off, *_some_choice(generated))) is None
                continue
            same = [m for m in generated if (m.path, m.off) == (path, off)]
            refills = {m.refill for m in same}
            dislodges = {m.dislodge for m in same}
            # the choices are independent: every rescue with every dislodging square
            assert len(same) == len(refills) * len(dislodges)
            own = REALM_SQUARES[REALM_OF[frm]]
            end = REALM_SQUARES[REALM_OF[path[-1]]]
            for r in (None, *own):
                for d in (None, *end):
                    got = _try(state, Move(path, off, r, d))
                    r_ok = r in refills or (r is None and len(refills) == 1)
                    d_ok = d in dislodges or (d is None and len(dislodges) == 1)
                    if not (r_ok and d_ok):
                        assert got is None, (path, off, r, d)
                        continue
                    # a left-out choice is filled in only where it is forced
                    want = Move(
                        path,
                        off,
                        r if r is not None else next(iter(refills)),
                        d if d is not None else next(iter(dislodges)),
                    )
                    assert got == want, (path, off, r, d)


def _some_choice(generated: list[Move]) -> tuple[int | None, int | None]:
    for m in generated:
        if m.refill is not None or m.dislodge is not None:
            return m.refill, m.dislodge
    return None, None


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_generator_and_validator_agree_on_random_playouts(ruleset):
    rng = random.Random(1729)
    checked = 0
    for _ in range(3):
        position = initial_position(ruleset)
        turns = 0
        while position.phase is not Phase.OVER and turns < 120:
            if position.phase is Phase.PLAY and rng.random() < 0.3:
                state = begin_turn(position)
                check_agreement(state)
                checked += 1
                moves = legal_moves(position)
                if moves and may_double(position):
                    state, _, _ = apply_move(state, rng.choice(moves))
                    if not state.over:
                        check_agreement(state)
            position, _ = apply_turn(position, choose_turn(position, rng))
            turns += 1
    assert checked > 5


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_every_listed_turn_plays_and_a_pass_only_when_nothing_moves(ruleset):
    rng = random.Random(7)
    position = initial_position(ruleset)
    seen = 0
    while position.phase is not Phase.OVER and seen < 60:
        turns = list(legal_turns(position))
        assert turns
        for turn in rng.sample(turns, min(5, len(turns))):
            apply_turn(position, turn)
        position, _ = apply_turn(position, rng.choice(turns))
        seen += 1


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_random_games_end_by_the_rules_and_keep_every_piece(ruleset):
    finished = 0
    for seed in range(12):
        _, position = play_game(ruleset, random.Random(seed))
        on_board = sum(p is not None for p in position.board)
        assert on_board + sum(position.off) == 16
        if position.phase is Phase.OVER:
            finished += 1
            assert position.result in ("1-0", "0-1", "1/2-1/2")
    assert finished >= 9  # most games
