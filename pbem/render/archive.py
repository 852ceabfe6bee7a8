"""A static HTML archive of games: an index and a page per game with a viewer.

Pelican's way: gather every game first, then write, never the same file twice.
The site is self-contained (no network, works from ``file://``): the viewer's
script and style are files of the site, each game's frames are inline JSON, and
everything a player typed goes through jinja2's autoescaping.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.notation.write import entries
from pbem.ratings.glicko2 import Settings
from pbem.ratings.table import fold
from pbem.records.rated import rated_games
from pbem.records.reader import GameSource, read_file
from pbem.records.replay import PlayedTurn
from pbem.records.search import find_records
from pbem.records.validate import GameReport, validate_source
from pbem.render.annotations import MARK_WORDS, SideLine, annotate
from pbem.render.board_words import board_alt, viewer_words
from pbem.render.frames import Frame
from pbem.render.ratings import PAGE, Section, ratings_page, sections
from pbem.render.templates import environment, render_template
from pbem.render.tournament_page import views_from_headers, write_event_page
from pbem.resources import templates_dir
from pbem.rules.game import Phase, turn_name
from pbem.rules.pieces import Side
from pbem.rules.values import frozen

ASSETS = ("viewer.js", "index.js", "style.css")


@frozen
class ArchivedGame:
    slug: str
    report: GameReport
    frames: list[Frame]
    #: the record's variations, as side lines the viewer steps into (``annotations``)
    lines: tuple[SideLine, ...] = ()

    @classmethod
    def of(cls, slug: str, report: GameReport) -> ArchivedGame:
        """The game's frames with their marks, comments and side lines."""
        annotated = annotate(report.replay)
        return cls(slug, report, annotated.frames, tuple(annotated.lines))

    @property
    def headers(self) -> dict[str, object]:
        return self.report.replay.headers

    def field(self, key: str) -> str:
        value = self.headers.get(key)
        return "" if value is None else str(value)


@frozen
class ArchiveSummary:
    games: int
    valid: int
    invalid: int
    unreadable: list[str]

    def describe(self, index: Path) -> str:
        """What ``pbem archive`` says it wrote (``index``: the site's index page)."""
        return f"wrote {index}: {self.games} games, {self.valid} valid, {self.invalid} invalid"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "game"


def gather(
    paths: Iterable[Path], ruleset: Any = None
) -> tuple[list[ArchivedGame], list[str]]:
    """Every game of every record, validated; unreadable files are listed, not fatal."""
    games: list[ArchivedGame] = []
    found = find_records(list(paths))
    unreadable = list(found.problems)
    used: set[str] = set()
    for path in found.files:
        try:
            sources: list[GameSource] = list(read_file(path))
        except PbemError as exc:
            unreadable.append(f"{path}: {exc}")
            continue
        for source in sources:
            report = validate_source(source, default_ruleset=ruleset)
            base = _slug(path.stem) + (f"-{source.index + 1}" if len(sources) > 1 else "")
            slug, n = base, 2
            while slug in used:  # two files of the same name in different folders
                slug, n = f"{base}-{n}", n + 1
            used.add(slug)
            games.append(ArchivedGame.of(slug, report))
    return games, unreadable


def _frames_json(frames: list[Frame]) -> str:
    # inline in a <script> element: no "<" at all, so nothing a player typed can close it or
    # open a comment in it ("<!--<script>" would keep the real "</script>" from closing it)
    return json.dumps([f.as_json() for f in frames], separators=(",", ":")).replace("<", "\\u003c")


