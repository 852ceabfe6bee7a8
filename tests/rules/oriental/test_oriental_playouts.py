"""Random Oriental games: they end by the rules, the move generator and the
validator agree on every square, and the warning search finds exactly the
surrounds that the next turn makes."""

from __future__ import annotations

import itertools
import random

import pytest

from pbem.errors import RuleError
from pbem.players.oriental import choose_turn, play_random_game, random_ruleset
from pbem.rules.geometry import REALM_SQUARES, REALMS, SQUARES, square
from pbem.rules.oriental.groups import group_at, surrounded_groups, surrounded_next_to
from pbem.rules.oriental.pieces import EMPEROR, MANDARIN, NEIGHBOURS
from pbem.rules.oriental.position import Phase, Position, initial_position
from pbem.rules.oriental.turns import Move, Surrounded, apply_move, begin_turn, destinations
from pbem.rules.oriental.warning import threatened_groups
from pbem.rules.pieces import Side


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_by_the_rules(seed):
    rng = random.Random(seed)
    game = play_random_game(rng, random_ruleset(rng))
    assert game.final.phase is Phase.OVER
    for turn in game.turns:
        for step in turn:
            # nobody is ever surrounded except by the move that ends the game
            for side in (step.side, step.side.other):
                gone = surrounded_groups(step.after.board, side)
                if gone:
                    assert step.after.phase is Phase.OVER and side is step.side.other
                    assert any(isinstance(e, Surrounded) for e in step.events)


@pytest.mark.parametrize("seed", range(4))
def test_generator_and_validator_agree_square_by_square(seed):
    rng = random.Random(100 + seed)
    pos = initial_position()
    for _ in range(30):
        if pos.phase is not Phase.PLAY:
            break
        state = begin_turn(pos)
        side = pos.to_move
        for s, p in enumerate(pos.board):
            if p is None or p.side is not side:
                continue
            legal = set(destinations(pos.board, s))
            for to in SQUARES:
                try:
                    apply_move(state, Move(s, to))
                    accepted = True
                except RuleError:
                    accepted = False
                assert accepted == (to in legal), (s, to)
            break  # one piece per position: the first of the side (its realm opens the turn)
        pos = choose_turn(rng, pos)[-1].after


@pytest.mark.parametrize("seed", range(6))
def test_the_warning_names_what_the_next_turn_can_surround(seed):
    """Whenever the random player finds a surround, the warning given one turn earlier
    named that group; and a group the warning names can indeed be surrounded."""
    rng = random.Random(200 + seed)
    game = play_random_game(rng)
    positions = [t[-1].after for t in game.turns]
    for before, after in itertools.pairwise(positions):
        if after.end == "surrounded":
            # the winner moved from `before`; the loser is `before.to_move.other`
            assert after.surrounded in threatened_groups(before, before.to_move.other)


def _brute_threats(board, victim):
    """Every group of ``victim`` some whole turn of the opponent surrounds: all turns
    played out, no pruning (small positions only)."""
    attacker = victim.other
    found: set[tuple[int, ...]] = set()

    def walk(b, pending, seen):
        if (b, pending) in seen:
            return
        seen.add((b, pending))
        for s in pending:
            for to in destinations(b, s):
                new = list(b)
                new[s], new[to] = None, b[s]
                after = tuple(new)
                g = surrounded_next_to(after, to, victim)
                if g is not None:
                    # every group that this move surrounds counts (it may close two at once)
                    for n in range(144):
                        p = after[n]
                        if p is not None and p.side is victim:
                            grp = group_at(after, n)
                            if all(after[x] is not None for y in grp for x in _nbrs(y)):
                                found.add(grp)
                    continue
                walk(after, pending - {s}, seen)

    for r in REALMS:
        pending = frozenset(
            s for s in REALM_SQUARES[r] if (p := board[s]) is not None and p.side is attacker
        )
        if pending:
            walk(board, pending, set())
    return found


def _nbrs(s):
    return NEIGHBOURS[s]


@pytest.mark.parametrize("seed", range(24))
def test_the_threat_search_agrees_with_playing_out_every_turn(seed):
    rng = random.Random(300 + seed)
    squares = [square(f, r) for f in range(5) for r in range(5)]
    while True:
        picked = rng.sample(squares, 12)
        board = [None] * 144
        for i, s in enumerate(picked):
            side = Side(i % 2)
            board[s] = EMPEROR[side] if i < 2 and rng.random() < 0.5 else MANDARIN[side]
        board = tuple(board)
        if not surrounded_groups(board, Side.WHITE) and not surrounded_groups(board, Side.BLACK):
            break
    position = Position(board=board, to_move=Side.WHITE)
    for victim in Side:
        expected = _brute_threats(board, victim)
        assert set(threatened_groups(position, victim)) == expected
        THREATS_SEEN.append(len(expected))


THREATS_SEEN: list[int] = []


def test_the_agreement_cases_include_threats():
    """The random positions above are dense enough that many hold a threat."""
    assert sum(1 for n in THREATS_SEEN if n) >= 5
