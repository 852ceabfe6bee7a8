"""Deduplication on the Message-ID and a digest, of handled mail only (issue 12, item 5)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from pbem.referee import store
from pbem.referee.intake.dedupe import digest
from pbem.referee.store import connect
from tests.referee.helpers import Table, new_table


def _with_message_id(raw: bytes, message_id: str) -> bytes:
    head, _, body = raw.partition(b"\n\n")
    lines = [ln for ln in head.split(b"\n") if not ln.lower().startswith(b"message-id:")]
    return b"\n".join([*lines, f"Message-ID: {message_id}".encode()]) + b"\n\n" + body


def test_a_refused_mail_sent_again_is_handled_again(home: Path) -> None:
    table: Table = new_table(home)
    early = table.black.reply("Bh2")  # Black's turn, before White has played
    assert table.send(early).outcome == "refused"
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(early).outcome == "accepted"  # the very same bytes
    assert table.turns() == ["1w", "1b"]
    assert table.send(early).outcome == "duplicate"


def test_a_strangers_mail_with_a_turns_message_id_does_not_drop_the_turn(home: Path) -> None:
    table = new_table(home)
    turn = _with_message_id(table.white.reply("Bh11"), "<turn-1@players.test>")
    forged = (b"From: eve@evil.test\nTo: referee@pbem.test\nSubject: hello\n"
              b"Message-ID: <turn-1@players.test>\n\nBh11\n")
    assert table.send(forged).outcome == "unknown-sender"
    assert table.send(turn).outcome == "accepted"
    assert table.turns() == ["1w"]


def test_the_same_mail_delivered_again_with_new_trace_headers_is_a_duplicate(home: Path) -> None:
    table = new_table(home)
    raw = table.white.reply("Bh11")
    assert table.send(raw).outcome == "accepted"
    again = (b"Received: from mx2.players.test by mx.pbem.test; Tue, 24 Nov 2026\n"
             b"Delivered-To: referee@pbem.test\n" + raw.replace(b"\n", b"\r\n"))
    assert digest(again) == digest(raw)
    assert table.send(again).outcome == "duplicate"
    assert table.turns() == ["1w"]
    edited = raw.replace(b"Bh11", b"Bh11 ")
    assert digest(edited) != digest(raw)


def test_a_mail_without_message_id_is_known_by_its_digest(home: Path) -> None:
    table = new_table(home)
    raw = b"\n".join(ln for ln in table.white.reply("Bh11").split(b"\n")
                     if not ln.lower().startswith(b"message-id:"))
    assert table.send(raw).outcome == "accepted"
    assert table.send(b"Received: by mx.pbem.test\n" + raw).outcome == "duplicate"


def test_a_store_from_before_the_digest_keeps_its_mails_and_references(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL)")
    names = [name for name, _ in store.MIGRATIONS]
    before = names.index("0005-messages-digest-not-unique")
    for name, sql in store.MIGRATIONS[:before]:
        conn.executescript(sql)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, time.time()))
    conn.execute("INSERT INTO games (id, name, ruleset, ruleset_options, record, created_at, "
                 "updated_at) VALUES (1, 'T', 'featured', '{}', '', 0, 0)")
    conn.execute("INSERT INTO messages (id, message_id, received_at, raw, outcome, game_id) "
                 "VALUES (7, '<old@players.test>', 0, x'00', 'accepted', 1)")
    conn.execute("INSERT INTO turns VALUES (1, 1, '1w', 'Bh11', '{}', 7, 0)")
    conn.close()
    migrated = connect(path)
    row = migrated.execute("SELECT message_id, digest, outcome FROM messages").fetchone()
    assert tuple(row) == ("<old@players.test>", None, "accepted")
    assert migrated.execute("PRAGMA foreign_key_check").fetchall() == []
    assert migrated.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    from pbem.referee.store.mail import handled_before

    assert handled_before(migrated, "<old@players.test>", "any digest")
    # the references still point at the (rebuilt) messages table
    migrated.execute("BEGIN")
    try:
        migrated.execute("INSERT INTO turns VALUES (1, 2, '1b', 'Bh2', '{}', 99, 0)")
        raised = False
    except sqlite3.IntegrityError:
        raised = True
    migrated.execute("ROLLBACK")
    assert raised
