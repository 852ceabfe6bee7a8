"""Random Modern games: they end by the rules, pieces are conserved, and the line
generator and the validator agree move by move (on a capped sample of lines)."""

from __future__ import annotations

import random

import pytest

from pbem.errors import RuleError
from pbem.players.modern import choose_turn, play_random_game, random_ruleset
from pbem.rules.geometry import RAYS, SQUARES, direction_between
from pbem.rules.modern.lines import Realms, check_line, lines_from
from pbem.rules.modern.pieces import HQS
from pbem.rules.modern.position import Phase, initial_position
from pbem.rules.pieces import Kind, Side

#: lines per piece checked against the validator (an opening piece has thousands)
CAP = 50


@pytest.mark.parametrize("seed", range(10))
def test_random_games_end_by_the_rules_and_conserve_pieces(seed):
    rng = random.Random(seed)
    game = play_random_game(rng, random_ruleset(rng))
    assert game.final.phase is Phase.OVER
    for turn in game.turns:
        pos = turn[-1].after
        if pos.phase is Phase.SETUP:
            continue
        for side in Side:
            movers = sum(
                1 for p in pos.board
                if p is not None and p.side is side and p.kind is not Kind.BASE
            )
            hqs = sum(
                1 for p in pos.board
                if p is not None and p.side is side and p.kind is Kind.BASE
            )
            assert hqs == HQS - pos.supply[side]
            assert movers + hqs == 8  # every capture spends the capturing piece


@pytest.mark.parametrize("seed", range(4))
def test_generator_and_validator_agree_move_by_move(seed):
    rng = random.Random(500 + seed)
    pos = initial_position()
    for _ in range(10):
        if pos.phase is not Phase.PLAY:
            break
        side = pos.to_move
        realms = Realms(pos.board, side)
        for s, p in enumerate(pos.board):
            if p is None or p.side is not side or p.kind is Kind.BASE:
                continue
            every = list(lines_from(realms, s))
            by_squares = {line.squares: line for line in every}
            assert len(by_squares) == len(every)  # no line twice
            for line in rng.sample(every, min(CAP, len(every))):
                assert check_line(realms, line.squares) == line
                # its neighbours: the last leg stopped anywhere along its ray, or a turn left out
                a = line.squares[-2]
                d = direction_between(a, line.to)
                variants = [(*line.squares[:-1], t) for t in RAYS[a][d]]
                if line.via:
                    variants.append((*line.squares[:-2], line.to))
                for squares in variants:
                    assert _checked(realms, squares) == by_squares.get(squares), squares
            # random written lines: accepted exactly when the generator has them
            for _ in range(CAP):
                n = rng.choice((2, 2, 3, 4))
                squares = (s, *rng.sample(list(SQUARES), n - 1))
                assert _checked(realms, squares) == by_squares.get(squares), squares
            # and every straight stop square of the piece
            for to in SQUARES:
                assert _checked(realms, (s, to)) == by_squares.get((s, to)), (s, to)
        pos = choose_turn(rng, pos)[-1].after


def _checked(realms: Realms, squares: tuple[int, ...]):
    """The validator's verdict: the line, or None when it refuses it."""
    try:
        return check_line(realms, squares)
    except RuleError:
        return None
