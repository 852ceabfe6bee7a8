"""``name Alice Archer`` and ``timezone Europe/Paris``: what a player says about himself,
for all his games (the checks are ``pbem.referee.commands.profile_checks``)."""

from __future__ import annotations

import re

from pbem.referee.commands.profile_checks import check_name, find_zone
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store import accounts
from pbem.referee.work.unit import Unit

_NAME_ARGUMENT = re.compile(r"(?i)\bname\s+(.*)")
_ZONE_ARGUMENT = re.compile(r"(?i)\b(?:timezone|time zone|tz)\s+(\S+)")


@command("name", scope="player")
def cmd_name(unit: Unit, order: Order) -> None:
    m = _NAME_ARGUMENT.search(order.original)
    name = check_name(m.group(1) if m else "")
    games = accounts.set_display_name(unit.conn, unit.email, name)
    unit.news.sections.append(("Name", f"From now on the reports and the games' pages call you "
                                  f"{name} (in your {games} game(s) and any new one)."))
    unit.changed = True


@command("timezone", scope="player")
def cmd_timezone(unit: Unit, order: Order) -> None:
    m = _ZONE_ARGUMENT.search(order.original)
    asked = m.group(1) if m else ""
    key = find_zone(asked)
    if key is None:
        raise Refusal(
            f"{asked[:64]!r} is not a time zone the referee knows: write one such as "
            "'timezone Europe/Paris', 'timezone America/New_York' or 'timezone UTC'"
        )
    accounts.set_timezone(unit.conn, unit.email, None if key in ("UTC", "Etc/UTC") else key)
    unit.news.sections.append(("Time zone", f"From now on the deadlines in your mail are written "
                                       f"in {key} time."))
    unit.changed = True
