"""Two referee hosts polling ONE IMAP folder, on one PostgreSQL store (issue 28): a real
dovecot (tests/referee/dovecot.py) and a real throw-away PostgreSQL (tests/pgserver.py),
two referee homes with the same config.yaml, each running ``pbem poll`` of the same folder
over and over as real processes while the players' mail arrives in it. Every turn is
applied once, every reply (reports and refusals) is delivered once, every message of the
folder ends flagged handled. Skipped where no PostgreSQL or no dovecot can be had."""

from __future__ import annotations

import email
import email.policy
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest
import yaml

from pbem.referee.intake.imap_source import quote
from tests import pgserver
from tests.referee.conftest import REPO, MailPlayer, run_pbem
from tests.referee.dovecot import Dovecot, run_dovecot, skip_reason
from tests.referee.test_postgresql import generated_turns

FOLDER = "Shared orders"
GAMES = 4
PLIES = 4  # 1w 1b 2w 2b


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[pgserver.Server, Dovecot]]:
    if pgserver.on_postgresql():
        pytest.skip("always on PostgreSQL: the first run's")
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    pg = pgserver.start()
    if pg is None:
        pytest.skip("no PostgreSQL server can be started here (postgresql, psycopg)")
    try:
        with run_dovecot() as dovecot:
            dovecot.make_folder(FOLDER)
            yield pg, dovecot
    finally:
        pg.stop()


def _home(path: Path, url: str, dovecot: Dovecot) -> Path:
    proc = run_pbem(path, "init", "--home", str(path), "--address", "referee@pbem.test",
                    "--store", url)
    assert proc.returncode == 0, proc.stderr.decode()
    cfg = path / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data["imap"] = {"host": dovecot.host, "port": dovecot.imaps_port, "tls": "ssl",
                    "ca_file": str(dovecot.ca_file), "user": dovecot.user,
                    "password": dovecot.password, "folder": FOLDER}
    cfg.write_text(yaml.safe_dump(data))
    return path


def _outbox(home: Path) -> list[Message]:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted((home / "outbox" / "new").iterdir(),
                            key=lambda p: p.stat().st_mtime_ns)]


class Poller(threading.Thread):
    """One host: ``pbem poll`` of the shared folder, a new process each time, until told
    to stop; keeps every exit status and what each run said."""

    def __init__(self, home: Path) -> None:
        super().__init__(daemon=True)
        self.home = home
        self.stop = threading.Event()
        self.runs: list[tuple[int, bytes, bytes]] = []

    def run(self) -> None:
        env = {**os.environ, "PBEM_HOME": str(self.home)}
        while not self.stop.is_set():
            proc = subprocess.run([sys.executable, "-m", "pbem", "poll"], capture_output=True,
                                  env=env, cwd=REPO, timeout=300)
            self.runs.append((proc.returncode, proc.stdout, proc.stderr))


def _folder(dovecot: Dovecot) -> tuple[int, list[int], list[int]]:
    """(messages in the folder, UIDs not flagged handled, UIDs flagged failed)."""
    client = dovecot.client()
    try:
        typ, data = client.select(quote(FOLDER))
        assert typ == "OK"
        total = int(data[0])
        unhandled = client.uid("SEARCH", "UNKEYWORD", "$PbemHandled")[1][0].split()
        failed = client.uid("SEARCH", "KEYWORD", "$PbemFailed")[1][0].split()
        return total, [int(u) for u in unhandled], [int(u) for u in failed]
    finally:
        client.logout()


