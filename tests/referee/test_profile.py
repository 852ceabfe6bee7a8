"""'name Alice Archer' and 'timezone Europe/Paris' by mail: the name in reports and on the
site (never an address), the deadlines in the player's own time zone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.referee.clock import format_instant
from pbem.referee.commands.profile_checks import check_name, find_zone
from pbem.referee.intake.refusal import Refusal
from tests.referee.clocked import FakeNow, clocked_table, tick
from tests.referee.conftest import text_of


def test_deadlines_in_the_players_zone_in_reports_and_reminders(home: Path) -> None:
    now = FakeNow()  # Tue 2026-12-01 10:00 UTC; days 3: the deadline is Fri 10:00 UTC
    table = clocked_table(home, now)
    handled = table.send(table.white.reply("timezone europe/paris"))
    assert handled.outcome == "accepted", handled.reason
    assert "Europe/Paris time" in text_of(table.white.last)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    mine = text_of(table.white.last)
    theirs = text_of(table.black.last)
    assert "Black to move by Fri 2026-12-04 11:00 CET (Europe/Paris)" in mine
    assert "Black to move by Fri 2026-12-04 10:00 UTC" in theirs
    html = table.white.last.get_body(("html",)).get_content()
    assert "11:00 CET (Europe/Paris)" in html
    assert table.send(table.black.reply("Bh2")).outcome == "accepted"
    now.set(datetime(2026, 12, 3, 11, 0, tzinfo=UTC))  # a day before White's deadline
    tick(table)
    reminder = table.white.last
    assert reminder["X-Pbem-Kind"] == "reminder"
    assert "Fri 2026-12-04 11:00 CET (Europe/Paris)" in reminder["Subject"]
    assert "due by Fri 2026-12-04 11:00 CET (Europe/Paris)" in " ".join(text_of(reminder).split())
    # summer time is the zone's business: July in Paris is UTC+2
    july = datetime(2027, 7, 1, 10, 0, tzinfo=UTC)
    assert format_instant(july, table_zone("Europe/Paris")) == \
        "Thu 2027-07-01 12:00 CEST (Europe/Paris)"
    # back to UTC
    assert table.send(table.white.reply("timezone UTC")).outcome == "accepted"
    assert table.send(table.white.reply("board")).outcome == "info"
    assert "UTC" in text_of(table.white.last) and "CET" not in text_of(table.white.last)


def table_zone(key: str):
    import zoneinfo

    return zoneinfo.ZoneInfo(key)


@pytest.mark.parametrize("asked", ["Mars/Olympus", "../../etc/passwd", "Europe/"])
def test_an_unknown_zone_is_refused(home: Path, asked: str) -> None:
    table = clocked_table(home, FakeNow())
    handled = table.send(table.white.reply(f"timezone {asked}"))
    assert handled.outcome == "refused"  # as a bad zone, or as no command at all
    if "." not in asked:
        assert "not a time zone the referee knows" in handled.reason
    assert find_zone(asked) is None


def test_a_name_by_mail_is_shown_in_reports_and_new_games(home: Path) -> None:
    table = clocked_table(home, FakeNow())
    handled = table.send(table.black.reply("name  Bob   O'Brien-Smith"))
    assert handled.outcome == "accepted", handled.reason
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert "Black:   Bob O'Brien-Smith" in text_of(table.white.last)
    game = table.referee.new_game("carol@players.test", "black@players.test", _featured())
    name = table.conn.execute(
        "SELECT name FROM players WHERE game_id = ? AND side = 'b'", (game,)).fetchone()[0]
    assert name == "Bob O'Brien-Smith"
    refused = table.send(table.black.reply("name bob@players.test"))
    assert refused.outcome == "refused" and "never publishes an address" in refused.reason


def _featured():
    from pbem.records.rulesets import load_ruleset

    return load_ruleset("featured")


@pytest.mark.parametrize(
    ("text", "shown"),
    [("Alice Archer", "Alice Archer"), ("  Zoë   Ødegård ", "Zoë Ødegård"),
     ("J. R. R.", "J. R. R.")],
)
def test_good_names(text: str, shown: str) -> None:
    assert check_name(text) == shown


@pytest.mark.parametrize(
    ("text", "why"),
    [("", "write the name"), ("a" * 41, "at most 40"), ("x@y.z", "address"),
     ("<script>", "letters, digits"), ("Eve\u202e", "letters, digits")],
)
def test_bad_names(text: str, why: str) -> None:
    with pytest.raises(Refusal, match=why):
        check_name(text)
