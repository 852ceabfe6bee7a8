"""A game in the store: its players, turns with snapshots, canonical record, clock and log.

The record (canonical notation, front matter included) is the source of truth and is
rewritten from the stored turns after each accepted one; the snapshot per turn lets a new
turn be checked without replaying the game. Every SQL statement about games is here.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from pbem.errors import PbemError
from pbem.notation.format import entry_line, format_front_matter
from pbem.notation.parse import parse_game
from pbem.notation.write import entries
from pbem.records.replay import Replay, replay_game
from pbem.records.rulesets import load_ruleset, preset_names
from pbem.records.snapshot import dump_snapshot, load_snapshot
from pbem.referee.clock import ClockSettings, ClockState
from pbem.referee.store.engine import Connection, Row, StoreError, insert_id, lock_game
from pbem.referee.store.offers import Offer, from_stored, stored
from pbem.rules.game import GamePosition
from pbem.rules.pieces import Side
from pbem.rules.registry import featured, game_of
from pbem.rules.values import frozen

#: the store's side keys
SIDES = {"w": Side.WHITE, "b": Side.BLACK}
_PLACEMENT = re.compile(r"^[BP][a-l]\d+( \{[^{}]*\})?$")


class GameNotFound(PbemError):
    code = "game.unknown"


def key(side: Side) -> str:
    """How the store (and the keys in mail addresses) write a side: 'w' or 'b'."""
    return side.letter


@frozen
class Player:
    side: Side
    email: str
    name: str
    token: str

    @property
    def title(self) -> str:
        return self.side.title

    @property
    def key(self) -> str:
        return key(self.side)

    @property
    def flip(self) -> bool:
        """Whether his boards are drawn from Black's side."""
        return self.side is Side.BLACK


@frozen
class Game:
    id: int
    name: str
    ruleset: str
    status: str  # playing | over
    result: str | None
    end_reason: str | None
    record: str
    offer: Offer | None
    players: dict[Side, Player]
    seq: int
    position: GamePosition
    #: the clock (``pbem.referee.clock`` JSON); None for a game without one
    clock_settings: str | None = None
    clock_state: str | None = None
    #: whether the game counts for the ratings
    rated: bool = True
    #: the row's version when read: every write of the row adds one (``claim``)
    version: int = 0

    def headers(self, result: str | None = None) -> dict[str, object]:
        h: dict[str, object] = {
            "game": self.name,
            "white": self.players[Side.WHITE].name,
            "black": self.players[Side.BLACK].name,
            "ruleset": ruleset_header(self.position.ruleset),
        }
        if result:
            h["result"] = result
        return h

    def side_of(self, email: str) -> Side | None:
        sides = [p.side for p in self.players.values() if p.email == email]
        return sides[0] if sides else None

    def opponent(self, side: Side) -> Player:
        return self.players[side.other]

    def clock(self) -> tuple[ClockSettings, ClockState] | None:
        """The game's time control and clock, or None for a game without one."""
        if not self.clock_settings or not self.clock_state:
            return None
        return (ClockSettings.from_dict(json.loads(self.clock_settings)),
                ClockState.from_dict(json.loads(self.clock_state)))


def ruleset_header(ruleset: Any) -> str | dict[str, object]:
    """How the record names its ruleset: the preset's name, or every option (and the
    game, where it is not the Featured Game)."""
    if ruleset.name in preset_names() and load_ruleset(ruleset.name) == ruleset:
        return ruleset.name
    game = game_of(ruleset)
    if game is featured():
        return dict(ruleset.options())
    return {"game": game.name, "name": ruleset.name, **ruleset.options()}


def load_game(conn: Connection, game_id: int) -> Game:
    """The game as stored; inside a transaction on one game (PostgreSQL), its lock is taken
    first, so that the game is read as the last host to work on it left it."""
    lock_game(conn, game_id)
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    players = {
        SIDES[r["side"]]: Player(SIDES[r["side"]], r["email"], r["name"], r["token"])
        for r in conn.execute("SELECT * FROM players WHERE game_id = ?", (game_id,))
    }
    last = conn.execute(
        "SELECT seq, snapshot FROM turns WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
    ).fetchone()
    return Game(
        id=row["id"],
        name=row["name"],
        ruleset=row["ruleset"],
        status=row["status"],
        result=row["result"],
        end_reason=row["end_reason"],
        record=row["record"],
        offer=from_stored(row["offer"]),
        players=players,
        seq=last["seq"],
        position=load_snapshot(last["snapshot"]),
        clock_settings=row["clock_settings"],
        clock_state=row["clock_state"],
        rated=bool(row["rated"]),
        version=int(row["version"]),
    )


