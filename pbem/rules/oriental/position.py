"""A position of Oriental Realm: an immutable value, like the Featured Game's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import RuleError
from pbem.rules.game import Phase
from pbem.rules.geometry import CENTER, square_name
from pbem.rules.move_turns import PlyPosition
from pbem.rules.oriental.groups import surrounded_groups
from pbem.rules.oriental.pieces import EMPEROR, EMPTY_BOARD, MANDARIN, PIECES, Board
from pbem.rules.oriental.rules import ORIENTAL, OrientalRules
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.setup_rules import opening_board
from pbem.rules.values import frozen


@frozen
class Position(PlyPosition):
    ruleset: OrientalRules = ORIENTAL
    board: Board = EMPTY_BOARD
    phase: Phase = Phase.PLAY
    to_move: Side = Side.WHITE
    #: turns played, set-up placements and passes included
    ply: int = 0
    #: "1-0", "0-1", "1/2-1/2" once the game is over
    result: str | None = None
    #: why it ended: "surrounded" or "no-legal-turn"
    end: str | None = None
    #: the group whose surrounding won the game
    surrounded: tuple[int, ...] = ()

    def pieces_of(self, side: Side) -> list[int]:
        return [s for s, p in enumerate(self.board) if p is not None and p.side is side]

    def replace(self, **changes: object) -> Position:
        values: dict[str, Any] = {
            "ruleset": self.ruleset, "board": self.board, "phase": self.phase,
            "to_move": self.to_move, "ply": self.ply, "result": self.result,
            "end": self.end, "surrounded": self.surrounded,
        }
        values.update(changes)
        return Position(**values)


#: the pieces by their JSON code
PIECE_CODES: dict[str, Piece] = {
    f"{s.letter}{k}": (EMPEROR if k == "P" else MANDARIN)[s] for s in Side for k in ("E", "P")
}

#: the reconstructed opening: each side on the eight Centers of its half, the
#: Emperor on e2 (White) and e11 (Black)
STANDARD_SETUP: dict[int, Piece] = {
    **{CENTER[r]: MANDARIN[Side.WHITE] for r in range(8)},
    **{CENTER[r]: MANDARIN[Side.BLACK] for r in range(8, 16)},
    CENTER[1]: EMPEROR[Side.WHITE],
    CENTER[13]: EMPEROR[Side.BLACK],
}


def initial_position(
    rules: OrientalRules = ORIENTAL, setup: Mapping[int, Piece] | None = None
) -> Position:
    """The opening: the standard set-up, an empty board for placement, or a given set-up."""
    board = opening_board(rules, setup, STANDARD_SETUP, PIECE_CODES)
    if board is None:
        return Position(rules, EMPTY_BOARD, Phase.SETUP)
    check_setup(tuple(board))
    return Position(rules, tuple(board), Phase.PLAY)


def check_setup(board: Board) -> None:
    """A given set-up: Mandarins and an Emperor, at most eight a side, nobody surrounded."""
    for side in Side:
        own = [p for p in board if p is not None and p.side is side]
        bad = [p for p in own if p.kind not in (Kind.ENFORCER, Kind.POWER)]
        if bad:
            raise RuleError(
                "setup.piece",
                f"Oriental Realm has Mandarins (E) and an Emperor (P), no {bad[0].kind.title}s",
            )
        if len(own) > PIECES or sum(p.kind is Kind.POWER for p in own) > 1:
            raise RuleError(
                "setup.count",
                f"{side.title} has {len(own)} pieces in the set-up: at most seven Mandarins "
                "and one Emperor",
            )
        for group in surrounded_groups(board, side):
            raise RuleError(
                "setup.surrounded",
                f"{side.title}'s group on {', '.join(square_name(s) for s in group)} is "
                "surrounded already: the game would be over before it began",
            )
