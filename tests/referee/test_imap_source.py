"""The IMAP source against a real dovecot on 127.0.0.1 (see tests/referee/dovecot.py)."""

from __future__ import annotations

import dataclasses
import itertools
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.cli import main
from pbem.errors import PbemError
from pbem.referee.config.checks import ConfigError
from pbem.referee.config.home import parse_config
from pbem.referee.config.imap import ImapSettings, imap_settings
from pbem.referee.intake.imap_source import ImapSource, quote
from tests.referee.dovecot import Dovecot, run_dovecot, skip_reason

_folders = itertools.count(1)


@pytest.fixture(scope="module")
def server() -> Iterator[Dovecot]:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    with run_dovecot() as dovecot:
        yield dovecot


@pytest.fixture()
def folder(server: Dovecot) -> str:
    """A fresh folder per test, so tests share one server and never each other's mail."""
    name = f"Orders {next(_folders)}"
    server.make_folder(name)
    return name


@pytest.fixture()
def db(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(tmp_path / "pbem.sqlite")
    yield conn
    conn.close()


def message(n: int) -> bytes:
    return (
        f"From: white@example.org\r\nTo: referee@example.org\r\n"
        f"Subject: turn {n}\r\nMessage-ID: <turn-{n}@example.org>\r\n\r\n"
        f"{n}.Pi10i6(Bh5)\r\n"
    ).encode()


def deliver(server: Dovecot, folder: str, *numbers: int, flags: str | None = None) -> None:
    client = server.client()
    try:
        for n in numbers:
            assert client.append(quote(folder), flags, None, message(n))[0] == "OK"
    finally:
        client.logout()


def flags_of(server: Dovecot, folder: str) -> dict[int, str]:
    """Each message's UID and flags, read by a separate client."""
    client = server.client()
    try:
        client.select(quote(folder), readonly=True)
        typ, data = client.uid("FETCH", "1:*", "(FLAGS)")
        assert typ == "OK"
        found = {}
        for line in data:
            if line is None:
                continue
            text = line.decode()
            uid = int(text.split("UID ")[1].split()[0].rstrip(")"))
            flags = text.split("FLAGS (")[1].split(")")[0].split()
            found[uid] = " ".join(f for f in flags if f != "\\Recent")
        return found
    finally:
        client.logout()


def settings(server: Dovecot, folder: str, **overrides: Any) -> ImapSettings:
    config: dict[str, Any] = {
        "host": server.host, "port": server.imaps_port, "user": server.user,
        "password": server.password, "folder": folder, "tls": "ssl",
        "ca_file": str(server.ca_file), "timeout": 10,
    }
    config.update(overrides)
    return from_section(config)


def config_text(section: Any) -> str:
    """A config.yaml with this ``imap:`` section."""
    return "referee:\n  address: ref@pbem.test\n" + yaml.safe_dump({"imap": section})


def from_section(section: Any, environ: dict[str, str] | None = None) -> ImapSettings:
    """The settings as ``pbem poll`` builds them: the file checked as it is read, then the
    settings made from its checked values."""
    found = imap_settings(parse_config(config_text(section), "config.yaml"), environ=environ)
    assert found is not None
    return found


def poll(
    server: Dovecot, folder: str, db: sqlite3.Connection, *, mark: bool = True, **overrides: Any
) -> list[bytes]:
    """One poll as the referee does it: read each new message, then mark it handled."""
    got = []
    with ImapSource(settings(server, folder, **overrides), db) as session:
        for key, raw in session.messages():
            got.append(raw)
            if mark:
                session.mark_handled(key)
    return got


def subjects(raws: list[bytes]) -> list[str]:
    return [r.split(b"Subject: ")[1].split(b"\r\n")[0].decode() for r in raws]


# --- handing out each message once --------------------------------------------------------


def test_new_messages_are_yielded_once_and_not_again_after_a_restart(server, folder, db, tmp_path):
    deliver(server, folder, 1, 2, 3)
    with ImapSource(settings(server, folder), db) as session:
        got = list(session.messages())
        assert [raw for _, raw in got] == [message(1), message(2), message(3)]
        uidvalidity = session.uidvalidity
        assert [key for key, _ in got] == [f"{folder}:{uidvalidity}:{uid}" for uid in (1, 2, 3)]
        for key, _ in got:
            session.mark_handled(key)
        assert list(session.messages()) == []
    # fetching used BODY.PEEK[]; marking set \Seen and the keyword
    assert all(f == "\\Seen $PbemHandled" for f in flags_of(server, folder).values())

    # a restart: a new process, a new SQLite connection to the same file
    db.close()
    again = sqlite3.connect(tmp_path / "pbem.sqlite")
    try:
        assert poll(server, folder, again) == []
        assert again.execute("SELECT folder, last_uid FROM imap_state").fetchall() == [
            (folder, 3)
        ]
        deliver(server, folder, 4)
        assert subjects(poll(server, folder, again)) == ["turn 4"]
        assert poll(server, folder, again) == []
    finally:
        again.close()


def test_fetching_does_not_mark_seen_before_handling(server, folder, db):
    deliver(server, folder, 1)
    assert subjects(poll(server, folder, db, mark=False)) == ["turn 1"]
    assert flags_of(server, folder) == {1: ""}


def test_a_crash_between_fetch_and_mark_yields_the_message_again(server, folder, db):
    deliver(server, folder, 1, 2)
    with pytest.raises(RuntimeError), ImapSource(settings(server, folder), db) as session:
        for key, _raw in session.messages():
            if key.endswith(":2"):
                raise RuntimeError("the referee crashed while handling turn 2")
            session.mark_handled(key)
    assert subjects(poll(server, folder, db)) == ["turn 2"]
    assert poll(server, folder, db) == []


def test_an_unmarked_message_keeps_the_mark_below_it(server, folder, db):
    deliver(server, folder, 1, 2, 3)
    with ImapSource(settings(server, folder), db) as session:
        for key, raw in session.messages():
            if raw != message(2):
                session.mark_handled(key)
    assert db.execute("SELECT last_uid FROM imap_state").fetchall() == [(1,)]
    assert subjects(poll(server, folder, db)) == ["turn 2"]
    # the mark stops at 2; turn 3 stays behind it because it carries the flag
    assert db.execute("SELECT last_uid FROM imap_state").fetchall() == [(2,)]
    assert poll(server, folder, db) == []


def test_the_flag_alone_is_enough_when_the_state_is_lost(server, folder, db, tmp_path):
    deliver(server, folder, 1, 2)
    assert len(poll(server, folder, db)) == 2
    fresh = sqlite3.connect(tmp_path / "other.sqlite")
    try:
        assert poll(server, folder, fresh) == []
    finally:
        fresh.close()


def test_a_message_appended_while_we_iterate_is_picked_up_at_the_next_poll(server, folder, db):
    deliver(server, folder, 1, 2)
    seen = []
    with ImapSource(settings(server, folder), db) as session:
        for key, raw in session.messages():
            seen.append(raw)
            if raw == message(1):
                deliver(server, folder, 3)  # arrives mid-poll, above every UID searched
            session.mark_handled(key)
    seen += poll(server, folder, db)
    seen += poll(server, folder, db)
    assert sorted(subjects(seen)) == ["turn 1", "turn 2", "turn 3"]


def test_uidvalidity_change_falls_back_to_the_flag(server, folder, db):
    deliver(server, folder, 1, 2, 3)
    with ImapSource(settings(server, folder), db) as session:
        old_validity = session.uidvalidity
        for key, _ in session.messages():
            session.mark_handled(key)

    client = server.client()
    try:
        assert client.delete(quote(folder))[0] == "OK"
        assert client.create(quote(folder))[0] == "OK"
    finally:
        client.logout()
    # restored from a backup with its flag: skipped; a genuinely new one (UID 2, below
    # the old mark of 3) is not hidden by the old folder's mark
    deliver(server, folder, 1, flags="($PbemHandled)")
    deliver(server, folder, 9)

    with ImapSource(settings(server, folder), db) as session:
        assert session.uidvalidity != old_validity
        got = list(session.messages())
        assert [(key, subjects([raw])) for key, raw in got] == [
            (f"{folder}:{session.uidvalidity}:2", ["turn 9"])
        ]
        session.mark_handled(got[0][0])
    assert poll(server, folder, db) == []


def test_marking_can_move_handled_mail_to_another_folder(server, folder, db):
    done = f"{folder} done"
    server.make_folder(done)
    deliver(server, folder, 1, 2)
    assert len(poll(server, folder, db, move_to=done)) == 2
    assert flags_of(server, folder) == {}
    assert sorted(flags_of(server, done).values()) == ["\\Seen $PbemHandled"] * 2
    deliver(server, folder, 3)
    assert subjects(poll(server, folder, db, move_to=done)) == ["turn 3"]


def test_without_move_handled_mail_is_copied_and_marked_deleted(server, folder, db):
    done = f"{folder} done"
    server.make_folder(done)
    deliver(server, folder, 1)
    with ImapSource(settings(server, folder, move_to=done), db) as session:
        # the same server, as one without MOVE looks: COPY, \Deleted, UID EXPUNGE
        session.imap.capabilities = tuple(c for c in session.imap.capabilities if c != "MOVE")
        for key, _ in session.messages():
            session.mark_handled(key)
    assert flags_of(server, folder) == {}
    assert list(flags_of(server, done).values()) == ["\\Seen $PbemHandled"]


def test_a_key_from_another_folder_is_refused(server, folder, db):
    with ImapSource(settings(server, folder), db) as session, pytest.raises(PbemError) as err:
        session.mark_handled(f"Elsewhere:{session.uidvalidity}:1")
    assert err.value.code == "imap.key"
    assert "Elsewhere" in str(err.value)


# --- TLS --------------------------------------------------------------------------------


def test_starttls_with_the_test_ca(server, folder, db):
    deliver(server, folder, 1)
    got = poll(server, folder, db, tls="starttls", port=server.imap_port)
    assert subjects(got) == ["turn 1"]


def test_plain_imap_is_allowed_on_loopback(server, folder, db):
    deliver(server, folder, 1)
    assert subjects(poll(server, folder, db, tls="none", port=server.imap_port)) == ["turn 1"]


@pytest.mark.parametrize("mode", ["ssl", "starttls"])
def test_a_certificate_from_another_ca_is_refused(server, folder, db, mode):
    port = server.imaps_port if mode == "ssl" else server.imap_port
    config = settings(server, folder, tls=mode, port=port, ca_file=str(server.other_ca_file))
    with pytest.raises(PbemError) as err, ImapSource(config, db):
        pass
    assert err.value.code == "imap.tls"
    assert f"127.0.0.1:{port}" in str(err.value)
    assert "certificate" in str(err.value)
    assert "ca_file" in str(err.value)


def test_a_ca_file_that_is_not_a_certificate(server, folder, db, tmp_path):
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate\n")
    config = settings(server, folder, ca_file=str(bad))
    with pytest.raises(PbemError) as err, ImapSource(config, db):
        pass
    assert err.value.code == "imap.tls"
    assert f"{str(bad)!r} is not a PEM file of CA certificates" in str(err.value)


def test_the_system_cas_do_not_trust_the_test_certificate(server, folder, db):
    config = settings(server, folder)
    config = ImapSettings(**{**_fields(config), "ca_file": None})
    with pytest.raises(PbemError) as err, ImapSource(config, db):
        pass
    assert err.value.code == "imap.tls"


def test_verify_false_accepts_any_certificate(server, folder, db):
    deliver(server, folder, 1)
    got = poll(server, folder, db, ca_file=str(server.other_ca_file), verify=False)
    assert subjects(got) == ["turn 1"]


def _fields(config: ImapSettings) -> dict[str, Any]:
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}


