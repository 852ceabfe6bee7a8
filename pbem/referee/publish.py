"""A game as the world may see it: display names, dates, result, and never an address.

Used by ``pbem export`` (a ``.realm`` record with full front matter) and by the
live site (``site:`` in config.yaml). The referee's own record names players by
whatever they gave, which is their address when they gave no name; here a
player is his display name, or his side when he has none, and any player's
address left in the text is replaced by that name.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from pbem.notation.format import format_front_matter
from pbem.referee.club_ratings import club_ratings
from pbem.referee.home import Config, ConfigError
from pbem.referee.options import rating_settings
from pbem.referee.store import site as store_site
from pbem.referee.store.games import GameNotFound
from pbem.render.live_site import PAGE, publish_game, publish_ratings, published, site_lock
from pbem.render.ratings import sections

#: the event of exported games when the config names none
DEFAULT_EVENT = "Realm by mail"


@dataclass(frozen=True, slots=True)
class SiteSettings:
    """``site: {path: FOLDER, url: BASE, title: TEXT}`` in config.yaml."""

    path: Path
    url: str
    title: str

    def game_url(self, game_id: int) -> str:
        return f"{self.url.rstrip('/')}/games/{slug(game_id)}.html"


def site_settings(config: Config, home_root: Path) -> SiteSettings | None:
    raw = config.extra.get("site")
    if raw is None:
        return None
    if not isinstance(raw, dict) or not raw.get("path"):
        raise ConfigError("config.yaml: 'site' must be a mapping with a path (and a url)")
    path = Path(str(raw["path"])).expanduser()
    if not path.is_absolute():
        path = home_root / path
    url = str(raw.get("url") or path.resolve().as_uri())
    return SiteSettings(path, url, str(raw.get("title") or event_name(config)))


def page_links(config: Config, game_id: int) -> list[tuple[str, str]]:
    """The link the reports carry to the game's live page (none without ``site.url``)."""
    raw = config.extra.get("site")
    if not isinstance(raw, dict) or not raw.get("url"):
        return []
    return [("The game's page", f"{str(raw['url']).rstrip('/')}/games/{slug(game_id)}.html")]


def event_name(config: Config) -> str:
    raw = config.extra.get("site")
    event = (raw.get("event") or raw.get("title")) if isinstance(raw, dict) else None
    return str(event or config.extra.get("event") or DEFAULT_EVENT)


def slug(game_id: int) -> str:
    return f"game-{game_id}"


def display_name(name: str | None, email: str, side_title: str) -> str:
    """The name a player is published under: never an address."""
    shown = (name or "").strip()
    if not shown or "@" in shown or shown.lower() == email.lower():
        return side_title
    return shown


def _day(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, UTC).date().isoformat()


def _split(record: str) -> tuple[dict[str, Any], str]:
    """The referee's record as its front matter (which may name addresses) and the rest."""
    if record.startswith("---\n"):
        end = record.find("\n---\n", 3)
        if end >= 0:
            try:
                front = yaml.safe_load(record[4:end]) or {}
            except yaml.YAMLError:
                front = {}
            return (front if isinstance(front, dict) else {}), record[end + 5 :]
    return {}, record


@dataclass(frozen=True, slots=True)
class PublicGame:
    id: int
    record: str
    status: str


def public_game(conn: sqlite3.Connection, config: Config, game_id: int) -> PublicGame:
    """One game's public record: full front matter, display names, no address anywhere."""
    row = store_site.public_row(conn, game_id)
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    players = store_site.players(conn, game_id)
    names = {
        side: display_name(players[side][1], players[side][0], title)
        for side, title in (("w", "White"), ("b", "Black"))
    }
    headers: dict[str, Any] = {
        "game": row["name"],
        "event": event_name(config),
        "date": _day(row["created_at"]),
    }
    if row["status"] == "over":
        headers["finished"] = _day(row["finished_at"] or row["updated_at"])
    headers["white"] = names["w"]
    headers["black"] = names["b"]
    front, movetext = _split(row["record"])
    ruleset = front.get("ruleset")
    headers["ruleset"] = ruleset if ruleset is not None else "featured"
    headers["result"] = row["result"] if row["status"] == "over" and row["result"] else "*"
    if not row["rated"]:
        headers["rated"] = False
    text = format_front_matter(headers) + movetext
    for side, (email, _) in players.items():  # belt and braces: an address never leaks
        text = re.sub(re.escape(email), _literal(names[side]), text, flags=re.IGNORECASE)
    return PublicGame(int(row["id"]), text, str(row["status"]))


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for ``re.sub`` that puts ``text`` as it is (no backslash escapes)."""
    return lambda _match: text


def sync_site(conn: sqlite3.Connection, config: Config, site: SiteSettings) -> int:
    """Rewrite the page of each game whose sources changed, and the index; how many.
    Only those games are replayed: the others' rows come from the site's own state."""
    with site_lock(site.path):
        return _sync(conn, config, site)


def source_fingerprints(conn: sqlite3.Connection, config: Config) -> dict[int, str]:
    """game id -> a fingerprint of everything its public record is made from (the game's
    row, its players' names, the event): one query, no record parsed, so a run that
    changed one game of a thousand only looks at that one."""
    rows = store_site.page_sources(conn)
    event = event_name(config)
    out = {}
    for r in rows:
        text = "\x00".join(str(value) for value in r) + "\x00" + event
        out[int(r["id"])] = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return out


def _sync(conn: sqlite3.Connection, config: Config, site: SiteSettings) -> int:
    shown = published(site.path)
    written = 0
    for game_id, fingerprint in source_fingerprints(conn, config).items():
        if shown.get(slug(game_id)) == fingerprint:
            continue
        game = public_game(conn, config, game_id)
        extra = "" if game.status == "over" else (
            "This game is being played by mail: this page follows it turn by turn."
        )
        publish_game(site.path, slug(game_id), game.record, title=site.title,
                     fingerprint=fingerprint, extra=extra)
        written += 1
    if written or not (site.path / PAGE).is_file():
        # a game ended, was reopened by a rollback or changed its names: the ratings are
        # folded again from the finished games (never an address on the page)
        club = club_ratings(conn, rating_settings(config.extra.get("ratings")))
        publish_ratings(site.path, sections(club.table, club.names), title=site.title)
    return written
