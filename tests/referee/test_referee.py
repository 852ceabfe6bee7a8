"""Who may move, what is refused and why, endings, duplicates: the referee's decisions."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.records.rulesets import load_ruleset
from tests.referee.conftest import MailPlayer, outbox_mails, text_of
from tests.referee.helpers import Table, new_table, play_setup
from tests.referee.test_sample_by_mail import sample_turns

SETUP = sample_turns()[:12]


@pytest.fixture
def table(home: Path) -> Table:
    return new_table(home)


def forged(sender: str, to: str, subject: str, body: str, msgid: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, to, subject, msgid
    msg.set_content(body)
    return msg.as_bytes()


def test_a_forged_from_without_the_key_is_refused(table: Table) -> None:
    raw = forged("white@players.test", "referee@pbem.test", "my move", "Bh11", "<f1@evil>")
    handled = table.send(raw)
    assert handled.outcome == "refused" and "key" in (handled.reason or "")
    assert table.turns() == []
    # the refusal goes to the real player's address, explaining why
    assert table.white.last["X-Pbem-Kind"] == "refusal"
    assert "forgery" in text_of(table.white.last)


def test_the_opponents_key_does_not_move_for_you(table: Table) -> None:
    # Black replies to White's invitation (forwarded to him, say)
    raw = table.black.reply("Bh11", to=table.white.last)
    handled = table.send(raw)
    assert handled.outcome == "refused" and "White's key" in (handled.reason or "")
    assert table.turns() == []


def test_an_unknown_sender_is_answered_politely_and_never_acted_on(table: Table) -> None:
    stranger = MailPlayer("stranger@else.test")
    raw = stranger.reply("Bh11", to=table.white.last)  # even with White's key
    handled = table.send(raw)
    assert handled.outcome == "unknown-sender"
    assert table.turns() == []
    reply = [m for m in outbox_mails(table.home) if m["To"] == "stranger@else.test"]
    assert len(reply) == 1 and "not a player" in text_of(reply[0])
    assert reply[0]["Auto-Submitted"] == "auto-replied"


@pytest.mark.parametrize("header", ["Auto-Submitted: auto-replied", "Precedence: bulk",
                                    "Return-Path: <>"])
def test_auto_replies_and_bounces_are_never_answered(table: Table, header: str) -> None:
    before = len(outbox_mails(table.home))
    raw = table.white.reply("I am on holiday until Monday.")
    name, value = header.split(": ")
    raw = f"{name}: {value}\r\n".encode() + raw
    handled = table.send(raw)
    assert handled.outcome == "ignored"
    assert len(outbox_mails(table.home)) == before


def test_the_same_message_twice_is_handled_once(table: Table) -> None:
    raw = table.white.reply("Bh11")
    assert table.send(raw).outcome == "accepted"
    before = len(outbox_mails(table.home))
    assert table.send(raw).outcome == "duplicate"
    assert table.turns() == ["1w"]
    assert len(outbox_mails(table.home)) == before


def test_a_stale_or_repeated_order_is_refused(table: Table) -> None:
    play_setup(table, SETUP[:2])
    old = table.white.reply("1.Bh11")  # a new message repeating turn 1
    handled = table.send(old)
    assert handled.outcome == "refused" and "numbered 1" in (handled.reason or "")
    handled = table.send(table.white.reply("#1 Be8"))
    assert handled.outcome == "refused" and "#1" in (handled.reason or "")
    assert table.turns() == ["1w", "1b"]
    assert table.send(table.white.reply("#2 Be8")).outcome == "accepted"


def test_a_refusal_says_where_and_why_and_changes_nothing(table: Table) -> None:
    play_setup(table, SETUP)
    body = "Hello!\n\n7.Pi10h10(Bh5)\n"
    handled = table.send(table.white.reply(body))
    assert handled.outcome == "refused"
    text = text_of(table.white.last)
    assert "nothing in game" in text
    assert "line 3, column 3" in text  # the action, after "7."
    assert "different Realm" in text
    assert "  7.Pi10h10(Bh5)\n    ^" in text
    assert "Hello!" not in text  # only the line the refusal is about is quoted
    assert "Next: White to move (#7w)" in text
    assert table.turns()[-1] == "6b"
    # Black got nothing about it
    assert table.black.last["X-Pbem-Kind"] == "report"


def test_not_your_turn(table: Table) -> None:
    handled = table.send(table.black.reply("Bh2"))
    assert handled.outcome == "refused" and "White is to move" in (handled.reason or "")


def test_no_orders_found(table: Table) -> None:
    handled = table.send(table.white.reply("Thanks, I'll think about it."))
    assert handled.outcome == "refused" and "no orders" in (handled.reason or "")


def test_board_history_help_answer_the_sender_only(table: Table) -> None:
    play_setup(table, SETUP[:2])
    handled = table.send(table.black.reply("board\nhistory\nhelp"))
    assert handled.outcome == "info"
    text = text_of(table.black.last)
    assert "The board" in text and "1.Bh11 Bh2" in text and "How to play by mail" in text
    assert table.white.last["X-Pbem-Kind"] == "report"


def test_offer_and_accept_end_scores_the_game(table: Table) -> None:
    play_setup(table, SETUP)
    assert table.send(table.white.reply("offer end")).outcome == "accepted"
    assert "accept end" in text_of(table.black.last)
    handled = table.send(table.black.reply("accept end"))
    assert handled.outcome == "accepted"
    for p in (table.white, table.black):
        assert p.last["X-Pbem-Kind"] == "result"
    row = table.conn.execute("SELECT status, end_reason FROM games").fetchone()
    assert tuple(row) == ("over", "agreement")


def test_decline_and_draw(table: Table) -> None:
    play_setup(table, SETUP)
    assert table.send(table.black.reply("offer draw")).outcome == "accepted"
    assert table.send(table.white.reply("decline draw")).outcome == "accepted"
    handled = table.send(table.white.reply("accept draw"))
    assert handled.outcome == "refused" and "no offer" in (handled.reason or "")
    assert table.send(table.black.reply("offer draw")).outcome == "accepted"
    assert table.send(table.white.reply("accept draw")).outcome == "accepted"
    assert table.conn.execute("SELECT result FROM games").fetchone()[0] == "1/2-1/2"
    assert "1/2-1/2" in text_of(table.white.last)


def test_resign(table: Table) -> None:
    play_setup(table, SETUP[:3])
    assert table.send(table.black.reply("resign")).outcome == "accepted"
    assert table.conn.execute("SELECT result FROM games").fetchone()[0] == "1-0"
    record = table.conn.execute("SELECT record FROM games").fetchone()[0]
    assert record.rstrip().endswith("1-0 {Black resigned}")
    assert table.send(table.white.reply("Be8")).outcome == "refused"


def test_offer_end_is_refused_when_the_rules_do_not_allow_it(home: Path) -> None:
    table = new_table(home, ruleset="original")
    handled = table.send(table.white.reply("offer end"))
    assert handled.outcome == "refused" and "agreement" in (handled.reason or "")


def _help(table: Table) -> str:
    assert table.send(table.white.reply("help")).outcome == "info"
    return text_of(table.white.last)


@pytest.mark.parametrize("ruleset", ["classic", "medieval", "oriental", "modern", "original"])
def test_a_game_that_cannot_end_by_agreement_neither_lists_nor_takes_offer_end(
    home: Path, ruleset: str
) -> None:
    table = new_table(home, ruleset=ruleset)
    invitation = text_of(table.white.inbox[0])
    for text in (_help(table), invitation):
        assert "offer draw" in text and "How to play by mail" in text
        assert "offer end" not in text and "accept end" not in text, text
    handled = table.send(table.white.reply("offer end"))
    assert handled.outcome == "refused" and "agreement" in (handled.reason or "")
    assert table.conn.execute("SELECT offer FROM games").fetchone()[0] is None


def test_the_featured_game_lists_offer_end_where_its_rules_allow_it(table: Table) -> None:
    invitation = text_of(table.white.inbox[0])
    assert table.white.inbox[0]["X-Pbem-Kind"] == "invitation"
    for text in (_help(table), invitation):
        assert "offer end" in text and "accept end / decline end" in text


def test_a_reply_without_tag_or_address_finds_the_game_by_references_but_needs_the_key(
    table: Table,
) -> None:
    raw = table.white.reply("Bh11", subject="my move")
    raw = raw.replace(f"+g{table.game_id}-w-{table.token('w')}".encode(), b"")
    handled = table.send(raw)
    assert handled.outcome == "refused" and handled.game_id == table.game_id
    raw = table.white.reply(f"Bh11\nkey {table.token('w')}", subject="my move again")
    raw = raw.replace(f"+g{table.game_id}-w-{table.token('w')}".encode(), b"")
    assert table.send(raw).outcome == "accepted"


def test_a_mail_naming_no_game_is_refused_when_the_sender_has_two_in_play(table: Table) -> None:
    """With one game in play a mail that names none is about that game (refused for its
    missing key: ``test_a_forged_from_without_the_key_is_refused``); with two it is
    refused, listing them, and neither game changes."""
    other = table.referee.new_game("white@players.test", "third@players.test",
                                   load_ruleset("featured"), name="U")
    handled = table.send(forged("white@players.test", "referee@pbem.test", "my move", "Bh11",
                                "<n2@x>"))
    assert handled.outcome == "refused" and handled.game_id is None
    assert handled.reason == ("the mail names no game: reply to the referee's last mail for "
                              f"the game (your games in play: {table.game_id}, {other})")
    assert "names no game" in text_of(table.white.last)
    assert table.turns() == []
