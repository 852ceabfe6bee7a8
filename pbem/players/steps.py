"""What the random players share: the random source they draw from (``Rng``), and for
the step-by-step players (Oriental, Modern) a step as played, a whole playout, the
loop that plays a game from its set-up to its end, a placement, a pass and a turn of
moves played step by step, and a turn written back as canonical syntax. Each game's
player chooses its own placements and moves; this only plays them out and keeps them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Generic, Protocol, TypeVar

from pbem.rules.game import GamePosition, GameRuleset, Phase, Resolved
from pbem.rules.move_turns import Pass, Placement
from pbem.rules.pieces import BoardPiece, Side
from pbem.rules.values import frozen
from pbem.rules.written import ActionText

#: the game's own position and ruleset
P = TypeVar("P", bound=GamePosition)
R = TypeVar("R", bound=GameRuleset)
#: the game's own state of the moves of a turn, and its own move
S = TypeVar("S", bound="MovesState")
M = TypeVar("M")
T = TypeVar("T")
P_co = TypeVar("P_co", covariant=True)


class Rng(Protocol):
    """What a player needs of a random source (``random.Random`` has it all): the only
    source of randomness, so the same seed plays the same game."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def shuffle(self, x: list[T]) -> None: ...

    def sample(self, population: list[T], k: int) -> list[T]: ...


class MovesState(Protocol[P_co]):
    """A game's state of the moves of a turn under way, as a player reads it."""

    @property
    def position(self) -> P_co: ...

    @property
    def over(self) -> bool: ...


@frozen
class Step(Generic[P]):
    """One action as played, with its events and the boards around it (the action and
    the events are the game's own values, as in ``Resolved``)."""

    side: Side
    action: object
    events: tuple[object, ...]
    #: the board the action was played on
    before: tuple[BoardPiece | None, ...]
    #: the position after it
    after: P


Turn = tuple[Step[P], ...]


@frozen
class Playout(Generic[R, P]):
    """A whole game as a player played it."""

    rules: R
    turns: tuple[Turn[P], ...]
    final: P
    capped: bool = False
    #: how many of ``turns`` are set-up placements (they come first)
    setup_turns: int = 0

    @property
    def play_turns(self) -> int:
        return len(self.turns) - self.setup_turns


def play_out(
    rng: Rng,
    rules: R,
    position: P,
    place: Callable[[Rng, P], Step[P]],
    choose_turn: Callable[[Rng, P], Turn[P]],
    max_turns: int,
) -> Playout[R, P]:
    """A whole game from ``position``: a placement at a time while the set-up lasts,
    then ``choose_turn``'s turns until the rules end the game or ``max_turns`` (each
    chosen with ``rng``)."""
    pos = position
    turns: list[Turn[P]] = []
    while pos.phase is Phase.SETUP:
        step = place(rng, pos)
        turns.append((step,))
        pos = step.after
    setup_turns = len(turns)
    while pos.phase is Phase.PLAY and len(turns) - setup_turns < max_turns:
        turn = choose_turn(rng, pos)
        turns.append(turn)
        pos = turn[-1].after
    return Playout(rules, tuple(turns), pos, pos.phase is not Phase.OVER, setup_turns)


def play_placement(
    position: P,
    action: Placement,
    apply_placement: Callable[[P, Placement], tuple[P, Sequence[object]]],
) -> Step[P]:
    """A placement played by the game's own ``apply_placement``."""
    after, events = apply_placement(position, action)
    return Step(position.to_move, action, tuple(events), position.board, after)


def passed(position: P, apply_pass: Callable[[P], tuple[P, Sequence[object]]]) -> Turn[P]:
    """The pass (the side to move has no move), played by the game's own ``apply_pass``."""
    after, events = apply_pass(position)
    return (Step(position.to_move, Pass(), tuple(events), position.board, after),)


def moves_turn(
    position: P,
    begin: Callable[[P], S],
    apply_move: Callable[[S, M], tuple[S, Sequence[object]]],
    finish: Callable[[S], P],
    next_move: Callable[[S], M | None],
) -> Turn[P]:
    """A turn of moves, a step each: ``next_move`` chooses each move from the moves so
    far (None: the turn is done) until the game ends inside the turn; the last step's
    position is the turn's end (``finish``)."""
    side = position.to_move
    state = begin(position)
    steps: list[Step[P]] = []
    while not state.over and (move := next_move(state)) is not None:
        before = state.position.board
        state, events = apply_move(state, move)
        steps.append(Step(side, move, tuple(events), before, state.position))
    steps[-1] = replace(steps[-1], after=finish(state))
    return tuple(steps)


def written_turn(
    turn: Turn[P], canonical_of: Callable[[Resolved], ActionText]
) -> tuple[ActionText, ...]:
    """A turn as canonical written syntax, every event written (for records)."""
    return tuple(canonical_of(Resolved(s.action, tuple(s.events), s.before)) for s in turn)
