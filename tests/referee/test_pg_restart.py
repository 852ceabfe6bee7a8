"""PostgreSQL stopped or killed while a referee is inside a transaction (issue 28, part 3),
on a throw-away server of its own (tests/pgserver.py): the mail in flight is not played,
``pbem mail --mta`` exits 75 so that the mail server tries again, nothing of the half-done
transaction is left after the restart, ``pbem store check`` finds no problem, and the
mail tried again is played exactly once; a ``pbem poll`` of a burst cut the same way
leaves the rest of the burst for the next poll, each mail played once.

The referee is held inside its transaction without a hook in the referee: the test, in
a transaction it does not end, writes the row of the turn the referee is about to write
(game 1, that turn's number), so the referee's transaction, having written its row of the
mail, waits at the turn's insert for the test's transaction (the key is unique); the test
sees it waiting (``pg_stat_activity``: a lock wait, and a transaction id: it has written)
and then stops the server (``pg_ctl stop -m immediate``) or kills it (SIGKILL to the
postmaster). Skipped where no server can be had."""

from __future__ import annotations

import contextlib
import email
import email.policy
import mailbox
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests import pgserver
from tests.referee.conftest import REPO, MailPlayer, run_pbem
from tests.referee.test_postgresql import generated_turns

EX_TEMPFAIL = 75


@pytest.fixture
def server() -> Iterator[pgserver.Server]:
    """A server for one test alone: the test stops it under the referee."""
    if pgserver.on_postgresql():
        pytest.skip("always on PostgreSQL, on a server of its own: the first run's")
    found = pgserver.start(crash_safe=True)
    if found is None:
        pytest.skip("no PostgreSQL server can be started here (postgresql, psycopg)")
    yield found
    found.stop()


def _outbox(home: Path) -> list[email.message.Message]:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted((home / "outbox" / "new").iterdir(),
                            key=lambda p: p.stat().st_mtime_ns)]


def _running_in(folder: Path) -> list[int]:
    """The processes whose working folder is ``folder``: a PostgreSQL server's processes
    all work in its data folder (the postmaster, every backend, every helper)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if Path(os.readlink(entry / "cwd")) == folder:
                    found.append(int(entry.name))
    return found


def _stop_immediately(server: pgserver.Server) -> None:
    server.pg_ctl("stop", "-m", "immediate")


def _kill_postmaster(server: pgserver.Server) -> None:
    """SIGKILL to the postmaster alone, as the kernel's OOM killer would; its backends
    notice and end, and only then can a new postmaster take the data folder."""
    data = (server.folder / "data").resolve()
    postmaster = server.postmaster_pid()
    assert postmaster in _running_in(data)
    os.kill(postmaster, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while _running_in(data):
        assert time.monotonic() < deadline, "the killed server's backends did not end"
        time.sleep(0.05)
    # Nothing runs in the data folder any more. The dead postmaster may still be a zombie
    # (its new parent, here the machine's init, has not reaped it), which a new postmaster
    # would take for a live one owning the lock files: they are stale, and go, as an
    # operator would remove them after a crash.
    with contextlib.suppress(FileNotFoundError):
        if "Z" in Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()[:1]:
            for stale in (data / "postmaster.pid",
                          server.folder / f".s.PGSQL.{server.port}.lock",
                          server.folder / f".s.PGSQL.{server.port}"):
                stale.unlink(missing_ok=True)


FAULTS: dict[str, Callable[[pgserver.Server], None]] = {
    "pg_ctl stop -m immediate": _stop_immediately, "kill -9 postmaster": _kill_postmaster}


def _hold_turn(url: str, seq: int):  # -> psycopg.Connection
    """A session inside a transaction that has written game 1's turn ``seq`` (and not
    committed): the referee's insert of that turn waits to see whether it commits."""
    import psycopg

    holder = psycopg.connect(url)
    holder.execute("INSERT INTO turns (game_id, seq, label, notation, snapshot, created_at) "
                   "VALUES (1, %s, 'held', '', '{}', 0)", (seq,))
    return holder


def _wait_for_blocked_writer(url: str, holder: object, timeout: float = 120) -> None:
    """Until another session that has written (it has a transaction id) waits for a lock:
    the referee, inside its transaction, at the turn's insert."""
    import psycopg

    holder_pid = holder.info.backend_pid  # type: ignore[attr-defined]
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as watch:
        while True:
            waiting = watch.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND backend_xid IS NOT NULL AND pid <> %s", (holder_pid,)).fetchone()[0]
            if waiting:
                return
            assert time.monotonic() < deadline, "the referee never reached the turn's insert"
            time.sleep(0.05)


