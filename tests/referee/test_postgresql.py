"""The store on PostgreSQL (issue 28), on a real throw-away server (tests/pgserver.py:
Debian's postgresql, started as an unprivileged user): ``pbem init --store``, the store
moved from SQLite with ``pbem store copy`` and checked, faults (the database unreachable,
a dropped connection), and two referee homes racing on one database with real processes.
Skipped where no server can be had (no postgresql package, no psycopg)."""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.players.registry import policy
from pbem.rules.registry import game_for
from tests import pgserver
from tests.referee.conftest import REPO, MailPlayer, free_port, open_store, run_pbem

EX_TEMPFAIL = 75


@pytest.fixture(scope="module")
def server() -> Iterator[pgserver.Server]:
    found = pgserver.start()
    if found is None:
        pytest.skip("no PostgreSQL server can be started here (postgresql, psycopg)")
    yield found
    found.stop()


def _init(home: Path, url: str | None = None, address: str = "referee@pbem.test") -> Path:
    args = ["init", "--home", str(home), "--address", address]
    if url is not None:
        args += ["--store", url]
    proc = run_pbem(home, *args)
    assert proc.returncode == 0, proc.stderr.decode()
    return home


def _outbox(home: Path) -> list[email.message.Message]:
    files = sorted((home / "outbox" / "new").iterdir(), key=lambda p: p.stat().st_mtime_ns)
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in files]


def generated_turns(name: str = "classic", seed: int = 9) -> list[tuple[str, str]]:
    game = game_for(name)
    played = policy(name).generate(random.Random(seed), game.default_ruleset())
    return [(side.letter, format_turn(TurnText(texts))) for side, texts in played.turns]


def test_init_store_makes_the_schema_in_postgresql_and_no_sqlite_file(
        server: pgserver.Server, tmp_path: Path) -> None:
    url = server.new_database()
    home = _init(tmp_path / "home", url)
    config = yaml.safe_load((home / "config.yaml").read_text())
    assert config["store"] == url
    assert not list(home.glob("pbem.sqlite*"))
    conn = open_store(home)
    names = {r[0] for r in conn.execute("SELECT name FROM schema_migrations")}
    from pbem.referee.store import MIGRATIONS

    assert names == {n for n, _ in MIGRATIONS}
    # the schema is PostgreSQL's own: 64-bit keys made by the database, times to the micro
    kinds = dict(conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE "
        "table_name = 'games' AND column_name IN ('id', 'created_at')").fetchall())
    assert kinds == {"id": "bigint", "created_at": "double precision"}
    # `init` again only brings the schema up to date; the same URL is not written twice
    _init(home, url)
    lines = (home / "config.yaml").read_text().splitlines()
    assert [ln for ln in lines if ln.startswith("store:")] == [f"store: {url}"]


def test_init_store_refuses_a_password_in_the_url_and_a_foreign_database(
        server: pgserver.Server, tmp_path: Path) -> None:
    url = server.new_database()
    with_password = url.replace("postgres@", "postgres:s3cr3t-pw@")
    proc = run_pbem(tmp_path / "a", "init", "--home", str(tmp_path / "a"),
                    "--store", with_password)
    assert proc.returncode == 2 and b"PGPASSWORD" in proc.stderr
    assert not (tmp_path / "a" / "config.yaml").exists()  # refused before anything is made
    import psycopg

    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute("CREATE TABLE someone_elses (x int)")
    proc = run_pbem(tmp_path / "b", "init", "--home", str(tmp_path / "b"), "--store", url)
    assert proc.returncode != 0 and b"not a pbem store" in proc.stderr


def _play(home: Path, turns: list[tuple[str, str]], count: int) -> None:
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    proc = run_pbem(home, "new", "--ruleset", "classic", "--white", white.address,
                    "--black", black.address)
    assert proc.returncode == 0, proc.stderr.decode()
    for letter, text in turns[:count]:
        mails = _outbox(home)
        white.receive(mails)
        black.receive(mails)
        player = white if letter == "w" else black
        proc = run_pbem(home, "mail", "--mta", stdin=player.reply(text + "\n"))
        assert proc.returncode == 0 and proc.stdout.startswith(b"accepted"), proc