def _lines_json(game: ArchivedGame) -> str:
    """The side lines' frames, and the marks in words, for the viewer."""
    data = {"lines": [line.as_json() for line in game.lines], "marks": MARK_WORDS}
    return json.dumps(data, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c")


def _pieces_json(game: ArchivedGame) -> str:
    """The game's frame characters and how to draw each (``Game.frame_legend``)."""
    legend = game.report.replay.game.frame_legend()
    return json.dumps(legend, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c")


def _words_json(game: ArchivedGame) -> str:
    """The game's phrases for the viewer's board in words (``board_words.viewer_words``)."""
    words = viewer_words(game.report.replay)
    return json.dumps(words, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c")


@frozen
class TurnWords:
    """One turn of the game in words, for the page's "The game in words" list."""

    label: str
    #: (frame index, the action in notation, the sentence the turn reports use)
    actions: tuple[tuple[int, str, str], ...]


def turn_words(frames: list[Frame]) -> list[TurnWords]:
    """Every turn in words, as the reports give it: read without the viewer or a script."""
    out: list[TurnWords] = []
    for i, f in enumerate(frames):
        if f.turn == "start":
            continue
        sentence = f.caption.removeprefix(f"{f.turn}: {f.notation} - ")  # frames._caption
        if not out or out[-1].label != f.turn:
            out.append(TurnWords(f.turn, ()))
        out[-1] = TurnWords(f.turn, (*out[-1].actions, (i, f.notation, sentence)))
    return out


def _thumbnail(game: ArchivedGame) -> str | None:
    final = game.report.final
    if final is None:
        return None
    try:
        from pbem.render.board_svg import render_svg
    except ImportError:  # pragma: no cover - the SVG board module ships with the package
        return None
    last = _last_turn(game)
    return render_svg(final, last=last, size=160)


def _last_turn(game: ArchivedGame) -> PlayedTurn | None:
    """The turn that led to the game's final position (None: no turn was played)."""
    turns = game.report.replay.turns
    return turns[-1] if turns and turns[-1].after is game.report.final else None


def thumb_alt(game: ArchivedGame) -> str:
    """The thumbnail's alt text: the final position in a sentence or two."""
    final = game.report.final
    if final is None:
        return ""
    return board_alt(final, _last_turn(game), result=game.report.replay.result)


@frozen
class IndexRow:
    """One game's line in the index: plain data, so a live site can keep it between runs."""

    slug: str
    game: str
    white: str
    black: str
    event: str
    date: str
    ruleset: str
    result: str
    turns: int
    valid: bool
    verdict: str
    thumb: bool
    #: the finished game's date, when the record gives it
    finished: str = ""
    #: the thumbnail's alt text (``board_words.board_alt`` of the final position)
    thumb_alt: str = ""

    @classmethod
    def of(cls, game: ArchivedGame, thumb: bool) -> IndexRow:
        report = game.report
        if report.valid:
            warnings = len(report.replay.warnings)
            verdict = "valid" + (f" ({warnings} repaired)" if warnings else "")
        else:
            turn = report.error.turn if report.error is not None else None
            verdict = f"invalid at {turn or 'the start'}"
        result = report.replay.result or "*"
        final = report.replay.final
        if report.valid and result == "*" and final is not None and \
                final.phase is not Phase.OVER:
            # a game in play (the live site): who is to move, not an empty result (23.10)
            result = f"{final.to_move.title} to move, {turn_name(final.turn_label())}"
            verdict = "in play" + verdict[len("valid"):]
        return cls(
            slug=game.slug, game=game.field("game") or game.slug, white=game.field("white"),
            black=game.field("black"), event=game.field("event"), date=game.field("date"),
            ruleset=game.field("ruleset") or "featured", result=result,
            turns=len(report.replay.turns), valid=report.valid, verdict=verdict, thumb=thumb,
            finished=game.field("finished"), thumb_alt=thumb_alt(game) if thumb else "",
        )


def copy_assets(out: Path) -> None:
    """The site's folders and the viewer's script and style."""
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("games", "thumbs", "assets"):
        (out / sub).mkdir(exist_ok=True)
    for asset in ASSETS:
        shutil.copyfile(templates_dir() / "archive" / asset, out / "assets" / asset)


def write_game(
    out: Path, game: ArchivedGame, *, title: str, open_at: str = "start", extra: str = ""
) -> IndexRow:
    """A game's page, its record and its thumbnail; its index row. ``open_at`` is where
    the viewer starts without a fragment ("start" or "end"); ``extra`` a line of text
    above the board (a live game's state)."""
    thumb = _thumbnail(game)
    if thumb is not None:
        write_file(out / "thumbs" / f"{game.slug}.svg", thumb)
    write_file(out / "games" / f"{game.slug}.realm", game.report.source.text)
    page = render_template(
        "archive/game.html.j2",
        site_title=title,
        game=game,
        error=game.report.error,
        frames_json=_frames_json(game.frames),
        pieces_json=_pieces_json(game),
        words_json=_words_json(game),
        lines_json=_lines_json(game),
        lines=game.lines,
        mark_words=MARK_WORDS,
        turn_words=turn_words(game.frames),
        moves=move_rows(game.frames),
        beside=any(f.off is not None for f in game.frames),
        open_at=open_at,
        extra=extra,
    )
    write_file(out / "games" / f"{game.slug}.html", page)
    return IndexRow.of(game, thumb is not None)


def write_index(
    out: Path, rows: list[IndexRow], *, title: str, unreadable: list[str] | None = None,
    ratings: bool = False, events: list[tuple[str, dict[str, str]]] | None = None,
) -> None:
    """The index; ``ratings``: it links to the site's ratings page; ``events``: (slug,
    {name}) of each event's page it links to."""
    index = render_template(
        "archive/index.html.j2", site_title=title, games=rows, unreadable=unreadable or [],
        ratings=ratings, events=events or [],
    )
    write_file(out / "index.html", index)


def write_ratings(out: Path, parts: list[Section], *, title: str) -> None:
    """The site's ratings page (``ratings.html``), the index's link beside the games."""
    write_file(out / PAGE, ratings_page(parts, title=title))


def archive_ratings(games: list[ArchivedGame], settings: Settings | None = None) -> list[Section]:
    """The ratings of an archive from record files (``pbem.records.rated`` says who a
    player is and in which order the games ended)."""
    rated = rated_games(g.report for g in games)
    return sections(fold(rated.games, settings or Settings()), rated.names)


def write_file(path: Path, text: str) -> None:
    """Write through a temporary file and a rename: a reader never sees half a page."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def build_archive(
    paths: Iterable[Path], out: Path, *, title: str = "Realm games", ruleset: Any = None
) -> ArchiveSummary:
    games, unreadable = gather(paths, ruleset)
    copy_assets(out)
    rows = [write_game(out, game, title=title) for game in games]
    write_ratings(out, archive_ratings(games), title=title)
    events = [(write_event_page(out, view, site_title=title), {"name": view.name})
              for view in views_from_headers(_event_facts(games))]
    write_index(out, rows, title=title, unreadable=unreadable, ratings=True, events=events)
    valid = sum(1 for g in games if g.report.valid)
    return ArchiveSummary(len(games), valid, len(games) - valid, unreadable)


def _event_facts(games: list[ArchivedGame]) -> list[tuple[str, dict[str, object], str | None,
                                                         str]]:
    """Each game's slug, front matter, result and the words of its ending (the comment
    after the result: 'Black lost on time'), for the events' pages."""
    found = []
    for g in games:
        replay = g.report.replay
        ending = g.report.source.text.rstrip().rsplit("\n", 1)[-1]
        found.append((g.slug, dict(replay.headers), replay.result, ending))
    return found


@frozen
class MoveRow:
    """One entry of the move list, numbered as the notation numbers it (``7.`` / ``7...``)."""

    number: int
    #: (frame index, frame) of each action of White's and of Black's turn
    white: list[tuple[int, Frame]]
    black: list[tuple[int, Frame]]


def move_rows(frames: list[Frame]) -> list[MoveRow]:
    """The frames as the clickable move list: one row per entry number, White then Black."""
    turns: list[tuple[int, Side, list[tuple[int, Frame]]]] = []
    for i, f in enumerate(frames):
        if f.turn == "start":
            continue
        if not turns or turns[-1][2][-1][1].turn != f.turn:
            side = Side.WHITE if f.turn[-1] == Side.WHITE.letter else Side.BLACK
            turns.append((int(f.turn[:-1]), side, []))
        turns[-1][2].append((i, f))
    return [MoveRow(number, w or [], b or []) for number, w, b in entries(turns)]


__all__ = [
    "ArchiveSummary", "ArchivedGame", "IndexRow", "MoveRow", "archive_ratings", "build_archive",
    "copy_assets", "environment", "gather", "move_rows", "write_file", "write_game",
    "write_index", "write_ratings",
]
