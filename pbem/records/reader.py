"""Record files (``.realm``): decode, cut into games, parse each game on its own.

A file holds one or more games; each game after the first starts with its YAML
front matter. Cutting first means a syntax error in one game never hides the
next: the reader hands back every game, each either parsed or with its error.

Cutting is one pass over the file's lines, never holding more than one game, so a
file of 50,000 games is read in linear time and flat memory; ``game_ranges`` gives
byte ranges of whole games, so that workers can share one big file. A file of up to
a megabyte is read at once, and is one game without a pass over its lines when a
search finds no second front matter (``one_game``), as in nearly every record file.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from pbem.errors import Diagnostic, PbemError, RecordError, Span
from pbem.notation.parse import parse_game
from pbem.notation.syntax import GameText
from pbem.rules.values import frozen


@frozen
class GameSource:
    """One game of a file: where it is, its text, and what came of parsing it."""

    path: str
    index: int
    text: str
    first_line: int
    game: GameText | None
    error: PbemError | None
    warnings: tuple[Diagnostic, ...] = ()


def decode(data: bytes, first_line: int = 1) -> tuple[str, list[Diagnostic]]:
    """UTF-8 (a BOM is fine); anything else is read as Latin-1, with a warning.

    ``first_line``: the line of the file ``data`` starts on, for the warning.
    """
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = first_line + data[: exc.start].count(b"\n")
        text = data.decode("latin-1")
        return text, [
            Diagnostic(
                "record.encoding",
                "the file is not UTF-8; read it as Latin-1",
                Span(line, exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1),
            )
        ]


@frozen
class RawGame:
    """One game's bytes as cut from a file, before decoding."""

    first_line: int
    offset: int
    data: bytes


def _is_fence(line: bytes) -> bool:
    """A front matter line of its own: ``---``, maybe followed by blanks."""
    return line.startswith(b"---") and not line[3:].rstrip(b"\n").rstrip(b"\r").strip(b" \t")


def cut_games(lines: Iterable[bytes], *, first_line: int = 1, offset: int = 0) -> Iterator[RawGame]:
    """Every game in ``lines`` (each ending in a newline but perhaps the last), in one pass.

    A game starts at a front matter (a ``---`` line, its keys, a closing ``---`` line);
    an opening ``---`` never closed belongs to the game before it. Text before the
    first front matter is a game of its own unless it is blank; a text without front
    matter is one game, even an empty one.
    """
    current: list[bytes] = []
    start_line, start_offset = first_line, offset
    fence: list[bytes] | None = None  # an open front matter, not yet known to be one
    fence_line = fence_offset = 0
    fronted = False  # the current game began with a front matter
    line_no, pos = first_line, offset
    for line in lines:
        if fence is not None:
            fence.append(line)
            if _is_fence(line):
                if fronted or any(x.strip() for x in current):
                    yield RawGame(start_line, start_offset, b"".join(current))
                current, start_line, start_offset = fence, fence_line, fence_offset
                fence, fronted = None, True
        elif _is_fence(line) and line.endswith(b"\n"):
            fence, fence_line, fence_offset = [line], line_no, pos
        else:
            current.append(line)
        line_no += 1
        pos += len(line)
    if fence is not None:
        current.extend(fence)
    yield RawGame(start_line, start_offset, b"".join(current))


def one_game(data: bytes) -> bool:
    """Whether ``cut_games`` finds one game in ``data``, the whole of it, as in nearly every
    record file: at most one front matter line, or two with the first on the first line.
    Found by searching for the lines that start ``---`` rather than by a pass over them all."""
    fences = 0
    first_at_top = False
    for at in _dashed_lines(data):
        end = data.find(b"\n", at)
        if _is_fence(data[at:] if end < 0 else data[at : end + 1]):
            fences += 1
            if fences == 1:
                first_at_top = at == 0
            elif fences > 2 or not first_at_top:
                return False
    return True


def _dashed_lines(data: bytes) -> Iterator[int]:
    """Where each line of ``data`` that starts ``---`` starts."""
    if data.startswith(b"---"):
        yield 0
    at = data.find(b"\n---")
    while at >= 0:
        yield at + 1
        at = data.find(b"\n---", at + 1)


