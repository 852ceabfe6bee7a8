"""What a player says about himself by mail: ``name Alice Archer`` (the name the reports
and the live site show) and ``timezone Europe/Paris`` (the zone his deadlines are
written in). Kept per address, for all his games, present and future (``store.accounts``; the
commands are ``commands/profile.py``).

A display name is never an address (no ``@``): the site publishes it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import zoneinfo

from pbem.referee.intake.refusal import Refusal

#: the longest display name, in characters
NAME_MAX = 40
_NAME_ARGUMENT = re.compile(r"(?i)\bname\s+(.*)")
_ZONE_ARGUMENT = re.compile(r"(?i)\b(?:timezone|time zone|tz)\s+(\S+)")
_NAME_PUNCTUATION = frozenset(" .'-")


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
