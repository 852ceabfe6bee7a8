"""What the referee keeps per address: a key for player-level commands, the vacation book,
the digest preference and the reports held for it, the games it observes, its challenges.

Game keys prove a player's hold on one game; the account key proves his hold on the
address itself, for commands about him rather than a game (vacation, challenge, games).
The referee's player-level mails carry it the way game mails carry the game key: in the
Reply-To plus-address (``referee+p-k3x9qpma@``) and the subject tag (``[realm p-…]``).
"""

from __future__ import annotations

import json
import time
import zoneinfo
from datetime import tzinfo

from pbem.referee.clock.vacation import VacationBook
from pbem.referee.store.engine import Connection, Row, insert_id
from pbem.referee.store.secrets_scheme import new_token


def account_token(conn: Connection, email: str) -> str | None:
    row = conn.execute("SELECT token FROM accounts WHERE email = ?", (email,)).fetchone()
    return None if row is None else str(row[0])


def ensure_account(conn: Connection, email: str) -> str:
    """The address's key, made now if it has none (inside the caller's transaction)."""
    token = account_token(conn, email)
    if token is None:
        token = new_token()
        conn.execute("INSERT INTO accounts (email, token, created_at) VALUES (?, ?, ?)",
                     (email, token, time.time()))
    return token


def known_address(conn: Connection, email: str) -> bool:
    return bool(email) and (
        conn.execute("SELECT 1 FROM players WHERE email = ?", (email,)).fetchone() is not None
        or account_token(conn, email) is not None
    )


def player_keys(conn: Connection, email: str) -> list[str]:
    """Every key that proves a mail comes from ``email``: its account key and game keys."""
    keys = [r[0] for r in conn.execute("SELECT token FROM players WHERE email = ?", (email,))]
    own = account_token(conn, email)
    return [*keys, own] if own else keys


def vacation_book(conn: Connection, email: str) -> VacationBook:
    row = conn.execute("SELECT vacations FROM accounts WHERE email = ?", (email,)).fetchone()
    return VacationBook() if row is None else VacationBook.from_dict(json.loads(row[0]))


def save_book(conn: Connection, email: str, book: VacationBook) -> None:
    ensure_account(conn, email)
    conn.execute("UPDATE accounts SET vacations = ? WHERE email = ?",
                 (json.dumps(book.to_dict(), sort_keys=True), email))


# -- what a player says about himself -----------------------------------------------------
def display_name_of(conn: Connection, email: str) -> str | None:
    row = conn.execute("SELECT display_name FROM accounts WHERE email = ?", (email,)).fetchone()
    return None if row is None or not row[0] else str(row[0])


def zone_of(conn: Connection, email: str) -> tzinfo | None:
    """The player's time zone, None for UTC (the default)."""
    row = conn.execute("SELECT timezone FROM accounts WHERE email = ?", (email,)).fetchone()
    if row is None or not row[0]:
        return None
    try:
        return zoneinfo.ZoneInfo(str(row[0]))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # tzdata removed since: UTC
        return None


def set_display_name(conn: Connection, email: str, name: str) -> int:
    """The name his reports and pages show, in every game of his; how many games."""
    ensure_account(conn, email)
    conn.execute("UPDATE accounts SET display_name = ? WHERE email = ?", (name, email))
    return conn.execute("UPDATE players SET name = ? WHERE email = ?", (name, email)).rowcount


def set_timezone(conn: Connection, email: str, zone: str | None) -> None:
    ensure_account(conn, email)
    conn.execute("UPDATE accounts SET timezone = ? WHERE email = ?", (zone, email))


# -- digests ---------------------------------------------------------------------------------
def wants_digest(conn: Connection, email: str) -> bool:
    row = conn.execute("SELECT digest FROM accounts WHERE email = ?", (email,)).fetchone()
    return bool(row and row[0])


def set_digest(conn: Connection, email: str, on: bool) -> None:
    ensure_account(conn, email)
    conn.execute("UPDATE accounts SET digest = ? WHERE email = ?", (int(on), email))


