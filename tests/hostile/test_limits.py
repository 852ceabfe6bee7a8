"""What one mail, one address and one day can make the referee send (items 7, 8, 9).

Replies quote a few short lines, answer each command once, have a size cap and short
subjects; answers are rate limited per address and per game, strangers (mail that
proves no key) get one answer a day, and a mail may carry one key.
"""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import yaml

from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.store import connect
from tests.referee.helpers import Table, new_table


def _limits(home: Path, **limits: int) -> None:
    cfg = yaml.safe_load((home / "config.yaml").read_text())
    cfg["limits"] = limits
    (home / "config.yaml").write_text(yaml.safe_dump(cfg))


def _table(home: Path, **limits: int) -> Table:
    if limits:
        _limits(home, **limits)
    return new_table(home)


def _mails_to(table: Table, address: str) -> list[email.message.EmailMessage]:
    return [email.message_from_bytes(bytes(r[0]), policy=email.policy.default)
            for r in table.conn.execute(
                "SELECT raw FROM outbox WHERE recipient = ? ORDER BY id", (address,))]


def _mail(sender: str, n: int, body: str, subject: str = "hello", extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: referee@pbem.test\r\nSubject: {subject}\r\n"
            f"Message-ID: <m{n}.{abs(hash(sender))}@test>\r\n{extra}\r\n{body}\r\n").encode()


# -- item 7: the size of replies ---------------------------------------------------------
def test_a_huge_mail_gets_a_small_refusal(home: Path) -> None:
    table = _table(home)
    body = "Pz1z1\n" + ("All work and no play makes Jack a dull boy. " * 50 + "\n") * 1000
    assert len(body) > 2_000_000
    before = len(_mails_to(table, "white@players.test"))
    assert table.referee.handle(table.white.reply(body, quote=False)).outcome == "refused"
    refusal = _mails_to(table, "white@players.test")[before:]
    assert len(refusal) == 1
    text = refusal[0].get_body(("plain",)).get_content()
    quoted = [ln for ln in text.splitlines() if ln.startswith(">")]
    assert len(quoted) <= 7 and all(len(ln) <= 78 for ln in quoted)
    assert len(bytes(refusal[0])) < 200_000


def test_ten_thousand_help_lines_get_one_help(home: Path) -> None:
    table = _table(home)
    before = len(_mails_to(table, "white@players.test"))
    handled = table.referee.handle(table.white.reply("help\n" * 10_000, quote=False))
    assert handled.outcome == "info"
    replies = _mails_to(table, "white@players.test")[before:]
    assert len(replies) == 1
    assert len(str(replies[0]["Subject"])) < 120
    assert len(bytes(replies[0])) < 200_000


def test_every_subject_is_short_and_cut_at_a_word(home: Path) -> None:
    h = Home(home)
    referee = Referee(connect(h.store_target(h.load_config())), h.load_config())
    from pbem.records.rulesets import load_ruleset

    name = "A very long game title " * 6
    referee.new_game("w@players.test", "b@players.test", load_ruleset("featured"), name=name)
    for (raw,) in referee.conn.execute("SELECT raw FROM outbox"):
        subject = str(email.message_from_bytes(bytes(raw), policy=email.policy.default)
                      ["Subject"])
        assert len(subject) <= 130, subject
        assert subject.endswith("…") and not subject.endswith(" …")


# -- item 8: rate limits ------------------------------------------------------------------
def test_a_stranger_is_answered_once_a_day(home: Path) -> None:
    table = _table(home)
    outcomes = {table.referee.handle(_mail("eve@evil.test", n, "Bh11")).outcome
                for n in range(200)}
    assert outcomes == {"unknown-sender"}
    assert len(_mails_to(table, "eve@evil.test")) == 1


def test_forged_mails_do_not_flood_the_real_player(home: Path) -> None:
    table = _table(home)
    before = len(_mails_to(table, "white@players.test"))
    subject = f"Re: [realm g{table.game_id}-w] your move"
    for n in range(100):
        handled = table.referee.handle(_mail("white@players.test", n, f"Pz{n}z1 forged text",
                                             subject))
        assert handled.outcome == "refused"
    refusals = _mails_to(table, "white@players.test")[before:]
    assert len(refusals) == 1
    assert table.turns() == []
    # the real player, with his key, is still answered
    assert table.referee.handle(table.white.reply("board")).outcome == "info"
    assert len(_mails_to(table, "white@players.test")) == before + 2


def test_strangers_together_get_at_most_the_daily_number(home: Path) -> None:
    table = _table(home, stranger_answers_per_day=5)
    for n in range(40):
        table.referee.handle(_mail(f"bot{n}@spam.test", n, "hello"))
    answered = table.conn.execute(
        "SELECT count(*) FROM outbox WHERE recipient LIKE 'bot%'").fetchone()[0]
    assert answered == 5


def test_answers_to_one_player_and_one_game_are_limited(home: Path) -> None:
    table = _table(home, answers_per_address=3, answers_per_game=4)
    before = len(_mails_to(table, "white@players.test"))
    before_black = len(_mails_to(table, "black@players.test"))
    for _ in range(5):
        assert table.referee.handle(table.white.reply("board")).outcome == "info"
    assert len(_mails_to(table, "white@players.test")) == before + 3
    for _ in range(3):
        table.referee.handle(table.black.reply("board"))
    assert len(_mails_to(table, "black@players.test")) == before_black + 1  # 4 for the game
    logged = table.conn.execute(
        "SELECT count(*) FROM game_log WHERE kind = 'not-answered'").fetchone()[0]
    assert logged == 4


def test_auto_replies_are_never_answered(home: Path) -> None:
    table = _table(home)
    marks = ["Auto-Submitted: auto-replied", "X-Auto-Response-Suppress: All",
             "List-Id: <realm.lists.test>", "Precedence: bulk",
             "X-MS-Exchange-Generated-Message-Source: Mailbox Rules Agent", "X-Autoreply: yes"]
    for n in range(50):
        raw = _mail("robot@players.test", n, "I am away.", extra=marks[n % len(marks)] + "\r\n")
        assert table.referee.handle(raw).outcome == "ignored"
    assert _mails_to(table, "robot@players.test") == []


# -- item 9: one key per mail -------------------------------------------------------------
def test_a_mail_with_more_than_one_key_is_refused(home: Path) -> None:
    table = _table(home)
    right = table.token("w")
    lines = "".join(f"key {n:08d}\n" for n in range(200_000)) + f"key {right}\nBh11\n"
    subject = f"Re: [realm g{table.game_id}-w] your move"
    handled = table.referee.handle(_mail("white@players.test", 1, lines, subject))
    assert handled.outcome == "refused" and "different keys" in (handled.reason or "")
    assert table.turns() == []
    # one key, written twice, is one key
    body = f"key {right}\nkey {right.upper()}\nBh11\n"
    handled = table.referee.handle(_mail("white@players.test", 2, body, subject))
    assert handled.outcome == "accepted", handled
