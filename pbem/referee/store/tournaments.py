"""Every SQL statement about tournaments: the event, its entries, its boards (each a game
of the referee's, or a bye). The results are not kept here: they are the games' own, read
with the boards (``boards``), so a rollback or an adjudication shows at once."""

from __future__ import annotations

from pbem.referee.store.engine import Connection, Row, insert_id
from pbem.rules.values import frozen


@frozen
class Event:
    id: int
    name: str
    ruleset: str
    format: str
    rounds: int | None
    division_size: int | None
    clock: str | None
    rated: bool
    public_delay: int | None
    ends_at: float | None
    webhook: str | None
    status: str
    created_at: float
    started_at: float | None
    finished_at: float | None

    @property
    def swiss(self) -> bool:
        return self.format == "swiss"


@frozen
class Entry:
    number: int
    email: str
    name: str | None
    rating: float | None
    division: int | None
    seed: int | None
    withdrawn_at: float | None
    #: the name the player chose by mail (``name Alice Archer``), if any
    chosen: str | None = None


@frozen
class BoardRow:
    division: int
    round: int
    board: int
    white: int
    black: int | None
    game_id: int | None
    status: str | None
    result: str | None
    end_reason: str | None


_EVENT = ("id, name, ruleset, format, rounds, division_size, clock, rated, public_delay, "
          "ends_at, webhook, status, created_at, started_at, finished_at")


def _event(row: Row) -> Event:
    fields = dict(zip(row.keys(), tuple(row), strict=True))
    return Event(**{**fields, "rated": bool(fields["rated"])})


def add_event(conn: Connection, *, name: str, ruleset: str, format: str,
              rounds: int | None, division_size: int | None, clock: str | None, rated: bool,
              public_delay: int | None, ends_at: float | None, webhook: str | None,
              now: float) -> int:
    new_id = insert_id(conn,
        "INSERT INTO tournaments (name, ruleset, format, rounds, division_size, clock, rated, "
        "public_delay, ends_at, webhook, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (name, ruleset, format, rounds, division_size, clock, int(rated), public_delay, ends_at,
         webhook, now))
    return new_id


def find_event(conn: Connection, name: str) -> Event | None:
    """The event of that name (letter case aside), or None."""
    row = conn.execute(f"SELECT {_EVENT} FROM tournaments WHERE lower(name) = lower(?)",
                       (name.strip(),)).fetchone()
    return None if row is None else _event(row)


def event_by_id(conn: Connection, event_id: int) -> Event:
    return _event(conn.execute(f"SELECT {_EVENT} FROM tournaments WHERE id = ?",
                               (event_id,)).fetchone())


def events(conn: Connection) -> list[Event]:
    return [_event(r) for r in conn.execute(f"SELECT {_EVENT} FROM tournaments ORDER BY id")]


def set_status(conn: Connection, event_id: int, status: str, now: float) -> None:
    column = {"running": "started_at", "finished": "finished_at"}[status]
    conn.execute(f"UPDATE tournaments SET status = ?, {column} = ? WHERE id = ?",
                 (status, now, event_id))


def set_end_date(conn: Connection, event_id: int, ends_at: float | None) -> None:
    conn.execute("UPDATE tournaments SET ends_at = ? WHERE id = ?", (ends_at, event_id))


def add_entry(conn: Connection, event_id: int, email: str, name: str | None) -> int:
    """Enter ``email``; its number in the order of entry."""
    row = conn.execute("SELECT coalesce(max(number), 0) + 1 FROM tournament_entries "
                       "WHERE tournament_id = ?", (event_id,)).fetchone()
    conn.execute("INSERT INTO tournament_entries (tournament_id, number, email, name) "
                 "VALUES (?, ?, ?, ?)", (event_id, int(row[0]), email, name))
    return int(row[0])


def remove_entry(conn: Connection, event_id: int, number: int) -> None:
    """Strike an entry before the start (the numbers of the others stay)."""
    conn.execute("DELETE FROM tournament_entries WHERE tournament_id = ? AND number = ?",
                 (event_id, number))