def test_two_hosts_polling_one_imap_folder_handle_every_message_once(
        servers: tuple[pgserver.Server, Dovecot], tmp_path: Path) -> None:
    import psycopg

    pg, dovecot = servers
    url = pg.new_database()
    a = _home(tmp_path / "a", url, dovecot)
    b = tmp_path / "b"
    b.mkdir()
    shutil.copy(a / "config.yaml", b / "config.yaml")
    assert run_pbem(b, "init", "--home", str(b)).returncode == 0
    players: dict[int, dict[str, MailPlayer]] = {}
    for g in range(1, GAMES + 1):
        w, k = MailPlayer(f"w{g}@players.test"), MailPlayer(f"b{g}@players.test")
        proc = run_pbem(a, "new", "--ruleset", "classic", "--white", w.address,
                        "--black", k.address)
        assert proc.returncode == 0, proc.stderr.decode()
        players[g] = {"w": w, "b": k}
    assert run_pbem(a, "flush").returncode == 0
    turns = generated_turns()[:PLIES]
    db = psycopg.connect(url, autocommit=True)

    def applied() -> dict[int, int]:
        return dict(db.execute("SELECT game_id, count(*) FROM turns WHERE seq > 0 "
                               "GROUP BY game_id").fetchall())

    def deliver_to_players() -> list[Message]:
        mails = _outbox(a) + _outbox(b)
        for pair in players.values():
            for p in pair.values():
                p.inbox = [m for m in mails if m["To"] == p.address]
        return mails

    def append(raw: bytes) -> None:
        client = dovecot.client()
        try:
            assert client.append(quote(FOLDER), None, None, raw)[0] == "OK"
        finally:
            client.logout()

    deliver_to_players()
    pollers = [Poller(a), Poller(b)]
    for p in pollers:
        p.start()
    sent = Counter[str]()  # Message-IDs of the turns played
    refused_to: Counter[str] = Counter()
    try:
        for ply, (letter, text) in enumerate(turns, start=1):
            for g in range(1, GAMES + 1):
                player = players[g][letter]
                if ply == 1 or (ply == 3 and g % 2):
                    # a turn that is refused (no such square), then the right one
                    append(player.reply("Zz99\n"))
                    refused_to[player.address] += 1
                mail = player.reply(text + "\n")
                append(mail)
                if ply == 2 and g % 2:
                    append(mail)  # delivered twice (a second alias, a retry)
                sent[email.message_from_bytes(mail)["Message-ID"]] += 1
                time.sleep(0.2)  # arriving while both hosts poll
            deadline = time.monotonic() + 300
            while True:  # every game at this ply, the folder handled, the outbox sent
                failed_runs = [r for p in pollers for r in p.runs if r[0] != 0]
                assert not failed_runs, failed_runs
                total, unhandled, _ = _folder(dovecot)
                pending = db.execute(
                    "SELECT count(*) FROM outbox WHERE status <> 'sent'").fetchone()[0]
                if (not unhandled and not pending
                        and applied() == {g: ply for g in range(1, GAMES + 1)}):
                    break
                assert time.monotonic() < deadline, (ply, applied(), unhandled, pending,
                                                     [r for p in pollers for r in p.runs])
                time.sleep(0.5)
            deliver_to_players()
    finally:
        for p in pollers:
            p.stop.set()
        for p in pollers:
            p.join(timeout=600)
    runs = [r for p in pollers for r in p.runs]
    assert all(r[0] == 0 for r in runs), [r for r in runs if r[0] != 0]
    # both hosts polled all along, and each read some of the messages
    assert all(len(p.runs) >= 2 for p in pollers), [len(p.runs) for p in pollers]
    read = [sum(int(out.split()[0]) for _, out, _ in p.runs if out[:1].isdigit())
            for p in pollers]
    assert all(read), read
    # every message of the folder flagged handled, none failed, none left unseen
    total, unhandled, failed = _folder(dovecot)
    assert (unhandled, failed) == ([], [])
    assert total == sum(sent.values()) + GAMES // 2 + sum(refused_to.values())
    client = dovecot.client()
    try:
        client.select(quote(FOLDER))
        assert client.uid("SEARCH", "UNSEEN")[1][0].split() == []
    finally:
        client.logout()
    # every turn applied once, in order, in every game
    for g in range(1, GAMES + 1):
        labels = [r[0] for r in db.execute(
            "SELECT label FROM turns WHERE game_id = %s AND seq > 0 ORDER BY seq", (g,))]
        assert labels == ["1w", "1b", "2w", "2b"], (g, labels)
    accepted = Counter(r[0] for r in db.execute(
        "SELECT message_id FROM messages WHERE outcome = 'accepted'"))
    assert accepted == sent
    # every reply queued was sent, and is in exactly one of the two outboxes, once
    rows = db.execute("SELECT message_id, status FROM outbox").fetchall()
    assert rows and {r[1] for r in rows} == {"sent"}
    mails = _outbox(a) + _outbox(b)
    assert Counter(m["Message-ID"] for m in mails) == Counter({r[0]: 1 for r in rows})
    # each player: the invitation, a report of each ply, and one answer per refused mail
    got = Counter(m["To"] for m in mails)
    assert got == Counter({p.address: 1 + PLIES + refused_to[p.address]
                           for pair in players.values() for p in pair.values()}), got
    refusals = Counter(m["To"] for m in mails if m["X-Pbem-Kind"] == "refusal")
    assert refusals == refused_to, refusals
    # and each refused mail was read once (a second reading would be a second row)
    refused = Counter(r[0] for r in db.execute(
        "SELECT sender FROM messages WHERE outcome = 'refused'"))
    assert refused == refused_to, refused
    db.close()
