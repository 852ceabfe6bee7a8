"""The legal actions of a position as data and as text: for ``pbem moves`` and the
referee's ``moves`` mail command, so both say the same thing. Each game lists its
own (``Game.legal_listing``, ``Game.format_listing``)."""

from __future__ import annotations

from typing import Any

from pbem.rules.game import GamePosition
from pbem.rules.registry import game_of


def legal_listing(position: GamePosition, *, every: bool = False) -> dict[str, Any]:
    """The legal actions of ``position`` as the JSON object ``--json`` prints."""
    return game_of(position).legal_listing(position, every=every)


def format_listing(position: GamePosition, listing: dict[str, Any]) -> str:
    """The listing in words, one group of actions per line."""
    return game_of(position).format_listing(listing)