def test_store_copy_moves_a_club_and_store_check_finds_damage(
        server: pgserver.Server, tmp_path: Path) -> None:
    if pgserver.on_postgresql():
        pytest.skip("copies a SQLite home: the first run's")
    home = _init(tmp_path / "home")
    _play(home, generated_turns(), 6)
    before = run_pbem(home, "show", "1").stdout
    assert run_pbem(home, "store", "check").returncode == 0
    url = server.new_database()
    proc = run_pbem(home, "store", "copy", "--to", url)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"every table compared" in proc.stdout
    # a copy goes only into an empty store
    again = run_pbem(home, "store", "copy", "--to", url)
    assert again.returncode != 0 and b"not empty" in again.stderr
    _init(home, url)  # the home now uses PostgreSQL
    assert run_pbem(home, "show", "1").stdout == before
    check = run_pbem(home, "store", "check")
    assert check.returncode == 0 and b"no problem found" in check.stdout, check
    # the game goes on, on PostgreSQL, with new rows numbered after the copied ones
    white = MailPlayer("white@players.test")
    black = MailPlayer("black@players.test")
    mails = _outbox(home)
    white.receive(mails)
    black.receive(mails)
    letter, text = generated_turns()[6]
    proc = run_pbem(home, "mail", "--mta",
                    stdin=(white if letter == "w" else black).reply(text + "\n"))
    assert proc.returncode == 0 and proc.stdout.startswith(b"accepted"), proc
    # damage no transaction of the referee would make: a turn of a game that is not there
    import psycopg

    with psycopg.connect(url, autocommit=True) as raw:
        raw.execute("ALTER TABLE turns DISABLE TRIGGER ALL")
        raw.execute("INSERT INTO turns (game_id, seq, label, notation, snapshot, created_at) "
                    "VALUES (99, 0, 'start', '', '{}', 0)")
    check = run_pbem(home, "store", "check")
    assert check.returncode == 1 and b"refer to a missing games" in check.stdout, check


def test_mail_exits_75_when_the_database_cannot_be_reached(
        server: pgserver.Server, tmp_path: Path) -> None:
    url = server.new_database()
    home = _init(tmp_path / "home", url)
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    assert run_pbem(home, "new", "--ruleset", "classic", "--white", white.address,
                    "--black", black.address).returncode == 0
    white.receive(_outbox(home))
    cfg = home / "config.yaml"
    cfg.write_text(cfg.read_text().replace(f":{server.port}/", f":{free_port()}/"))
    letter, text = generated_turns()[0]
    assert letter == "w"
    mail = white.reply(text + "\n")
    proc = run_pbem(home, "mail", "--mta", stdin=mail)
    assert proc.returncode == EX_TEMPFAIL, proc
    assert b"cannot be reached" in proc.stderr and b"Traceback" not in proc.stderr
    # the mail server tries again once the database is back: the turn is played once
    cfg.write_text(cfg.read_text().replace(yaml.safe_load(cfg.read_text())["store"], url))
    proc = run_pbem(home, "mail", "--mta", stdin=mail)
    assert proc.returncode == 0 and proc.stdout.startswith(b"accepted"), proc
    assert run_pbem(home, "mail", "--mta", stdin=mail).stdout.startswith(b"duplicate")


def test_a_dropped_connection_is_opened_anew_and_the_mail_handled(
        server: pgserver.Server, tmp_path: Path) -> None:
    from pbem.referee.config.home import Home
    from pbem.referee.entry.service import Referee
    from pbem.referee.store import connect

    url = server.new_database()
    home = _init(tmp_path / "home", url)
    h = Home(home)
    conn = connect(h.store_target(h.load_config()))
    referee = Referee(conn, h.load_config())
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    from pbem.records.rulesets import load_ruleset

    referee.new_game(white.address, black.address, load_ruleset("classic"), name="T")
    from pbem.referee.outgoing.delivery import deliver

    deliver(conn, h.load_config(), h.outbox_path)
    white.receive(_outbox(home))
    import psycopg

    # the server ends the referee's session (a restart, a failover, a network cut)
    with psycopg.connect(server.admin_url, autocommit=True) as admin:
        ended = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                              "application_name = 'pbem'").fetchall()
    assert ended and all(r[0] for r in ended)
    _, text = generated_turns()[0]
    handled = referee.handle(white.reply(text + "\n"))
    assert handled.outcome == "accepted", handled
    assert conn.execute("SELECT count(*) FROM turns WHERE seq > 0").fetchone()[0] == 1


