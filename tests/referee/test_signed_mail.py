"""Issue 25 part 1: every mail signed (DKIM, verified by dkimpy against the test key with
DNS answered by a stub), marked as automatic, on the referee's domain, with its own
return path; digests, reminders and observers' copies with List-Id and a working
List-Unsubscribe."""

from __future__ import annotations

import email
import email.policy
from datetime import timedelta
from email.message import EmailMessage, Message
from email.utils import make_msgid, parsedate_to_datetime
from pathlib import Path

import dkim
import pytest
import yaml

from pbem.referee.config.home import Home
from pbem.referee.outgoing.signing import load_key
from pbem.referee.store import accounts
from tests.referee.clocked import FakeNow, clocked_table, tick
from tests.referee.conftest import MAIL_DIR, init_home

KEYS = MAIL_DIR / "dkim"


def with_dkim(home: Path, key: str = "test-2048.pem", **more: object) -> Path:
    cfg = home / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data["dkim"] = {"domain": "pbem.test", "selector": "s2026", "key_file": str(KEYS / key)}
    data.update(more)
    cfg.write_text(yaml.safe_dump(data))
    return home


def stub_dns(home: Path):
    """DNS as the test domain would publish it: the key's TXT record, nothing else."""
    config = Home(home).load_config()
    assert config.dkim is not None
    record = f"v=DKIM1; k=rsa; p={load_key(config.dkim).public}".encode()
    asked: list[bytes] = []

    def dnsfunc(name: bytes, timeout: int = 5) -> bytes | None:
        asked.append(name)
        return record if name == b"s2026._domainkey.pbem.test." else None

    return dnsfunc, asked


def raw_mails(home: Path) -> list[bytes]:
    files = sorted((home / "outbox" / "new").iterdir(), key=lambda p: p.stat().st_mtime_ns)
    return [p.read_bytes() for p in files]


def parsed(raw: bytes) -> Message:
    return email.message_from_bytes(raw, policy=email.policy.default)


@pytest.fixture
def now() -> FakeNow:
    return FakeNow()


def test_every_mail_in_the_outbox_is_signed_and_verifies(tmp_path: Path, now: FakeNow) -> None:
    home = with_dkim(init_home(tmp_path / "home"))
    table = clocked_table(home, now)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("Bh11")).outcome == "refused"
    dnsfunc, asked = stub_dns(home)
    mails = raw_mails(home)
    assert len(mails) >= 5
    for raw in mails:
        assert raw.startswith(b"Return-Path: <referee+bounce-")
        assert b"DKIM-Signature:" in raw.split(b"\n\n", 1)[0]
        assert dkim.verify(raw, dnsfunc=dnsfunc), parsed(raw)["Subject"]
    assert set(asked) == {b"s2026._domainkey.pbem.test."}
    tampered = mails[0].replace(b"White", b"Whyte", 1)
    assert tampered != mails[0]
    assert not dkim.verify(tampered, dnsfunc=dnsfunc)


def test_without_dkim_nothing_is_signed(home: Path, now: FakeNow) -> None:
    clocked_table(home, now)
    for raw in raw_mails(home):
        assert b"DKIM-Signature" not in raw


def test_a_key_of_another_domain_does_not_verify(tmp_path: Path, now: FakeNow) -> None:
    home = with_dkim(init_home(tmp_path / "home"))
    clocked_table(home, now)
    other = f"v=DKIM1; k=rsa; p={load_key(Home(with_dkim(init_home(tmp_path / 'h2'), 'test-1024.pem')).load_config().dkim).public}"  # noqa: E501
    assert not dkim.verify(raw_mails(home)[0], dnsfunc=lambda name, timeout=5: other.encode())


def _observe(table, who: str = "watcher@players.test") -> None:
    """An account for ``who`` (open registration) that observes the table's game."""
    accounts.ensure_account(table.conn, who)
    accounts.observe(table.conn, table.game_id, who)


def _every_kind(tmp_path: Path, now: FakeNow) -> tuple[Path, list[Message]]:
    home = with_dkim(init_home(tmp_path / "home"))
    table = clocked_table(home, now, clock="days 3, forfeit, remind 24/12")
    _observe(table)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"   # reports, observer
    assert table.send(table.black.reply("board")).outcome == "info"       # reply
    assert table.send(table.black.reply("Zz99")).outcome == "refused"     # refusal
    assert table.send(table.black.reply("offer draw")).outcome == "accepted"  # notice
    accounts.set_digest(table.conn, "watcher@players.test", True)
    assert table.send(table.white.reply("decline draw")).outcome == "accepted"
    assert table.send(table.black.reply("Bk2")).outcome == "accepted"   # held for digest
    now.advance(days=2, hours=13)
    tick(table)                                                           # reminder
    now.set(now.at.replace(hour=19))
    tick(table)                                                           # digest
    assert table.send(table.black.reply("resign")).outcome == "accepted"  # result
    return home, [parsed(r) for r in raw_mails(home)]


def test_every_kind_of_mail_carries_the_headers(tmp_path: Path, now: FakeNow) -> None:
    _, mails = _every_kind(tmp_path, now)
    kinds = {m["X-Pbem-Kind"] for m in mails}
    assert {"invitation", "report", "reply", "refusal", "notice", "reminder", "digest",
            "result"} <= kinds, kinds
    listed = {"digest": "digest", "reminder": "reminder"}
    for m in mails:
        kind = m["X-Pbem-Kind"]
        answer = kind in ("reply", "refusal")
        assert m["Auto-Submitted"] == ("auto-replied" if answer else "auto-generated"), kind
        assert m["X-Auto-Response-Suppress"] == "All"
        assert m["Message-ID"].endswith("@pbem.test>")
        assert parsedate_to_datetime(m["Date"]) is not None
        assert m["Return-Path"].startswith("<referee+bounce-")
        observer = kind == "report" and m["To"] == "watcher@players.test"
        wanted = listed.get(kind) or ("observer" if observer else None)
        if wanted is None:
            assert m["List-Unsubscribe"] is None and m["List-Id"] is None, kind
        else:
            assert m["List-Id"] == f"Realm referee {wanted}s <{wanted}.referee.pbem.test>"
            assert m["List-Unsubscribe"].strip().startswith(f"<mailto:referee+unsub-{wanted[0]}")


