"""Killed at any point, run again: no accepted turn lost or applied twice, no mail lost
or (in the Maildir outbox) sent twice. Two ``pbem mail`` processes at once never
corrupt a game. Every process here is a real ``pbem mail`` and is really SIGKILLed."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.referee.store.faults import POINTS
from tests.referee.conftest import MailPlayer, SmtpSink, init_home, outbox_mails, run_pbem
from tests.referee.helpers import new_table


def _outbox_rows(table) -> list[tuple[str, str]]:
    return [tuple(r) for r in table.conn.execute("SELECT kind, status FROM outbox ORDER BY id")]


@pytest.mark.parametrize("point", POINTS)
def test_a_kill_at_any_point_loses_nothing_and_doubles_nothing(home: Path, point: str) -> None:
    table = new_table(home)
    raw = table.white.reply("Bh11")
    killed = run_pbem(home, "mail", stdin=raw, env={"PBEM_FAULT": point})
    assert killed.returncode == -signal.SIGKILL
    again = run_pbem(home, "mail", stdin=raw)
    assert again.returncode == 0, again.stderr
    expected = "accepted" if point == "before-commit" else "duplicate"
    assert again.stdout.decode().startswith(expected)
    assert table.turns() == ["1w"]
    assert all(status == "sent" for _, status in _outbox_rows(table))
    mails = outbox_mails(home)
    ids = [m["Message-ID"] for m in mails]
    assert len(ids) == len(set(ids)) == 4  # 2 invitations, 2 reports: each exactly once
    assert sum(1 for m in mails if m["X-Pbem-Kind"] == "report") == 2
    # the store still reads back a consistent game
    shown = run_pbem(home, "show", str(table.game_id))
    assert shown.returncode == 0 and b"1.Bh11" in shown.stdout


def test_over_smtp_a_kill_after_sending_resends_the_same_mail(tmp_path: Path) -> None:
    sink = SmtpSink().start()
    try:
        home = init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": sink.port})
        proc = run_pbem(home, "new", "--white", "w@p.test", "--black", "b@p.test")
        assert proc.returncode == 0
        invitations = {m["Message-ID"]: m for m in sink.messages()}
        white = next(m for m in invitations.values() if m["To"] == "w@p.test")
        raw = MailPlayer("w@p.test").reply("Bh11", to=white)
        killed = run_pbem(home, "mail", stdin=raw, env={"PBEM_FAULT": "after-send"})
        assert killed.returncode == -signal.SIGKILL
        assert run_pbem(home, "flush").returncode == 0
        ids = [m["Message-ID"] for m in sink.messages()]
        # at least once, and a resent mail is recognisably the same one
        assert len(set(ids)) == 4
        assert len(ids) <= 5
    finally:
        sink.stop()


def _spawn(home: Path, raw: bytes) -> subprocess.Popen[bytes]:
    import os

    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem", "mail"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env={**os.environ, "PBEM_HOME": str(home)},
    )
    assert proc.stdin is not None
    proc.stdin.write(raw)
    proc.stdin.close()
    return proc


def _output(proc: subprocess.Popen[bytes]) -> str:
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    proc.wait(timeout=60)
    return out


def test_two_processes_at_once_never_corrupt_a_game(home: Path) -> None:
    table = new_table(home)
    # rounds of two different orders for the same turn, mailed at the same moment
    squares = ["h11", "e8", "b5"]
    for i, sq in enumerate(squares):
        a = table.white.reply(f"B{sq}")
        b = table.white.reply(f"B{'k2' if i != 1 else 'k11'}")
        procs = [_spawn(home, a), _spawn(home, b)]
        outs = [_output(p) for p in procs]
        assert sorted(o.split()[0].rstrip(":") for o in outs) == ["accepted", "refused"], outs
        table.deliver()
        label = f"{i + 1}b"
        black = table.black.reply({0: "Bh2", 1: "Be5", 2: "Bb8"}[i])
        procs = [_spawn(home, black), _spawn(home, black)]  # the same mail twice at once
        outs = [_output(p) for p in procs]
        assert sorted(o.split()[0].rstrip(":") for o in outs) == ["accepted", "duplicate"], outs
        table.deliver()
        assert table.turns()[-1] == label
    assert len(table.turns()) == 6
    from pbem.referee.store.upkeep import check

    assert check(table.conn) == []  # the engine's integrity check, and the references
    sent = table.conn.execute("SELECT COUNT(*), COUNT(DISTINCT message_id) FROM outbox "
                              "WHERE status = 'sent'").fetchone()
    assert sent[0] == sent[1] == len(outbox_mails(home))
