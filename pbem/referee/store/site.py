"""What ``pbem export`` and the live site read of the games: a game's public row and its
players, every game's id, and the sources of each game's page in one query (``publish``
turns them into public records and fingerprints; no address leaves that module)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pbem.referee.store.engine import Connection, PostgresConnection, Row

#: the database lock whoever writes the live site holds (PostgreSQL, several hosts): a
#: different key from the write lock, held by the session around a whole site update
SITE_LOCK = 0x70626E


@contextlib.contextmanager
def site_writer(conn: Connection) -> Iterator[None]:
    """One writer of the live site at a time across every host on the store, so that the
    pages are written from the store as it is after the last writer, never an older state
    over a newer one (taken before the site folder's own file lock, by everyone: no
    deadlock). On SQLite every writer is on this machine: the file lock suffices."""
    if not isinstance(conn, PostgresConnection):
        yield
        return
    conn.execute("SELECT pg_advisory_lock(?)", (SITE_LOCK,))
    try:
        yield
    finally:
        with contextlib.suppress(Exception):  # a dropped connection has let it go
            conn.execute("SELECT pg_advisory_unlock(?)", (SITE_LOCK,))


def public_row(conn: Connection, game_id: int) -> Row | None:
    """A game's row as a public record needs it, or None when there is no such game."""
    row: Row | None = conn.execute(
        "SELECT id, name, record, status, result, created_at, updated_at, finished_at, "
        "rated FROM games WHERE id = ?", (game_id,),
    ).fetchone()
    return row


def players(conn: Connection, game_id: int) -> dict[str, tuple[str, str | None]]:
    """side letter -> (address, name) of a game's players."""
    return {
        r["side"]: (r["email"], r["name"])
        for r in conn.execute("SELECT side, email, name FROM players WHERE game_id = ?",
                              (game_id,))
    }


def game_ids(conn: Connection) -> list[int]:
    return [int(r[0]) for r in conn.execute("SELECT id FROM games ORDER BY id")]


def page_sources(conn: Connection) -> list[Row]:
    """Every game's row, its players' sides, addresses and names (``who``) and how many
    messages its players sent (``said``: published at the end on opt-in), by id."""
    return conn.execute(
        "SELECT g.id, g.name, g.record, g.status, g.result, g.created_at, g.updated_at, "
        "g.rated, (SELECT group_concat(p.side || ':' || p.email || ':' || p.name, '|') "
        "FROM players p WHERE p.game_id = g.id) AS who, "
        "(SELECT count(*) FROM said s WHERE s.game_id = g.id) AS said "
        "FROM games g ORDER BY g.id"
    ).fetchall()
