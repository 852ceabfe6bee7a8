"""Syntax objects -> canonical notation text.

Layout is canonical (the article's: set-up entries on one line as
``1.Bh11 Bh2, 2.Be8 Be5``, one play entry per line as ``7.W/B``); squares are
written as they stand in the syntax object, so formatting a resolved game gives
fully repaired notation and formatting a raw one keeps what was typed.
"""

from __future__ import annotations

from typing import Any

import yaml

from pbem.notation.syntax import (
    EntryText,
    GameText,
    LabelText,
    ListMarkerText,
    PlacementText,
    ResultText,
    TurnText,
)
from pbem.rules.written import format_action, format_event, format_item

__all__ = [
    "entry_line",
    "format_action",
    "format_entry",
    "format_event",
    "format_front_matter",
    "format_game",
    "format_item",
    "format_movetext",
    "format_result",
    "format_turn",
]

def format_turn(t: TurnText) -> str:
    """A turn, with its annotations: each mark right after its action, then comments and
    notes, then variations."""
    if t.marks:
        marks: dict[int, str] = {}
        for m in t.marks:
            marks[m.action] = marks.get(m.action, "") + m.mark
        text = ",".join(format_action(a) + marks.get(i, "") for i, a in enumerate(t.actions))
    else:
        text = ",".join(format_action(a) for a in t.actions)
    for note in t.notes:
        text += " " + note
    for variation in t.variations:
        text += " [" + format_movetext(variation.game).strip().replace("\n", " ") + "]"
    return text


def _is_setup(e: EntryText) -> bool:
    turns = [t for t in (e.white, e.black) if t is not None]
    return all(isinstance(a, PlacementText) for t in turns for a in t.actions)


def entry_line(number: int, white: str | None, black: str | None, setup: bool = False) -> str:
    """One entry as the article writes it: ``7.W/B``, set-up turns joined by a space
    (``1.Bh11 Bh2``), ``7.W`` alone, a lone Black turn ``7...B``; the one writer of
    entry numbers, whatever the turns are written from."""
    if white is None:
        assert black is not None
        return f"{number}...{black}"
    if black is None:
        return f"{number}.{white}"
    return f"{number}.{white}{' ' if setup else '/'}{black}"


def format_entry(e: EntryText) -> str:
    return entry_line(
        e.number,
        None if e.white is None else format_turn(e.white),
        None if e.black is None else format_turn(e.black),
        _is_setup(e),
    )


def format_result(r: ResultText) -> str:
    return " ".join((r.text, *r.notes))


def format_movetext(game: GameText) -> str:
    """Set-up entries share a line (joined by ", "); each play entry has its own."""
    lines: list[str] = [" ".join(game.notes)] if game.notes else []
    current: list[str] = []
    prefix = ""

    def flush() -> None:
        if current:
            lines.append(", ".join(current))
            current.clear()

    for item in game.items:
        if isinstance(item, EntryText):
            text = prefix + format_entry(item)
            prefix = ""
            if _is_setup(item):
                current.append(text)
                last = item.black or item.white
                if last is not None and last.notes:
                    flush()  # "Bh2 {note}, 2.Be8" would not read back: end the line here
            else:
                flush()
                lines.append(text)
        elif isinstance(item, LabelText | ListMarkerText):
            flush()
            prefix += item.text + " "
        else:
            assert isinstance(item, ResultText)
            flush()
            lines.append(prefix + format_result(item))
            prefix = ""
    flush()
    if prefix:
        lines.append(prefix.rstrip())
    return "\n".join(lines) + "\n" if lines else ""


try:  # libyaml's emitter, where present, is several times faster (generated archives)
    _Dumper: Any = yaml.CSafeDumper
except AttributeError:  # pragma: no cover
    _Dumper = yaml.SafeDumper


def format_front_matter(headers: dict[str, Any]) -> str:
    if not headers:
        return ""
    body = yaml.dump(
        headers, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False
    )
    return f"---\n{body}---\n"


def format_game(game: GameText) -> str:
    return format_front_matter(game.headers) + format_movetext(game)