# --- failures in plain words ----------------------------------------------------------


def test_wrong_password(server, folder, db):
    config = settings(server, folder, password="not-the-password")
    with pytest.raises(PbemError) as err, ImapSource(config, db):
        pass
    assert err.value.code == "imap.login"
    text = str(err.value)
    assert f"127.0.0.1:{server.imaps_port}" in text
    assert "'referee'" in text
    assert "not-the-password" not in text
    assert "not-the-password" not in repr(config)


def test_missing_folder(server, db):
    with pytest.raises(PbemError) as err, ImapSource(settings(server, "No Such Folder"), db):
        pass
    assert err.value.code == "imap.folder"
    assert "'No Such Folder'" in str(err.value)
    assert f"127.0.0.1:{server.imaps_port}" in str(err.value)


def test_missing_move_to_folder_is_refused_before_anything_is_marked(server, folder, db):
    deliver(server, folder, 1)
    config = settings(server, folder, move_to="No Such Archive")
    with pytest.raises(PbemError) as err, ImapSource(config, db):
        pass
    assert err.value.code == "imap.folder"
    assert "'No Such Archive' (imap.move_to)" in str(err.value)
    assert flags_of(server, folder) == {1: ""}


def test_nothing_listening(server, folder, db):
    port = _closed_port()
    with pytest.raises(PbemError) as err, ImapSource(settings(server, folder, port=port), db):
        pass
    assert err.value.code == "imap.connect"
    assert f"127.0.0.1:{port}" in str(err.value)
    assert "refused" in str(err.value)


