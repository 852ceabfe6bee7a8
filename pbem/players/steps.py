"""What the step-by-step random players (Oriental, Modern) share: a step as played,
a whole playout, the loop that plays a game from its set-up to its end, and a turn
written back as canonical syntax. Each game's player chooses its own placements and
turns; this only plays them out and keeps them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pbem.rules.game import GamePosition, GameRuleset, Phase, Resolved
from pbem.rules.pieces import BoardPiece, Side
from pbem.rules.written import ActionText

#: the game's own position and ruleset
P = TypeVar("P", bound=GamePosition)
R = TypeVar("R", bound=GameRuleset)


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    rules: R,
    position: P,
    place: Callable[[P], Step[P]],
    choose_turn: Callable[[P], Turn[P]],
    max_turns: int,
) -> Playout[R, P]:
    """A whole game from ``position``: a placement at a time while the set-up lasts,
    then ``choose_turn``'s turns until the rules end the game or ``max_turns``."""
    pos = position
    turns: list[Turn[P]] = []
    while pos.phase is Phase.SETUP:
        step = place(pos)
        turns.append((step,))
        pos = step.after
    setup_turns = len(turns)
    while pos.phase is Phase.PLAY and len(turns) - setup_turns < max_turns:
        turn = choose_turn(pos)
        turns.append(turn)
        pos = turn[-1].after
    return Playout(rules, tuple(turns), pos, pos.phase is not Phase.OVER, setup_turns)


def written_turn(
    turn: Turn[P], canonical_of: Callable[[Resolved], ActionText]
) -> tuple[ActionText, ...]:
    """A turn as canonical written syntax, every event written (for records)."""
    return tuple(canonical_of(Resolved(s.action, tuple(s.events), s.before)) for s in turn)
