"""The daily digest: a player who mailed ``digest on`` gets his turn reports (and those
of games he observes) held, and ``pbem tick`` sends them as one mail a day, from the
configured hour (UTC). Refusals, reminders, notices and results are never held.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.referee.accounts import ensure_account, wants_digest
from pbem.referee.compose import Outgoing
from pbem.referee.games import Game
from pbem.referee.letters import letter
from pbem.referee.store import transaction

if TYPE_CHECKING:
    from pbem.referee.service import Referee


def held(ref: Referee, email: str, game: Game, subject: str, text: str) -> bool:
    """Hold a turn report for ``email``'s digest if he wants one; True if held."""
    if not wants_digest(ref.conn, email):
        return False
    ref.conn.execute(
        "INSERT INTO held_reports (email, game_id, subject, text, created_at) "
        "VALUES (?, ?, ?, ?, ?)", (email, game.id, subject, text, time.time()))
    return True


def send_for(ref: Referee, email: str, now: datetime) -> int:
    """Queue one digest of everything held for ``email`` (inside the caller's transaction);
    the number of reports in it."""
    rows = ref.conn.execute(
        "SELECT id, subject, text FROM held_reports WHERE email = ? ORDER BY id", (email,)
    ).fetchall()
    if not rows:
        return 0
    body = letter("digest", reports=[{"subject": r["subject"], "text": r["text"]} for r in rows])
    token = ensure_account(ref.conn, email)
    day = now.date().isoformat()
    ref._queue(Outgoing("digest", email, f"Realm referee: your digest for {day} "
                        f"({len(rows)} report(s))", body.text, body.html,
                        account_token=token), None)
    ref.conn.execute(f"DELETE FROM held_reports WHERE id IN ({','.join('?' * len(rows))})",
                     [r["id"] for r in rows])
    ref.conn.execute("UPDATE accounts SET digest_sent_on = ? WHERE email = ?", (day, email))
    return len(rows)


def send_due(ref: Referee, now: datetime) -> int:
    """``pbem tick``: one digest per player per UTC day, from the configured hour."""
    if now.hour < ref.options.digest_hour:
        return 0
    day = now.date().isoformat()
    sent = 0
    emails = [r[0] for r in ref.conn.execute("SELECT DISTINCT email FROM held_reports")]
    for email in emails:
        with transaction(ref.conn):
            last = ref.conn.execute("SELECT digest_sent_on FROM accounts WHERE email = ?",
                                    (email,)).fetchone()
            if last is not None and last[0] == day:
                continue
            sent += 1 if send_for(ref, email, now) else 0
    return sent
