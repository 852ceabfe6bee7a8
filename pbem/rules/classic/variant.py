"""What makes a Center-to-Center game Classic or Medieval: the hooks of one engine.

The model is python-chess's ``variant.py``: the movement, the turns and the move
generator are written once, and ask the Variant only what a game's rules say
differently. Classic Realm is the base class; Medieval Realm overrides some hooks.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.rules.classic.pieces import Piece, piece
from pbem.rules.geometry import (
    CENTER,
    DIRECTIONS,
    HALF,
    REALMS,
    Direction,
)
from pbem.rules.pieces import Kind, Side


def centers_of(side: Side) -> list[int]:
    """The eight Centers of ``side``'s own half, in square order."""
    return sorted(CENTER[r] for r in HALF[side])


class Variant:
    """Classic Realm."""

    #: the game's name in rulesets and JSON
    game = "classic"
    title = "Classic Realm"
    #: each side's pieces, by kind
    complement: tuple[tuple[Kind, int], ...] = ((Kind.ENFORCER, 8),)
    #: the pieces' names in the game's own words (singular, plural)
    names: Mapping[Kind, tuple[str, str]] = {Kind.ENFORCER: ("Enforcer", "Enforcers")}
    #: the options a ruleset of this game may set
    options: tuple[str, ...] = ("setup", "double_moves")
    #: a Center left by a mover is refilled from the opponent's Border pieces
    #: (Medieval's replacement) instead of the mover's own (Classic's rescue)
    refill_from_opponent = False
    #: pieces may move off the board from the far row (Medieval)
    moves_off = False

    def name(self, kind: Kind) -> str:
        return self.names[kind][0]

    def piece_words(self, p: Piece) -> str:
        """'the White Enforcer', 'the Black Duke'."""
        return f"the {p.side.title} {self.name(p.kind)}"

    def opening(self) -> tuple[tuple[int, Piece], ...]:
        """The reconstructed standard set-up: each side's pieces on its own half's Centers."""
        return tuple(
            (sq, piece(side, Kind.ENFORCER)) for side in Side for sq in centers_of(side)
        )

    def directions(self, p: Piece) -> tuple[Direction, ...]:
        """The directions ``p`` may step in (every step of a continuing move)."""
        return DIRECTIONS

    def direction_refusal(self, p: Piece, d: Direction) -> str | None:
        """Why ``p`` may not step in direction ``d``, in words; None when it may."""
        return None

    def entry_refusal(
        self, board: tuple[Piece | None, ...], mover: Piece, realm: int, full: bool
    ) -> tuple[str, str] | None:
        """Why the Center of ``realm`` cannot be landed on: (rule id, reason); or None."""
        if full:
            return "move.full-realm", "its Realm is full (nine pieces)"
        return None

    def placement_realms(self, side: Side) -> frozenset[int] | range:
        """Where ``side`` may place its pieces (option ``setup: placement``)."""
        return REALMS

    def first_after_placement(self) -> Side:
        """Who moves first after ``setup: placement``: the player who placed the 16th piece."""
        return Side.BLACK

    def far_row(self, side: Side) -> tuple[int, ...]:
        """Realms ``side`` may move off the board from (none in Classic)."""
        return ()

    def winner_after_move(self, board: tuple[Piece | None, ...], off: tuple[int, int],
                          side: Side) -> str | None:
        """Why ``side`` has won with the move it just made ("dunked", "off"), or None.

        Classic: the moment all of the opponent's pieces stand on Border squares."""
        other = side.other
        for r in REALMS:
            p = board[CENTER[r]]
            if p is not None and p.side is other:
                return None
        return "dunked"

    def extends_run(self, kind: Kind) -> bool:
        """Does a turn that moved a piece of ``kind`` extend the run that draws the game
        (Medieval: six turns in a row of Dukes only)? Never in Classic."""
        return False

    #: turns in a row of ``extends_run`` moves that draw the game (0: no such rule)
    run_to_draw = 0


CLASSIC = Variant()
