"""The JSON interchange formats of notation.md: a position, and one validated game."""

from __future__ import annotations

from typing import Any

from pbem.errors import Diagnostic
from pbem.records.validate import GameReport
from pbem.rules.geometry import SQUARE_NAMES
from pbem.rules.pieces import Side
from pbem.rules.realm.position import Phase, Position


def position_to_json(pos: Position) -> dict[str, Any]:
    """notation.md's position; ``sacrificed`` only where Powers were sacrificed (a
    variation), so the Featured Game's JSON is exactly the documented one."""
    data = {
        "game": "realm",
        "phase": pos.phase.value,
        "to_move": None if pos.phase is Phase.OVER else pos.to_move.key,
        "board": {SQUARE_NAMES[s]: p.code for s, p in enumerate(pos.board) if p is not None},
        "supply": {
            s.key: {
                "B": pos.bases_in_supply(s),
                "P": pos.powers_in_supply(s),
                "E": pos.enforcers_in_supply(s),
            }
            for s in Side
        },
        "captured": {s.key: pos.captured[s] for s in Side},
        "realms": {s.key: pos.realms_controlled(s) for s in Side},
        "result": pos.result,
    }
    if any(pos.sacrificed):
        data["sacrificed"] = {s.key: pos.sacrificed[s] for s in Side}
    return data


def _warning(d: Diagnostic) -> dict[str, Any]:
    return {
        "line": d.span.line if d.span else None,
        "column": d.span.column if d.span else None,
        "message": d.message,
    }


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
        "warnings": [_warning(w) for w in replay.warnings],
        "final": position_to_json(replay.final) if replay.final is not None else None,
    }
