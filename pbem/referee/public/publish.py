"""A game as the world may see it: display names, dates, result, and never an address.

Used by ``pbem export`` (a ``.realm`` record with full front matter) and by the
live site (``site:`` in config.yaml). The referee's own record names players by
whatever they gave, which is their address when they gave no name; here a
player is his display name, or his side when he has none, and anything left in
the text that is shaped like an address (a game's name, a message) is masked as
``[address]``. What the players said to each other is published only in a
finished game's record, and only with ``public_messages: true``.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import PbemError
from pbem.notation.format import format_front_matter
from pbem.referee.config.home import Config, ConfigError
from pbem.referee.config.options import load_options, rating_settings
from pbem.referee.public.club_ratings import club_ratings
from pbem.referee.public.event_pages import site_views
from pbem.referee.store import site as store_site
from pbem.referee.store import tournaments as event_store
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import GameNotFound, public_record, said_lines, stored_turns
from pbem.referee.store.games import movetext as format_movetext
from pbem.render.live_site import (
    PAGE,
    publish_events,
    publish_game,
    publish_ratings,
    published,
    site_lock,
)
from pbem.render.ratings import sections
from pbem.rules.values import frozen
from pbem.tournaments.names import entrant_name

#: the event of exported games when the config names none
DEFAULT_EVENT = "Realm by mail"


@frozen
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


@frozen
class PublicGame:
    id: int
    record: str
    status: str


def public_game(conn: Connection, config: Config, game_id: int) -> PublicGame:
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
    }
    facts = event_store.game_facts(conn, game_id)
    if facts is not None:  # a game of an event: which, and where in it (docs/tournaments.md)
        headers.update(_event_headers(facts))
    headers["date"] = _day(row["created_at"])
    if row["status"] == "over":
        headers["finished"] = _day(row["finished_at"] or row["updated_at"])
    headers["white"] = names["w"]
    headers["black"] = names["b"]
    front, movetext = _split(row["record"])
    delay = facts.event.public_delay if facts is not None else None
    if delay and row["status"] != "over":  # the spectators' delay: the last turns wait
        turns = stored_turns(conn, game_id)
        movetext = format_movetext(turns[:max(0, len(turns) - delay)]) + "\n"
    ruleset = front.get("ruleset")
    headers["ruleset"] = ruleset if ruleset is not None else "featured"
    headers["result"] = row["result"] if row["status"] == "over" and row["result"] else "*"
    if not row["rated"]:
        headers["rated"] = False
    if facts is not None:  # the seeds and the round's bye, for the archive's crosstable
        headers["white_seed"], headers["black_seed"] = facts.white_seed, facts.black_seed
        if facts.bye is not None:
            headers["bye"] = entrant_name(facts.bye.name, facts.bye.chosen, facts.bye.email,
                                          facts.bye.number)
    if row["status"] == "over" and load_options(config).public_messages:
        said = said_lines(conn, game_id)
        if said:
            headers["messages"] = [mask_addresses(line) for line in said]
    headers = {k: mask_addresses(v) if isinstance(v, str) else v for k, v in headers.items()}
    # what the players said is never in the movetext: stores from before issue 23 kept it
    # there as {White: ...} comments, which go
    text = format_front_matter(headers) + mask_addresses(public_record(movetext))
    return PublicGame(int(row["id"]), text, str(row["status"]))


#: what may stand in an address around its '@' (letters and digits of any script too)
_LOCAL = frozenset("._%+-!#$&*/=?^`|~")
_DOMAIN = frozenset(".-_")
#: what an address is published as
MASK = "[address]"


def mask_addresses(text: str) -> str:
    """``text`` with everything shaped like an e-mail address (``x@y``) replaced by
    ``[address]``: whatever a player typed, nothing public ever names an address. Linear:
    each '@' is found once, and the runs around it stop at the next '@' either side."""
    out: list[str] = []
    done = 0
    at = text.find("@")
    while at >= 0:
        start = at
        while start > done and (text[start - 1].isalnum() or text[start - 1] in _LOCAL):
            start -= 1
        end = at + 1
        while end < len(text) and (text[end].isalnum() or text[end] in _DOMAIN):
            end += 1
        while end > at + 1 and text[end - 1] in ".-_":  # a full stop after the address
            end -= 1
        if start < at and any(c.isalnum() for c in text[at + 1:end]):
            out.append(text[done:start])
            out.append(MASK)
            done = end
        at = text.find("@", max(end, at + 1))
    out.append(text[done:])
    return "".join(out)


def _event_headers(facts: event_store.GameFacts) -> dict[str, Any]:
    found: dict[str, Any] = {"event": facts.event.name, "round": facts.round,
                             "board": facts.board}
    if facts.divisions > 1:
        found["division"] = facts.division
    found["format"] = facts.event.format
    return found


@frozen
class SiteUpdate:
    """What one update of the live site did: pages rewritten, or why it could not be."""

    written: int = 0
    #: the site was not (fully) written: a folder or a lock that failed; caught up next time
    problem: str | None = None


def update_site(conn: Connection, config: Config, home_root: Path) -> SiteUpdate:
    """Bring the live site up to date after a run (``pbem site``, and every referee command
    after its work): each changed game's page, the index, the ratings and each started
    event's page. Never raises for the site: a run that played its turns has done its work,
    so what could not be written is returned, said by the caller, and caught up next time."""
    try:
        site = site_settings(config, home_root)
        if site is None:
            return SiteUpdate()
        written = sync_site(conn, config, site)
        views = site_views(conn)
        if views:  # each event's page: crosstable, standings, schedule
            with site_lock(site.path):
                publish_events(site.path, views, title=site.title)
        return SiteUpdate(written)
    except (OSError, PbemError) as exc:
        return SiteUpdate(0, str(exc))


def sync_site(conn: Connection, config: Config, site: SiteSettings) -> int:
    """Rewrite the page of each game whose sources changed, and the index; how many.
    Only those games are replayed: the others' rows come from the site's own state.
    Several hosts on one PostgreSQL store take turns through the store's site lock, and
    each reads the games inside it: the last page written is made from the newest state."""
    with store_site.site_writer(conn), site_lock(site.path):
        return _sync(conn, config, site)


def source_fingerprints(conn: Connection, config: Config) -> dict[int, str]:
    """game id -> a fingerprint of everything its public record is made from (the game's
    row, its players' names, the event): one query, no record parsed, so a run that
    changed one game of a thousand only looks at that one."""
    rows = store_site.page_sources(conn)
    event = event_name(config) + f"\x00{load_options(config).public_messages}"
    out = {}
    for r in rows:
        text = "\x00".join(str(value) for value in r) + "\x00" + event
        out[int(r["id"])] = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return out


def _sync(conn: Connection, config: Config, site: SiteSettings) -> int:
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
