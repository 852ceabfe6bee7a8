"""Turns played -> a record's syntax: numbering turns into entries.

A game writes each resolved action's canonical syntax itself
(``Resolved.canonical()``); this numbers the turns into entries, White's and
Black's turn sharing one, as every game on the board does.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.notation.syntax import EntryText, GameText, ResultText, TurnText
from pbem.rules.pieces import Side


def game_text(
    turns: Sequence[tuple[Side, TurnText]],
    headers: dict[str, object] | None = None,
    result: str | None = None,
    first_entry: int = 1,
) -> GameText:
    """Number turns into entries: White's and Black's turns share an entry."""
    entries: list[EntryText | ResultText] = []
    number = first_entry
    pending: TurnText | None = None
    for side, turn in turns:
        if side is Side.WHITE:
            if pending is not None:
                entries.append(EntryText(number, pending, None))
                number += 1
            pending = turn
        else:
            entries.append(EntryText(number, pending, turn))
            pending = None
            number += 1
    if pending is not None:
        entries.append(EntryText(number, pending, None))
    if result is not None:
        entries.append(ResultText(result))
    return GameText(dict(headers or {}), (), tuple(entries))
