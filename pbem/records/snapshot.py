"""A position as JSON with nothing left out, so the referee can store one per turn.

``position_to_json`` (interchange) is the public, lossy view; a snapshot is each
game's own complete data (``Game.snapshot_data``), so that
``load_snapshot(dump_snapshot(p)) == p``. A snapshot names its game, except the
Featured Game's (stored before there were other games).
"""

from __future__ import annotations

import json
from typing import Any

from pbem.errors import RecordError
from pbem.rules.game import GamePosition
from pbem.rules.registry import game_for, game_of

SNAPSHOT_VERSION = 1


def snapshot_to_json(position: GamePosition) -> dict[str, Any]:
    game = game_of(position)
    data: dict[str, Any] = {"version": SNAPSHOT_VERSION}
    if game.name != "featured":
        data["game"] = game.name
    data.update(game.snapshot_data(position))
    return data


def snapshot_from_json(data: dict[str, Any]) -> Any:
    if data.get("version") != SNAPSHOT_VERSION:
        raise RecordError(
            f"a stored position has snapshot version {data.get('version')!r}; "
            f"this pbem reads version {SNAPSHOT_VERSION}",
            code="snapshot.version",
        )
    try:
        game = game_for(str(data.get("game", "featured")))
        body = {k: v for k, v in data.items() if k not in ("version", "game")}
        return game.position_from_snapshot(body)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(
            f"a stored position cannot be read: {exc}", code="snapshot.form"
        ) from None


def dump_snapshot(position: GamePosition) -> str:
    return json.dumps(snapshot_to_json(position), separators=(",", ":"), sort_keys=True)


def load_snapshot(text: str) -> Any:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordError(f"a stored position is not JSON: {exc}", code="snapshot.form") from None
    if not isinstance(data, dict):
        raise RecordError("a stored position is not a JSON object", code="snapshot.form")
    return snapshot_from_json(data)
