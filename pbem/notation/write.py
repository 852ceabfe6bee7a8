"""Turns played -> a record's syntax: numbering turns into entries.

A game writes each resolved action's canonical syntax itself
(``Resolved.canonical()``); this numbers the turns into entries, White's and
Black's turn sharing one, as every game on the board does. ``entries`` is the
one place that pairs turns into entries: the records written here, the turn
reports and the referee's stored games all go through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from pbem.notation.syntax import EntryText, GameText, ResultText, TurnText
from pbem.rules.pieces import Side

T = TypeVar("T")

#: an entry: its number, White's turn and Black's (either may be missing)
Entry = tuple[int, T | None, T | None]


def entry_of(number: int, side: Side, turn: T) -> Entry[T]:
    """One turn alone as its entry: White's opens entry ``number``, Black's stands as ``N...``."""
    return (number, turn, None) if side is Side.WHITE else (number, None, turn)


def entries(turns: Iterable[tuple[int, Side, T]]) -> list[Entry[T]]:
    """Pair numbered turns into entries: a Black turn joins White's of the same number;
    any other turn stands alone. ``T`` is whatever the caller writes turns as."""
    out: list[Entry[T]] = []
    pending: tuple[int, T] | None = None
    for number, side, turn in turns:
        if side is Side.BLACK and pending is not None and pending[0] == number:
            out.append((number, pending[1], turn))
            pending = None
            continue
        if pending is not None:
            out.append(entry_of(pending[0], Side.WHITE, pending[1]))
            pending = None
        if side is Side.WHITE:
            pending = (number, turn)
        else:
            out.append(entry_of(number, side, turn))
    if pending is not None:
        out.append(entry_of(pending[0], Side.WHITE, pending[1]))
    return out


def counted(turns: Iterable[tuple[Side, T]], first_entry: int = 1) -> list[tuple[int, Side, T]]:
    """Number turns that strictly alternate (a game just played): each White turn opens
    the next entry, a Black turn shares White's or, first of all, opens its own."""
    numbered: list[tuple[int, Side, T]] = []
    number = first_entry - 1
    last: Side | None = None
    for side, turn in turns:
        if side is Side.WHITE or last is not Side.WHITE:
            number += 1
        numbered.append((number, side, turn))
        last = side
    return numbered


def game_text(
    turns: Sequence[tuple[Side, TurnText]],
    headers: dict[str, object] | None = None,
    result: str | None = None,
    first_entry: int = 1,
) -> GameText:
    """Number turns into entries: White's and Black's turns share an entry."""
    items: list[EntryText | ResultText] = [
        EntryText(*entry) for entry in entries(counted(turns, first_entry))
    ]
    if result is not None:
        items.append(ResultText(result))
    return GameText(dict(headers or {}), (), tuple(items))