def hold_report(conn: Connection, email: str, game_id: int, subject: str,
                text: str) -> None:
    conn.execute(
        "INSERT INTO held_reports (email, game_id, subject, text, created_at) "
        "VALUES (?, ?, ?, ?, ?)", (email, game_id, subject, text, time.time()))


def held_reports(conn: Connection, email: str) -> list[Row]:
    return conn.execute("SELECT id, game_id, subject, text FROM held_reports WHERE email = ? "
                        "ORDER BY id", (email,)).fetchall()


def digest_sent(conn: Connection, email: str, ids: list[int], day: str) -> None:
    """The held reports ``ids`` went out in the digest of ``day``."""
    conn.execute(f"DELETE FROM held_reports WHERE id IN ({','.join('?' * len(ids))})", ids)
    conn.execute("UPDATE accounts SET digest_sent_on = ? WHERE email = ?", (day, email))


def digest_day(conn: Connection, email: str) -> str | None:
    row = conn.execute("SELECT digest_sent_on FROM accounts WHERE email = ?",
                       (email,)).fetchone()
    return None if row is None else row[0]


def holding(conn: Connection) -> list[str]:
    """Addresses with reports held for a digest."""
    return [r[0] for r in conn.execute("SELECT DISTINCT email FROM held_reports")]


# -- observers -------------------------------------------------------------------------------
def observers(conn: Connection, game_id: int) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT email FROM observers WHERE game_id = ? ORDER BY email", (game_id,))]


def observed(conn: Connection, email: str) -> list[int]:
    return [r[0] for r in conn.execute(
        "SELECT game_id FROM observers WHERE email = ? ORDER BY game_id", (email,))]


def observe(conn: Connection, game_id: int, email: str) -> None:
    conn.execute("INSERT OR IGNORE INTO observers (game_id, email, created_at) VALUES (?, ?, ?)",
                 (game_id, email, time.time()))


def unobserve(conn: Connection, email: str, game_id: int | None) -> int:
    """Stop observing one game (or all, for None); how many were stopped."""
    if game_id is None:
        return conn.execute("DELETE FROM observers WHERE email = ?", (email,)).rowcount
    return conn.execute("DELETE FROM observers WHERE email = ? AND game_id = ?",
                        (email, game_id)).rowcount


# -- challenges ------------------------------------------------------------------------------
def open_challenges(conn: Connection, email: str, role: str | None = None
                    ) -> list[Row]:
    """Open challenges made (role 'challenger') or received ('challenged') by ``email``,
    or both (None)."""
    if role is None:
        return conn.execute(
            "SELECT * FROM challenges WHERE status = 'open' AND (challenger = ? OR "
            "challenged = ?) ORDER BY id", (email, email)).fetchall()
    assert role in ("challenger", "challenged")
    return conn.execute(f"SELECT * FROM challenges WHERE status = 'open' AND {role} = ? "
                        "ORDER BY id", (email,)).fetchall()


def open_between(conn: Connection, a: str, b: str) -> bool:
    return conn.execute(
        "SELECT 1 FROM challenges WHERE status = 'open' AND ((challenger = ? AND challenged = ?)"
        " OR (challenger = ? AND challenged = ?))", (a, b, b, a)).fetchone() is not None


def add_challenge(conn: Connection, challenger: str, challenged: str, ruleset: str,
                  clock: str | None, *, rated: bool = True) -> int:
    new_id = insert_id(conn,
        "INSERT INTO challenges (challenger, challenged, ruleset, clock, created_at, rated) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (challenger, challenged, ruleset, clock, time.time(), int(rated)))
    return new_id


def decide_challenge(conn: Connection, number: int, status: str,
                     game_id: int | None) -> None:
    conn.execute("UPDATE challenges SET status = ?, game_id = ?, decided_at = ? WHERE id = ?",
                 (status, game_id, time.time(), number))
