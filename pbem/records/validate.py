"""Validate one game of a record file: parse, replay, and say where it breaks.

A syntax error still leaves the turns before it worth knowing: the part of the
game up to the entry that broke is replayed, so the report shows the turn, the
board at that point and the position after the last legal turn.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import PbemError, Span
from pbem.notation.parse import parse_game
from pbem.records.reader import GameSource
from pbem.records.replay import GameError, Replay, replay_game
from pbem.rules.game import AnyGame

_ENTRY_START = re.compile(r"(?m)(?:^|(?<=\s)|(?<=,))\d+\.")


@dataclass(slots=True)
class GameReport:
    path: str
    index: int
    source: GameSource
    replay: Replay

    @property
    def valid(self) -> bool:
        return self.replay.valid

    @property
    def error(self) -> GameError | None:
        return self.replay.error

    @property
    def final(self) -> Any:
        return self.replay.final

    def title(self) -> str:
        h = self.replay.headers
        name = h.get("game")
        players = f"{h.get('white', '?')} - {h.get('black', '?')}" if "white" in h else None
        return " | ".join(str(x) for x in (name, players) if x) or f"game {self.index + 1}"


def validate_source(
    source: GameSource, *, strict: bool = False, default_ruleset: Any = None
) -> GameReport:
    if source.game is not None:
        replay = replay_game(
            source.game, strict=strict, default_ruleset=default_ruleset,
            base=record_folder(source.path),
        )
        for w in reversed(source.warnings):
            replay.warnings.insert(0, w)
        if strict and source.warnings and replay.error is None:
            w = source.warnings[0]
            replay.error = GameError(w.message, w.code, w.span)
        return GameReport(source.path, source.index, source, replay)
    assert source.error is not None
    replay = _replay_prefix(source, source.error, strict, default_ruleset)
    return GameReport(source.path, source.index, source, replay)


def _replay_prefix(
    source: GameSource, error: PbemError, strict: bool, default_ruleset: Any
) -> Replay:
    """Replay the game up to the entry where the syntax error is, then report the error.

    An error after the entry's ``/`` is in Black's half: White's half is replayed too, so
    the error names Black's turn. The error is worded again in the game's own words once
    the front matter has said which game it is."""
    replay: Replay | None = None
    cut = _offset(source.text, error.span, source.first_line) if error.span else None
    if cut is not None:
        starts = [m.start() for m in _ENTRY_START.finditer(source.text, 0, cut)]
        if starts:
            replay = _replay_upto(source, starts[-1], strict, default_ruleset)
            slash = source.text.rfind("/", starts[-1], cut)
            if slash >= 0 and replay is not None and replay.error is None:
                white = _replay_upto(source, slash, strict, default_ruleset)
                if white is not None and white.error is None:
                    replay = white
    if replay is None:
        replay = Replay(headers={}, ruleset=None)
    if replay.error is None:
        turn = None
        if replay.final is not None:
            turn = replay.final.turn_label()
        if replay.ruleset is not None:
            error = _in_game_words(source, error, replay.game)
        replay.error = GameError(error.message, error.code, error.span, turn, None)
    return replay


def _replay_upto(
    source: GameSource, end: int, strict: bool, default_ruleset: Any
) -> Replay | None:
    """The game's text up to ``end``, replayed; None if that text does not parse."""
    try:
        prefix = parse_game(source.text[:end], line_offset=source.first_line - 1)
    except PbemError:
        return None
    return replay_game(
        prefix, strict=strict, default_ruleset=default_ruleset,
        base=record_folder(source.path),
    )


def _in_game_words(source: GameSource, error: PbemError, game: AnyGame) -> PbemError:
    """``error`` (read before the record said its game) as ``game`` words it: its own
    examples, its own pieces."""
    try:
        parse_game(source.text, line_offset=source.first_line - 1, game=game)
    except PbemError as exc:
        if exc.span == error.span:
            return exc
    return error


def record_folder(path: str) -> Path | None:
    """Where a record's own ruleset file would be: ``Path(path).parent``, built once per
    folder (a file of one game each costs a few us otherwise), or None for a record
    that is no file (``<text>``)."""
    if path.startswith("<"):
        return None
    head, name = os.path.split(path)
    if name in ("", ".", ".."):  # a path pathlib reads its own way
        return Path(path).parent
    return _folder_path(head)


@functools.lru_cache(maxsize=64)
def _folder_path(folder: str) -> Path:
    return Path(folder)


def _offset(text: str, span: Span, first_line: int) -> int | None:
    line = span.line - first_line + 1
    if line < 1:
        return None
    pos = 0
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            return None
        pos = nl + 1
    return min(len(text), pos + span.column - 1)
