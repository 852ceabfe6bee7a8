"""Random Oriental games played to their end: a greedy random player.

It takes a surrounding turn whenever one exists (found by the Warning Option's
search, so that is exercised in every game too) and otherwise moves a few pieces
of a random Realm, leaning towards squares next to enemy pieces. Both sides
play so, and games end by a surround within a few dozen turns as a rule; a draw
(nobody can move) is rare. Every action goes through the rules' own ``apply_*``,
so nothing illegal is played; randomness comes only from ``rng``.
"""

from __future__ import annotations

from pbem.players.steps import (
    Playout,
    Rng,
    Step,
    Turn,
    moves_turn,
    passed,
    play_out,
    play_placement,
)
from pbem.players.steps import written_turn as steps_written
from pbem.rules.geometry import REALM_SQUARES, REALMS
from pbem.rules.move_turns import Placement
from pbem.rules.oriental import turns
from pbem.rules.oriental.game import canonical_of
from pbem.rules.oriental.pieces import NEIGHBOURS, Board
from pbem.rules.oriental.position import Position, initial_position
from pbem.rules.oriental.rules import ORIENTAL, OrientalRules
from pbem.rules.oriental.warning import surrounding_turn
from pbem.rules.pieces import Kind, Side
from pbem.rules.written import ActionText

#: turns of play after which a game is cut off unfinished
MAX_TURNS = 400
#: how often a player who could surround at once does so
P_TAKE_WIN = 0.97


def random_ruleset(rng: Rng) -> OrientalRules:
    return OrientalRules(
        name="oriental",
        setup="placement" if rng.random() < 0.3 else "standard",
        warning=rng.random() < 0.5,
    )


def play_random_game(
    rng: Rng, rules: OrientalRules = ORIENTAL, *, max_turns: int = MAX_TURNS
) -> Playout:
    """A whole game, set-up included, played until the rules end it or ``max_turns``."""
    return play_out(rng, rules, initial_position(rules), _placement, choose_turn, max_turns)


def _placement(rng: Rng, pos: Position) -> Step:
    side = pos.to_move
    kinds = turns.placeable_kinds(pos, side)
    placed = sum(1 for p in pos.board if p is not None and p.side is side)
    # the Emperor comes at a random moment among the eight
    kind = Kind.POWER if Kind.POWER in kinds and (
        len(kinds) == 1 or rng.random() < 1 / (8 - placed)
    ) else Kind.ENFORCER
    action = Placement(kind, rng.choice(turns.placeable_squares(pos)))
    return play_placement(pos, action, turns.apply_placement)


def choose_turn(rng: Rng, pos: Position) -> Turn:
    """One turn for the side to move: a win if there is one, else a random one."""
    side = pos.to_move
    if not turns.has_legal_turn(pos, side):
        return passed(pos, turns.apply_pass)
    if rng.random() < P_TAKE_WIN:
        win = surrounding_turn(pos, side.other)
        if win is not None:
            return _play(pos, win)
    board = pos.board
    realms = [
        r for r in REALMS
        if any((p := board[s]) is not None and p.side is side and turns.destinations(board, s)
               for s in REALM_SQUARES[r])
    ]
    realm = rng.choice(realms)
    pieces = [s for s in REALM_SQUARES[realm] if (p := board[s]) is not None and p.side is side]
    rng.shuffle(pieces)
    count = 1 if rng.random() < 0.6 else rng.choice(list(range(1, len(pieces) + 1)))
    moves: list[turns.Move] = []
    current = board
    for s in pieces:
        if len(moves) >= count:
            break
        options = turns.destinations(current, s)
        if not options:
            continue
        near = [t for t in options if _touches_enemy(current, t, side)]
        to = rng.choice(near) if near and rng.random() < 0.6 else rng.choice(options)
        moves.append(turns.Move(s, to))
        new = list(current)
        new[to], new[s] = new[s], None
        current = tuple(new)
    return _play(pos, moves)


def _touches_enemy(board: Board, sq: int, side: Side) -> bool:
    return any((p := board[n]) is not None and p.side is not side for n in NEIGHBOURS[sq])


def _play(pos: Position, moves: list[turns.Move]) -> Turn:
    """The moves played in order, until the game ends inside the turn."""
    chosen = iter(moves)
    return moves_turn(
        pos, turns.begin_turn, turns.apply_move, turns.finish_turn, lambda _: next(chosen, None)
    )


def written_turn(turn: Turn) -> tuple[ActionText, ...]:
    """A turn as canonical written syntax, every event written (for records)."""
    return steps_written(turn, canonical_of)
