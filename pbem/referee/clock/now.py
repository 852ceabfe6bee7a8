"""The referee's one source of "now": the wall clock, or ``PBEM_NOW`` for tests and drills.

Everything timed (deadlines, reminders, vacations, digests) asks this, so a test can run
``pbem tick`` or ``pbem mail`` in a subprocess at any moment it likes without sleeping.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime

from pbem.errors import UsageError

Now = Callable[[], datetime]


def parse_now(text: str) -> datetime:
    """``2026-12-01T10:00:00Z`` (or any ISO time with a zone; a bare time is taken as UTC)."""
    source = text.strip()
    try:
        value = datetime.fromisoformat(source.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"PBEM_NOW={source!r} is not a time: write e.g. 2026-12-01T10:00:00Z"
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def system_now() -> datetime:
    """``PBEM_NOW`` when set, else the wall clock, in UTC."""
    fixed = os.environ.get("PBEM_NOW")
    if fixed:
        return parse_now(fixed)
    return datetime.now(UTC)
