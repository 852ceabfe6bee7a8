"""The clock wired into the referee: deadlines in the mails, reminders and forfeits by
``tick``, claims by mail, races between late turns and the clock, all with a hand-moved
"now"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.referee.clocked import START, FakeNow, clocked_table, game_row, kinds, tick
from tests.referee.conftest import text_of

DEADLINE = START + timedelta(days=3)  # days 3: Fri 2026-12-04 10:00 UTC


@pytest.fixture
def now() -> FakeNow:
    return FakeNow()


def test_the_invitation_and_every_report_show_the_clock(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    invitation = text_of(table.white.last)
    assert "Time control: 3 days a turn" in invitation
    assert "White to move by Fri 2026-12-04 10:00 UTC (3 days left)" in invitation
    now.advance(hours=5)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    report = text_of(table.black.last)
    assert table.black.last["X-Pbem-Kind"] == "report"
    assert "Black to move by Fri 2026-12-04 15:00 UTC (3 days left)" in report
    html = table.black.last.get_body(("html",)).get_content()
    assert "Black to move by Fri 2026-12-04 15:00 UTC" in html


def test_a_game_without_a_clock_has_no_deadline_and_tick_leaves_it(home: Path,
                                                                     now: FakeNow) -> None:
    table = clocked_table(home, now, clock=None)
    assert "Time control: none" in text_of(table.white.last)
    now.advance(days=400)
    assert tick(table).games == 0
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"


def test_reminders_come_once_each_at_their_times(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    before = len(kinds(table))
    now.set(DEADLINE - timedelta(hours=25))
    assert tick(table).reminders == 0
    now.set(DEADLINE - timedelta(hours=24))
    assert tick(table).reminders == 1
    assert tick(table).reminders == 0  # tick twice: nothing twice
    assert table.white.last["X-Pbem-Kind"] == "reminder"
    assert "due by Fri 2026-12-04 10:00 UTC" in text_of(table.white.last)
    now.set(datetime(2026, 12, 4, 0, 0, tzinfo=UTC))  # on the day
    assert tick(table).reminders == 1
    assert "Last reminder" in text_of(table.white.last)
    assert tick(table).reminders == 0
    new = kinds(table)[before:]
    assert new == [("reminder", "white@players.test")] * 2  # never to Black


def test_forfeit_mode_ends_the_game_once_and_refuses_the_late_turn(home: Path,
                                                                  now: FakeNow) -> None:
    table = clocked_table(home, now, clock="days 3, forfeit")
    now.set(DEADLINE)  # exactly at the deadline: still in time
    assert tick(table).forfeits == 0
    now.set(DEADLINE + timedelta(seconds=1))
    # late, and the tick has not run yet: refused all the same
    handled = table.send(table.white.reply("Bh11"))
    assert handled.outcome == "refused" and "after the deadline" in (handled.reason or "")
    assert tick(table).forfeits == 1
    assert tick(table).forfeits == 0
    row = game_row(table)
    assert (row["status"], row["result"], row["end_reason"]) == ("over", "0-1", "time")
    assert "White lost on time" in row["record"]
    results = [k for k in kinds(table) if k[0] == "result"]
    assert len(results) == 2
    now.advance(hours=1)
    handled = table.send(table.white.reply("Bh11", to=table.white.inbox[0]))
    assert handled.outcome == "refused" and "White lost on time" in (handled.reason or "")
    assert table.turns() == ["end"]  # only the loss on time


def test_a_turn_that_arrived_in_time_voids_a_forfeit_processed_first(home: Path,
                                                                      now: FakeNow) -> None:
    table = clocked_table(home, now, clock="days 3, forfeit")
    raw = table.white.reply("Bh11")
    now.set(DEADLINE + timedelta(hours=1))
    assert tick(table).forfeits == 1  # cron ran while the mail waited
    now.set(DEADLINE - timedelta(minutes=5))  # the mail's arrival
    handled = table.send(raw)
    assert handled.outcome == "accepted", handled.reason
    row = game_row(table)
    assert (row["status"], row["result"], row["end_reason"]) == ("playing", None, None)
    assert table.turns() == ["1w"]
    assert "lost on time" not in row["record"]
    assert "loss on time (forfeit)" in text_of(table.black.last)
    assert "is withdrawn" in text_of(table.white.last)


def test_turn_first_then_tick_gives_the_same_game(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now, clock="days 3, forfeit")
    now.set(DEADLINE - timedelta(minutes=5))
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    now.set(DEADLINE + timedelta(hours=1))
    assert tick(table).forfeits == 0
    assert game_row(table)["status"] == "playing" and table.turns() == ["1w"]


def test_claim_mode_opens_a_claim_once_and_the_claim_wins(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    now.advance(hours=1)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    black_deadline = START + timedelta(hours=1, days=3)
    # too early: refused with the deadline
    handled = table.send(table.white.reply("claim"))
    assert handled.outcome == "refused" and "possible only after" in (handled.reason or "")
    now.set(black_deadline + timedelta(minutes=1))
    assert tick(table).claims_opened == 1
    assert tick(table).claims_opened == 0
    assert "may claim the win by replying 'claim'" in " ".join(text_of(table.white.last).split())
    # Black's own claim makes no sense
    assert table.send(table.black.reply("claim")).outcome == "refused"
    handled = table.send(table.white.reply("claim"))
    assert handled.outcome == "accepted", handled.reason
    row = game_row(table)
    assert (row["status"], row["result"], row["end_reason"]) == ("over", "1-0", "time")
    assert "Black lost on time" in text_of(table.black.last)


def test_a_late_turn_before_the_claim_counts(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    now.set(DEADLINE + timedelta(hours=2))
    tick(table)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    handled = table.send(table.black.reply("claim"))
    assert handled.outcome == "refused"  # White's turn came first: nothing to claim
    assert game_row(table)["status"] == "playing"


def test_a_late_turn_after_the_claim_is_refused(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    now.set(DEADLINE + timedelta(hours=2))
    late = table.white.reply("Bh11")
    assert table.send(table.black.reply("claim")).outcome == "accepted"
    now.advance(minutes=1)
    handled = table.send(late)
    assert handled.outcome == "refused" and "game is over" in (handled.reason or "")
    assert table.turns() == ["end"] and game_row(table)["result"] == "0-1"


def test_a_turn_in_time_voids_a_claim_processed_first(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    in_time = table.white.reply("Bh11")
    now.set(DEADLINE + timedelta(hours=2))
    assert table.send(table.black.reply("claim")).outcome == "accepted"
    now.set(DEADLINE - timedelta(seconds=30))  # when White's mail arrived
    assert table.send(in_time).outcome == "accepted"
    row = game_row(table)
    assert row["status"] == "playing" and table.turns() == ["1w"]


def test_bank_mode_reports_reserves(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now, clock="bank 10+2 cap 14")
    now.advance(days=1)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    report = " ".join(text_of(table.black.last).split())  # lines folded at 78
    assert "reserves: White 11 days, Black 10 days" in report