def claim(conn: Connection, game: Game) -> None:
    """The unit that read ``game`` is the next to write it: its version goes up by one if
    it is still the one read (a conditional update, which also holds the row until the
    commit). Else another host's work wrote the game since: an update would be lost, so
    the transaction is undone and done again (``store.retry``)."""
    done = conn.execute("UPDATE games SET version = version + 1 WHERE id = ? AND version = ?",
                        (game.id, game.version))
    if done.rowcount != 1:
        raise StoreError(f"game {game.id} changed after it was read (version {game.version}): "
                         "another host's work; try again", code="store.retry")


def insert_game(
    conn: Connection,
    name: str,
    ruleset: Any,
    players: list[Player],
    *,
    rated: bool = True,
) -> int:
    now = time.time()
    new_id = insert_id(conn,
        "INSERT INTO games (name, ruleset, ruleset_options, record, created_at, updated_at, "
        "rated) VALUES (?, ?, ?, '', ?, ?, ?)",
        (name, ruleset.name, json.dumps(ruleset.options(), sort_keys=True), now, now,
         int(rated)),
    )
    game_id = new_id
    for p in players:
        conn.execute(
            "INSERT INTO players (game_id, side, email, name, token) VALUES (?, ?, ?, ?, ?)",
            (game_id, p.key, p.email, p.name, p.token),
        )
    start = game_of(ruleset).initial(ruleset)
    conn.execute(
        "INSERT INTO turns (game_id, seq, label, notation, snapshot, created_at) "
        "VALUES (?, 0, 'start', '', ?, ?)",
        (game_id, dump_snapshot(start), now),
    )
    game = load_game(conn, game_id)
    conn.execute(
        "UPDATE games SET record = ? WHERE id = ?", (record_text(conn, game, None, None), game_id)
    )
    return game_id


def stored_turns(conn: Connection, game_id: int) -> list[tuple[str, str]]:
    """(label, canonical turn) of every turn played, in order."""
    return [
        (r["label"], r["notation"])
        for r in conn.execute(
            "SELECT label, notation FROM turns WHERE game_id = ? AND seq > 0 AND label != 'end' "
            "ORDER BY seq",
            (game_id,),
        )
    ]


def movetext(turns: list[tuple[str, str]]) -> str:
    """``7.W/B`` per line; set-up entries as ``1.Bh11 Bh2``; a lone Black turn as ``7...B``
    (numbered into entries as every record is: ``notation.write.entries``)."""
    numbered = [(int(label[:-1]), SIDES[label[-1]], text) for label, text in turns]
    return "\n".join(
        entry_line(number, white, black,
                   white is not None and black is not None
                   and bool(_PLACEMENT.match(white) and _PLACEMENT.match(black)))
        for number, white, black in entries(numbered)
    )


def record_text(
    conn: Connection, game: Game, result: str | None, note: str | None,
    *, messages: bool = False,
) -> str:
    """The game's canonical record. The stored record never holds what the players said to
    each other (that is in the ``said`` table, so it can never be taken for an annotation
    nor published by mistake); ``messages``: add them to the front matter as ``messages:``
    (for the player's own ``history``, and a finished game's record on opt-in)."""
    headers = game.headers(result)
    said = said_lines(conn, game.id) if messages else []
    if said:
        headers["messages"] = said
    text = format_front_matter(headers) + movetext(stored_turns(conn, game.id))
    if result:
        text += f"\n{result}" + (f" {{{note}}}" if note else "")
    return text.rstrip("\n") + "\n"


def add_said(conn: Connection, game_id: int, seq: int, side: Side, text: str) -> None:
    """A player's message to his opponent, after entry ``seq`` of the game."""
    conn.execute("INSERT INTO said (game_id, seq, side, text, at) VALUES (?, ?, ?, ?, ?)",
                 (game_id, seq, key(side), text, time.time()))