def test_starttls_mode_on_the_imaps_port_is_a_clear_error(server, folder, db):
    # both sides wait for the other to speak first: only the timeout ends it
    config = settings(server, folder, tls="starttls", port=server.imaps_port, timeout=0.5)
    with pytest.raises(PbemError) as err, ImapSource(config, db):
        pass
    assert err.value.code == "imap.connect"
    assert f"127.0.0.1:{server.imaps_port}" in str(err.value)
    assert "timed out" in str(err.value)


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when we return: nothing listens


# --- the config section ----------------------------------------------------------------

BASE = {"host": "imap.example.org", "user": "referee", "password": "pw"}


def test_config_defaults():
    config = from_section(BASE)
    assert (config.port, config.tls, config.folder, config.handled_flag, config.verify) == (
        993, "ssl", "INBOX", "$PbemHandled", True
    )
    assert config.move_to is None and config.ca_file is None and config.timeout == 30.0
    assert from_section({**BASE, "tls": "starttls"}).port == 143
    assert imap_settings(parse_config(config_text(None))) is None


def test_config_password_from_the_environment():
    section = {"host": "h", "user": "u", "password_env": "PBEM_IMAP_PW"}
    assert from_section(section, environ={"PBEM_IMAP_PW": "from-env"}).password == "from-env"
    with pytest.raises(ConfigError, match=r"^config.yaml:\d+: imap.password_env: the "
                                          "environment variable PBEM_IMAP_PW is not set"):
        from_section(section, environ={})
    with pytest.raises(ConfigError, match=r"imap\.password_env: the password in PBEM_IMAP_PW "
                                          r"has characters that IMAP's LOGIN") as err:
        from_section(section, environ={"PBEM_IMAP_PW": "p\u00e4ss"})
    assert "p\u00e4ss" not in str(err.value)


