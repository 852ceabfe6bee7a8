"""A Featured position as plain data with nothing left out (the referee's snapshot).

Every field of ``Position`` (ply, rearrangement streaks, pieces created, how the game
ended) and the ruleset's options are kept, so the round trip is exact. Fields are
walked generically, so fields added to ``Position`` or options added to ``Ruleset``
later need no change here as long as they are plain values, tuples, enums, the
board or the ruleset. Text (JSON) is ``pbem.records.snapshot``'s business.
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from pbem.rules.game import Phase
from pbem.rules.pieces import PIECE_BY_CODE, Side
from pbem.rules.realm.position import Position
from pbem.rules.realm.ruleset import Ruleset

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


def snapshot_data(position: Position) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields(position):
        value = getattr(position, f.name)
        if f.name == "ruleset":
            data["ruleset"] = _plain(value.options())
        elif f.name == "board":
            data["board"] = [p.code if p is not None else None for p in value]
        else:
            data[f.name] = _plain(value)
    return data


def position_from_snapshot(data: dict[str, Any]) -> Position:
    """KeyError, TypeError or ValueError for data that is no Featured snapshot."""
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
