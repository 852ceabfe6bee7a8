"""What the referee keeps per address: a key for player-level commands, the vacation book,
the digest preference. One row per email, made the first time the referee needs it.

Game keys prove a player's hold on one game; the account key proves his hold on the
address itself, for commands about him rather than a game (vacation, challenge, games).
The referee's player-level mails carry it the way game mails carry the game key: in the
Reply-To plus-address (``referee+p-k3x9qpma@``) and the subject tag (``[realm p-…]``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.referee.inbox import Incoming
from pbem.referee.secrets_scheme import new_token
from pbem.referee.vacation import VacationBook

if TYPE_CHECKING:
    from pbem.referee.service import Referee


@dataclass
class PlayerMail:
    """A player-level message being handled: who sent it, and the reply being built."""

    ref: Referee
    inc: Incoming
    row: int
    email: str
    token: str
    now: datetime
    sections: list[tuple[str, str]] = field(default_factory=list)
    changed: bool = False

    @property
    def conn(self) -> sqlite3.Connection:
        return self.ref.conn


def account_token(conn: sqlite3.Connection, email: str) -> str | None:
    row = conn.execute("SELECT token FROM accounts WHERE email = ?", (email,)).fetchone()
    return None if row is None else str(row[0])


def ensure_account(conn: sqlite3.Connection, email: str) -> str:
    """The address's key, made now if it has none (inside the caller's transaction)."""
    token = account_token(conn, email)
    if token is None:
        token = new_token()
        conn.execute("INSERT INTO accounts (email, token, created_at) VALUES (?, ?, ?)",
                     (email, token, time.time()))
    return token


def known_address(conn: sqlite3.Connection, email: str) -> bool:
    return bool(email) and (
        conn.execute("SELECT 1 FROM players WHERE email = ?", (email,)).fetchone() is not None
        or account_token(conn, email) is not None
    )


def player_keys(conn: sqlite3.Connection, email: str) -> list[str]:
    """Every key that proves a mail comes from ``email``: its account key and game keys."""
    keys = [r[0] for r in conn.execute("SELECT token FROM players WHERE email = ?", (email,))]
    own = account_token(conn, email)
    return [*keys, own] if own else keys


def vacation_book(conn: sqlite3.Connection, email: str) -> VacationBook:
    row = conn.execute("SELECT vacations FROM accounts WHERE email = ?", (email,)).fetchone()
    return VacationBook() if row is None else VacationBook.from_dict(json.loads(row[0]))


def save_book(conn: sqlite3.Connection, email: str, book: VacationBook) -> None:
    ensure_account(conn, email)
    conn.execute("UPDATE accounts SET vacations = ? WHERE email = ?",
                 (json.dumps(book.to_dict(), sort_keys=True), email))


def wants_digest(conn: sqlite3.Connection, email: str) -> bool:
    row = conn.execute("SELECT digest FROM accounts WHERE email = ?", (email,)).fetchone()
    return bool(row and row[0])