#: a bad value, the key it names, the config check's words
BAD = [
    ({"colour": "red"}, "imap.colour", "unknown key; allowed here: host, port, user"),
    ({"tls": "yes"}, "imap.tls", "must be one of ssl, starttls, none, not 'yes'"),
    ({"tls": "none"}, "imap.tls", "only allowed for a server on this machine"),
    ({"port": 0}, "imap.port", "must be a whole number from 1 to 65535, not 0"),
    ({"port": "993"}, "imap.port", "whole number"),
    ({"port": True}, "imap.port", "whole number"),
    ({"host": ""}, "imap.host", "must not be empty"),
    ({"password": None}, "imap.password", "is required"),
    ({"password_env": "X"}, "imap.password", "not both"),
    ({"verify": "no"}, "imap.verify", "must be true or false, not 'no'"),
    ({"handled_flag": "\\Seen"}, "imap.handled_flag", "must be an IMAP keyword"),
    ({"handled_flag": "two words"}, "imap.handled_flag", "must be an IMAP keyword"),
    ({"timeout": -1}, "imap.timeout", "must be a number of seconds above 0"),
    ({"move_to": "INBOX"}, "imap.move_to", "must differ from folder"),
    ({"folder": "Z\u00fcge"}, "imap.folder", "must be printable ASCII"),
    ({"user": "r\u00e9f"}, "imap.user", "must be printable ASCII"),
    ({"password": "\u00fcber"}, "imap.password", "must be printable ASCII"),
]


