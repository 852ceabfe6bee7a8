"""What a clock transition asks the referee to do: mail a reminder, forfeit, open a claim."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pbem.referee.clock.units import After
from pbem.rules.pieces import Side
from pbem.rules.values import frozen

# --- effects --------------------------------------------------------------------------------


@frozen
class SendReminder:
    """Mail ``side`` that its deadline is near. ``kind``: 'first' or 'day'."""

    side: Side
    kind: Literal["first", "day"]
    deadline: datetime


@frozen
class Forfeit:
    """``side`` missed its deadline and loses the game (forfeit mode)."""

    side: Side
    deadline: datetime


@frozen
class ClaimOpened:
    """``claimant``'s opponent missed its deadline: tell both that ``claimant`` may now
    claim the win by mail (claim mode)."""

    claimant: Side
    deadline: datetime


@frozen
class ClaimAccepted:
    """``claimant`` won on time; the opponent missed ``deadline``."""

    claimant: Side
    deadline: datetime


@frozen
class ResultWithdrawn:
    """A loss on time of ``side`` is void: its turn had arrived by the deadline and was
    processed only after the forfeit or the claim. The game goes on."""

    side: Side
    was: After


Effect = SendReminder | Forfeit | ClaimOpened | ClaimAccepted | ResultWithdrawn
