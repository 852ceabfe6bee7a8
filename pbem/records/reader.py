"""Record files (``.realm``): decode, cut into games, parse each game on its own.

A file holds one or more games; each game after the first starts with its YAML
front matter. Cutting first means a syntax error in one game never hides the
next: the reader hands back every game, each either parsed or with its error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import Diagnostic, PbemError, RecordError, Span
from pbem.notation.parse import parse_game
from pbem.notation.syntax import GameText

_FRONT_MATTER = re.compile(r"^---[ \t]*\r?\n(?:.*\r?\n)*?---[ \t]*(?:\r?\n|$)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class GameSource:
    """One game of a file: where it is, its text, and what came of parsing it."""

    path: str
    index: int
    text: str
    first_line: int
    game: GameText | None
    error: PbemError | None
    warnings: tuple[Diagnostic, ...] = ()


def decode(data: bytes) -> tuple[str, list[Diagnostic]]:
    """UTF-8 (a BOM is fine); anything else is read as Latin-1, with a warning."""
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        text = data.decode("latin-1")
        return text, [
            Diagnostic(
                "record.encoding",
                "the file is not UTF-8; read it as Latin-1",
                Span(line, exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1),
            )
        ]


def split_games(text: str) -> list[tuple[int, str]]:
    """(first line, text) of every game in a record file."""
    starts = [m.start() for m in _FRONT_MATTER.finditer(text)]
    pieces: list[tuple[int, str]] = []
    if not starts or text[: starts[0]].strip():
        pieces.append((0, text[: starts[0]] if starts else text))
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        pieces.append((start, text[start:end]))
    return [(text.count("\n", 0, start) + 1, chunk) for start, chunk in pieces]


def read_games(text: str, path: str = "<text>") -> Iterator[GameSource]:
    """Every game of a record file's text, parsed one by one."""
    warnings: tuple[Diagnostic, ...] = ()
    for index, (first_line, chunk) in enumerate(split_games(text)):
        try:
            game = parse_game(chunk, line_offset=first_line - 1)
            yield GameSource(path, index, chunk, first_line, game, None, warnings)
        except PbemError as exc:
            yield GameSource(path, index, chunk, first_line, None, exc, warnings)


def read_file(path: Path) -> Iterator[GameSource]:
    """Every game of a record file; RecordError if the file cannot be read at all."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}", code="record.io") from None
    text, warnings = decode(data)
    for source in read_games(text, str(path)):
        if warnings and source.index == 0:
            source = GameSource(
                source.path, 0, source.text, source.first_line, source.game, source.error,
                tuple(warnings),
            )
        yield source
