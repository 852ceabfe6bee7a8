"""`pbem poll` reading an IMAP folder of a real dovecot: turns applied once, across restarts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from pbem.referee.intake.imap_source import quote
from tests.referee.conftest import run_pbem
from tests.referee.dovecot import Dovecot, run_dovecot, skip_reason
from tests.referee.helpers import new_table

FOLDER = "Realm orders"


@pytest.fixture(scope="module")
def server() -> Iterator[Dovecot]:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    with run_dovecot() as dovecot:
        dovecot.make_folder(FOLDER)
        yield dovecot


def _configure(home: Path, server: Dovecot, **extra: object) -> None:
    path = home / "config.yaml"
    data = yaml.safe_load(path.read_text())
    data["imap"] = {
        "host": server.host,
        "port": server.imaps_port,
        "tls": "ssl",
        "ca_file": str(server.ca_file),
        "user": server.user,
        "password": server.password,
        "folder": FOLDER,
        **extra,
    }
    path.write_text(yaml.safe_dump(data))


def _append(server: Dovecot, raw: bytes) -> None:
    client = server.client()
    try:
        assert client.append(quote(FOLDER), None, None, raw)[0] == "OK"
    finally:
        client.logout()


def test_poll_reads_the_imap_folder_and_handles_each_message_once(home, server):
    table = new_table(home)
    _configure(home, server)
    first = table.white.reply("Bh11")
    _append(server, first)
    run = run_pbem(home, "poll")
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout.decode().startswith("1 message: 1 accepted")
    assert table.turns() == ["1w"]
    # a restart finds nothing new: the message is marked, and the mark is stored
    again = run_pbem(home, "poll")
    assert again.returncode == 0, again.stderr.decode()
    assert again.stdout.decode().startswith("0 messages")
    # the same mail delivered twice (a new IMAP message, same Message-ID) changes nothing
    _append(server, first)
    dup = run_pbem(home, "poll")
    assert dup.returncode == 0
    assert table.turns() == ["1w"]
    table.deliver()
    _append(server, table.black.reply("Bh2"))
    run = run_pbem(home, "poll")
    assert run.returncode == 0, run.stderr.decode()
    assert table.turns() == ["1w", "1b"]


def test_a_bad_imap_section_is_a_clear_error_not_a_traceback(home, server):
    _configure(home, server, password="wrong")
    run = run_pbem(home, "poll")
    assert run.returncode == 3
    err = run.stderr.decode()
    assert "Traceback" not in err
    assert server.user in err and "wrong" not in err
    _configure(home, server, colour="blue")
    run = run_pbem(home, "poll")
    assert run.returncode == 3
    assert "colour" in run.stderr.decode()


def test_an_explicit_maildir_wins_over_the_imap_section(home, server, tmp_path):
    _configure(home, server)
    maildir = tmp_path / "md"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    run = run_pbem(home, "poll", str(maildir))
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout.decode().startswith("0 messages")


def test_a_mail_that_fails_is_flagged_and_the_poll_goes_on(home, server):
    """Issue 12, item 2: one mail whose handling fails (injected: PBEM_FAULT) is flagged
    \\Flagged $PbemFailed and passed by; the turns around it are played."""
    table = new_table(home)
    _configure(home, server)
    _append(server, table.white.reply("Bh11"))
    _append(server, b"From: x@players.test\r\nSubject: FAIL-ME\r\n"
                    b"Message-ID: <fail@players.test>\r\n\r\nbroken\r\n")
    hostile = Path(__file__).parents[1] / "hostile" / "mail"
    _append(server, (hostile / "multipart-nested-1000-deep.eml").read_bytes())
    fault = {"PBEM_FAULT": "fail-mail:FAIL-ME"}
    run = run_pbem(home, "poll", env=fault)
    assert run.returncode == 4, run.stderr.decode()
    assert "2 messages" in run.stdout.decode() and "1 not handled" in run.stdout.decode()
    assert "injected failure" in run.stderr.decode() and "$PbemFailed" in run.stderr.decode()
    assert table.turns() == ["1w"]
    table.deliver()
    _append(server, table.black.reply("Bh2"))
    run = run_pbem(home, "poll", env=fault)
    assert run.returncode == 0, run.stderr.decode()
    assert run.stdout.decode().startswith("1 message: 1 accepted")
    assert table.turns() == ["1w", "1b"]
    client = server.client()
    try:
        client.select(quote(FOLDER))
        typ, data = client.uid("SEARCH", "KEYWORD", "$PbemFailed")
        assert typ == "OK" and len(data[0].split()) == 1
        typ, data = client.uid("SEARCH", "FLAGGED")
        assert len(data[0].split()) == 1
    finally:
        client.logout()
