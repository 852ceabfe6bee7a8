"""The pieces of the Center-to-Center games: a side and a kind, and no facing.

Interned: there are four values, so pieces compare by identity in the hot loops.
Records write them with the box pieces' letters (``E``, ``P``); each game names
them in its own words (see ``Variant.names``).
"""

from __future__ import annotations

from pbem.rules.pieces import Kind, Side
from pbem.rules.values import frozen


@frozen
class Piece:
    side: Side
    kind: Kind

    @property
    def code(self) -> str:
        """The interchange code: ``wE``, ``bP``."""
        return self.side.letter + self.kind.value


_PIECES = {(s, k): Piece(s, k) for s in Side for k in (Kind.ENFORCER, Kind.POWER)}


def piece(side: Side, kind: Kind) -> Piece:
    """The interned piece of ``side`` and ``kind`` (Enforcer or Power)."""
    return _PIECES[(side, kind)]


PIECE_BY_CODE: dict[str, Piece] = {p.code: p for p in _PIECES.values()}
