"""Syntax objects: what the text says, as written, with where it says it.

The actions (moves, placements, events...) are the neutral objects of
``pbem.rules.written``, which every game resolves against its own position; the
record's structure (turns, entries, results, front matter) is here. Spans are left
out of equality, so that ``parse(format(x)) == x`` compares meaning, not layout.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from pbem.errors import Span
from pbem.rules.values import frozen, new_of
from pbem.rules.written import (
    NO_SPAN,
    ActionText,
    EventText,
    ItemText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    SacrificeText,
    SquareText,
)

__all__ = [
    "ActionText",
    "EntryText",
    "EventText",
    "GameText",
    "ItemOfMovetext",
    "ItemText",
    "LabelText",
    "ListMarkerText",
    "MarkText",
    "MoveText",
    "PassText",
    "PlacementText",
    "RearrangementText",
    "ResultText",
    "SacrificeText",
    "SquareText",
    "StrayMark",
    "TurnText",
    "VariationText",
    "new_entry_text",
    "new_game_text",
    "new_list_marker_text",
    "new_turn_text",
]


def _span() -> Any:
    return field(default=NO_SPAN, compare=False, repr=False)


@frozen
class StrayMark:
    """A comma or full stop a scan left where none belongs: ``0-1,``, ``7.,``, ``Be5.`` at a
    line's end. It means nothing; the reader ignores it with a warning."""

    char: str
    span: Span


def _stray() -> Any:
    return field(default=None, compare=False)


@frozen
class MarkText:
    """An editor's mark right after an action: ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``.
    ``action`` is the index of the action in its turn (the last one: the turn's mark)."""

    mark: str
    action: int
    span: Span = _span()


@frozen
class VariationText:
    """A line that could have been played instead of the turn it follows, from the
    position before that turn: ``[9...Pa3a12 10.Pf7f12]``. ``game`` is its movetext, read
    as any movetext (it may hold comments, marks and variations of its own)."""

    game: GameText
    #: as written, brackets included
    text: str = field(default="", compare=False)
    span: Span = _span()


@frozen
class TurnText:
    actions: tuple[ActionText, ...]
    #: comments and parenthesised notes written after the turn, verbatim
    notes: tuple[str, ...] = ()
    #: the comma written after the turn, if any (a separator or a stray one)
    comma: Span | None = field(default=None, compare=False)
    span: Span = _span()
    #: a full stop after the turn at a line's end
    stray: StrayMark | None = _stray()
    #: marks written right after its actions (annotations)
    marks: tuple[MarkText, ...] = ()
    #: variations written after it: lines that could have been played instead
    variations: tuple[VariationText, ...] = ()
    #: where each of ``notes`` is written
    note_spans: tuple[Span, ...] = field(default=(), compare=False)


@frozen
class EntryText:
    """A numbered entry: White's turn then Black's, or only Black's after ``7...``."""

    number: int
    white: TurnText | None
    black: TurnText | None
    #: "/" between the two turns, as written (white space is the other form)
    slash: bool = False
    span: Span = _span()
    #: a comma or full stop after the number (``7.,``)
    stray: StrayMark | None = _stray()


@frozen
class ResultText:
    """``1-0``, ``0-1``, ``1/2-1/2``, ``*``, or ``wins``."""

    text: str
    notes: tuple[str, ...] = ()
    span: Span = _span()
    #: a comma or full stop after the result (``0-1,``)
    stray: StrayMark | None = _stray()


@frozen
class LabelText:
    """``Set-up:`` (or a scanned ``Set?up:``) and similar headings in a transcript."""

    text: str
    span: Span = _span()


@frozen
class ListMarkerText:
    """A ``-`` bullet before an entry, left by a transcript pasted from a list."""

    text: str
    span: Span = _span()


ItemOfMovetext = EntryText | ResultText | LabelText | ListMarkerText

#: the structure values every entry makes (a turn for each side, the entry, a list marker
#: before it in a pasted transcript), made by their ``__new__`` alone
#: (``pbem.rules.values.new_of``, a third cheaper than the class call):
#: ``new_turn_text(TurnText, actions, notes, comma, span, stray)``
new_turn_text = new_of(TurnText)
new_entry_text = new_of(EntryText)
new_list_marker_text = new_of(ListMarkerText)


@frozen
class GameText:
    """One game of a record file: its front matter and its movetext."""

    headers: dict[str, Any] = field(default_factory=dict)
    #: comments before the first entry
    notes: tuple[str, ...] = ()
    items: tuple[ItemOfMovetext, ...] = ()
    span: Span = _span()
    #: the line the front matter starts on (for errors in it), or None
    header_span: Span | None = field(default=None, compare=False)
    #: the front matter as written, its ``---`` lines included
    header_text: str = field(default="", compare=False)

    @property
    def header_spans(self) -> dict[str, Span]:
        """Where each top-level key's value is written in the front matter, so that an
        error in a value points at it; worked out only when an error asks."""
        if self.header_span is None:
            return {}
        return front_matter_spans(self.header_text, self.header_span)

    @property
    def entries(self) -> tuple[EntryText, ...]:
        return tuple(i for i in self.items if isinstance(i, EntryText))


#: a game's movetext, and the game with its front matter, made so too
new_game_text = new_of(GameText)


#: a top-level key of the front matter, at the margin: ``key:`` then its value
_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]{0,63})[ \t]*:[ \t]*")


def front_matter_spans(block: str, span: Span) -> dict[str, Span]:
    """Where each top-level key's value starts (its line, and the column after ``key:``),
    in the front matter ``block`` that starts at ``span``."""
    spans: dict[str, Span] = {}
    for i, line in enumerate(block.splitlines()[1:-1]):
        m = _TOP_KEY.match(line)
        if m is not None and m[1] not in spans:
            spans[m[1]] = Span(span.line + 1 + i, m.end() + 1)
    return spans
