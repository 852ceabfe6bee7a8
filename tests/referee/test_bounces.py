"""Issue 25 part 2: bounces come back to a return path that names the mail, are matched to
the player (or ignored), never answered; a player whose mail bounces is not forfeited
while unreachable, and gets what he missed when he writes again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.referee.store import delivery
from tests.referee.clocked import FakeNow, clocked_table, game_row, tick
from tests.referee.conftest import MAIL_DIR, init_home
from tests.referee.helpers import Table

FIXTURES = MAIL_DIR / "bounces"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.eml"))


@pytest.fixture
def now() -> FakeNow:
    return FakeNow()


def _report_to_black(table: Table):
    return table.conn.execute(
        "SELECT message_id, return_path, id FROM outbox WHERE recipient = ? AND kind = "
        "'report' ORDER BY id DESC LIMIT 1", ("black@players.test",)).fetchone()


def bounce_of(table: Table, name: str, *, to: str | None = None,
              message_id: str | None = None) -> tuple[bytes, dict]:
    """The fixture ``name`` as the bounce of the last report to Black."""
    sent = _report_to_black(table)
    values = {"{{BOUNCE_TO}}": to or sent["return_path"],
              "{{MESSAGE_ID}}": message_id or sent["message_id"],
              "{{RECIPIENT}}": "black@players.test"}
    raw = (FIXTURES / f"{name}.eml").read_text()
    expected = (FIXTURES / f"{name}.json").read_text()
    for key, value in values.items():
        raw, expected = raw.replace(key, value), expected.replace(key, value)
    return raw.encode(), json.loads(expected)


def played(tmp_path: Path, now: FakeNow, clock: str = "days 3, forfeit") -> Table:
    table = clocked_table(init_home(tmp_path / "home"), now, clock=clock)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    return table


def _queued(table: Table) -> list[tuple[str, str]]:
    return [(r[0], r[1]) for r in table.conn.execute(
        "SELECT kind, recipient FROM outbox ORDER BY id")]


@pytest.mark.parametrize("name", NAMES)
def test_each_fixture_is_matched_to_the_player_or_ignored(tmp_path: Path, now: FakeNow,
                                                          name: str) -> None:
    table = played(tmp_path, now)
    raw, expected = bounce_of(table, name)
    before = _queued(table)
    handled = table.referee.handle(raw)
    new = _queued(table)[len(before):]
    # never answered: nothing goes to the bounce's sender, nor to Black
    assert all(to in ("white@players.test",) for _, to in new), new
    rows = table.conn.execute("SELECT * FROM bounces").fetchall()
    if not expected["bounce"]:
        assert handled.outcome == "ignored", handled
        assert rows == [] and new == []
        assert delivery.unreachable_since(table.conn, "black@players.test") is None
        return
    assert handled.outcome == "bounce", handled
    assert len(rows) == 1
    assert rows[0]["email"] == expected["recipient"]
    assert rows[0]["outbox_id"] == _report_to_black(table)["id"]
    assert bool(rows[0]["hard"]) is expected["hard"]
    if "status" in expected:
        assert rows[0]["status"] == expected["status"]
    unreachable = delivery.unreachable_since(table.conn, "black@players.test") is not None
    assert unreachable is expected["hard"]
    assert new == ([("notice", "white@players.test")] if expected["hard"] else [])


@pytest.mark.parametrize("name", [n for n in NAMES if "original" in
                                  (FIXTURES / f"{n}.json").read_text()])
def test_a_bounce_to_the_plain_address_is_matched_by_the_message_id_it_quotes(
        tmp_path: Path, now: FakeNow, name: str) -> None:
    table = played(tmp_path, now)
    raw, _ = bounce_of(table, name, to="referee@pbem.test")
    assert table.referee.handle(raw).outcome == "bounce"
    assert table.conn.execute("SELECT email FROM bounces").fetchone()[0] == "black@players.test"


def test_a_forged_return_path_or_an_unknown_message_id_is_ignored(tmp_path: Path,
                                                                  now: FakeNow) -> None:
    table = played(tmp_path, now)
    forged = "referee+bounce-aaaaaaaaaaaaaaaa@pbem.test"
    raw, _ = bounce_of(table, "postfix-mailbox-full", to=forged, message_id="<x@evil.test>")
    handled = table.referee.handle(raw)
    assert handled.outcome == "ignored" and "no mail the referee sent" in handled.reason
    # the right token with someone else's mail quoted still names the mail of the token
    raw, _ = bounce_of(table, "exim-plain", to="referee@pbem.test")
    assert table.referee.handle(raw).outcome == "ignored"  # quotes no id we can trust
    assert table.conn.execute("SELECT count(*) FROM bounces").fetchone()[0] == 0


def _last_to_black(table: Table):
    return table.conn.execute(
        "SELECT message_id, return_path, id FROM outbox WHERE recipient = ? ORDER BY id DESC "
        "LIMIT 1", ("black@players.test",)).fetchone()


def _soft_bounce_of_last(table: Table, copy: int = 0) -> str:
    sent = _last_to_black(table)
    raw, _ = bounce_of(table, "gmail-delayed", to=sent["return_path"],
                       message_id=sent["message_id"])
    raw = raw.replace(b"77aaGMR", f"{copy}GMR".encode())  # another report's own id
    return table.referee.handle(raw).outcome


def test_two_soft_bounces_in_a_row_make_him_unreachable(tmp_path: Path, now: FakeNow) -> None:
    table = played(tmp_path, now)
    assert _soft_bounce_of_last(table) == "bounce"
    assert _soft_bounce_of_last(table, copy=1) == "bounce"  # the same mail's: counts once
    assert delivery.unreachable_since(table.conn, "black@players.test") is None
    assert table.send(table.white.reply("say hello")).outcome == "accepted"
    assert _soft_bounce_of_last(table) == "bounce"  # another mail: two in a row
    assert delivery.unreachable_since(table.conn, "black@players.test") is not None


def test_a_mail_from_him_between_two_soft_bounces_resets_the_count(tmp_path: Path,
                                                                   now: FakeNow) -> None:
    table = played(tmp_path, now)
    assert _soft_bounce_of_last(table) == "bounce"
    assert table.send(table.black.reply("board")).outcome == "info"
    assert _soft_bounce_of_last(table) == "bounce"  # the answer to 'board' bounces
    assert delivery.unreachable_since(table.conn, "black@players.test") is None


def test_a_bounced_report_then_tick_past_the_deadline_forfeits_nobody(
        tmp_path: Path, now: FakeNow, capsys) -> None:
    table = played(tmp_path, now, clock="days 3, forfeit, remind 24/12")
    raw, _ = bounce_of(table, "postfix-mailbox-full")
    now.advance(hours=1)
    assert table.send(raw).outcome == "bounce"
    told = [m for m in table.white.inbox if "bounces" in m["Subject"]]
    assert told and "does not run out" in told[0].get_body(("plain",)).get_content()
    now.advance(days=5)  # well past Black's deadline of three days
    summary = tick(table)
    assert summary.forfeits == 0 and summary.reminders == 0
    assert game_row(table)["status"] == "playing"
    # his reminders and notices are held, not sent into the bounce
    held = table.conn.execute("SELECT count(*) FROM outbox WHERE recipient = ? AND status = "
                              "'held'", ("black@players.test",)).fetchone()[0]
    assert held == 0  # nothing was due for him: the clock waits
    assert main(["games", "--home", str(table.home)]) == 0
    assert "Black is unreachable since" in capsys.readouterr().out
    assert main(["show", str(table.game_id), "--home", str(table.home)]) == 0
    assert "Black is unreachable since" in capsys.readouterr().out
    assert main(["show", str(table.game_id), "--log", "--home", str(table.home)]) == 0
    log = capsys.readouterr().out
    assert "Black's mail bounces" in log and "operator-notice" in log
    # White plays on meanwhile? It is Black's turn. White asks for the board: Black's
    # mail meanwhile (White's 'say') is held
    assert table.send(table.white.reply("say are you there?")).outcome == "accepted"
    assert table.conn.execute("SELECT count(*) FROM outbox WHERE recipient = ? AND status = "
                              "'held'", ("black@players.test",)).fetchone()[0] == 1
    # Black writes again: reachable, his clock runs from now, what he missed in one mail
    now.advance(hours=2)
    handled = table.send(table.black.reply("Bk2", to=table.black.inbox[0]))
    assert handled.outcome == "accepted", handled
    assert delivery.unreachable_since(table.conn, "black@players.test") is None
    missed = [m for m in table.black.inbox if m["X-Pbem-Kind"] == "missed"]
    assert len({m["Message-ID"] for m in missed}) == 1
    text = missed[0].get_body(("plain",)).get_content()
    assert "#1w played" in text and "are you there?" in text
    assert table.conn.execute("SELECT count(*) FROM outbox WHERE status = 'held'"
                              ).fetchone()[0] == 0


def test_the_grace_runs_out_then_the_clock_runs_and_the_operator_decides(
        tmp_path: Path, now: FakeNow) -> None:
    home = init_home(tmp_path / "home")
    cfg = home / "config.yaml"
    cfg.write_text(cfg.read_text() + "operator: op@club.test\nbounces: {grace_days: 2}\n")
    table = clocked_table(home, now, clock="days 3, forfeit")
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    raw, _ = bounce_of(table, "gmail-no-such-user")
    assert table.send(raw).outcome == "bounce"
    operator = table.conn.execute("SELECT count(*) FROM outbox WHERE recipient = "
                                  "'op@club.test'").fetchone()[0]
    assert operator == 1
    now.advance(days=4)  # past the deadline, inside deadline + grace
    assert tick(table).forfeits == 0
    now.advance(days=1, hours=1)  # 3 days of clock + 2 of grace are over
    summary = tick(table)
    assert summary.forfeits == 1
    assert table.conn.execute("SELECT count(*) FROM outbox WHERE recipient = "
                              "'op@club.test'").fetchone()[0] == 2
    tick(table)  # told once
    assert table.conn.execute("SELECT count(*) FROM outbox WHERE recipient = "
                              "'op@club.test'").fetchone()[0] == 2


def test_the_envelope_sender_is_the_return_path(tmp_path: Path, now: FakeNow, smtp) -> None:
    from pbem.records.rulesets import load_ruleset
    from pbem.referee.config.home import Home
    from pbem.referee.entry.service import Referee
    from pbem.referee.outgoing.delivery import deliver
    from pbem.referee.store import connect

    home = init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": smtp.port})
    h = Home(home)
    ref = Referee(connect(h.store_target(h.load_config())), h.load_config(), now=now)
    ref.new_game("white@players.test", "black@players.test", load_ruleset("featured"))
    assert deliver(ref.conn, h.load_config(), h.outbox_path).sent == 2
    assert len(smtp.received) == 2
    for got in smtp.received:
        assert got.envelope_from.startswith("referee+bounce-")
        assert got.envelope_from.endswith("@pbem.test")
        assert b"Return-Path" not in got.data.split(b"\r\n\r\n", 1)[0]
        row = ref.conn.execute("SELECT return_path FROM outbox WHERE recipient = ?",
                               (got.recipients[0],)).fetchone()
        assert row[0] == got.envelope_from
