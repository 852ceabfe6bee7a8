"""A position as JSON with nothing left out, so the referee can store one per turn.

``position_to_json`` (interchange) is the public, lossy view; this one keeps every
field of ``Position`` (ply, rearrangement streaks, pieces created, how the game
ended) and the ruleset's options, so ``load_snapshot(dump_snapshot(p)) == p``.
Fields are walked generically, so fields added to ``Position`` or options added to
``Ruleset`` later need no change here as long as they are plain values, tuples,
enums, the board or the ruleset.
"""

from __future__ import annotations

import json
from dataclasses import fields
from enum import Enum
from typing import Any

from pbem.errors import RecordError
from pbem.rules.pieces import PIECE_BY_CODE, Side
from pbem.rules.realm.position import Phase, Position
from pbem.rules.realm.ruleset import Ruleset

SNAPSHOT_VERSION = 1
_ENUMS: dict[str, type[Enum]] = {"phase": Phase, "to_move": Side}


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def snapshot_to_json(position: Position) -> dict[str, Any]:
    data: dict[str, Any] = {"version": SNAPSHOT_VERSION}
    for f in fields(position):
        value = getattr(position, f.name)
        if f.name == "ruleset":
            data["ruleset"] = _plain(value.options())
        elif f.name == "board":
            data["board"] = [p.code if p is not None else None for p in value]
        else:
            data[f.name] = _plain(value)
    return data


def snapshot_from_json(data: dict[str, Any]) -> Position:
    if data.get("version") != SNAPSHOT_VERSION:
        raise RecordError(
            f"a stored position has snapshot version {data.get('version')!r}; "
            f"this pbem reads version {SNAPSHOT_VERSION}",
            code="snapshot.version",
        )
    try:
        kwargs: dict[str, Any] = {}
        for f in fields(Position):
            if f.name not in data:
                continue  # a field added since: its default holds
            raw = data[f.name]
            if f.name == "ruleset":
                kwargs["ruleset"] = Ruleset(**{k: _tuples(v) for k, v in raw.items()})
            elif f.name == "board":
                kwargs["board"] = tuple(None if c is None else PIECE_BY_CODE[c] for c in raw)
            elif f.name in _ENUMS:
                kwargs[f.name] = _ENUMS[f.name](raw)
            else:
                kwargs[f.name] = _tuples(raw)
        return Position(**kwargs)
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(
            f"a stored position cannot be read: {exc}", code="snapshot.form"
        ) from None


def dump_snapshot(position: Position) -> str:
    return json.dumps(snapshot_to_json(position), separators=(",", ":"), sort_keys=True)


def load_snapshot(text: str) -> Position:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordError(f"a stored position is not JSON: {exc}", code="snapshot.form") from None
    if not isinstance(data, dict):
        raise RecordError("a stored position is not a JSON object", code="snapshot.form")
    return snapshot_from_json(data)
