"""``say ...`` (or ``message: ...``): a message to the opponent. It is relayed (in the turn
report when it comes with a turn, else in a mail of its own) and kept in the game's record
as a comment; a finished game's public record shows it only when the config says
``public_messages: true``."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.work.unit import Unit

#: the longest message kept (a mail is no place for letters; the record stays readable)
MAX_SAID = 500


@command("say")
def cmd_say(unit: Unit, order: Order) -> None:
    text = " ".join(order.text.split())
    if len(text) > MAX_SAID:
        raise Refusal(f"a message may be {MAX_SAID} characters long at most; yours has "
                      f"{len(text)}: shorten it, or split it over several 'say' lines", order)
    unit.news.said.append(text)
    unit.changed = True