def _start(home: Path, *args: str, stdin: bytes = b"") -> subprocess.Popen[bytes]:
    env = {**os.environ, "PBEM_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=REPO)
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    proc.stdin = None
    return proc


def _cut(server: pgserver.Server, fault: Callable[[pgserver.Server], None], home: Path,
         url: str, seq: int, *args: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    """``pbem ARGS`` started while game 1's turn ``seq`` is held (``_hold_turn``), and
    ``fault`` done to the server once the referee waits inside its transaction there; the
    exit code, stdout and stderr of the cut run."""
    import psycopg

    holder = _hold_turn(url, seq)
    proc = _start(home, *args, stdin=stdin)
    try:
        _wait_for_blocked_writer(url, holder)
        fault(server)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with contextlib.suppress(psycopg.Error):
            holder.close()
    return proc.returncode, out, err


def _game(home: Path, url: str, plies: int) -> tuple[dict[str, MailPlayer], list]:
    proc = run_pbem(home, "init", "--home", str(home), "--address", "referee@pbem.test",
                    "--store", url)
    assert proc.returncode == 0, proc.stderr.decode()
    players = {"w": MailPlayer("white@players.test"), "b": MailPlayer("black@players.test")}
    proc = run_pbem(home, "new", "--ruleset", "classic", "--white", players["w"].address,
                    "--black", players["b"].address)
    assert proc.returncode == 0, proc.stderr.decode()
    turns = generated_turns()
    for letter, text in turns[:plies]:
        for p in players.values():
            p.inbox = [m for m in _outbox(home) if m["To"] == p.address]
        proc = run_pbem(home, "mail", "--mta", stdin=players[letter].reply(text + "\n"))
        assert proc.returncode == 0 and proc.stdout.startswith(b"accepted"), proc
    for p in players.values():
        p.inbox = [m for m in _outbox(home) if m["To"] == p.address]
    return players, turns


def _labels(url: str) -> list[str]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        return [r[0] for r in db.execute(
            "SELECT label FROM turns WHERE seq > 0 ORDER BY game_id, seq")]


@pytest.mark.parametrize("fault", FAULTS)
def test_the_server_gone_mid_transaction_mail_exits_75_and_the_retry_plays_once(
        server: pgserver.Server, tmp_path: Path, fault: str) -> None:
    import psycopg

    url = server.new_database()
    home = tmp_path / "home"
    players, turns = _game(home, url, 2)
    letter, text = turns[2]
    mail = players[letter].reply(text + "\n")
    message_id = email.message_from_bytes(mail)["Message-ID"]
    with psycopg.connect(url, autocommit=True) as db:
        queued = db.execute("SELECT count(*) FROM outbox").fetchone()[0]
    code, out, err = _cut(server, FAULTS[fault], home, url, 3, "mail", "--mta", stdin=mail)
    # the mail server is told to try again later; no traceback, the store named
    assert code == EX_TEMPFAIL, (out, err)
    assert b"Traceback" not in err and b"store" in err, err
    server.start_again()
    # nothing of the cut transaction: not the mail's row, not the turn, no reply queued
    assert _labels(url) == ["1w", "1b"]
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM messages WHERE message_id = %s",
                          (message_id,)).fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM messages WHERE outcome = 'pending'"
                          ).fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM outbox").fetchone()[0] == queued
    check = run_pbem(home, "store", "check")
    assert check.returncode == 0 and b"no problem found" in check.stdout, check
    # the mail server tries again: played once; a third delivery is a duplicate
    again = run_pbem(home, "mail", "--mta", stdin=mail)
    assert again.returncode == 0 and again.stdout.startswith(b"accepted"), again
    assert run_pbem(home, "mail", "--mta", stdin=mail).stdout.startswith(b"duplicate")
    assert _labels(url) == ["1w", "1b", "2w"]
    with psycopg.connect(url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM messages WHERE message_id = %s AND "
                          "outcome = 'accepted'", (message_id,)).fetchone()[0] == 1
        # the turn's report, once to each player
        assert db.execute("SELECT count(*) FROM outbox").fetchone()[0] == queued + 2
    assert run_pbem(home, "store", "check").returncode == 0


def test_a_burst_cut_by_a_server_kill_is_played_once_by_the_next_poll(
        server: pgserver.Server, tmp_path: Path) -> None:
    """``pbem poll`` of a burst (one game, several plies' mails in the Maildir at once:
    each a transaction of its own): the server killed while the poll is inside one of
    them. What was committed stays, the cut mail and the rest wait in the Maildir; after
    the restart the next poll plays each mail once."""
    import psycopg

    url = server.new_database()
    home = tmp_path / "home"
    players, turns = _game(home, url, 0)
    box = mailbox.Maildir(str(home / "inbox"))
    # the whole game's next plies at once: white's and black's mails, in the order played
    # (each player answers as if he had seen the other's report: his mail's text is all
    # that counts here)
    plies = 6
    for letter, text in turns[:plies]:
        box.add(players[letter].reply(text + "\n"))
    # the first two plies are committed, the third is cut
    code, out, err = _cut(server, _kill_postmaster, home, url, 3, "poll", "--no-send")
    # the store failed: the poll stops, the rest waits (exit 3, said without a traceback)
    assert code == 3, (out, err)
    assert b"Traceback" not in err, err
    server.start_again()
    assert _labels(url) == ["1w", "1b"]  # committed before the kill: they stay
    assert run_pbem(home, "store", "check").returncode == 0
    again = run_pbem(home, "poll", "--no-send")
    assert again.returncode == 0, again
    assert _labels(url) == [label for label in ("1w", "1b", "2w", "2b", "3w", "3b")]
    with psycopg.connect(url, autocommit=True) as db:
        outcomes = db.execute("SELECT outcome, count(*) FROM messages GROUP BY outcome"
                              ).fetchall()
    assert dict(outcomes) == {"accepted": plies}
    assert run_pbem(home, "poll", "--no-send").stdout.startswith(b"0 messages")
    assert run_pbem(home, "store", "check").returncode == 0
