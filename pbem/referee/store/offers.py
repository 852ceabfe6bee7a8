"""A pending offer of a game: what is offered (a draw, an end by agreement, a takeback) and
by which side. The code above the store handles ``Offer`` values only; the column
``games.offer`` keeps the short text ``what:side`` (``'draw:w'``, ``'takeback:b'``), and
only the store reads and writes that text (``from_stored``, ``stored``), so a command can
neither misspell an offer nor compare it with a string.
"""

from __future__ import annotations

from enum import Enum

from pbem.rules.pieces import Side
from pbem.rules.values import frozen


class OfferKind(Enum):
    """What is offered; the value is the word the store and the mail commands use."""

    DRAW = "draw"
    END = "end"
    TAKEBACK = "takeback"


@frozen
class Offer:
    kind: OfferKind
    #: the side that offers (the other side may accept or decline)
    side: Side


def from_stored(text: str | None) -> Offer | None:
    """The offer as the column ``games.offer`` keeps it (``'draw:w'``), or None."""
    if not text:
        return None
    kind, _, letter = text.partition(":")
    return Offer(OfferKind(kind), Side.WHITE if letter == "w" else Side.BLACK)


def stored(offer: Offer | None) -> str | None:
    """The text the column ``games.offer`` keeps for ``offer``."""
    return None if offer is None else f"{offer.kind.value}:{offer.side.letter}"
