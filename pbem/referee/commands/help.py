"""``help``: how to play by mail, with the sender's key, and (in a game mail) the notation
shown with turns the player could send now in his own game."""

from __future__ import annotations

from pbem.referee.letters import help_text
from pbem.referee.orders import Order
from pbem.referee.registry import command
from pbem.referee.unit import Unit
from pbem.referee.wording import examples


@command("help", scope="any", info=True)
def cmd_help(unit: Unit, order: Order) -> None:
    token = unit.player.token if unit.game is not None else unit.token
    mine = examples(unit.board) if unit.game is not None else []
    unit.sections.append(("Help", help_text(token, mine)))
