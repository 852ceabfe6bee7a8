"""A random player for Classic and Medieval Realm: most of its games end by the rules.

A uniformly random player wanders: in Classic it dunks and rescues for ever, in
Medieval it walks sideways. This one mostly takes the move that gains most (a
dislodging, a rescue, a step toward the far row, a move off the board), sometimes
any legal move, and in Classic with double moves takes a double move when it may,
now and then. Randomness comes only from ``rng``: the same seed, the same game.
"""

from __future__ import annotations

from typing import TypeVar

from pbem.players.steps import Rng
from pbem.rules.classic.actions import Action, Move
from pbem.rules.classic.game import action_text, move_text
from pbem.rules.classic.legal import legal_moves, legal_placements, second_moves
from pbem.rules.classic.position import Position, initial_position
from pbem.rules.classic.ruleset import CLASSIC_RULES, Ruleset
from pbem.rules.classic.turns import apply_move, apply_turn, begin_turn, finish_turn, may_double
from pbem.rules.game import Phase
from pbem.rules.geometry import FORWARD, REALM_OF, REALM_ROW, Direction
from pbem.rules.move_turns import Pass, Placement
from pbem.rules.pieces import Side
from pbem.rules.values import frozen
from pbem.rules.written import ActionText

T = TypeVar("T")

#: how often the player takes any legal move instead of the best-looking one
P_ANY = 0.15
#: how often it takes a double move when it may
P_DOUBLE = 0.4
#: turns after which a game is left unfinished
MAX_TURNS = 600


def _gain(position: Position, move: Move) -> float:
    """How good ``move`` looks: rough, cheap, and never illegal."""
    board = position.board
    variant = position.variant
    p = board[move.frm]
    assert p is not None
    gain = 0.0
    if move.off:
        gain += 4
    elif board[move.to] is not None:
        gain += 2  # a dislodging
    if move.refill is not None:
        gain += -1 if variant.refill_from_opponent else 1
    if variant.moves_off:
        rows = REALM_ROW[REALM_OF[move.to]] - REALM_ROW[REALM_OF[move.frm]]
        gain += 0.5 * (rows if FORWARD[p.side] is Direction.N else -rows)
        if position.run >= 3 and not variant.extends_run(p.kind):
            gain += 3  # break a run of Duke turns before it draws the game
    return gain


def choose_move(position: Position, moves: list[Move], rng: Rng) -> Move:
    if rng.random() < P_ANY:
        return rng.choice(moves)
    scored = [(_gain(position, m), m) for m in moves]
    best = max(g for g, _ in scored)
    return rng.choice([m for g, m in scored if g == best])


def choose_turn(position: Position, rng: Rng) -> tuple[Action, ...]:
    """A legal turn for the side to move: a placement, one or two moves, or the pass."""
    if position.phase is Phase.SETUP:
        return (rng.choice(legal_placements(position)),)
    moves = legal_moves(position)
    if not moves:
        return (Pass(),)
    first = choose_move(position, moves, rng)
    if may_double(position) and rng.random() < P_DOUBLE:
        state, _, _ = apply_move(begin_turn(position), first)
        more = second_moves(state)
        if more:
            return first, choose_move(state.position, more, rng)
    return (first,)


def play_game(
    ruleset: Ruleset, rng: Rng, max_turns: int = MAX_TURNS
) -> tuple[list[tuple[Action, ...]], Position]:
    """A whole random game: its turns in order and the last position (over, or left
    unfinished after ``max_turns`` turns)."""
    played = play_random_game(rng, ruleset, max_turns=max_turns)
    return [t.actions for t in played.turns], played.final


@frozen
class PlayedTurn:
    side: Side
    actions: tuple[Action, ...]
    #: each action as written, every event spelled out
    texts: tuple[ActionText, ...]
    #: the position after the turn
    after: Position


@frozen
class Playout:
    ruleset: Ruleset
    #: placements first (a turn each), then the turns of play
    turns: tuple[PlayedTurn, ...]
    final: Position
    #: cut off at the turn cap instead of ending by the rules
    capped: bool = False


def play_random_game(rng: Rng, ruleset: Ruleset, *, max_turns: int = MAX_TURNS) -> Playout:
    """A whole game from the opening (placements included) until the rules end it, or
    ``max_turns`` turns of play."""
    position = initial_position(ruleset)
    turns: list[PlayedTurn] = []
    played = 0
    while position.phase is not Phase.OVER and played < max_turns:
        side = position.to_move
        actions = choose_turn(position, rng)
        texts: list[ActionText] = []
        if isinstance(actions[0], Move):
            state = begin_turn(position)
            for m in actions:
                assert isinstance(m, Move)
                texts.append(move_text(m, state.position.board))
                state, _, _ = apply_move(state, m)
            position, _ = finish_turn(state)
        else:
            texts.append(action_text(actions[0], position.board))
            position, _ = apply_turn(position, actions)
        if not isinstance(actions[0], Placement):
            played += 1
        turns.append(PlayedTurn(side, actions, tuple(texts), position))
    return Playout(ruleset, tuple(turns), position, capped=position.phase is not Phase.OVER)


def random_ruleset(rng: Rng, game: Ruleset = CLASSIC_RULES) -> Ruleset:
    """A random valid ruleset of ``game``'s rules: every option of the game on or off."""
    options: dict[str, object] = {}
    if rng.random() < 0.4:
        options["setup"] = "placement"
    if "double_moves" in game.variant.options and rng.random() < 0.5:
        options["double_moves"] = True
    return game.with_options(options) if options else game