def split_games(text: str) -> list[tuple[int, str]]:
    """(first line, text) of every game in a record file."""
    data = text.encode("utf-8", "surrogatepass")
    if one_game(data):
        return [(1, text)]
    return [(raw.first_line, raw.data.decode("utf-8", "surrogatepass"))
            for raw in cut_games(iter(io.BytesIO(data)))]


def _sources(raws: Iterable[RawGame], path: str, first_index: int = 0) -> Iterator[GameSource]:
    for index, raw in enumerate(raws, first_index):
        text, warnings = decode(raw.data, raw.first_line)
        yield parse_source(text, path, index, raw.first_line, tuple(warnings))


def parse_source(
    chunk: str, path: str, index: int, first_line: int, warnings: tuple[Diagnostic, ...] = ()
) -> GameSource:
    """One game's text, parsed; a syntax error is kept with the game, not raised."""
    try:
        game = parse_game(chunk, line_offset=first_line - 1)
        return GameSource(path, index, chunk, first_line, game, None, warnings)
    except PbemError as exc:
        return GameSource(path, index, chunk, first_line, None, exc, warnings)


def read_games(text: str, path: str = "<text>") -> Iterator[GameSource]:
    """Every game of a record file's text, parsed one by one."""
    for index, (first_line, chunk) in enumerate(split_games(text)):
        yield parse_source(chunk, path, index, first_line)


def _open(path: Path) -> BinaryIO:
    try:
        return path.open("rb")
    except IsADirectoryError:
        raise RecordError(f"{path} is a folder, not a record file", code="record.io") from None
    except OSError as exc:
        raise _unreadable(path, exc) from None


def _checked(lines: Iterable[bytes], path: Path) -> Iterator[bytes]:
    try:
        yield from lines
    except OSError as exc:
        raise _unreadable(path, exc) from None


def _unreadable(path: Path, exc: OSError) -> RecordError:
    return RecordError(f"cannot read {path}: {exc.strerror or exc}", code="record.io")


def read_file(
    path: Path, start: int = 0, end: int | None = None, *, first_line: int = 1,
    first_index: int = 0,
) -> Iterator[GameSource]:
    """Every game of a record file, read as it goes; RecordError if it cannot be read.

    ``start``, ``end``, ``first_line``, ``first_index``: one of ``game_ranges``.
    """
    with _open(path) as f:
        data = None
        if end is not None:
            f.seek(start)
            data = _read(f, end - start, path)
        elif _size(f) <= WHOLE:
            data = _read(f, -1, path)
        raws: Iterable[RawGame]
        if data is None:  # a big file: line by line, a game at a time
            raws = cut_games(_checked(f, path), first_line=first_line, offset=start)
        elif one_game(data):
            raws = [RawGame(first_line, start, data)]
        else:
            raws = cut_games(iter(io.BytesIO(data)), first_line=first_line, offset=start)
        yield from _sources(raws, str(path), first_index)


#: a file up to this size is read at once, and cut into games only if it holds more than one
WHOLE = 1 << 20


def _size(f: BinaryIO) -> int:
    try:
        return os.fstat(f.fileno()).st_size
    except (OSError, ValueError):  # no file number (not a plain file): read it line by line
        return WHOLE + 1


def _read(f: BinaryIO, size: int, path: Path) -> bytes:
    try:
        return f.read(size)
    except OSError as exc:
        raise _unreadable(path, exc) from None


@frozen
class GameRange:
    """Whole games of a file, as byte offsets, for a worker to read on its own."""

    start: int
    end: int
    first_line: int
    first_index: int
    games: int


def game_ranges(path: Path, size: int) -> Iterator[GameRange]:
    """The file cut into runs of whole games of about ``size`` bytes (one pass, no parsing)."""
    with _open(path) as f:
        run: list[RawGame] = []
        index = 0
        nbytes = 0
        for raw in cut_games(_checked(f, path)):
            run.append(raw)
            nbytes += len(raw.data)
            if nbytes >= size:
                yield _range(run, index)
                index += len(run)
                run, nbytes = [], 0
        if run:
            yield _range(run, index)


def _range(run: list[RawGame], index: int) -> GameRange:
    first, last = run[0], run[-1]
    return GameRange(first.offset, last.offset + len(last.data), first.first_line, index, len(run))
