"""Issue 23, item 8: every mail names a turn in the one form a player writes to mark an
order for it, ``#11b``: subjects and bodies (text and HTML) of every kind of mail in every
game, conditional-turn notices, takebacks, refusals, the ``games`` answer; the same form
is accepted (``#8b history``), and a stale order's refusal points at the ``#`` to write."""

from __future__ import annotations

import html
import re
from email.message import Message
from pathlib import Path

from tests.referee.conftest import run_pbem, text_of
from tests.referee.every_mail import every_mail
from tests.referee.helpers import Table
from tests.referee.test_conditions_by_mail import TURNS, table  # noqa: F401

#: a turn named without its '#': '11b', '8w' standing alone ('#11b' is the form; squares
#: such as 'h2' and the moves list '1.Bh11' are not turn names)
BARE = re.compile(r"(?<![#\w.])\d{1,3}[wb]\b")


def _read(msg: Message) -> dict[str, str]:
    """What a player reads of a mail: its subject, its text and its HTML as shown (tags
    dropped, entities decoded)."""
    read = {"subject": str(msg["Subject"]), "text": text_of(msg)}
    part = msg.get_body(("html",))
    if part is not None:
        read["html"] = html.unescape(re.sub(r"<[^>]{0,2000}>", " ", part.get_content()))
    return read


def _bare_names(mails: list[Message]) -> list[str]:
    found = []
    for msg in mails:
        for where, words in _read(msg).items():
            for line in words.splitlines():
                if BARE.search(line):
                    found.append(f"{msg['X-Pbem-Kind']} {where}: {line.strip()}")
    return found


def test_every_kind_of_mail_of_every_game_names_turns_as_players_write_them(
        tmp_path: Path) -> None:
    sent = every_mail(tmp_path)
    mails = [s.message for s in sent]
    assert {"report", "refusal", "result", "digest", "reminder", "notice", "reply"} <= {
        m["X-Pbem-Kind"] for m in mails}
    assert _bare_names(mails) == []
    reports = [m for m in mails if m["X-Pbem-Kind"] == "report"]
    said = " ".join(" ".join(_read(m).values()) for m in reports)
    for form in ("Turn #1w,", "Next: Black to place a Base (#1b).", "#1w played",
                 "the last turn, #1w:", "Next: Black to move (#1b)."):
        assert form in said, form
    reminder = next(m for m in mails if m["X-Pbem-Kind"] == "reminder")
    assert "(#2b) is due by" in text_of(reminder)
    # the deadline's calendar event, attached to a report, names the turn so too
    events = [re.sub(r"\r?\n[ \t]", "", part.get_content()) for m in reports  # unfolded
              for part in m.walk() if part.get_content_type() == "text/calendar"]
    assert events and all("your move (#" in e for e in events)
    assert not any(BARE.search(line) for e in events for line in e.splitlines()
                   if line.startswith(("SUMMARY", "DESCRIPTION")))
    # the digest of one report counts in the singular (issue 23.10: counts agree)
    digest = next(m for m in mails if m["X-Pbem-Kind"] == "digest")
    assert str(digest["Subject"]).endswith("(1 report)")
    assert all("1 report since" in said for said in list(_read(digest).values())[1:])


def test_conditional_notices_takebacks_and_refusals_name_turns_with_the_hash(
        table: Table) -> None:  # noqa: F811
    before = {id(m) for m in table.white.inbox + table.black.inbox}
    # White's 7w with a set whose line 2 answers 7b with 8w at once
    white_mail = (f"{TURNS['7w']}\nif Pc9c12 then Pi6j6(Bk5)\n"
                  f"{TURNS['7b'].join(['if ', ' then '])}{TURNS['8w']}\n")
    assert table.send(table.white.reply(white_mail)).outcome == "accepted"
    assert table.send(table.black.reply(TURNS["7b"])).outcome == "accepted"
    assert table.turns()[-1] == "8w"
    assert "answered at once with #8w" in " ".join(text_of(table.black.last).split())
    # the form the reports print is accepted: '#8b history' is answered
    assert table.send(table.black.reply("#8b history")).outcome == "info"
    # an order for another turn, numbered as the record numbers it, is refused; the
    # refusal says which '#' to write
    assert table.send(table.black.reply(f"7...{TURNS['8b']}")).outcome == "refused"
    stale = " ".join(text_of(table.black.last).split())
    assert "the game is at #8b" in stale and "write #8b" in stale, stale
    # not his turn: White is told whose turn it is, by its '#'
    assert table.send(table.white.reply(TURNS["9w"])).outcome == "refused"
    assert "Black is to move (#8b)" in " ".join(text_of(table.white.last).split())
    assert table.send(table.white.reply("games")).outcome == "info"
    assert "move (#8b)" in text_of(table.white.last)
    # a takeback accepted: the turn taken back and the turn to play again
    assert table.send(table.black.reply(TURNS["8b"])).outcome == "accepted"
    assert table.send(table.black.reply("takeback")).outcome == "accepted"
    assert table.send(table.white.reply("accept takeback")).outcome == "accepted"
    back = " ".join(text_of(table.black.last).split())
    assert "turn #8b is taken back" in back and "to move again (#8b)" in back, back
    mails = [m for m in table.white.inbox + table.black.inbox if id(m) not in before]
    assert _bare_names(mails) == []
    listed = run_pbem(table.home, "games").stdout.decode()
    assert "Black to move (#8b); last #8w;" in listed, listed
