"""A live site: the archive's viewer kept up to date one game at a time.

The referee rewrites a game's page after each of its turns; a full rebuild would
replay every game of the club. So the index is made from ``site.json``, which
keeps each game's index row (and the fingerprint of what it was made from,
given by the caller): one game changes, one row changes, the index is written again from the
rows. Every file is written through a rename, so a web server never serves
half a page.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterator
from dataclasses import asdict, fields
from pathlib import Path

from pbem.errors import PbemError
from pbem.records.reader import read_games
from pbem.records.validate import validate_source
from pbem.render.archive import (
    ArchivedGame,
    IndexRow,
    copy_assets,
    write_file,
    write_game,
    write_index,
    write_ratings,
)
from pbem.render.ratings import PAGE, Section
from pbem.render.tournament_page import EventView, event_slug, write_event_page

STATE = "site.json"


def _load_rows(out: Path) -> dict[str, dict[str, object]]:
    try:
        data = json.loads((out / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    games = data.get("games") if isinstance(data, dict) else None
    return games if isinstance(games, dict) else {}


@contextlib.contextmanager
def site_lock(out: Path) -> Iterator[None]:
    """One writer at a time (two ``pbem mail`` at once each update the site)."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def published(out: Path) -> dict[str, str]:
    """slug -> the fingerprint each game's page was made from."""
    return {slug: str(row.get("fingerprint", "")) for slug, row in _load_rows(out).items()}


def publish_game(
    out: Path, slug: str, record: str, *, title: str, fingerprint: str, extra: str = ""
) -> None:
    """Write one game's page and record, then the index (no other game is touched)."""
    sources = list(read_games(record, f"{slug}.realm"))
    if len(sources) != 1:
        raise PbemError(f"{slug}: a live game's record must hold one game, not {len(sources)}")
    report = validate_source(sources[0])
    game = ArchivedGame.of(slug, report)
    if not (out / "assets").is_dir():
        copy_assets(out)
    row = write_game(out, game, title=title, open_at="end", extra=extra)
    rows = _load_rows(out)
    rows[slug] = {**asdict(row), "fingerprint": fingerprint}
    write_file(out / STATE, json.dumps({"games": rows}, indent=1, sort_keys=True))
    rewrite_index(out, title=title, rows=rows)


def rewrite_index(out: Path, *, title: str, rows: dict[str, dict[str, object]] | None = None
                  ) -> None:
    """The index from the kept rows; it links to the ratings page once there is one."""
    rows = _load_rows(out) if rows is None else rows
    names = {f.name for f in fields(IndexRow)}
    index_rows = [
        IndexRow(**{k: v for k, v in r.items() if k in names})  # type: ignore[arg-type]
        for _, r in sorted(rows.items(), key=lambda kv: _order(kv[0]))
    ]
    write_index(out, index_rows, title=title, ratings=(out / PAGE).is_file(),
                events=sorted(_load_events(out).items(), key=lambda kv: kv[1]["name"]))


EVENTS = "events.json"


def _load_events(out: Path) -> dict[str, dict[str, str]]:
    """event slug -> {name, fingerprint} of every event page the site has."""
    try:
        data = json.loads((out / EVENTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def publish_events(out: Path, views: list[tuple[EventView, str]], *, title: str) -> int:
    """Write the page of each event whose games changed (``views``: each event with a
    fingerprint of what it is made from), and the index when one is new; how many."""
    if not (out / "assets").is_dir():
        copy_assets(out)
    known = _load_events(out)
    written = 0
    for view, fingerprint in views:
        slug = event_slug(view.name)
        if known.get(slug, {}).get("fingerprint") == fingerprint and (
                out / "events" / f"{slug}.html").is_file():
            continue
        write_event_page(out, view, site_title=title)
        new = slug not in known
        known[slug] = {"name": view.name, "fingerprint": fingerprint}
        write_file(out / EVENTS, json.dumps(known, indent=1, sort_keys=True))
        if new:
            rewrite_index(out, title=title)
        written += 1
    return written


def publish_ratings(out: Path, parts: list[Section], *, title: str) -> None:
    """The ratings page (rewritten whole: it is one small table per game of the family);
    a site that had none gets the index's link to it too."""
    had = (out / PAGE).is_file()
    if not (out / "assets").is_dir():
        copy_assets(out)
    write_ratings(out, parts, title=title)
    if not had:
        rewrite_index(out, title=title)


def _order(slug: str) -> tuple[int, str]:
    """Newest game first: ``game-12`` before ``game-9``."""
    number = slug.rsplit("-", 1)[-1]
    return (-int(number) if number.isdigit() else 0, slug)