def said_lines(conn: Connection, game_id: int) -> list[str]:
    """The players' messages in the order sent, each as ``7w White: text`` (said after turn
    7w; ``start`` before the first turn): the ``messages:`` of a record's front matter."""
    labels = {int(r["seq"]): str(r["label"]) for r in conn.execute(
        "SELECT seq, label FROM turns WHERE game_id = ? AND seq > 0", (game_id,))}
    return [
        f"{labels.get(int(r['seq']), 'start')} {SIDES[r['side']].title}: "
        + " ".join(str(r["text"]).split())
        for r in conn.execute("SELECT seq, side, text FROM said WHERE game_id = ? ORDER BY id",
                              (game_id,))
    ]


def public_record(record: str) -> str:
    """A record without the players' messages as stores before issue 23 kept them: ``{White:
    ...}`` and ``{Black: ...}`` comments in the movetext."""
    out = []
    for line in record.split("\n"):
        was = line
        for side in ("White", "Black"):
            while (start := line.find(f"{{{side}: ")) >= 0:
                end = line.find("}", start)
                end = len(line) if end < 0 else end + 1
                line = (line[:start].rstrip(" ") + " " + line[end:].lstrip(" ")).strip(" ")
        if line or not was:
            out.append(line)
    return "\n".join(out)


def replay_record(record: str) -> Replay:
    """The stored record played through the rules (for reports and the record's checks)."""
    return replay_game(parse_game(record))


# -- changing a game -------------------------------------------------------------------------
def add_turn(conn: Connection, game_id: int, seq: int, label: str, notation: str,
             position: GamePosition, message_row: int | None) -> None:
    """One entry of the game: a turn played, or ('end', note) for an ending off the board."""
    conn.execute(
        "INSERT INTO turns (game_id, seq, label, notation, snapshot, message_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, seq, label, notation, dump_snapshot(position), message_row, time.time()),
    )


def drop_end_entry(conn: Connection, game_id: int, seq: int) -> None:
    """A loss on time withdrawn: its 'end' entry goes."""
    conn.execute("DELETE FROM turns WHERE game_id = ? AND seq = ? AND label = 'end'",
                 (game_id, seq))


def position_at(conn: Connection, game_id: int, seq: int) -> GamePosition:
    row = conn.execute("SELECT snapshot FROM turns WHERE game_id = ? AND seq = ?",
                       (game_id, seq)).fetchone()
    return load_snapshot(row[0])


def save_game(conn: Connection, game_id: int, *, record: str, offer: Offer | None,
              status: str, result: str | None, end_reason: str | None) -> None:
    """The game's new state. A game that ends now gets its ``finished_at``; one already
    over keeps it; one back in play (a rollback after its end) loses it."""
    now = time.time()
    conn.execute(
        "UPDATE games SET record = ?, offer = ?, status = ?, result = ?, end_reason = ?, "
        "updated_at = ?, version = version + 1, finished_at = CASE WHEN ? = 'over' THEN "
        "CASE WHEN status = 'over' THEN COALESCE(finished_at, ?) ELSE ? END END WHERE id = ?",
        (record, stored(offer), status, result, end_reason, now, status, now, now, game_id),
    )


def turn_rows(conn: Connection, game_id: int) -> list[Row]:
    """Every stored entry of a game (seq, label, notation, snapshot, ...), in order."""
    return conn.execute("SELECT * FROM turns WHERE game_id = ? ORDER BY seq",
                        (game_id,)).fetchall()


def remove_turns_after(conn: Connection, game_id: int, keep_seq: int) -> None:
    conn.execute("DELETE FROM turns WHERE game_id = ? AND seq > ?", (game_id, keep_seq))


def restore_turns(conn: Connection, game_id: int, rows: list[dict[str, object]]) -> None:
    """Put back entries a rollback removed (as ``turn_rows`` gave them)."""
    for r in rows:
        conn.execute(
            "INSERT INTO turns (game_id, seq, label, notation, snapshot, message_id, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, r["seq"], r["label"], r["notation"], r["snapshot"], r["message_id"],
             r["created_at"]),
        )


