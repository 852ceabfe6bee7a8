"""The name an entrant is shown by, everywhere an event shows: never his address."""

from __future__ import annotations


def entrant_name(given: str | None, chosen: str | None, email: str, number: int) -> str:
    """The name given with his entry, else the one he chose by mail, else 'Player N' (N:
    his number in the order of entry). A name that is, or holds, an address is no name."""
    for name in (given, chosen):
        text = " ".join((name or "").split())
        if text and "@" not in text and text.lower() != email.lower():
            return text
    return f"Player {number}"
