"""The clock's vocabulary: its literal types, units, error, and how instants and durations
are written (every other part of the clock uses these)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from typing import Literal

from pbem.errors import PbemError

Mode = Literal["per_turn", "bank"]
After = Literal["forfeit", "claim"]
Stage = Literal["first", "day", "late"]

#: what a configuration or ``--clock`` writes for games without a clock
NO_CLOCK = ("", "none", "off", "no")

#: notices in the order a turn reaches them; a tick only ever moves forward
STAGES: tuple[Stage, ...] = ("first", "day", "late")

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)



class ClockError(PbemError):
    """A clock setting, command or stored value the referee cannot accept."""

    code = "clock"


def as_utc(value: datetime, what: str = "time") -> datetime:
    """The same instant in UTC; a naive time is a programming error, said plainly."""
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise ClockError(
            f"the {what} {value!r} has no time zone; the clock needs timezone-aware UTC times",
            code="clock.naive_time",
        )
    return value.astimezone(UTC)


def format_instant(value: datetime, zone: tzinfo | None = None) -> str:
    """'Mon 2026-11-30 18:00 UTC' (with seconds when there are any); in ``zone`` (a
    player's time zone) 'Mon 2026-11-30 19:00 CET (Europe/Paris)'."""
    value = as_utc(value)
    clock = "%H:%M:%S" if value.second or value.microsecond else "%H:%M"
    if zone is None:
        return value.strftime(f"%a %Y-%m-%d {clock} UTC")
    local = value.astimezone(zone)
    return local.strftime(f"%a %Y-%m-%d {clock} %Z") + f" ({zone})"

def plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"

def format_duration(value: timedelta) -> str:
    """'2 days 4 hours', '3 hours 5 minutes', '1 day', 'less than a minute'; at most two
    units, rounded down."""
    minutes = int(value.total_seconds() // 60)
    if minutes <= 0:
        return "less than a minute" if value > timedelta(0) else "no time"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour"), (mins, "minute")]
    first = next(i for i, (n, _) in enumerate(parts) if n)
    shown = [plural(n, unit) for n, unit in parts[first:first + 2] if n]
    return " ".join(shown)