def last_turn(conn: Connection, game_id: int) -> tuple[int, str] | None:
    """(seq, label) of the last turn played (not the start, not an 'end' entry)."""
    row = conn.execute(
        "SELECT seq, label FROM turns WHERE game_id = ? AND seq > 0 AND label != 'end' "
        "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def save_clock(conn: Connection, game_id: int, state: ClockState) -> None:
    conn.execute("UPDATE games SET clock_state = ?, version = version + 1 WHERE id = ?",
                 (json.dumps(state.to_dict(), sort_keys=True), game_id))


def start_clock(conn: Connection, game_id: int, settings: ClockSettings,
                state: ClockState) -> None:
    conn.execute(
        "UPDATE games SET clock_settings = ?, clock_state = ?, version = version + 1 "
        "WHERE id = ?",
        (json.dumps(settings.to_dict(), sort_keys=True),
         json.dumps(state.to_dict(), sort_keys=True), game_id),
    )


def log(conn: Connection, game_id: int, kind: str, text: str, *,
        at: float | None = None) -> None:
    """A line of the game's log (``pbem show --log``), made now or ``at``."""
    conn.execute("INSERT INTO game_log (game_id, at, kind, text) VALUES (?, ?, ?, ?)",
                 (game_id, time.time() if at is None else at, kind, text))


# -- finding games ---------------------------------------------------------------------------
def plays_any(conn: Connection, email: str) -> bool:
    return conn.execute("SELECT 1 FROM players WHERE email = ?", (email,)).fetchone() is not None


def games_of(conn: Connection, email: str, *, playing: bool = False,
             clocked: bool = False) -> list[int]:
    """The ids of the games ``email`` plays (only those in play, only those on a clock)."""
    sql = ("SELECT DISTINCT p.game_id FROM players p JOIN games g ON g.id = p.game_id "
           "WHERE p.email = ?")
    if playing:
        sql += " AND g.status = 'playing'"
    if clocked:
        sql += " AND g.clock_state IS NOT NULL"
    return [r[0] for r in conn.execute(sql + " ORDER BY p.game_id", (email,))]


def clocked_games(conn: Connection) -> list[int]:
    """Games in play on a clock (``pbem tick``)."""
    return [r[0] for r in conn.execute(
        "SELECT id FROM games WHERE status = 'playing' AND clock_state IS NOT NULL ORDER BY id")]


def game_of_mail(conn: Connection, message_id: str) -> int | None:
    """The game a mail the referee sent was about (a player's reply names it)."""
    row = conn.execute("SELECT game_id FROM outbox WHERE message_id = ?",
                       (message_id,)).fetchone()
    return None if row is None or row[0] is None else int(row[0])


def finished_games(conn: Connection) -> list[Row]:
    """Every finished game as the ratings need it: id, ruleset (name and options JSON),
    result, finished_at, rated, and the two players' addresses (white, black)."""
    return conn.execute(
        "SELECT g.id, g.ruleset, g.ruleset_options, g.result, g.finished_at, g.rated, "
        "w.email AS white, b.email AS black FROM games g "
        "JOIN players w ON w.game_id = g.id AND w.side = 'w' "
        "JOIN players b ON b.game_id = g.id AND b.side = 'b' "
        "WHERE g.status = 'over' AND g.finished_at IS NOT NULL ORDER BY g.finished_at, g.id"
    ).fetchall()


def start_position(conn: Connection, game_id: int) -> GamePosition:
    return position_at(conn, game_id, 0)


def player_names(conn: Connection) -> list[tuple[str, str]]:
    """(address, name) of every name a player played under, oldest game first, then the
    names players chose by mail (``name Alice Archer``)."""
    rows = [(r["email"], r["name"]) for r in
            conn.execute("SELECT email, name FROM players ORDER BY game_id")]
    rows += [(r["email"], r["display_name"]) for r in conn.execute(
        "SELECT email, display_name FROM accounts WHERE display_name IS NOT NULL")]
    return rows


def overview(conn: Connection) -> list[Row]:
    """One row per game for ``pbem games``."""
    return conn.execute(
        "SELECT g.id, g.name, g.status, g.result, g.ruleset, "
        "(SELECT label FROM turns WHERE game_id = g.id ORDER BY seq DESC LIMIT 1) AS last "
        "FROM games g ORDER BY g.id"
    ).fetchall()
