"""``pbem tick`` as cron runs it: real processes, time set by PBEM_NOW, two at once, and
beside ``pbem mail``; nothing is ever sent or applied twice."""

from __future__ import annotations

import email
import email.policy
import subprocess
import sys
from pathlib import Path

import pytest

from tests.referee.conftest import REPO, MailPlayer, outbox_mails, run_pbem, text_of

T0 = "2026-12-01T10:00:00Z"
AFTER = "2026-12-04T10:00:01Z"  # one second after a 3-day deadline from T0


def _start(home: Path, clock: str) -> list:
    proc = run_pbem(home, "new", "--white", "w@p.test", "--black", "b@p.test", "--clock", clock,
                    env={"PBEM_NOW": T0})
    assert proc.returncode == 0, proc.stderr
    return outbox_mails(home)


def _popen(home: Path, *args: str, now: str, stdin: bytes | None = None) -> subprocess.Popen:
    import os

    env = {**os.environ, "PBEM_HOME": str(home), "PBEM_NOW": now}
    return subprocess.Popen([sys.executable, "-m", "pbem", *args], env=env, cwd=REPO,
                            stdin=subprocess.PIPE if stdin is not None else None,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _kinds(home: Path) -> list[str]:
    return [m["X-Pbem-Kind"] for m in outbox_mails(home)]


def test_pbem_new_takes_the_clock_and_pbem_now(home: Path) -> None:
    mails = _start(home, "days 3, forfeit")
    assert "White to move by Fri 2026-12-04 10:00 UTC" in text_of(mails[0])
    bad = run_pbem(home, "new", "--white", "x@p.test", "--black", "y@p.test", "--clock",
                   "days 0")
    assert bad.returncode == 2 and b"days" in bad.stderr and b"Traceback" not in bad.stderr
    wrong = run_pbem(home, "tick", env={"PBEM_NOW": "yesterday"})
    assert wrong.returncode == 2 and b"PBEM_NOW" in wrong.stderr


def test_two_ticks_at_once_forfeit_once(home: Path) -> None:
    _start(home, "days 3, forfeit")
    procs = [_popen(home, "tick", now=AFTER) for _ in range(2)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert sum(b"1 forfeit(s)" in o[0] for o in outs) == 1
    assert _kinds(home).count("result") == 2  # one result mail to each player
    assert run_pbem(home, "tick", env={"PBEM_NOW": AFTER}).returncode == 0
    assert _kinds(home).count("result") == 2
    shown = run_pbem(home, "show", "1")
    assert b"White lost on time" in shown.stdout


@pytest.mark.parametrize("turn_at", ["2026-12-04T09:59:00Z", "2026-12-04T10:00:30Z"])
def test_tick_and_mail_at_once_agree(home: Path, turn_at: str) -> None:
    """A turn racing the forfeit: in time it always counts, late it never does, whichever
    process gets the lock first."""
    mails = _start(home, "days 3, forfeit")
    white = MailPlayer("w@p.test")
    white.receive(mails)
    raw = white.reply("Bh11")
    mail = _popen(home, "mail", now=turn_at, stdin=raw)
    ticker = _popen(home, "tick", now=AFTER)
    mail.communicate(raw, timeout=60)
    ticker.communicate(timeout=60)
    shown = run_pbem(home, "show", "1").stdout.decode()
    if turn_at < "2026-12-04T10:00:00Z":
        assert "1.Bh11" in shown and "lost on time" not in shown
        assert mail.returncode == 0
    else:
        assert "1.Bh11" not in shown and "White lost on time" in shown
    results = _kinds(home).count("result")
    assert results in (0, 2)
    ids = [m["Message-ID"] for m in outbox_mails(home)]
    assert len(ids) == len(set(ids))


def test_reminder_by_cron_once(home: Path) -> None:
    _start(home, "days 3, claim")
    for _ in range(2):
        proc = run_pbem(home, "tick", env={"PBEM_NOW": "2026-12-03T10:30:00Z"})
        assert proc.returncode == 0, proc.stderr
    reminders = [m for m in outbox_mails(home) if m["X-Pbem-Kind"] == "reminder"]
    assert len(reminders) == 1 and reminders[0]["To"] == "w@p.test"
    msg = email.message_from_bytes(bytes(reminders[0]), policy=email.policy.default)
    assert "due by Fri 2026-12-04 10:00 UTC" in text_of(msg)
