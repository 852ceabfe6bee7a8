"""Medieval Realm's hooks on the Center-to-Center engine."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.rules.classic.pieces import Piece, piece
from pbem.rules.classic.ruleset import Ruleset
from pbem.rules.classic.variant import Variant, centers_of
from pbem.rules.geometry import CENTER, DIRECTIONS, FAR_ROW, FORWARD, HALF, Direction, parse_square
from pbem.rules.pieces import Kind, Side

#: where the Dukes stand in the reconstructed set-up
DUKE_SQUARES = {Side.WHITE: ("e2", "h2"), Side.BLACK: ("e11", "h11")}
#: the directions a Man may step: forward or sideways
_MAN_STEPS = {
    side: tuple(d for d in DIRECTIONS if d is not FORWARD[side].opposite) for side in Side
}


class MedievalVariant(Variant):
    game = "medieval"
    title = "Medieval Realm"
    complement = ((Kind.ENFORCER, 6), (Kind.POWER, 2))
    names: Mapping[Kind, tuple[str, str]] = {
        Kind.ENFORCER: ("Man", "Men"),
        Kind.POWER: ("Duke", "Dukes"),
    }
    options = ("setup",)
    refill_from_opponent = True
    moves_off = True
    run_to_draw = 6

    def opening(self) -> tuple[tuple[int, Piece], ...]:
        dukes = {parse_square(n) for names in DUKE_SQUARES.values() for n in names}
        return tuple(
            (sq, piece(side, Kind.POWER if sq in dukes else Kind.ENFORCER))
            for side in Side
            for sq in centers_of(side)
        )

    def directions(self, p: Piece) -> tuple[Direction, ...]:
        return DIRECTIONS if p.kind is Kind.POWER else _MAN_STEPS[p.side]

    def direction_refusal(self, p: Piece, d: Direction) -> str | None:
        if p.kind is Kind.ENFORCER and d is FORWARD[p.side].opposite:
            return "a Man moves only forward or sideways"
        return None

    def entry_refusal(
        self, board: tuple[Piece | None, ...], mover: Piece, realm: int, full: bool
    ) -> tuple[str, str] | None:
        q = board[CENTER[realm]]
        if q is not None and q.kind is Kind.POWER and q.side is not mover.side:
            return "move.enemy-duke", "an enemy Duke holds it (Dukes are never dislodged)"
        if full:
            return "move.full-realm", "its Realm is full (nine pieces)"
        return None

    def placement_realms(self, side: Side) -> frozenset[int]:
        return HALF[side]

    def first_after_placement(self) -> Side:
        return Side.WHITE

    def far_row(self, side: Side) -> tuple[int, ...]:
        return FAR_ROW[side]

    def winner_after_move(
        self, board: tuple[Piece | None, ...], off: tuple[int, int], side: Side
    ) -> str | None:
        """The first side to have moved all its pieces off the board wins."""
        total = sum(n for _, n in self.complement)
        return "off" if off[side] >= total else None

    def extends_run(self, kind: Kind) -> bool:
        return kind is Kind.POWER


MEDIEVAL = MedievalVariant()
MEDIEVAL_RULES = Ruleset(variant=MEDIEVAL, name="medieval")