# -- two hosts, one store -------------------------------------------------------------------
def _second_host(first: Path, second: Path) -> Path:
    """Another referee home with the same config.yaml (the same store, address, keys)."""
    second.mkdir()
    shutil.copy(first / "config.yaml", second / "config.yaml")
    proc = run_pbem(second, "init", "--home", str(second))
    assert proc.returncode == 0, proc.stderr.decode()
    return second


def _start(home: Path, *args: str, stdin: bytes = b"",
           now: str | None = None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PBEM_HOME": str(home), **({"PBEM_NOW": now} if now else {})}
    proc = subprocess.Popen([sys.executable, "-m", "pbem", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=REPO)
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    proc.stdin = None  # written and closed: communicate() only reads
    return proc


def test_two_hosts_on_one_database_apply_every_turn_once_and_send_every_mail_once(
        server: pgserver.Server, tmp_path: Path) -> None:
    """Each game's turns reach both hosts (two MX hosts, or a mail delivered twice), both
    run ``pbem mail --mta`` at once, while both also ``tick`` and ``flush``: every turn is
    applied once, the other host says duplicate, and every reply is in exactly one of the
    two outboxes, once. Then both hosts ``tick`` at once past every deadline: each game is
    forfeited once."""
    url = server.new_database()
    a = _init(tmp_path / "a", url)
    b = _second_host(a, tmp_path / "b")
    games, rounds = 3, 4
    players = {}
    for g in range(1, games + 1):
        w, k = MailPlayer(f"w{g}@players.test"), MailPlayer(f"b{g}@players.test")
        proc = run_pbem(a, "new", "--ruleset", "classic", "--white", w.address,
                        "--black", k.address, "--clock", "days 3, forfeit")
        assert proc.returncode == 0, proc.stderr.decode()
        players[g] = {"w": w, "b": k}
    turns = generated_turns()[:rounds]

    def fetch() -> list[email.message.Message]:
        mails = _outbox(a) + _outbox(b)
        for pair in players.values():
            for p in pair.values():
                p.receive(mails)
        return mails

    fetch()
    sent_mails: list[str] = []
    for letter, text in turns:
        procs: list[tuple[str, subprocess.Popen[bytes]]] = []
        for g in range(1, games + 1):
            mail = players[g][letter].reply(text + "\n")
            sent_mails.append(email.message_from_bytes(mail)["Message-ID"])
            procs += [("mail", _start(host, "mail", "--mta", stdin=mail)) for host in (a, b)]
        procs += [(what, _start(host, what)) for host in (a, b) for what in ("tick", "flush")]
        outcomes: Counter[bytes] = Counter()
        for what, proc in procs:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, (what, out, err)
            if what == "mail":
                outcomes[out.split(b" ")[0].rstrip(b":")] += 1
        assert outcomes == {b"accepted": games, b"duplicate": games}, outcomes
        for host in (a, b):  # what a report or a flush left queued goes now
            assert run_pbem(host, "flush").returncode == 0
        fetch()
    # past every deadline, both hosts at once: each game forfeited once, by one of them
    ticks = [_start(host, "tick", now="2099-01-01T00:00:00Z") for host in (a, b)]
    said = [t.communicate(timeout=300) for t in ticks]
    assert [t.returncode for t in ticks] == [0, 0], said
    assert sum(int(out.split(b" forfeit(s)")[0].split()[-1]) for out, _ in said
               if b" forfeit(s)" in out) == games, said
    for host in (a, b):
        assert run_pbem(host, "flush").returncode == 0
    mails = fetch()
    assert Counter(m["X-Pbem-Kind"] for m in mails)["result"] == 2 * games
    conn = open_store(a)
    # every turn applied once, in order, in every game
    for g in range(1, games + 1):
        labels = [r[0] for r in conn.execute(
            "SELECT label FROM turns WHERE game_id = ? AND seq > 0 ORDER BY seq", (g,))]
        assert labels == [f"{n // 2 + 1}{'wb'[n % 2]}" for n in range(rounds)] + ["end"], (
            g, labels)
    accepted = Counter(r[0] for r in conn.execute(
        "SELECT message_id FROM messages WHERE outcome = 'accepted'"))
    assert sorted(accepted) == sorted(sent_mails) and set(accepted.values()) == {1}
    # every mail of the outbox sent, and found once in the two outboxes together
    rows = conn.execute("SELECT message_id, status FROM outbox").fetchall()
    assert rows and {r[1] for r in rows} == {"sent"}
    found = Counter(m["Message-ID"] for m in mails)
    assert found == Counter({r[0]: 1 for r in rows})
    # each player got the invitation, one mail per turn of the game (reports both ways)
    # and the result
    to = Counter(m["To"] for m in mails)
    assert to == Counter({p.address: 2 + rounds for pair in players.values()
                          for p in pair.values()})
    # both hosts see the same games
    assert run_pbem(a, "games").stdout == run_pbem(b, "games").stdout


# -- per-game locks: hosts work on different games at once ---------------------------------
def _waits_for_game(watch, game_id: int) -> bool:
    """Whether some session waits for game ``game_id``'s lock (pg_locks: a two-key
    advisory lock, classid = GAME_LOCKS, objid = the game, not granted)."""
    from pbem.referee.store.engine import GAME_LOCKS

    return bool(watch.execute(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND objsubid = 2 AND classid::bigint = %s AND objid::bigint = %s "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        (GAME_LOCKS, game_id)).fetchone()[0])


def test_a_game_held_by_one_host_leaves_the_other_games_to_another_host(
        server: pgserver.Server, tmp_path: Path) -> None:
    """Host A holds game 1's transaction open (a real second session, the game's lock
    taken as the referee takes it); meanwhile host B plays a turn of game 2 to the end,
    and B's turn of game 1 waits (seen in pg_locks, not timed) until A commits, then is
    played once, on the game as A left it."""
    import psycopg

    from pbem.referee.store import GAMES, connect, games, transaction
    from pbem.referee.store.games import load_game

    url = server.new_database()
    b = _init(tmp_path / "b", url)
    players = {}
    for g in (1, 2):
        w, k = MailPlayer(f"w{g}@players.test"), MailPlayer(f"b{g}@players.test")
        proc = run_pbem(b, "new", "--ruleset", "classic", "--white", w.address,
                        "--black", k.address)
        assert proc.returncode == 0, proc.stderr.decode()
        w.receive(_outbox(b))
        players[g] = w
    letter, text = generated_turns()[0]
    assert letter == "w"
    host_a = connect(url)
    watch = psycopg.connect(url, autocommit=True)
    try:
        with transaction(host_a, GAMES):
            game = load_game(host_a, 1)  # game 1's lock, held until A commits
            games.claim(host_a, game)
            games.log(host_a, 1, "test", "host A was here")
            # another game: B plays it through while A holds game 1
            done = run_pbem(b, "mail", "--mta", stdin=players[2].reply(text + "\n"))
            assert done.returncode == 0 and done.stdout.startswith(b"accepted"), done
            # the same game: B waits for A
            turn = players[1].reply(text + "\n")
            waiting = _start(b, "mail", "--mta", stdin=turn)
            while not _waits_for_game(watch, 1):
                assert waiting.poll() is None, waiting.communicate()  # it must wait
                time.sleep(0.05)
            assert waiting.poll() is None
            assert watch.execute("SELECT count(*) FROM turns WHERE game_id = 1 AND seq > 0"
                                 ).fetchone()[0] == 0
        out, err = waiting.communicate(timeout=300)
        assert waiting.returncode == 0 and out.startswith(b"accepted"), (out, err)
    finally:
        host_a.close()
    labels = {g: [r[0] for r in watch.execute(
        "SELECT label FROM turns WHERE game_id = %s AND seq > 0 ORDER BY seq", (g,))]
        for g in (1, 2)}
    assert labels == {1: ["1w"], 2: ["1w"]}
    # B's turn was played on game 1 as A left it: after A's write, one version on
    after = watch.execute("SELECT version FROM games WHERE id = 1").fetchone()[0]
    assert after > game.version + 1
    assert watch.execute("SELECT count(*) FROM game_log WHERE game_id = 1 AND text = %s",
                         ("host A was here",)).fetchone()[0] == 1
    # and once: the same mail again is a duplicate
    again = run_pbem(b, "mail", "--mta", stdin=turn)
    assert again.stdout.startswith(b"duplicate"), again
    watch.close()


def test_work_beyond_its_game_is_done_again_with_the_whole_store_locked(
        server: pgserver.Server, tmp_path: Path) -> None:
    """A transaction on one game that writes a row shared by games or players (here a
    referee secret), or locks a game below one it holds, is undone, even when a caller
    swallowed the ``Escalate``, and done again under the store's exclusive lock: once."""
    from pbem.referee.store import GAMES, connect, retried
    from pbem.referee.store.engine import Escalate

    url = server.new_database()
    _init(tmp_path / "home", url)
    conn = connect(url)
    scopes: list[str | None] = []

    def work() -> None:
        scopes.append(conn.scope)
        with contextlib.suppress(Escalate):  # a careless caller: still never committed
            conn.execute("INSERT INTO referee_secrets (name, value) VALUES ('t', 'x')")

    retried(conn, work, GAMES)
    assert scopes == ["games", "whole"]
    assert conn.execute("SELECT count(*) FROM referee_secrets WHERE name = 't'"
                        ).fetchone()[0] == 1
    # games are locked in id order: a second game above the first is locked too; one
    # below it (two hosts could then wait for each other) means the whole store instead
    for order, expected in (((1, 2), ["games"]), ((2, 1), ["games", "whole"])):
        scopes.clear()

        def lock_two(order: tuple[int, int] = order) -> None:
            scopes.append(conn.scope)
            for game_id in order:
                conn.lock_game(game_id)

        retried(conn, lock_two, GAMES)
        assert scopes == expected, order
    conn.close()


# -- without a server: the translation and the config ---------------------------------------
def test_statements_are_written_once_and_spelled_for_postgresql() -> None:
    from pbem.referee.store.engine import postgresql_ddl, to_postgresql
    from pbem.referee.store.schema import MIGRATIONS

    assert to_postgresql("INSERT OR IGNORE INTO observers (a, b) VALUES (?, ?)") == (
        "INSERT INTO observers (a, b) VALUES (%s, %s) ON CONFLICT DO NOTHING")
    # a question mark or a percent sign inside a literal is text, not a parameter
    assert to_postgresql("SELECT group_concat(x, '?%') FROM t WHERE y = ?") == (
        "SELECT string_agg(x, '?%%') FROM t WHERE y = %s")
    # every table is made after the tables it refers to (turns refers to messages)
    made: list[str] = []
    for name, sql in MIGRATIONS:
        for statement in postgresql_ddl(sql):
            if statement.startswith("CREATE TABLE"):
                refs = [r.split("(")[0] for r in statement.split("REFERENCES ")[1:]]
                assert all(r in made or r == statement.split()[2] for r in refs), (
                    name, statement)
                made.append(statement.split()[2])
            assert " REAL" not in statement and "BLOB" not in statement, statement


def test_a_password_in_config_store_is_refused(tmp_path: Path) -> None:
    home = _init(tmp_path / "home")
    cfg = home / "config.yaml"
    cfg.write_text(cfg.read_text() + "store: postgresql://pbem:hunter2@db.example/realm\n")
    proc = run_pbem(home, "games")
    assert proc.returncode == 3 and b"store: must not hold the password" in proc.stderr
    assert b"hunter2" not in proc.stderr
