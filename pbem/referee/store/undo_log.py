"""What each rollback removed (``pbem rollback``, an accepted takeback), kept so that
``pbem rollback --undo GAME`` can restore it: the turns with their snapshots and the game's
record, result and clock as they were before."""

from __future__ import annotations

import json
import time

from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game
from pbem.referee.store.offers import Offer, from_stored, stored
from pbem.rules.values import frozen


@frozen
class Kept:
    id: int
    #: the last entry kept by the rollback (the ones after it were removed)
    seq: int
    turns: list[dict[str, object]]
    record: str
    offer: Offer | None
    status: str
    result: str | None
    end_reason: str | None
    clock_state: str | None
    why: str


def keep(conn: Connection, game: Game, removed: list[dict[str, object]],
         why: str) -> None:
    conn.execute(
        "INSERT INTO rollbacks (game_id, at, seq, turns, record, offer, status, result, "
        "end_reason, clock_state, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game.id, time.time(), min((int(str(r["seq"])) for r in removed), default=game.seq + 1)
         - 1, json.dumps(removed), game.record, stored(game.offer), game.status, game.result,
         game.end_reason, game.clock_state, why),
    )


def last(conn: Connection, game_id: int) -> Kept | None:
    """The game's last rollback not undone yet."""
    row = conn.execute("SELECT * FROM rollbacks WHERE game_id = ? AND undone_at IS NULL "
                       "ORDER BY id DESC LIMIT 1", (game_id,)).fetchone()
    if row is None:
        return None
    return Kept(row["id"], row["seq"], json.loads(row["turns"]), row["record"],
                from_stored(row["offer"]), row["status"], row["result"], row["end_reason"],
                row["clock_state"], row["why"])


def undone(conn: Connection, kept: Kept) -> None:
    if kept.clock_state is not None:
        conn.execute("UPDATE games SET clock_state = ? WHERE id = (SELECT game_id FROM "
                     "rollbacks WHERE id = ?)", (kept.clock_state, kept.id))
    conn.execute("UPDATE rollbacks SET undone_at = ? WHERE id = ?", (time.time(), kept.id))
