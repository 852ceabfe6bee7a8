"""One bad message never stops ``pbem poll`` (issue 12, item 2).

A Maildir holds, between two turns, mails that used to stop the poll for every
game (a From header with a folded quoted local part, parts nested 1,000 deep), a
folder and a FIFO where a message file should be, an unreadable file, and a mail
whose handling fails (injected with ``PBEM_FAULT``, as a bug would). The turns
are played; what cannot be handled is logged and moved to ``failed/``; the next
poll finds nothing left.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.referee.conftest import open_store, run_pbem
from tests.referee.helpers import new_table

HOSTILE = Path(__file__).parents[1] / "hostile" / "mail"


def _put(inbox: Path, n: int, raw: bytes | None = None) -> Path:
    path = inbox / "new" / f"{1_700_000_000 + n}.M{n}P1Q{n}.players"
    if raw is not None:
        path.write_bytes(raw)
    return path


def test_a_bad_message_is_put_aside_and_the_poll_goes_on(home: Path) -> None:
    table = new_table(home)
    inbox = home / "inbox"
    _put(inbox, 1, table.white.reply("Bh11"))
    _put(inbox, 2, (HOSTILE / "from-lf-in-quoted-local-part.eml").read_bytes())
    _put(inbox, 3, (HOSTILE / "multipart-nested-1000-deep.eml").read_bytes())
    _put(inbox, 4).mkdir()
    os.mkfifo(_put(inbox, 5))
    unreadable = _put(inbox, 6, b"From: a@players.test\n\nsecret\n")
    unreadable.chmod(0)
    _put(inbox, 7, b"From: x@players.test\nSubject: FAIL-ME\nMessage-ID: <f@players.test>\n\nx\n")
    run = run_pbem(home, "poll", env={"PBEM_FAULT": "fail-mail:FAIL-ME"}, timeout=120)
    err = run.stderr.decode()
    assert run.returncode == 4, err  # set aside: not an internal error (3)
    assert "Traceback" not in err
    assert "not a regular file" in err and "injected failure" in err
    assert table.turns() == ["1w"]
    aside = {p.name.split(".")[0] for p in (inbox / "failed" / "new").iterdir()}
    expected = {"1700000004", "1700000005", "1700000007"}
    if os.geteuid() != 0:  # root reads any file
        expected.add("1700000006")
    assert expected <= aside
    assert "1700000001" not in aside and "1700000002" not in aside and "1700000003" not in aside
    assert not [p for p in (inbox / "new").iterdir() if p.name.split(".")[0] in expected]
    # the mail that failed is in the store's failure log
    conn = open_store(home)
    assert any("injected failure" in r[0] for r in conn.execute("SELECT error FROM failures"))
    # the next poll goes on where this one left off: the next turn is played
    table.deliver()
    _put(inbox, 8, table.black.reply("Bh2"))
    run = run_pbem(home, "poll", timeout=120)
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout.decode().startswith("1 message: 1 accepted")
    assert table.turns() == ["1w", "1b"]



def test_a_file_that_is_no_mail_is_put_aside_as_pbem_mail_refuses_it(home: Path) -> None:
    """An empty or binary file in new/ was counted as 'ignored' and then as 'duplicate'
    (all such files looked alike), marked seen; ``pbem mail`` refuses the same bytes as
    no email message."""
    inbox = home / "inbox"
    _put(inbox, 1, b"")
    _put(inbox, 2, bytes(range(256)) * 4)
    _put(inbox, 3, b"just a line of text\n")
    run = run_pbem(home, "poll", timeout=120)
    err = run.stderr.decode()
    assert run.returncode == 4, err
    assert run.stdout.decode().startswith("0 messages; 3 not handled")
    assert err.count("not an email message (it has no header lines)") == 3, err
    aside = sorted(p.name.split(".")[0] for p in (inbox / "failed" / "new").iterdir())
    assert aside == ["1700000001", "1700000002", "1700000003"]
