"""A position of a Center-to-Center game (Classic, Medieval): an immutable value."""

from __future__ import annotations

from dataclasses import replace

from pbem.rules.classic.pieces import Piece
from pbem.rules.classic.ruleset import CLASSIC_RULES, Ruleset
from pbem.rules.classic.variant import Variant
from pbem.rules.game import Phase
from pbem.rules.geometry import CENTER, IS_CENTER, REALM_SQUARES, REALMS, SQUARES
from pbem.rules.pieces import Kind, Side
from pbem.rules.values import frozen

Board = tuple[Piece | None, ...]
Pair = tuple[int, int]
EMPTY_BOARD: Board = (None,) * len(SQUARES)


@frozen
class Position:
    ruleset: Ruleset = CLASSIC_RULES
    board: Board = EMPTY_BOARD
    phase: Phase = Phase.PLAY
    to_move: Side = Side.WHITE
    #: turns played, placements included
    ply: int = 0
    #: pieces each side has moved off the board (Medieval)
    off: Pair = (0, 0)
    #: turns in a row that extend the drawing run (Medieval: Duke moves)
    run: int = 0
    #: double moves (Classic option): the side that may take the next one, and the
    #: regular turns it has played since it became that side
    double: tuple[Side, int] = (Side.BLACK, 0)
    result: str | None = None
    #: why the game ended: "dunked", "off", "dukes", "no-move"
    end: str | None = None

    @property
    def variant(self) -> Variant:
        """The engine's hooks for this game: Classic's, or Medieval's subclass."""
        return self.ruleset.variant

    # -- the record's numbering ---------------------------------------------------
    def turn_number(self) -> int:
        """The record's entry number of the turn to be played now.

        Placements are numbered like turns, White first; when Black moves first after
        them, Black's first move opens the next entry (``9...``), and every later
        entry starts with White again.
        """
        shift = 1 if self.phase is not Phase.SETUP and self.black_moved_first() else 0
        return (self.ply + shift) // 2 + 1

    def turn_label(self) -> str:
        return f"{self.turn_number()}{self.to_move.letter}"

    def black_moved_first(self) -> bool:
        return self.ruleset.first_to_move() is Side.BLACK

    # -- questions about the board --------------------------------------------------
    def count_in(self, realm: int) -> int:
        board = self.board
        return sum(1 for s in REALM_SQUARES[realm] if board[s] is not None)

    def in_hand(self, side: Side, kind: Kind) -> int:
        """Pieces of ``side`` and ``kind`` not yet placed (option ``setup: placement``)."""
        total = dict(self.variant.complement)[kind]
        return total - sum(
            1 for p in self.board if p is not None and p.side is side and p.kind is kind
        )

    def on_centers(self, side: Side) -> list[int]:
        board = self.board
        return [c for c in (CENTER[r] for r in REALMS) if (p := board[c]) is not None
                and p.side is side]

    def on_borders(self, side: Side) -> int:
        return sum(
            1 for s, p in enumerate(self.board)
            if p is not None and p.side is side and not IS_CENTER[s]
        )

    def over(self, reason: str, result: str) -> Position:
        return replace(self, phase=Phase.OVER, end=reason, result=result)


def initial_position(ruleset: Ruleset = CLASSIC_RULES) -> Position:
    """The opening: the standard or custom set-up, or an empty board to place on."""
    board = list(EMPTY_BOARD)
    for sq, p in ruleset.initial_board():
        board[sq] = p
    first = ruleset.first_to_move()
    return Position(
        ruleset=ruleset,
        board=tuple(board),
        phase=Phase.SETUP if ruleset.placement else Phase.PLAY,
        to_move=Side.WHITE,
        double=(first.other, 0),
    )
