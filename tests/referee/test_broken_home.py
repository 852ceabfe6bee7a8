"""A broken home never loses a mail (issue 12, items 3 and 4).

Only ``pbem init`` creates a store: a missing or empty ``pbem.sqlite`` is refused by
every other command, and under ``--mta`` with 75 (EX_TEMPFAIL), so that the mail
server keeps the mail and tries again once the referee has restored the store. Any
failure before the mail's transaction commits is 75; a failure after it (the
replies cannot be delivered) is 0, with the replies left queued.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from pbem.referee.store import StoreError, connect
from tests import pgserver
from tests.referee.conftest import MailPlayer, free_port, outbox_mails, run_pbem

#: SQLite's own file (missing, empty, damaged, unwritable); PostgreSQL's faults are
#: tests/referee/test_postgresql.py's
pytestmark = pytest.mark.skipif(pgserver.on_postgresql(), reason="the SQLite file's faults")

EX_TEMPFAIL = 75


def _game(home: Path) -> MailPlayer:
    proc = run_pbem(home, "new", "--white", "white@players.test", "--black",
                    "black@players.test", "--name", "T")
    assert proc.returncode == 0, proc.stderr
    white = MailPlayer("white@players.test")
    white.receive(outbox_mails(home))
    return white


def _remove_store(home: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (home / f"pbem.sqlite{suffix}").unlink(missing_ok=True)


@pytest.mark.parametrize("damage", ["missing", "empty"])
def test_a_missing_or_empty_store_is_refused_and_never_recreated(home: Path,
                                                                 damage: str) -> None:
    white = _game(home)
    _remove_store(home)
    if damage == "empty":
        (home / "pbem.sqlite").write_bytes(b"")
    proc = run_pbem(home, "mail", "--mta", stdin=white.reply("Bh11"))
    assert proc.returncode == EX_TEMPFAIL, proc.stderr
    assert b"pbem init" in proc.stderr and b"try again later" in proc.stderr
    assert proc.stdout == b""  # nothing was answered
    for args in (("mail",), ("games",), ("poll",), ("flush",), ("tick",), ("show", "1")):
        proc = run_pbem(home, *args, stdin=white.reply("Bh11"))
        assert proc.returncode == 3, (args, proc.stderr)
        assert b"store" in proc.stderr and b"Traceback" not in proc.stderr
    if damage == "missing":
        assert not (home / "pbem.sqlite").exists()
    else:
        assert (home / "pbem.sqlite").stat().st_size == 0
    with pytest.raises(StoreError, match="pbem init"):
        connect(home / "pbem.sqlite")


def test_init_is_the_one_command_that_creates_a_store(home: Path) -> None:
    _remove_store(home)
    assert run_pbem(home, "init").returncode == 0
    assert run_pbem(home, "games").returncode == 0


def test_a_file_that_is_no_store_is_not_written_into(home: Path) -> None:
    white = _game(home)
    _remove_store(home)
    import sqlite3

    other = sqlite3.connect(home / "pbem.sqlite")
    other.execute("CREATE TABLE notes (text TEXT)")
    other.commit()
    other.close()
    proc = run_pbem(home, "mail", "--mta", stdin=white.reply("Bh11"))
    assert proc.returncode == EX_TEMPFAIL and b"not a pbem store" in proc.stderr


def test_init_does_not_write_into_a_database_that_is_no_store(home: Path) -> None:
    """``pbem init`` wrote pbem's first tables into another program's SQLite file (and
    failed half-way where a table's name was taken)."""
    import sqlite3

    _remove_store(home)
    other = sqlite3.connect(home / "pbem.sqlite")
    other.execute("CREATE TABLE notes (text TEXT)")
    other.commit()
    other.close()
    proc = run_pbem(home, "init")
    assert proc.returncode == 3 and b"not a pbem store" in proc.stderr, proc.stderr
    assert b"move it away" in proc.stderr and b"Traceback" not in proc.stderr
    names = sqlite3.connect(home / "pbem.sqlite").execute(
        "SELECT name FROM sqlite_master").fetchall()
    assert names == [("notes",)]


def test_every_failure_before_the_commit_is_75(home: Path, tmp_path: Path) -> None:
    white = _game(home)
    mail = white.reply("Bh11")
    # no home at all
    proc = run_pbem(tmp_path / "nowhere", "mail", "--mta", stdin=mail)
    assert proc.returncode == EX_TEMPFAIL, proc.stderr
    # no input, or no mail
    assert run_pbem(home, "mail", "--mta", stdin=b"").returncode == EX_TEMPFAIL
    # a config that cannot be read
    config = (home / "config.yaml").read_text()
    (home / "config.yaml").write_text("referee: [unclosed\n")
    assert run_pbem(home, "mail", "--mta", stdin=mail).returncode == EX_TEMPFAIL
    (home / "config.yaml").write_text(config)
    # a store that is not a database
    saved = (home / "pbem.sqlite").read_bytes()
    _remove_store(home)
    (home / "pbem.sqlite").write_bytes(b"not a database, " * 512)
    proc = run_pbem(home, "mail", "--mta", stdin=mail)
    assert proc.returncode == EX_TEMPFAIL, proc.stderr
    assert b"Traceback" not in proc.stderr
    (home / "pbem.sqlite").write_bytes(saved)
    # and once the home is mended, the same mail is played
    proc = run_pbem(home, "mail", "--mta", stdin=mail)
    assert proc.returncode == 0 and proc.stdout.startswith(b"accepted"), proc.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only files")
def test_a_read_only_store_is_75(home: Path) -> None:
    white = _game(home)
    for path in home.glob("pbem.sqlite*"):
        path.chmod(0o444)
    home.chmod(0o555)
    try:
        proc = run_pbem(home, "mail", "--mta", stdin=white.reply("Bh11"))
    finally:
        home.chmod(0o755)
    assert proc.returncode == EX_TEMPFAIL, proc.stderr


def _says_why(proc: subprocess.CompletedProcess[bytes], why: bytes, where: Path) -> None:
    assert proc.returncode == 3, proc.stderr
    assert b"cannot open the store" in proc.stderr and why in proc.stderr
    assert str(where).encode() in proc.stderr and b"journal" in proc.stderr
    assert b"Traceback" not in proc.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_home_on_a_read_only_file_system_says_so(home: Path, tmp_path: Path) -> None:
    _game(home)
    mount = tmp_path / "ro"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        copy = mount / "home"
        shutil.copytree(home, copy)
        for suffix in ("-wal", "-shm"):
            (copy / f"pbem.sqlite{suffix}").unlink(missing_ok=True)
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        for args in (("games",), ("show", "1")):
            _says_why(run_pbem(copy, *args), b"read-only file system", copy)
    finally:
        subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_home_folder_that_is_not_writable_says_so(home: Path) -> None:
    _game(home)
    home.chmod(0o555)
    try:
        _says_why(run_pbem(home, "games"), b"not writable", home)
    finally:
        home.chmod(0o755)


@pytest.mark.parametrize("broken", ["no-server", "missing-ca-file", "outbox-is-a-file"])
def test_a_failure_after_the_commit_is_0_with_the_replies_queued(home: Path,
                                                                 broken: str) -> None:
    white = _game(home)
    cfg = yaml.safe_load((home / "config.yaml").read_text())
    if broken == "no-server":
        cfg["smtp"] = {"host": "127.0.0.1", "port": free_port(), "timeout": 5}
    elif broken == "missing-ca-file":
        cfg["smtp"] = {"host": "127.0.0.1", "port": free_port(), "starttls": True,
                       "ca_file": str(home / "no-such-ca.pem")}
    else:
        import shutil

        shutil.rmtree(home / "outbox")
        (home / "outbox").write_text("in the way\n")
    (home / "config.yaml").write_text(yaml.safe_dump(cfg))
    proc = run_pbem(home, "mail", "--mta", stdin=white.reply("Bh11"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(b"accepted")
    assert b"queued" in proc.stderr or b"will retry" in proc.stderr
    conn = connect(home / "pbem.sqlite")
    states = {r[0] for r in conn.execute(
        "SELECT status FROM outbox WHERE kind = 'report'")}
    assert states == {"queued"}, states
