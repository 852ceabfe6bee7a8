"""``notify webhook URL`` / ``notify off``: a player's own webhook, called once when it
becomes his turn in any of his games, when one ends, and when he is offered something
(``pbem.referee.work.hook_events``). The URL is checked as it comes (``webhooks.check_url``);
its host is resolved and checked again at every call."""

from __future__ import annotations

import re

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.outgoing.hook_outbox import hook_settings
from pbem.referee.outgoing.webhooks import check_url
from pbem.referee.store import delivery
from pbem.referee.work.unit import Unit

_URL = re.compile(r"(?i)\bnotify\s+webhook\s+(\S+)")


@command("notify", scope="player")
def cmd_notify(unit: Unit, order: Order) -> None:
    if order.text.strip() == "notify off":
        delivery.set_player_hook(unit.conn, unit.email, None)
        unit.news.sections.append(("Notices", "Your webhook is off: the referee calls no URL for "
                                         "you any more."))
        unit.changed = True
        return
    m = _URL.search(order.original)
    url = m.group(1).strip("<>") if m else ""
    why = check_url(url, hook_settings(unit.config))
    if why is not None:
        raise Refusal(f"{why}; write for example 'notify webhook "
                      "https://discord.com/api/webhooks/...' (or 'notify off')")
    delivery.set_player_hook(unit.conn, unit.email, url)
    unit.news.sections.append(("Notices", "From now on the referee calls your webhook once when "
                                     "it becomes your turn, when a game of yours ends and "
                                     "when you are offered a draw, an end or a takeback. "
                                     "'notify off' stops it."))
    unit.changed = True
