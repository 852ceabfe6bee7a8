"""``help``: how to play by mail, with the sender's key (in a game mail or one of its
own)."""

from __future__ import annotations

from pbem.referee.letters import help_text
from pbem.referee.orders import Order
from pbem.referee.registry import command
from pbem.referee.unit import Unit


@command("help", scope="any", info=True)
def cmd_help(unit: Unit, order: Order) -> None:
    token = unit.player.token if unit.game is not None else unit.token
    unit.sections.append(("Help", help_text(token)))
