"""``digest on`` / ``digest off``: turn reports held and sent as one mail a day (``pbem
tick``), or at once again (what was held follows now)."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.store import accounts
from pbem.referee.work.unit import Unit


@command("digest-on", "digest-off", scope="player")
def cmd_digest(unit: Unit, order: Order) -> None:
    on = order.name == "digest-on"
    accounts.set_digest(unit.conn, unit.email, on)
    sent = 0 if on else unit.mailer.digest(unit.email, unit.now)
    text = ("From now on your turn reports are held and sent as one digest a day "
            f"(after {unit.options.digest_hour}:00 UTC); refusals, reminders and results "
            "still come at once." if on else
            "From now on every turn report comes at once." +
            (" The reports held so far follow in one digest." if sent else ""))
    unit.news.sections.append(("Digest", text))
    unit.changed = True
