"""What a turn says, as written: the neutral syntax of every game on the Realm board.

These objects are the language between the notation layer (which parses text into
them) and each game (which resolves them against its position). They know no game:
a move is a piece letter, the squares it names (two or more; ``Eh11off`` names
one), whether it ends ``off`` the board, and the events written after it; an event
is a prefix (none, ``x`` or ``+``), a piece letter, a square and an optional facing.
Each game says what these mean (``(Bh11)`` creates a Base in the Featured Game and
puts an HQ on b8 in Modern Realm; ``(xEc7)`` immobilises there and dislodges here).

Squares keep the letters as typed (``L1``), because repairing them needs the
position. Spans are left out of equality, so that ``parse(format(x)) == x``
compares meaning, not layout. The text forms (``format_*``) live here too, so that
a game can name a written action in its messages without the notation layer.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from pbem.errors import Span
from pbem.rules.geometry import SQUARE_NAMES
from pbem.rules.values import frozen, new_of

NO_SPAN = Span(0, 0)


def _span() -> Any:
    return field(default=NO_SPAN, compare=False, repr=False)


@frozen
class SquareText:
    """A square as written: ``h11``, or ``L1`` in a scanned transcript."""

    text: str
    span: Span = _span()


@frozen
class EventText:
    """An event in parentheses after a move: ``Bh11``, ``Eg12S``, ``xBb5``, ``xEa7``, ``+Ea4``.

    ``prefix`` is ``""``, ``"x"`` (something taken or dislodged) or ``"+"`` (a piece
    brought onto a Center: rescue, replacement); ``piece`` is ``B``, ``P`` or ``E``;
    ``facing`` one of ``NESWU`` or None. Which combinations mean something is the
    game's business.
    """

    prefix: str
    piece: str
    square: SquareText
    facing: str | None = None
    span: Span = _span()


@frozen
class PlacementText:
    """A piece put on a square: set-up ``Bh11``, ``Pi10``; a placement ``Eb5``."""

    piece: str
    square: SquareText
    span: Span = _span()


@frozen
class MoveText:
    """``Pc10g10(Bh11)``, ``Eb2b5e5``, ``Eh8h11off``, ``Eh11off``, ``Pc4d4d6``.

    ``squares``: the start square, then every square the move names in order (the
    Centers a continuing move lands on, the squares a move turns on), the last one
    where it ends; only a move ``off`` the board may name a single square.
    ``events`` is None when no parentheses were written.
    """

    piece: str
    squares: tuple[SquareText, ...]
    events: tuple[EventText, ...] | None = None
    span: Span = _span()
    off: bool = False

    @property
    def frm(self) -> SquareText:
        return self.squares[0]

    @property
    def to(self) -> SquareText:
        """The last square named (for a move ``off``, the square it leaves from)."""
        return self.squares[-1]


#: the written values a record makes most (the lexer makes them at every square and move,
#: a look-alike repair again), made by their ``__new__`` alone
#: (``pbem.rules.values.new_of``): ``new_square_text(SquareText, "h11", span)``
new_square_text = new_of(SquareText)
new_event_text = new_of(EventText)
new_placement_text = new_of(PlacementText)
new_move_text = new_of(MoveText)


@frozen
class ItemText:
    """One piece put back by a Rearrangement: ``Pg4``, ``Eg6N``, ``Ei4U``."""

    piece: str
    square: SquareText
    facing: str | None = None
    span: Span = _span()


@frozen
class RearrangementText:
    """``Rh5(Pg4,Pi6,Eg6N,Ei4U)``; with the opponent's pieces after a semicolon,
    ``Rh5(Pg4,Eg6N;Pi6,Ei4U)``, where the ruleset allows moving them."""

    realm: SquareText
    items: tuple[ItemText, ...]
    span: Span = _span()
    opponent: tuple[ItemText, ...] = ()


@frozen
class SacrificeText:
    """``Sg4(Eh4E)``: the Power on g4 is sacrificed and the Enforcer on h4 points East."""

    power: SquareText
    enforcer: SquareText
    facing: str
    span: Span = _span()


@frozen
class PassText:
    span: Span = _span()


ActionText = PlacementText | MoveText | RearrangementText | PassText | SacrificeText


# -- text ------------------------------------------------------------------------------
def format_event(e: EventText) -> str:
    return f"{e.prefix}{e.piece}{e.square.text}{e.facing or ''}"


def format_item(i: ItemText) -> str:
    return f"{i.piece}{i.square.text}{i.facing or ''}"


def format_action(a: ActionText) -> str:
    if isinstance(a, MoveText):
        text = a.piece + "".join([s.text for s in a.squares])
        if a.off:
            text += "off"
        if a.events:
            text += "(" + ",".join([format_event(e) for e in a.events]) + ")"
        return text
    if isinstance(a, PlacementText):
        return f"{a.piece}{a.square.text}"
    if isinstance(a, RearrangementText):
        text = f"R{a.realm.text}(" + ",".join(format_item(i) for i in a.items)
        if a.opponent:
            text += ";" + ",".join(format_item(i) for i in a.opponent)
        return text + ")"
    if isinstance(a, SacrificeText):
        return f"S{a.power.text}(E{a.enforcer.text}{a.facing})"
    assert isinstance(a, PassText)
    return "pass"


def squares_of(text: ActionText) -> list[SquareText]:
    """Every square an action names, in writing order (events' squares included)."""
    if isinstance(text, PlacementText):
        return [text.square]
    if isinstance(text, MoveText):
        if not text.events:
            return list(text.squares)
        return [*text.squares, *(e.square for e in text.events)]
    if isinstance(text, RearrangementText):
        return [text.realm, *(i.square for i in (*text.items, *text.opponent))]
    if isinstance(text, SacrificeText):
        return [text.power, text.enforcer]
    return []


#: one SquareText per square, shared: they are immutable and carry no span
SQUARE_TEXTS: tuple[SquareText, ...] = tuple(SquareText(name) for name in SQUARE_NAMES)