def _with(change: dict[str, Any]) -> dict[str, Any]:
    config = {**BASE, **change}
    if change.get("password", "") is None:
        del config["password"]
    return config


@pytest.mark.parametrize(("change", "key", "words"), BAD)
def test_config_errors_name_the_line_the_key_and_what_is_allowed(change, key, words):
    """Every check of the section is made as config.yaml is read: the file, the line, the
    key's path, then what is wrong (never the password)."""
    with pytest.raises(ConfigError) as err:
        parse_config(config_text(_with(change)), "config.yaml")
    message = str(err.value)
    assert message.startswith("config.yaml:") and f": {key}: " in message
    assert message.split(":")[1].isdigit(), message
    assert words in message
    assert "pw" not in message.replace("password", "")
    assert "\u00fcber" not in message


def test_a_missing_ca_file_is_said_in_the_same_words():
    with pytest.raises(ConfigError, match=r"^config.yaml:\d+: imap.ca_file: no such file: "
                                          "/no/such/ca.pem$"):
        from_section({**BASE, "ca_file": "/no/such/ca.pem"})


def test_config_must_be_a_mapping():
    with pytest.raises(ConfigError, match=r"config.yaml:4: imap: must be a mapping of keys"):
        parse_config(config_text(["host"]), "config.yaml")


def test_none_is_allowed_for_loopback_hosts():
    for host in ("127.0.0.1", "localhost", "::1", "127.5.5.5"):
        assert from_section({**BASE, "host": host, "tls": "none"}).port == 143


def test_the_settings_check_nothing_of_their_own():
    """Issue 24: one check of ``imap:``. The settings are a plain record built from the
    checked section; a second set of checks (with other words) must not creep back."""
    assert not hasattr(ImapSettings, "from_config")
    odd = ImapSettings(host="", user="two words", password="", port=0, timeout=-1.0,
                       handled_flag="\\Seen", move_to="INBOX")
    assert (odd.port, odd.timeout, odd.handled_flag) == (0, -1.0, "\\Seen")


def test_the_checks_words_are_written_once():
    """The words of the section's own checks stand in one file of pbem/, the config check;
    a second validator would have to say them again (or say other words, which the test
    above would not find at load time)."""
    root = Path(__file__).resolve().parents[2] / "pbem"
    for words in ("IMAP keyword", "password_env, not both", "must differ from folder",
                  "only allowed for a server on this machine", "must be printable ASCII"):
        found = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
                 if words in p.read_text(encoding="utf-8")]
        assert found == ["referee/config/checks.py"], (words, found)


@pytest.mark.parametrize(("change", "key", "words"), [BAD[2], BAD[8], BAD[10]])
def test_poll_says_the_config_checks_words_and_only_them(tmp_path, capsys, change, key, words):
    """What ``pbem poll`` says of a bad value is the config check's one line, as every
    other command says it: the same words whichever command reads the file."""
    (tmp_path / "config.yaml").write_text(config_text(_with(change)), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        parse_config(config_text(_with(change)), str(tmp_path / "config.yaml"))
    said = []
    for command in (["poll"], ["games"]):
        assert main([*command, "--home", str(tmp_path)]) == 3
        said.append(capsys.readouterr().err)
    assert said[0] == said[1] == f"pbem: {err.value}\n"
    assert said[0].count(key) == 1 and words in said[0]
