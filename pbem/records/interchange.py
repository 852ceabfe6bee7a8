"""The JSON interchange formats of notation.md: a position, and one validated game."""

from __future__ import annotations

from typing import Any

from pbem.records.validate import GameReport
from pbem.rules.game import GamePosition
from pbem.rules.registry import game_of


def position_to_json(pos: GamePosition) -> dict[str, Any]:
    """notation.md's position, as the position's game writes it."""
    return game_of(pos).position_to_json(pos)


def report_to_json(report: GameReport) -> dict[str, Any]:
    replay = report.replay
    error = None
    if replay.error is not None:
        e = replay.error
        error = {
            "line": e.span.line if e.span else None,
            "column": e.span.column if e.span else None,
            "turn": e.turn,
            "action": e.action,
            "message": e.message,
        }
    return {
        "path": report.path,
        "index": report.index,
        "valid": report.valid,
        "result": replay.result,
        "turns": len(replay.turns),
        "error": error,
        "warnings": [
            {"line": span.line if (span := w.span) else None,
             "column": span.column if span else None, "message": w.message}
            for w in replay.warnings
        ],
        "final": position_to_json(replay.final) if replay.final is not None else None,
        "annotations": replay.annotations,
    }