def _unsubscribe_mail(sender: str, listed: Message) -> bytes:
    target = listed["List-Unsubscribe"].strip().strip("<>").removeprefix("mailto:").split("?")[0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, target, "unsubscribe"
    msg["Message-ID"] = make_msgid(domain="players.test")
    msg.set_content("This message was automatically generated by Gmail.")
    return msg.as_bytes()


def test_list_unsubscribe_stops_reminders_and_says_so(tmp_path: Path, now: FakeNow,
                                                      capsys) -> None:
    from pbem.cli import main

    home = with_dkim(init_home(tmp_path / "home"))
    table = clocked_table(home, now, clock="days 3, forfeit, remind 24/12")
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    now.advance(days=2, hours=1)
    tick(table)
    reminder = [m for m in table.black.inbox if m["X-Pbem-Kind"] == "reminder"]
    assert len({m["Message-ID"] for m in reminder}) == 1
    # a stranger who saw the address cannot use it
    stranger = table.send(_unsubscribe_mail("mallory@players.test", reminder[0]))
    assert stranger.outcome == "ignored"
    handled = table.send(_unsubscribe_mail("black@players.test", reminder[0]))
    assert handled.outcome == "info", handled
    assert table.conn.execute("SELECT count(*) FROM outbox WHERE recipient = ? AND "
                              "created_at > 0 AND kind NOT IN ('invitation', 'report', "
                              "'reminder')", ("black@players.test",)).fetchone()[0] == 0
    now.advance(hours=14)
    tick(table)  # the last reminder falls due: not sent
    assert {m["Message-ID"] for m in table.black.inbox if m["X-Pbem-Kind"] == "reminder"} == {
        reminder[0]["Message-ID"]}
    assert main(["show", str(table.game_id), "--log", "--home", str(home)]) == 0
    log = capsys.readouterr().out
    assert "black@players.test unsubscribed from reminder mail of game 1" in log
    assert "reminder to Black: unsubscribed" in log


def test_an_unsubscribe_from_an_observer_ends_the_observation(tmp_path: Path,
                                                             now: FakeNow) -> None:
    home = with_dkim(init_home(tmp_path / "home"))
    table = clocked_table(home, now)
    _observe(table)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    copy = [parsed(r) for r in raw_mails(home) if b"watcher@players.test" in r]
    assert len(copy) == 1
    assert table.send(_unsubscribe_mail("watcher@players.test", copy[0])).outcome == "info"
    assert table.send(table.black.reply("Bk2")).outcome == "accepted"
    assert len([r for r in raw_mails(home) if b"To: watcher@players.test" in r]) == 1


def test_the_deadline_comes_as_a_calendar_event(tmp_path: Path, now: FakeNow) -> None:
    from icalendar import Calendar

    home = init_home(tmp_path / "home")
    table = clocked_table(home, now)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    report = [m for m in table.black.inbox if m["X-Pbem-Kind"] == "report"][-1]
    parts = [p for p in report.iter_attachments() if p.get_content_type() == "text/calendar"]
    assert len(parts) == 1
    cal = Calendar.from_ical(parts[0].get_content())
    events = list(cal.walk("VEVENT"))
    assert len(events) == 1
    due = events[0].decoded("dtstart")
    assert due == now.at + timedelta(days=3)
    assert "T" in str(events[0]["summary"]) and "@" not in str(events[0]["summary"])
    assert events[0].walk("VALARM")
    # White, who waits, gets no event; a game without a clock has none
    mine = [m for m in table.white.inbox if m["X-Pbem-Kind"] == "report"][-1]
    assert not [p for p in mine.iter_attachments() if p.get_content_type() == "text/calendar"]


def test_check_mail_prints_the_records_and_finds_what_is_wrong(tmp_path: Path, capsys) -> None:
    from pbem.cli import main

    home = init_home(tmp_path / "home")
    assert main(["check-mail", "--home", str(home)]) == 1
    assert "no dkim: section" in capsys.readouterr().out
    with_dkim(home)
    assert main(["check-mail", "--home", str(home)]) == 0
    out = capsys.readouterr().out
    public = load_key(Home(home).load_config().dkim).public
    assert f's2026._domainkey.pbem.test. IN TXT "v=DKIM1; k=rsa; p={public}"' in out
    assert 'pbem.test. IN TXT "v=spf1' in out and "_dmarc.pbem.test. IN TXT" in out
    # the published key is the one dkimpy verifies with: checked above; here its problems
    with_dkim(home, "test-1024.pem")
    assert main(["check-mail", "--home", str(home)]) == 1
    assert "has 1024 bits: use at least 2048" in capsys.readouterr().out
    with_dkim(home, "missing.pem")
    assert main(["check-mail", "--home", str(home)]) == 1
    assert "cannot read the DKIM key" in capsys.readouterr().out
    with_dkim(home, referee={"address": "referee@other.test", "name": "Realm referee"})
    assert main(["check-mail", "--home", str(home)]) == 1
    assert "is not on the DKIM domain pbem.test" in capsys.readouterr().out
