"""A position of the Featured Game: an immutable value.

Applying anything returns a new Position; nothing here is ever changed in place,
so a game's history is simply a list of positions (the referee stores one per turn).
"""

from __future__ import annotations

from pbem.rules.game import SETUP, Phase
from pbem.rules.geometry import CENTER, REALM_SQUARES, REALMS
from pbem.rules.pieces import BASE, ENFORCER, POWER, WHITE, Piece, Side
from pbem.rules.pieces import EMPTY_BOARD as EMPTY_BOARD
from pbem.rules.pieces import Board as Board
from pbem.rules.pieces import Pair as Pair
from pbem.rules.realm.ruleset import FEATURED, Ruleset
from pbem.rules.values import frozen, new_of


@frozen
class Position:
    ruleset: Ruleset = FEATURED
    board: Board = EMPTY_BOARD
    phase: Phase = Phase.SETUP
    to_move: Side = Side.WHITE
    #: Bases each side has created (set-up placements count), by Side
    bases_created: Pair = (0, 0)
    powers_placed: Pair = (0, 0)
    enforcers_created: Pair = (0, 0)
    #: enemy Bases each side has captured, by Side
    captured: Pair = (0, 0)
    #: Powers each side has sacrificed (a variation): gone for good
    sacrificed: Pair = (0, 0)
    #: per side: (realm, n) = it rearranged that realm on its last n turns (n = 0: not last turn)
    rearranged: tuple[Pair, Pair] = ((-1, 0), (-1, 0))
    #: turns played, set-up placements included
    ply: int = 0
    result: str | None = None
    #: why the game ended: "bases" (all Bases created) or "no-legal-turn"
    end: str | None = None

    # -- the record's numbering ----------------------------------------------
    def turn_number(self) -> int:
        """The record's entry number of the turn to be played now.

        Set-up placements are numbered like turns, White first; where Black moves
        first after set-up (a variation), Black's first turn opens the next entry
        as ``7...`` and every later entry still starts with White.
        """
        shift = 1 if self.ruleset.second_player_first and self.phase is not SETUP else 0
        return (self.ply + shift) // 2 + 1

    def turn_label(self) -> str:
        """``11w``: the entry number and side of the turn to be played now."""
        return f"{self.turn_number()}{self.to_move.letter}"

    # -- supplies -------------------------------------------------------------
    def bases_in_supply(self, side: Side) -> int:
        return self.ruleset.bases - self.bases_created[side]

    def powers_in_supply(self, side: Side) -> int:
        return self.ruleset.powers - self.powers_placed[side]

    def enforcers_in_supply(self, side: Side) -> int:
        return self.ruleset.enforcers - self.enforcers_created[side]

    # -- questions about the board --------------------------------------------
    def realm_pieces(self, realm: int) -> list[tuple[int, Piece]]:
        board = self.board
        return [(s, p) for s in REALM_SQUARES[realm] if (p := board[s]) is not None]

    def powers_in(self, realm: int, side: Side) -> int:
        board = self.board
        n = 0
        for s in REALM_SQUARES[realm]:
            p = board[s]
            if p is not None and p.kind is POWER and p.side is side:
                n += 1
        return n

    def controller(self, realm: int) -> Side | None:
        """The side with a Base on the realm's Center."""
        p = self.board[CENTER[realm]]
        return p.side if p is not None and p.kind is BASE else None

    def realms_controlled(self, side: Side) -> int:
        return self.controllers().count(side)

    def controllers(self) -> list[Side | None]:
        """Each Realm's controller (``controller``), in Realm order: both sides' counts
        from one pass over the Centers."""
        controller = self.controller
        return [controller(r) for r in REALMS]

    def mobile_enforcers(self, side: Side) -> int:
        return sum(
            1
            for p in self.board
            if p is not None and p.side is side and p.kind is ENFORCER and p.facing is not None
        )

    def with_board(
        self,
        board: Board,
        *,
        phase: Phase | None = None,
        to_move: Side | None = None,
        bases_created: Pair | None = None,
        powers_placed: Pair | None = None,
        enforcers_created: Pair | None = None,
        captured: Pair | None = None,
        sacrificed: Pair | None = None,
        rearranged: tuple[Pair, Pair] | None = None,
        ply: int | None = None,
    ) -> Position:
        """A copy with a new board and the given fields changed. Much faster than
        ``dataclasses.replace``, which matters: it runs after every move."""
        return Position(
            self.ruleset,
            board,
            self.phase if phase is None else phase,
            self.to_move if to_move is None else to_move,
            self.bases_created if bases_created is None else bases_created,
            self.powers_placed if powers_placed is None else powers_placed,
            self.enforcers_created if enforcers_created is None else enforcers_created,
            self.captured if captured is None else captured,
            self.sacrificed if sacrificed is None else sacrificed,
            self.rearranged if rearranged is None else rearranged,
            self.ply if ply is None else ply,
            self.result,
            self.end,
        )


def bump(pair: Pair, side: Side, by: int = 1) -> Pair:
    """``pair`` with ``by`` added to ``side``'s entry."""
    return (pair[0] + by, pair[1]) if side is WHITE else (pair[0], pair[1] + by)


def initial_position(ruleset: Ruleset = FEATURED) -> Position:
    return Position(ruleset=ruleset)


#: made at every move and placement, by its ``__new__`` alone (``pbem.rules.values.new_of``)
new_position = new_of(Position)
