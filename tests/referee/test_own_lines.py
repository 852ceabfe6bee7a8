"""Issue 23, item 9: positions in refusals and notices count the player's own text, not the
quoted text above or between his lines."""

from __future__ import annotations

from pathlib import Path

from pbem.referee.intake.extract import player_lines
from tests.referee.conftest import text_of
from tests.referee.helpers import new_table

BOTTOM_POSTED = """\
On Mon, 7 Dec 2026, Realm referee wrote:
> Alice,
>
> your move (#1w).
> ...

Good morning!
Bz99
"""


def test_lines_are_numbered_as_the_players_own_text() -> None:
    lines = player_lines(BOTTOM_POSTED)
    assert [(bl.number, bl.text) for bl in lines if bl.text] == [(1, "Good morning!"), (2, "Bz99")]
    between = player_lines("Hello\n> quoted\n> more\nBz99\n")
    assert [(bl.number, bl.text) for bl in between if bl.text] == [(1, "Hello"), (2, "Bz99")]


def test_a_refusal_names_the_line_of_his_own_text(home: Path) -> None:
    table = new_table(home)
    raw = table.white.reply(BOTTOM_POSTED, quote=False)
    assert table.send(raw).outcome == "refused"
    said = " ".join(text_of(table.white.last).split())
    assert "line 2, column 2 of what you wrote" in said, said
    assert "line 8" not in said


def test_the_number_the_reports_print_is_the_number_to_write(home: Path) -> None:
    """Issue 23, item 8: subjects print '#1b', the same form is accepted, and a stale
    order's refusal names the '#' to write."""
    table = new_table(home)
    assert table.send(table.white.reply("#1w Bh11")).outcome == "accepted"
    assert "your move (#1b)" in table.black.last["Subject"]
    assert table.send(table.black.reply("#1b history")).outcome == "info"
    stale = table.send(table.black.reply("#1w Bh2"))
    assert stale.outcome == "refused"
    said = " ".join(text_of(table.black.last).split())
    assert "marked #1w, but the game is at #1b" in said and "write #1b" in said
    assert table.send(table.black.reply("Bh2 #1b")).outcome == "accepted"
