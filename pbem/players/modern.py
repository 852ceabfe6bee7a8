"""Random Modern games played to their end: a greedy random player.

It picks a Realm with a movable piece, preferring one from which some line
captures a Target Realm, and moves its pieces out one by one until none of them
can leave, each by a capturing line when it has one and otherwise by a line
drawn at random, leaning towards the opponent's half. Lines come from the
rules' own generator, one piece at a time (never whole turns), and every move
goes through ``apply_move``; randomness comes only from ``rng``.
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
from pbem.rules.geometry import BORDER_SQUARES, CENTER, REALM_OF
from pbem.rules.modern import turns
from pbem.rules.modern.game import canonical_of
from pbem.rules.modern.lines import Line, Realms, lines_from
from pbem.rules.modern.pieces import TARGETS, Board
from pbem.rules.modern.position import Position, initial_position
from pbem.rules.modern.rules import MODERN, ModernRules
from pbem.rules.move_turns import Placement
from pbem.rules.pieces import Kind, Side
from pbem.rules.written import ActionText

MAX_TURNS = 400
#: how often a piece with a capturing line takes it
P_CAPTURE = 0.9


def random_ruleset(rng: Rng) -> ModernRules:
    return ModernRules(name="modern", setup="placement" if rng.random() < 0.3 else "standard")


def play_random_game(
    rng: Rng, rules: ModernRules = MODERN, *, max_turns: int = MAX_TURNS
) -> Playout:
    """A whole game, set-up included, played until the rules end it or ``max_turns``."""
    return play_out(rng, rules, initial_position(rules), _placement, choose_turn, max_turns)


def _placement(rng: Rng, pos: Position) -> Step:
    side = pos.to_move
    placed = sum(1 for p in pos.board if p is not None and p.side is side)
    has_ca = any(p is not None and p.side is side and p.kind is Kind.POWER for p in pos.board)
    kind = Kind.POWER if not has_ca and (placed == 7 or rng.random() < 1 / (8 - placed)) \
        else Kind.ENFORCER
    action = Placement(kind, rng.choice(turns.placeable_squares(pos, side)))
    return play_placement(pos, action, turns.apply_placement)


def choose_turn(rng: Rng, pos: Position) -> Turn:
    side = pos.to_move
    pieces = turns.movable(pos, side)
    if not pieces:
        return passed(pos, turns.apply_pass)
    realms = sorted({REALM_OF[s] for s in pieces})
    realm = rng.choice(realms)
    pending = set(turns.mobile_in(pos.board, side, realm))

    def next_move(state: turns.TurnState) -> turns.Move | None:
        """A piece of the Realm not moved yet, by one of its lines; None when none can."""
        if not pending:
            return None
        board = state.position.board
        view = Realms(board, side)
        options = {s: list(lines_from(view, s)) for s in sorted(pending)}
        options = {s: ls for s, ls in options.items() if ls}
        if not options:
            return None
        capturing = [s for s, ls in options.items() if any(line.capture for line in ls)]
        frm = rng.choice(capturing) if capturing and rng.random() < P_CAPTURE else rng.choice(
            sorted(options)
        )
        pending.discard(frm)
        return _as_move(rng, board, _pick_line(rng, options[frm], side))

    return moves_turn(pos, turns.begin_turn, turns.apply_move, turns.finish_turn, next_move)


def _pick_line(rng: Rng, lines: list[Line], side: Side) -> Line:
    captures = [line for line in lines if line.capture]
    if captures and rng.random() < P_CAPTURE:
        return rng.choice(captures)
    forward = [line for line in lines if REALM_OF[line.to] in TARGETS[side]]
    if forward and rng.random() < 0.5:
        return rng.choice(forward)
    return rng.choice(lines)


def _as_move(rng: Rng, board: Board, line: Line) -> turns.Move:
    """The Move for a line, with a capture's events written and a random dislodge square
    (the capturer leaves the game, so the square it entered on is one of them)."""
    if not line.capture:
        return turns.Move(line.frm, line.to, line.via)
    realm = REALM_OF[line.to]
    center = CENTER[realm]
    if board[center] is None:
        return turns.Move(line.frm, line.to, line.via, hq=center)
    vacant = [s for s in BORDER_SQUARES[realm] if board[s] is None]
    return turns.Move(line.frm, line.to, line.via, hq=center, dislodge=rng.choice(vacant))


def written_turn(turn: Turn) -> tuple[ActionText, ...]:
    """A turn as canonical written syntax, every event written (for records)."""
    return steps_written(turn, canonical_of)
