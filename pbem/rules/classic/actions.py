"""What a player does (actions) and what the rules make happen (events).

A Move names every Center it lands on, in order, and the mover's choices: which
Border piece goes onto the Center it left, and where the piece it dislodges goes.
A choice left out (None) is filled in by the rules when there is only one way to
make it; where there are several, leaving it out is an error naming them.
"""

from __future__ import annotations

from pbem.rules.move_turns import GameEnded, Pass, Placement
from pbem.rules.pieces import Kind, Side
from pbem.rules.values import frozen


@frozen
class Move:
    """A piece moves from the Center ``path[0]`` over the Centers ``path[1:]``.

    ``off`` (Medieval): after the last Center of the path it moves off the board.
    """

    path: tuple[int, ...]
    off: bool = False
    #: the Border square whose piece goes onto the Center the mover left
    refill: int | None = None
    #: the Border square the dislodged enemy piece goes to
    dislodge: int | None = None

    @property
    def frm(self) -> int:
        return self.path[0]

    @property
    def to(self) -> int:
        """The last Center the move lands on (its start, for a move straight off)."""
        return self.path[-1]


Action = Placement | Move | Pass


# -- events, in the order they happen --------------------------------------------------
@frozen
class Placed:
    side: Side
    kind: Kind
    square: int


@frozen
class Refilled:
    """A Border piece went onto the Center a mover left: Classic's rescue (the mover's
    own piece) or Medieval's replacement (the opponent's)."""

    #: the side whose piece went onto the Center
    side: Side
    kind: Kind
    frm: int
    to: int
    rescue: bool


@frozen
class Dislodged:
    #: the side whose piece was dislodged
    side: Side
    kind: Kind
    frm: int
    to: int


@frozen
class MovedOff:
    side: Side
    kind: Kind
    #: the Center it left the board from
    square: int


Event = Placed | Refilled | Dislodged | MovedOff | GameEnded
