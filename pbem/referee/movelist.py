"""``moves`` by mail: the legal actions now, grouped by piece.

The same listing ``pbem moves`` prints (``pbem.render.legal_text``), so a player and
an archivist read the same words. Rearrangements are counted per Realm, not listed:
there can be thousands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.referee.orders import Order
from pbem.render.legal_text import format_listing, legal_listing
from pbem.rules.game import GamePosition, Phase

if TYPE_CHECKING:
    from pbem.referee.service import Referee, Work


def format_moves(position: GamePosition) -> str:
    """The legal actions of the side to move, one group per line."""
    text = format_listing(position, legal_listing(position)).rstrip("\n")
    if position.phase is Phase.PLAY:
        text += ("\nA turn may go on with further moves after the first; these are its "
                 "first actions.")
    return text


def cmd_moves(ref: Referee, work: Work, order: Order) -> None:
    work.sections.append(("Legal moves", format_moves(work.position)))


MAIL_COMMANDS = {"moves": cmd_moves}
