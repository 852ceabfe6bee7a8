"""Every mail of the referee in text and HTML, from templates, escaped, CSS inlined."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest

from pbem.referee.outgoing.letters import blocks
from tests.referee.clocked import FakeNow, clocked_table, tick
from tests.referee.conftest import outbox_mails

HOSTILE = "<script>alert(1)</script> & <b>Eve</b>"


def _bare(sender: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "referee@pbem.test", "hello"
    msg["Message-ID"] = make_msgid(domain="x.test")
    msg.set_content(body)
    return msg.as_bytes()


def test_every_kind_of_mail_has_text_and_escaped_html(home: Path) -> None:
    now = FakeNow()
    table = clocked_table(home, now)
    from pbem.referee.store import transaction

    with transaction(table.conn):
        table.conn.execute("UPDATE players SET name = ? WHERE side = 'w'", (HOSTILE,))
    white, black = table.white, table.black
    assert table.send(black.reply("digest on")).outcome == "accepted"
    assert table.send(white.reply("Bh11")).outcome == "accepted"  # a report, held for Black
    assert table.send(black.reply("Bh2")).outcome == "accepted"
    assert table.send(white.reply("board")).outcome == "info"  # a reply
    assert table.send(white.reply("offer draw")).outcome == "accepted"  # a notice
    assert table.send(black.reply("decline draw")).outcome == "accepted"
    bad = f"Be9 {HOSTILE}"
    assert table.send(white.reply(bad, quote=False)).outcome == "refused"  # a refusal
    table.send(_bare("stranger@nowhere.test", f"hello {HOSTILE}"))  # unknown sender
    assert table.send(white.reply("challenge carol@players.test")).outcome in ("accepted",
                                                                               "refused")
    now.set(datetime(2026, 12, 3, 18, 0, tzinfo=UTC))  # reminder time, and the digest hour
    summary = tick(table)
    assert summary.digests == 1
    assert table.send(white.reply("resign")).outcome == "accepted"  # the result
    seen: set[str] = set()
    for mail in outbox_mails(home):
        kind = mail["X-Pbem-Kind"]
        seen.add(kind)
        if mail.get_content_type() == "multipart/mixed":  # a report with its deadline .ics
            assert kind == "report"
            parts = list(mail.iter_parts())
            assert [p.get_content_type() for p in parts] == ["multipart/alternative",
                                                             "text/calendar"], kind
        else:
            assert mail.get_content_type() == "multipart/alternative", kind
        text = mail.get_body(("plain",)).get_content()
        html = mail.get_body(("html",)).get_content()
        assert text.strip() and html.lstrip().startswith("<!DOCTYPE html>"), kind
        assert "<style" not in html and 'style="' in html, kind  # inlined for Gmail
        assert "<script" not in html and "<b>Eve" not in html, kind
        if HOSTILE in text:  # what a player wrote is shown, escaped
            assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;Eve&lt;/b&gt;" in html
    assert {"invitation", "report", "reply", "notice", "refusal", "unknown-sender", "reminder",
            "digest", "result"} <= seen, seen


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One line.\nAnd its second line.", [("p", "One line. And its second line.")]),
        ("Words.\n\n  12 | . . |\n   1 | B . |",
         [("p", "Words."), ("pre", "  12 | . . |\n   1 | B . |")]),
        ("Bases  Powers\n3      4", [("pre", "Bases  Powers\n3      4")]),
        ("\n\n", []),
    ],
)
def test_blocks_keep_boards_and_tables_preformatted(text, expected) -> None:
    assert blocks(text) == expected


def test_blocks_is_linear_on_hostile_text() -> None:
    text = ("a " * 20000 + "\n") * 5 + " " * 50000 + "x"
    assert len(blocks(text)) == 1
    assert re.search("x$", blocks(text)[0][1])


def test_the_clock_follows_the_board_in_reports_and_refusals(home: Path) -> None:
    table = clocked_table(home, FakeNow())
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("Bh11")).outcome == "refused"  # the square is taken
    mails = {m["X-Pbem-Kind"]: m for m in outbox_mails(home)
             if m["To"].startswith("black@") and m["X-Pbem-Kind"] in ("report", "refusal")}
    assert set(mails) == {"report", "refusal"}
    for kind, mail in mails.items():
        text = mail.get_body(("plain",)).get_content()
        html = mail.get_body(("html",)).get_content()
        line = next(ln for ln in text.splitlines() if ln.startswith("Black to move by "))
        assert text.index(line) > text.rindex("+---"), kind
        assert html.index(line) > html.index('class="board'), kind
