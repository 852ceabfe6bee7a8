"""What a player says about himself by mail: ``name Alice Archer`` (the name the reports
and the live site show) and ``timezone Europe/Paris`` (the zone his deadlines are
written in). Kept per address, for all his games, present and future.

A display name is never an address (no ``@``): the site publishes it.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import unicodedata
import zoneinfo
from collections.abc import Callable
from datetime import tzinfo

from pbem.referee.accounts import PlayerMail, ensure_account
from pbem.referee.orders import Order
from pbem.referee.refusal import Refusal

#: the longest display name, in characters
NAME_MAX = 40
_NAME_ARGUMENT = re.compile(r"(?i)\bname\s+(.*)")
_ZONE_ARGUMENT = re.compile(r"(?i)\b(?:timezone|time zone|tz)\s+(\S+)")
_NAME_PUNCTUATION = frozenset(" .'-")


def display_name_of(conn: sqlite3.Connection, email: str) -> str | None:
    row = conn.execute("SELECT display_name FROM accounts WHERE email = ?", (email,)).fetchone()
    return None if row is None or not row[0] else str(row[0])


def zone_of(conn: sqlite3.Connection, email: str) -> tzinfo | None:
    """The player's time zone, None for UTC (the default)."""
    row = conn.execute("SELECT timezone FROM accounts WHERE email = ?", (email,)).fetchone()
    if row is None or not row[0]:
        return None
    try:
        return zoneinfo.ZoneInfo(str(row[0]))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # tzdata removed since: UTC
        return None


@functools.cache
def _zones() -> dict[str, str]:
    """Lower-cased zone key -> the key as tzdata spells it."""
    return {key.lower(): key for key in zoneinfo.available_timezones()}


def find_zone(text: str) -> str | None:
    """``europe/paris`` -> ``Europe/Paris``; None for a zone tzdata does not know."""
    return _zones().get(text.strip().lower())


def check_name(text: str) -> str:
    """The name as it will be shown, or a Refusal saying what is wrong with it."""
    name = " ".join(text.split())
    if not name:
        raise Refusal("write the name after the word: 'name Alice Archer'")
    if len(name) > NAME_MAX:
        raise Refusal(f"a name has at most {NAME_MAX} characters; this one has {len(name)}")
    if "@" in name:
        raise Refusal("a name may not hold an '@': the referee never publishes an address")
    bad = sorted({c for c in name if not (c in _NAME_PUNCTUATION or c.isalnum()
                                          or unicodedata.category(c) == "Mn")})
    if bad:
        raise Refusal(
            "a name is letters, digits, spaces and . ' - only; not "
            + " ".join(repr(c) for c in bad[:5])
        )
    return name


def cmd_name(ctx: PlayerMail, order: Order) -> None:
    m = _NAME_ARGUMENT.search(order.original)
    name = check_name(m.group(1) if m else "")
    ensure_account(ctx.conn, ctx.email)
    ctx.conn.execute("UPDATE accounts SET display_name = ? WHERE email = ?", (name, ctx.email))
    games = ctx.conn.execute(
        "UPDATE players SET name = ? WHERE email = ?", (name, ctx.email)
    ).rowcount
    ctx.sections.append(("Name", f"From now on the reports and the games' pages call you "
                                 f"{name} (in your {games} game(s) and any new one)."))
    ctx.changed = True


def cmd_timezone(ctx: PlayerMail, order: Order) -> None:
    m = _ZONE_ARGUMENT.search(order.original)
    asked = m.group(1) if m else ""
    key = find_zone(asked)
    if key is None:
        raise Refusal(
            f"{asked[:64]!r} is not a time zone the referee knows: write one such as "
            "'timezone Europe/Paris', 'timezone America/New_York' or 'timezone UTC'"
        )
    ensure_account(ctx.conn, ctx.email)
    stored = None if key in ("UTC", "Etc/UTC") else key
    ctx.conn.execute("UPDATE accounts SET timezone = ? WHERE email = ?", (stored, ctx.email))
    ctx.sections.append(("Time zone", f"From now on the deadlines in your mail are written in "
                                      f"{key} time."))
    ctx.changed = True


HANDLERS: dict[str, Callable[[PlayerMail, Order], None]] = {
    "name": cmd_name,
    "timezone": cmd_timezone,
}
