"""``moves`` by mail: the legal actions now, grouped by piece.

The same listing ``pbem moves`` prints (``pbem.render.legal_text``), so a player and
an archivist read the same words. Rearrangements are counted per Realm, not listed:
there can be thousands.
"""

from __future__ import annotations

from pbem.referee.orders import Order
from pbem.referee.registry import command
from pbem.referee.unit import Unit
from pbem.referee.wording import wrap
from pbem.render.legal_text import format_listing, legal_listing
from pbem.rules.game import GamePosition, Phase


def format_moves(position: GamePosition) -> str:
    """The legal actions of the side to move, one group per line."""
    text = format_listing(position, legal_listing(position)).rstrip("\n")
    if position.phase is Phase.PLAY:
        text += ("\nEach move above is a whole turn on its own (copy it into your reply); a "
                 "turn may also go on with further moves after the first.")
    return wrap(text)


@command("moves", info=True)
def cmd_moves(unit: Unit, order: Order) -> None:
    unit.sections.append(("Legal moves", format_moves(unit.board)))
