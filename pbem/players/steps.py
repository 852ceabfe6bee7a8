"""What the step-by-step random players (Oriental, Modern) share: a step as played,
a whole playout, the loop that plays a game from its set-up to its end, and a turn
written back as canonical syntax. Each game's player chooses its own placements and
turns; this only plays them out and keeps them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.rules.game import Phase, Resolved
from pbem.rules.pieces import Side
from pbem.rules.written import ActionText


@dataclass(frozen=True, slots=True)
class Step:
    """One action as played, with its events and the boards around it."""

    side: Side
    action: Any
    events: tuple[Any, ...]
    #: the board the action was played on
    before: tuple[Any, ...]
    #: the position after it
    after: Any


Turn = tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Playout:
    """A whole game as a player played it."""

    rules: Any
    turns: tuple[Turn, ...]
    final: Any
    capped: bool = False
    #: how many of ``turns`` are set-up placements (they come first)
    setup_turns: int = 0

    @property
    def play_turns(self) -> int:
        return len(self.turns) - self.setup_turns


def play_out(
    rules: Any,
    position: Any,
    place: Callable[[Any], Step],
    choose_turn: Callable[[Any], Turn],
    max_turns: int,
) -> Playout:
    """A whole game from ``position``: a placement at a time while the set-up lasts,
    then ``choose_turn``'s turns until the rules end the game or ``max_turns``."""
    pos = position
    turns: list[Turn] = []
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
    turn: Turn, canonical_of: Callable[[Resolved], ActionText]
) -> tuple[ActionText, ...]:
    """A turn as canonical written syntax, every event written (for records)."""
    return tuple(canonical_of(Resolved(s.action, tuple(s.events), s.before)) for s in turn)
