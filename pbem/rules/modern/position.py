"""A position of Modern Realm: an immutable value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import RuleError
from pbem.rules.game import Phase
from pbem.rules.geometry import CENTER
from pbem.rules.modern.pieces import AGENT, COUNTER_AGENT, EMPTY_BOARD, HQ, HQS, Board
from pbem.rules.modern.rules import MODERN, ModernRules
from pbem.rules.move_turns import PlyPosition
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.pieces import Pair as Pair
from pbem.rules.setup_rules import opening_board
from pbem.rules.values import frozen


@frozen
class Position(PlyPosition):
    ruleset: ModernRules = MODERN
    board: Board = EMPTY_BOARD
    phase: Phase = Phase.PLAY
    to_move: Side = Side.WHITE
    #: HQs each side has left in supply
    supply: Pair = (HQS, HQS)
    #: turns played, set-up placements and passes included
    ply: int = 0
    result: str | None = None
    #: why it ended: "targets" (all eight Target Centers) or "no-legal-turn"
    end: str | None = None

    def replace(self, **changes: object) -> Position:
        values: dict[str, Any] = {
            "ruleset": self.ruleset, "board": self.board, "phase": self.phase,
            "to_move": self.to_move, "supply": self.supply, "ply": self.ply,
            "result": self.result, "end": self.end,
        }
        values.update(changes)
        return Position(**values)


#: the pieces by their JSON code
PIECE_CODES: dict[str, Piece] = {
    f"{s.letter}{k}": {"E": AGENT, "P": COUNTER_AGENT, "B": HQ}[k][s]
    for s in Side
    for k in ("E", "P", "B")
}

#: the reconstructed opening: each side's Agents on the Centers of its half, the
#: Counter-Agent on e2 (White) and e11 (Black)
STANDARD_SETUP: dict[int, Piece] = {
    **{CENTER[r]: AGENT[Side.WHITE] for r in range(8)},
    **{CENTER[r]: AGENT[Side.BLACK] for r in range(8, 16)},
    CENTER[1]: COUNTER_AGENT[Side.WHITE],
    CENTER[13]: COUNTER_AGENT[Side.BLACK],
}


def initial_position(
    rules: ModernRules = MODERN, setup: Mapping[int, Piece] | None = None
) -> Position:
    """The standard opening, an empty board for placement, or a given set-up."""
    board = opening_board(rules, setup, STANDARD_SETUP, PIECE_CODES)
    if board is None:
        return Position(rules, EMPTY_BOARD, Phase.SETUP)
    supply = [HQS, HQS]
    for side in Side:
        own = [p for p in board if p is not None and p.side is side]
        supply[side] -= sum(p.kind is Kind.BASE for p in own)
        if sum(p.kind is Kind.POWER for p in own) > 1 or len(own) - (HQS - supply[side]) > 8:
            raise RuleError(
                "setup.count",
                f"{side.title} has too many pieces in the set-up: at most seven Agents and "
                "one Counter-Agent (and HQs)",
            )
    return Position(rules, tuple(board), Phase.PLAY, supply=(supply[0], supply[1]))