def entries(conn: Connection, event_id: int) -> list[Entry]:
    return [
        Entry(r["number"], r["email"], r["name"], r["rating"], r["division"], r["seed"],
              r["withdrawn_at"], r["display_name"])
        for r in conn.execute(
            "SELECT e.number, e.email, e.name, e.rating, e.division, e.seed, e.withdrawn_at, "
            "a.display_name FROM tournament_entries e LEFT JOIN accounts a ON a.email = e.email "
            "WHERE e.tournament_id = ? ORDER BY e.number", (event_id,))
    ]


def seat(conn: Connection, event_id: int, number: int, rating: float, division: int,
         seed: int) -> None:
    conn.execute("UPDATE tournament_entries SET rating = ?, division = ?, seed = ? "
                 "WHERE tournament_id = ? AND number = ?",
                 (rating, division, seed, event_id, number))


def withdraw(conn: Connection, event_id: int, number: int, now: float) -> None:
    conn.execute("UPDATE tournament_entries SET withdrawn_at = ? WHERE tournament_id = ? "
                 "AND number = ?", (now, event_id, number))


def add_board(conn: Connection, event_id: int, division: int, round: int, board: int,
              white: int, black: int | None, game_id: int | None) -> None:
    conn.execute("INSERT INTO tournament_boards (tournament_id, division, round, board, white, "
                 "black, game_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (event_id, division, round, board, white, black, game_id))


def boards(conn: Connection, event_id: int) -> list[BoardRow]:
    """Every board of the event with its game's status and result, in schedule order."""
    return [
        BoardRow(r["division"], r["round"], r["board"], r["white"], r["black"], r["game_id"],
                 r["status"], r["result"], r["end_reason"])
        for r in conn.execute(
            "SELECT b.division, b.round, b.board, b.white, b.black, b.game_id, g.status, "
            "g.result, g.end_reason FROM tournament_boards b "
            "LEFT JOIN games g ON g.id = b.game_id WHERE b.tournament_id = ? "
            "ORDER BY b.division, b.round, b.board", (event_id,))
    ]


def event_of_game(conn: Connection, game_id: int) -> tuple[int, int, int] | None:
    """(event id, round, board) of a game of an event, or None."""
    row = conn.execute("SELECT tournament_id, round, board FROM tournament_boards "
                       "WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


def event_games(conn: Connection) -> dict[int, tuple[int, int]]:
    """game id -> (event id, round) for every game of every event (the site's pages)."""
    return {int(r[0]): (int(r[1]), int(r[2])) for r in conn.execute(
        "SELECT game_id, tournament_id, round FROM tournament_boards WHERE game_id IS NOT NULL")}


def entries_of(conn: Connection, email: str) -> list[int]:
    """The events ``email`` has entered (withdrawn or not)."""
    return [int(r[0]) for r in conn.execute(
        "SELECT tournament_id FROM tournament_entries WHERE email = ?", (email,))]


@frozen
class GameFacts:
    """What a game's public record says of its event (``publish``)."""

    event: Event
    round: int
    board: int
    division: int
    divisions: int
    white_seed: int
    black_seed: int | None
    #: the entry that had the bye in this game's round and division, if any
    bye: Entry | None


def game_facts(conn: Connection, game_id: int) -> GameFacts | None:
    """The event, round, board and seeds of a game of an event, or None."""
    row = conn.execute("SELECT tournament_id, division, round, board, white, black "
                       "FROM tournament_boards WHERE game_id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    event = event_by_id(conn, int(row["tournament_id"]))
    count = conn.execute("SELECT count(DISTINCT division) FROM tournament_entries "
                         "WHERE tournament_id = ?", (event.id,)).fetchone()[0]
    bye = conn.execute("SELECT white FROM tournament_boards WHERE tournament_id = ? AND "
                       "division = ? AND round = ? AND black IS NULL",
                       (event.id, row["division"], row["round"])).fetchone()
    entry = None
    if bye is not None:
        entry = next((e for e in entries(conn, event.id)
                      if e.division == row["division"] and e.seed == bye[0]), None)
    return GameFacts(event, int(row["round"]), int(row["board"]), int(row["division"]),
                     int(count or 1), int(row["white"]),
                     None if row["black"] is None else int(row["black"]), entry)


def game_ids(conn: Connection, event_id: int) -> list[int]:
    """The event's games by division, round and board."""
    return [int(r[0]) for r in conn.execute(
        "SELECT game_id FROM tournament_boards WHERE tournament_id = ? AND game_id IS NOT NULL "
        "ORDER BY division, round, board", (event_id,))]
