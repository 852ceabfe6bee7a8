"""A player's standing conditional turns: one set per player and game, kept secret (no
record, page, log line or mail to the opponent reads this table), made for one position,
the entry ``from_seq`` that the opponent's next turn replies to."""

from __future__ import annotations

import json
import time

from pbem.referee.store.engine import Connection
from pbem.referee.turns.conditions import Condition
from pbem.rules.pieces import Side
from pbem.rules.values import frozen


@frozen
class Standing:
    side: Side
    #: the entry (turn row) after which the opponent's reply is matched
    from_seq: int
    conditions: tuple[Condition, ...]


def save(conn: Connection, game_id: int, side: Side, from_seq: int,
         conditions: tuple[Condition, ...]) -> None:
    """Store ``side``'s set, replacing the one that stood."""
    text = json.dumps([c.to_json() for c in conditions])
    conn.execute(
        "INSERT INTO conditions (game_id, side, from_seq, conditions, created_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, side) DO UPDATE SET "
        "from_seq = excluded.from_seq, conditions = excluded.conditions, "
        "created_at = excluded.created_at", (game_id, side.letter, from_seq, text, time.time()))


def load(conn: Connection, game_id: int, side: Side) -> Standing | None:
    row = conn.execute("SELECT from_seq, conditions FROM conditions WHERE game_id = ? AND "
                       "side = ?", (game_id, side.letter)).fetchone()
    if row is None:
        return None
    trees = tuple(Condition.from_json(c) for c in json.loads(row["conditions"]))
    return Standing(side, row["from_seq"], trees)


def drop(conn: Connection, game_id: int, side: Side) -> bool:
    """Remove ``side``'s set; whether there was one."""
    cur = conn.execute("DELETE FROM conditions WHERE game_id = ? AND side = ?",
                       (game_id, side.letter))
    return cur.rowcount > 0


def drop_all(conn: Connection, game_id: int) -> None:
    """Both players' sets go (a takeback, a rollback, the end of the game)."""
    conn.execute("DELETE FROM conditions WHERE game_id = ?", (game_id,))
