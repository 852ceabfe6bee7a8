"""An event as the world sees it: its entrants by display name (never an address) and its
page on the live site, with a fingerprint so that a page is rewritten only when it changed.

The organiser's tables (``pbem tournament show``, the players' mail) are
``pbem.referee.work.tournament``'s; they name entrants by the same ``display_name``.
"""

from __future__ import annotations

import hashlib

from pbem.referee.store import tournaments as store
from pbem.referee.store.engine import Connection
from pbem.referee.store.tournaments import Entry, Event
from pbem.render.tournament_page import EventGame, EventView
from pbem.tournaments.names import entrant_name

#: how a game's end reason shows in the crosstable when it is marked
MARKED_ENDS = {"time": "time", "withdrew": "withdrawn"}


def display_name(entry: Entry) -> str:
    """The name an entrant is shown by, never his address: the name given with his entry,
    else the one he chose by mail, else 'Player N' (N: his number in the order of entry)."""
    return entrant_name(entry.name, entry.chosen, entry.email, entry.number)


def event_view(conn: Connection, event: Event) -> tuple[EventView, str]:
    """The event as its page shows it (display names only), and a fingerprint of it: the
    page is rewritten only when that changes."""
    entries = store.entries(conn, event.id)
    names = {(e.division, e.seed): display_name(e) for e in entries}
    games = []
    for b in store.boards(conn, event.id):
        over = b.status == "over"
        games.append(EventGame(
            b.division, b.round, b.board, names[(b.division, b.white)],
            None if b.black is None else names[(b.division, b.black)], b.white, b.black,
            None if b.game_id is None else f"game-{b.game_id}",
            b.result if over else None, MARKED_ENDS.get(b.end_reason or "") if over else None))
    withdrawn = frozenset(display_name(e) for e in entries if e.withdrawn_at is not None)
    view = EventView(event.name, event.format, event.status, games, withdrawn)
    fingerprint = hashlib.sha256(repr(view).encode("utf-8")).hexdigest()[:16]
    return view, fingerprint


def site_views(conn: Connection) -> list[tuple[EventView, str]]:
    """Every started event's page view and fingerprint (``pbem.render.live_site``)."""
    return [event_view(conn, e) for e in store.events(conn) if e.status != "entries"]
