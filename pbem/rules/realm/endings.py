"""Game endings that are not moves: resignation, forfeit, end by agreement, a draw.

The notation has no token for them (a record shows them as its result), but the
referee needs them, and "may this game end by agreement now?" is a rule, so they
live here beside the moves.
"""

from __future__ import annotations

from dataclasses import replace

from pbem.errors import RuleError
from pbem.rules.game import Phase
from pbem.rules.pieces import Side
from pbem.rules.realm.position import Position
from pbem.rules.realm.scoring import score

RESULTS = ("1-0", "0-1", "1/2-1/2")


def _check_not_over(position: Position) -> None:
    if position.phase is Phase.OVER:
        raise RuleError(
            "end.over", f"the game is already over ({position.result or 'no result'})"
        )


def _over(position: Position, result: str, end: str) -> Position:
    return replace(position, phase=Phase.OVER, result=result, end=end)


def _loses(side: Side) -> str:
    return "0-1" if side is Side.WHITE else "1-0"


def resign(position: Position, side: Side) -> Position:
    """``side`` gives up: the other side wins, whatever the board says."""
    _check_not_over(position)
    return _over(position, _loses(side), "resigned")


def forfeit(position: Position, side: Side) -> Position:
    """``side`` lost on time (the referee's clock decides when)."""
    _check_not_over(position)
    return _over(position, _loses(side), "forfeit")


def end_by_agreement(position: Position) -> Position:
    """Both players agree that neither can create another Base: the board is scored."""
    _check_not_over(position)
    if not position.ruleset.end_by_agreement:
        raise RuleError(
            "end.agreement-off",
            f"the rules in force ({position.ruleset.name}) do not let a game end by agreement: "
            "it ends when a side has created all its Bases or neither side can move",
        )
    if position.phase is Phase.SETUP:
        raise RuleError(
            "end.setup", "a game cannot end by agreement during set-up: no turn has been played"
        )
    return _over(position, score(position).result, "agreement")


def agree_draw(position: Position) -> Position:
    """Both players agree to a draw."""
    _check_not_over(position)
    return _over(position, "1/2-1/2", "draw")


def adjudicate(position: Position, result: str) -> Position:
    """The referee's operator decides the result."""
    _check_not_over(position)
    if result not in RESULTS:
        raise RuleError(
            "end.result", f"a result is one of {', '.join(RESULTS)}, not {result!r}"
        )
    return _over(position, result, "adjudicated")
