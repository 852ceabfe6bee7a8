"""The referee's clock, rule by rule, with ``now`` in the test's hands (no sleeping)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.referee import clock
from pbem.referee.clock import (
    ClaimAccepted,
    ClaimOpened,
    ClockError,
    ClockSettings,
    ClockState,
    Forfeit,
    Interval,
    ResultWithdrawn,
    SendReminder,
    deadline,
    describe_clock,
    is_late,
    tick,
    turn_played,
)
from pbem.rules.pieces import Side

W, B = Side.WHITE, Side.BLACK
#: a Friday evening
T0 = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def at(days: float = 0, hours: float = 0, minutes: float = 0) -> datetime:
    return T0 + timedelta(days=days, hours=hours, minutes=minutes)


def utc(y: int, m: int, d: int, h: int = 0, mi: int = 0) -> datetime:
    return datetime(y, m, d, h, mi, tzinfo=UTC)


def vacation(first: date, last: date) -> Interval:
    return Interval(
        datetime(first.year, first.month, first.day, tzinfo=UTC),
        datetime(last.year, last.month, last.day, tzinfo=UTC) + DAY,
    )


DAYS3 = ClockSettings.per_turn(3)
FORFEIT = ClockSettings.per_turn(3, after="forfeit")
BANK = ClockSettings.bank(10, 2, cap=14)


def ticks(state: ClockState, s: ClockSettings, *times: datetime
          ) -> tuple[ClockState, list[clock.Effect]]:
    effects: list[clock.Effect] = []
    for now in times:
        state, new = tick(state, s, now)
        effects += new
    return state, effects


# --- settings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("days 3", ClockSettings(mode="per_turn", days=3)),
        ("Days 5, FORFEIT", ClockSettings(days=5, after="forfeit")),
        ("bank 10+2 cap 14", ClockSettings.bank(10, 2, 14)),
        ("bank 10 + 2", ClockSettings.bank(10, 2, 10)),
        ("bank 7+0 cap 7; claim; remind 48/6", ClockSettings.bank(
            7, 0, 7, first_reminder_hours=48, day_reminder_hours=6)),
        ("remind off days 2", ClockSettings(days=2, first_reminder_hours=0)),
        ("days 2 remind 12/off", ClockSettings(days=2, first_reminder_hours=12,
                                               day_reminder_hours=0)),
    ],
)
def test_settings_text_forms(text: str, expected: ClockSettings) -> None:
    assert clock.parse_settings(text) == expected


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("dayz 3", "clock.syntax", "'dayz' is not a clock option"),
        ("days", "clock.syntax", "days is ''"),
        ("days three", "clock.syntax", "it must be a whole number"),
        ("bank 10", "clock.syntax", "R+I"),
        ("days 3 bank 1+1", "clock.syntax", "given twice"),
        ("claim", "clock.syntax", "no time control"),
        ("", "clock.syntax", "no time control"),
        ("days 0", "clock.setting", "'days' is 0; it must be a whole number of days from 1 to 60"),
        ("days 61", "clock.setting", "from 1 to 60"),
        ("bank 10+2 cap 5", "clock.setting", "less than the starting reserve 10"),
        ("bank 10+61", "clock.setting", "'increment' is 61"),
        ("days 3 remind 25/25", "clock.setting", "'day_reminder_hours' is 25"),
    ],
)
def test_settings_errors_name_the_option_value_and_what_is_allowed(
    text: str, code: str, words: str
) -> None:
    with pytest.raises(ClockError) as info:
        clock.parse_settings(text)
    assert info.value.code == code
    assert words in info.value.message


def test_settings_refuse_options_of_the_other_mode_and_unknown_values() -> None:
    with pytest.raises(ClockError, match="belongs to the other mode"):
        ClockSettings(mode="per_turn", days=3, reserve=4)
    with pytest.raises(ClockError, match="belongs to the other mode"):
        ClockSettings(mode="bank", days=3, reserve=4, cap=4)
    with pytest.raises(ClockError, match="'per_turn' or 'bank'"):
        ClockSettings(mode="blitz")  # type: ignore[arg-type]
    with pytest.raises(ClockError, match="'forfeit'"):
        ClockSettings(after="resign")  # type: ignore[arg-type]
    with pytest.raises(ClockError, match="unknown option"):
        ClockSettings.from_dict({"days": 3, "colour": "red"})


settings_strategy = st.one_of(
    st.builds(ClockSettings.per_turn, st.integers(1, 60)),
    st.integers(1, 365).flatmap(lambda r: st.builds(
        ClockSettings.bank, st.just(r), st.integers(0, 60), st.integers(r, 365))),
).flatmap(lambda s: st.builds(
    lambda f, d, a: ClockSettings(**{**s.to_dict(), "first_reminder_hours": f,
                                     "day_reminder_hours": d, "after": a}),
    st.integers(0, 240), st.integers(0, 24), st.sampled_from(["forfeit", "claim"]),
))


@given(settings_strategy)
def test_settings_round_trip_through_text_and_dict(s: ClockSettings) -> None:
    assert clock.parse_settings(clock.format_settings(s)) == s
    assert ClockSettings.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_settings_in_words() -> None:
    assert clock.describe_settings(DAYS3) == (
        "Time control: 3 days a turn; after a missed deadline the opponent may claim the win "
        "by mail ('claim')."
    )
    assert clock.describe_settings(ClockSettings.bank(10, 1, 14, after="forfeit")) == (
        "Time control: a time bank of 10 days, plus 1 day a turn, up to 14 days; a side "
        "that misses its deadline loses."
    )


# --- per-turn deadlines ---------------------------------------------------------------------


def test_per_turn_deadline_is_days_after_the_turn_started() -> None:
    state = clock.start(DAYS3, T0, W)
    assert deadline(state, DAYS3) == at(3)
    state, effects = turn_played(state, DAYS3, W, at(1, 5))
    assert effects == []
    assert state.to_move is B
    assert deadline(state, DAYS3) == at(4, 5)


def test_a_turn_at_the_deadline_is_in_time_a_second_later_is_late() -> None:
    state = clock.start(DAYS3, T0, W)
    assert not is_late(state, DAYS3, at(3))
    assert is_late(state, DAYS3, at(3) + timedelta(seconds=1))


def test_the_next_turn_may_start_when_the_report_goes_out() -> None:
    state = clock.start(DAYS3, T0, W)
    state, _ = turn_played(state, DAYS3, W, at(1), next_start=at(1, 2))
    assert deadline(state, DAYS3) == at(4, 2)
    with pytest.raises(ClockError) as info:
        turn_played(state, DAYS3, B, at(1), next_start=at(0, 23))
    assert info.value.code == "clock.time_order"


def test_a_turn_out_of_order_is_refused() -> None:
    state = clock.start(DAYS3, T0, W)
    with pytest.raises(ClockError, match="it is White's turn, not Black's"):
        turn_played(state, DAYS3, B, at(1))
    with pytest.raises(ClockError) as info:
        turn_played(state, DAYS3, W, at(-1))
    assert info.value.code == "clock.time_order"


def test_naive_times_are_refused_in_plain_words() -> None:
    with pytest.raises(ClockError, match="has no time zone") as info:
        clock.start(DAYS3, datetime(2026, 11, 27, 18, 0))
    assert info.value.code == "clock.naive_time"


# --- time bank ------------------------------------------------------------------------------


def test_bank_takes_the_time_used_adds_the_increment() -> None:
    state = clock.start(BANK, T0, W)
    assert state.reserves == (10 * DAY, 10 * DAY)
    assert deadline(state, BANK) == at(10)
    state, _ = turn_played(state, BANK, W, at(2, 3))
    assert state.reserves == (10 * DAY - (2 * DAY + 3 * HOUR) + 2 * DAY, 10 * DAY)
    assert deadline(state, BANK) == at(12, 3)


def test_bank_is_capped() -> None:
    state = clock.start(BANK, T0, W)
    now = T0
    for turn in range(6):  # fast turns: +2 days each, but never beyond 14
        now += HOUR
        state, _ = turn_played(state, BANK, state.to_move, now)
        if turn == 3:
            assert state.reserves == (14 * DAY - 2 * HOUR, 14 * DAY - 2 * HOUR)
    assert state.reserves == (14 * DAY, 14 * DAY)


def test_bank_charges_whole_seconds_rounded_up() -> None:
    state = clock.start(BANK, T0, W)
    state, _ = turn_played(state, BANK, W, T0 + timedelta(seconds=10, microseconds=1))
    assert state.reserves is not None
    assert state.reserves[W] == 12 * DAY - timedelta(seconds=11)


def test_bank_late_turn_in_claim_mode_leaves_only_the_increment() -> None:
    state = clock.start(BANK, T0, W)
    state, _ = turn_played(state, BANK, W, at(11))
    assert state.reserves is not None
    assert state.reserves[W] == 2 * DAY


def test_bank_does_not_charge_vacation_or_pause() -> None:
    s = ClockSettings.bank(10, 0)
    state = clock.start(s, T0, W)
    state = clock.set_vacations(state, B, [vacation(date(2026, 11, 29), date(2026, 11, 30))])
    state = clock.pause(state, at(4))
    state = clock.resume(state, at(5))
    state, _ = turn_played(state, s, W, at(6))
    assert state.reserves is not None
    assert state.reserves[W] == 10 * DAY - (6 * DAY - 2 * DAY - DAY)


def test_report_shows_live_reserves() -> None:
    state = clock.start(BANK, T0, W)
    state, _ = turn_played(state, BANK, W, at(4))  # White 8 days
    lines = describe_clock(state, BANK, at(5, 20), {W: "Ann", B: "Bob"})
    assert lines == [
        "Bob to move by Fri 2026-12-11 18:00 UTC (8 days 4 hours left); "
        "reserves: Ann 8 days, Bob 8 days 4 hours."
    ]


# --- reminders ------------------------------------------------------------------------------


def test_reminders_first_and_on_the_day_each_once() -> None:
    state = clock.start(DAYS3, T0, W)  # deadline Mon 18:00
    first, day = at(2), utc(2026, 11, 30, 6)  # 24 h before; the later of 00:00 and 12 h before
    assert clock.reminder_times(state, DAYS3, at(3)) == {"first": first, "day": day}
    state, effects = ticks(state, DAYS3, at(1), first - timedelta(seconds=1))
    assert effects == []
    state, effects = ticks(state, DAYS3, first, first + HOUR, first + 5 * HOUR)
    assert effects == [SendReminder(W, "first", at(3))]
    state, effects = ticks(state, DAYS3, day, day + HOUR, at(3))
    assert effects == [SendReminder(W, "day", at(3))]


def test_on_the_day_means_from_the_start_of_the_deadlines_utc_day() -> None:
    state = clock.start(DAYS3, utc(2026, 11, 27, 2), W)  # deadline Mon 02:00
    assert clock.reminder_times(state, DAYS3, deadline(state, DAYS3))["day"] == utc(2026, 11, 30)


def test_a_deadline_at_midnight_belongs_to_the_day_before() -> None:
    state = clock.start(DAYS3, utc(2026, 11, 27), W)  # deadline Mon 00:00
    times = clock.reminder_times(state, DAYS3, deadline(state, DAYS3))
    assert times == {"first": utc(2026, 11, 29), "day": utc(2026, 11, 29, 12)}


def test_a_late_first_tick_sends_only_the_most_urgent_reminder() -> None:
    state = clock.start(DAYS3, T0, W)
    state, effects = ticks(state, DAYS3, at(2, 20), at(2, 21), at(3))
    assert effects == [SendReminder(W, "day", at(3))]


def test_no_reminder_if_the_turn_is_played_first() -> None:
    state = clock.start(DAYS3, T0, W)
    state, _ = turn_played(state, DAYS3, W, at(1, 23))
    state, effects = ticks(state, DAYS3, at(2), at(2, 12), at(3), at(3, 12))
    assert effects == []
    state, effects = ticks(state, DAYS3, at(3, 23))  # Black's own first reminder
    assert effects == [SendReminder(B, "first", at(4, 23))]


def test_no_reminder_at_or_before_the_turn_started() -> None:
    one_day = ClockSettings.per_turn(1)
    state = clock.start(one_day, T0, W)
    assert set(clock.reminder_times(state, one_day, at(1))) == {"day"}
    quiet = ClockSettings.per_turn(3, first_reminder_hours=0, day_reminder_hours=0)
    state = clock.start(quiet, T0, W)
    assert ticks(state, quiet, at(1), at(2), at(3))[1] == []


def test_the_first_reminder_is_dropped_if_it_would_not_come_before_the_day_one() -> None:
    s = ClockSettings.per_turn(3, first_reminder_hours=6, day_reminder_hours=12)
    state = clock.start(s, T0, W)
    assert set(clock.reminder_times(state, s, at(3))) == {"day"}


def test_a_reminder_goes_again_when_the_deadline_moves() -> None:
    state = clock.start(DAYS3, T0, W)
    state, effects = ticks(state, DAYS3, at(2, 1))
    assert effects == [SendReminder(W, "first", at(3))]
    state = clock.set_vacations(state, B, [vacation(date(2026, 11, 30), date(2026, 12, 1))])
    assert deadline(state, DAYS3) == at(5)
    state, effects = ticks(state, DAYS3, at(2, 2), at(4, 1), at(4, 2))
    assert effects == [SendReminder(W, "first", at(5))]


# --- forfeit --------------------------------------------------------------------------------


def test_forfeit_at_the_first_tick_after_the_deadline_once() -> None:
    state = clock.start(FORFEIT, T0, W)
    state, effects = ticks(state, FORFEIT, at(3))
    assert not state.finished
    assert effects == [SendReminder(W, "day", at(3))]
    state, effects = ticks(state, FORFEIT, at(3, 1), at(3, 2), at(9))
    assert effects == [Forfeit(W, at(3))]
    assert state.result == clock.Finished(W, "forfeit", at(3))
    assert describe_clock(state, FORFEIT, at(9)) == [
        "White lost on time: the deadline was Mon 2026-11-30 18:00 UTC."
    ]


def test_forfeit_mode_refuses_a_late_turn_whether_or_not_tick_ran() -> None:
    fresh = clock.start(FORFEIT, T0, W)
    ticked, _ = tick(fresh, FORFEIT, at(3, 1))
    for state in (fresh, ticked):
        with pytest.raises(ClockError, match="after the deadline") as info:
            turn_played(state, FORFEIT, W, at(3, 0, 30))
        assert info.value.code == "clock.late"


def test_forfeit_mode_an_in_time_turn_wins_over_the_tick_in_either_order() -> None:
    """The turn arrived 17:59, the tick ran 18:05, the mail was processed after it."""
    fresh = clock.start(FORFEIT, T0, W)
    arrived = at(3) - timedelta(minutes=1)
    mail_first, _ = turn_played(fresh, FORFEIT, W, arrived)
    mail_first, effects = tick(mail_first, FORFEIT, at(3, 0, 5))
    assert effects == []
    ticked, effects = tick(fresh, FORFEIT, at(3, 0, 5))
    assert effects == [Forfeit(W, at(3))]
    tick_first, effects = turn_played(ticked, FORFEIT, W, arrived)
    assert effects == [ResultWithdrawn(W, "forfeit")]
    assert tick_first == mail_first


def test_a_finished_game_refuses_the_other_side_and_ticks_are_quiet() -> None:
    state, _ = tick(clock.start(FORFEIT, T0, W), FORFEIT, at(4))
    assert tick(state, FORFEIT, at(20)) == (state, [])
    with pytest.raises(ClockError) as info:
        clock.pause(state, at(5))
    assert info.value.code == "clock.finished"


# --- claim ----------------------------------------------------------------------------------


def test_claim_mode_tick_opens_the_claim_once() -> None:
    state = clock.start(DAYS3, T0, W)
    state, _ = ticks(state, DAYS3, at(3))
    state, effects = ticks(state, DAYS3, at(3, 1), at(3, 2), at(30))
    assert effects == [ClaimOpened(B, at(3))]
    assert not state.finished
    assert describe_clock(state, DAYS3, at(3, 2)) == [
        "White's deadline Mon 2026-11-30 18:00 UTC has passed; Black may claim the win by "
        "mail ('claim')."
    ]


def test_claim_needs_the_opponents_deadline_passed_and_claim_mode() -> None:
    state = clock.start(DAYS3, T0, W)
    with pytest.raises(ClockError, match="possible only after it") as info:
        clock.claim(state, DAYS3, B, at(3))
    assert info.value.code == "clock.claim_early"
    with pytest.raises(ClockError) as info:
        clock.claim(state, DAYS3, W, at(4))
    assert info.value.code == "clock.claim_own_turn"
    with pytest.raises(ClockError) as info:
        clock.claim(clock.start(FORFEIT, T0, W), FORFEIT, B, at(4))
    assert info.value.code == "clock.claim_mode"


def test_a_claim_counts_without_a_tick() -> None:
    state = clock.start(DAYS3, T0, W)
    state, effects = clock.claim(state, DAYS3, B, at(3, 1))
    assert effects == [ClaimAccepted(B, at(3))]
    assert state.result == clock.Finished(W, "claim", at(3))
    assert tick(state, DAYS3, at(4)) == (state, [])
    assert describe_clock(state, DAYS3, at(4)) == [
        "Black claimed the win on time: White's deadline was Mon 2026-11-30 18:00 UTC."
    ]


def test_claim_then_late_turn_the_turn_is_refused() -> None:
    state, _ = clock.claim(clock.start(DAYS3, T0, W), DAYS3, B, at(3, 1))
    with pytest.raises(ClockError, match="the game is over") as info:
        turn_played(state, DAYS3, W, at(3, 2))
    assert info.value.code == "clock.finished"
    with pytest.raises(ClockError) as info:
        clock.claim(state, DAYS3, B, at(3, 3))
    assert info.value.code == "clock.finished"


def test_late_turn_then_claim_the_turn_stands_and_the_game_goes_on() -> None:
    state, _ = tick(clock.start(DAYS3, T0, W), DAYS3, at(3, 1))
    state, effects = turn_played(state, DAYS3, W, at(3, 2))
    assert effects == []
    with pytest.raises(ClockError) as info:
        clock.claim(state, DAYS3, B, at(3, 3))
    assert info.value.code == "clock.claim_own_turn"
    assert deadline(state, DAYS3) == at(6, 2)
    assert state.notice is None


def test_a_turn_that_arrived_in_time_voids_a_claim_processed_before_it() -> None:
    state, _ = clock.claim(clock.start(DAYS3, T0, W), DAYS3, B, at(3, 1))
    state, effects = turn_played(state, DAYS3, W, at(3))
    assert effects == [ResultWithdrawn(W, "claim")]
    assert not state.finished
    assert state.to_move is B


# --- pause and resume -----------------------------------------------------------------------


def test_pause_means_no_deadline_resume_pushes_it_back() -> None:
    state = clock.pause(clock.start(DAYS3, T0, W), at(1))
    assert state.paused
    assert deadline(state, DAYS3) is None
    assert ticks(state, DAYS3, at(2), at(5), at(50))[1] == []
    assert describe_clock(state, DAYS3, at(2)) == [
        "White to move; no deadline while the game is paused.",
        "The game is paused by the referee; the clock is stopped.",
    ]
    with pytest.raises(ClockError) as info:
        clock.claim(state, DAYS3, B, at(50))
    assert info.value.code == "clock.claim_early"
    state = clock.resume(state, at(3))
    assert deadline(state, DAYS3) == at(5)
    assert clock.time_left(state, DAYS3, at(3)) == 2 * DAY


def test_pause_and_resume_refuse_in_plain_words() -> None:
    state = clock.start(DAYS3, T0, W)
    with pytest.raises(ClockError, match="not paused"):
        clock.resume(state, at(1))
    paused = clock.pause(state, at(1))
    with pytest.raises(ClockError, match="already paused"):
        clock.pause(paused, at(2))
    with pytest.raises(ClockError, match="before it was paused"):
        clock.resume(paused, at(0, 1))


def test_a_pause_does_not_save_a_side_already_late() -> None:
    state = clock.pause(clock.start(DAYS3, T0, W), at(3, 1))
    assert deadline(state, DAYS3) == at(3)
    assert is_late(state, DAYS3, at(3, 2))
    state, _ = clock.claim(state, DAYS3, B, at(3, 2))
    assert state.finished


# --- set-deadline ---------------------------------------------------------------------------


def test_set_deadline_overrides_until_the_turn_is_played() -> None:
    state = clock.start(DAYS3, T0, W)
    state = clock.set_deadline(state, DAYS3, at(7), at(1))
    assert deadline(state, DAYS3) == at(7)
    assert not is_late(state, DAYS3, at(6))
    assert "The referee has set this turn's deadline." in describe_clock(state, DAYS3, at(1))
    state, _ = turn_played(state, DAYS3, W, at(6))
    assert state.override is None
    assert deadline(state, DAYS3) == at(9)


def test_set_deadline_can_shorten_and_is_pushed_by_later_stops() -> None:
    state = clock.set_deadline(clock.start(DAYS3, T0, W), DAYS3, at(1, 12), at(1))
    assert deadline(state, DAYS3) == at(1, 12)
    state = clock.resume(clock.pause(state, at(1, 6)), at(1, 8))
    assert deadline(state, DAYS3) == at(1, 14)


def test_set_deadline_refusals() -> None:
    state = clock.start(DAYS3, T0, W)
    with pytest.raises(ClockError) as info:
        clock.set_deadline(state, DAYS3, at(1), at(1))
    assert info.value.code == "clock.deadline_past"
    with pytest.raises(ClockError) as info:
        clock.set_deadline(clock.pause(state, at(1)), DAYS3, at(5), at(2))
    assert info.value.code == "clock.paused"
    away = clock.set_vacations(state, B, [vacation(date(2026, 12, 1), date(2026, 12, 3))])
    with pytest.raises(ClockError, match="falls while the clock is stopped") as info:
        clock.set_deadline(away, DAYS3, utc(2026, 12, 2, 12), at(1))
    assert info.value.code == "clock.deadline_stopped"


def test_set_deadline_text() -> None:
    assert clock.parse_when("2026-12-30") == utc(2026, 12, 30, 23, 59)
    assert clock.parse_when("2026-12-30 18:00") == utc(2026, 12, 30, 18)
    assert clock.parse_when("2026-12-30T07:05 UTC") == utc(2026, 12, 30, 7, 5)
    for bad in ("2026-02-30", "tomorrow", "2026-12-30 25:00"):
        with pytest.raises(ClockError, match="cannot read the deadline") as info:
            clock.parse_when(bad)
        assert info.value.code == "clock.syntax"


# --- vacations in the clock -----------------------------------------------------------------


def test_a_vacation_in_the_middle_of_a_turn_pushes_the_deadline_by_the_overlap() -> None:
    state = clock.start(DAYS3, T0, W)  # deadline Mon 30 Nov 18:00
    state = clock.set_vacations(state, W, [vacation(date(2026, 11, 29), date(2026, 11, 29))])
    assert deadline(state, DAYS3) == at(4)


def test_a_vacation_over_the_deadline() -> None:
    state = clock.start(DAYS3, T0, W)
    state = clock.set_vacations(state, B, [vacation(date(2026, 11, 30), date(2026, 12, 1))])
    # 2 days 6 hours ran before Monday; the remaining 18 hours after Tuesday
    assert deadline(state, DAYS3) == utc(2026, 12, 2, 18)
    assert not is_late(state, DAYS3, utc(2026, 12, 1, 23))
    assert describe_clock(state, DAYS3, utc(2026, 12, 1, 12))[1] == (
        "Black is on vacation until 2026-12-01; the clock is stopped."
    )


def test_two_overlapping_vacations_of_both_players_count_once() -> None:
    state = clock.start(DAYS3, T0, W)
    state = clock.set_vacations(state, W, [vacation(date(2026, 11, 29), date(2026, 12, 1))])
    state = clock.set_vacations(state, B, [vacation(date(2026, 11, 30), date(2026, 12, 2))])
    # stopped from Sunday 00:00 to Thursday 00:00: 4 days
    assert deadline(state, DAYS3) == at(7)
    lines = describe_clock(state, DAYS3, utc(2026, 11, 30, 12))
    assert "White is on vacation until 2026-12-01; the clock is stopped." in lines
    assert "Black is on vacation until 2026-12-02; the clock is stopped." in lines


def test_a_vacation_across_new_year() -> None:
    start = utc(2026, 12, 30, 12)
    state = clock.start(DAYS3, start, B)
    state = clock.set_vacations(state, B, [vacation(date(2026, 12, 31), date(2027, 1, 2))])
    assert deadline(state, DAYS3) == utc(2027, 1, 5, 12)
    assert describe_clock(state, DAYS3, start) == [
        "Black to move by Tue 2027-01-05 12:00 UTC (3 days left).",
        "Black will be on vacation from 2026-12-31 to 2027-01-02; the clock will stop then.",
    ]


def test_a_vacation_after_the_deadline_does_not_help_a_late_side() -> None:
    state = clock.start(DAYS3, T0, W)
    state = clock.set_vacations(state, W, [vacation(date(2026, 12, 5), date(2026, 12, 9))])
    assert deadline(state, DAYS3) == at(3)


def test_old_stops_are_forgotten_when_a_turn_is_played() -> None:
    state = clock.start(DAYS3, T0, W)
    state = clock.set_vacations(state, W, [vacation(date(2026, 11, 28), date(2026, 11, 28))])
    state = clock.resume(clock.pause(state, at(1, 6)), at(1, 7))
    state, _ = turn_played(state, DAYS3, W, at(2))
    assert state.pauses == ()
    assert state.vacations == ((), ())


# --- storage --------------------------------------------------------------------------------


def test_state_round_trips_through_json_with_every_field() -> None:
    state = clock.start(BANK, T0, W)
    state = clock.set_vacations(state, B, [vacation(date(2026, 12, 1), date(2026, 12, 2))])
    state = clock.set_deadline(state, BANK, at(2), at(0, 1))
    state, _ = tick(state, BANK, at(1, 12))
    state = clock.resume(clock.pause(state, at(1, 13)), at(1, 14))
    paused = clock.pause(state, at(1, 15))
    state, _ = clock.claim(state, BANK, B, at(3))
    assert state.result is not None and state.notice is not None and state.override
    for value in (state, paused):
        text = json.dumps(value.to_dict())
        assert ClockState.from_dict(json.loads(text)) == value


@pytest.mark.parametrize(
    "broken",
    [{}, {"to_move": "red", "turn_started": "2026-11-27T18:00:00+00:00"},
     {"to_move": "white", "turn_started": "2026-11-27T18:00:00"},
     {"to_move": "white", "turn_started": "2026-11-27T18:00:00+00:00",
      "notice": {"stage": "soon", "deadline": "2026-11-27T18:00:00+00:00"}}],
)
def test_a_broken_stored_state_is_a_clear_error(broken: dict) -> None:
    with pytest.raises(ClockError, match="stored clock state cannot be read") as info:
        ClockState.from_dict(broken)
    assert info.value.code == "clock.stored"


# --- text -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [(2 * DAY + 4 * HOUR + timedelta(minutes=59), "2 days 4 hours"), (DAY, "1 day"),
     (3 * HOUR + timedelta(minutes=5), "3 hours 5 minutes"), (DAY + timedelta(minutes=1),
                                                               "1 day"),
     (timedelta(seconds=30), "less than a minute"), (timedelta(0), "no time")],
)
def test_durations_in_words(value: timedelta, text: str) -> None:
    assert clock.format_duration(value) == text


def test_report_line_per_turn() -> None:
    state = clock.start(DAYS3, T0, W)
    assert describe_clock(state, DAYS3, at(0, 13, 30), {W: "Ann (White)"}) == [
        "Ann (White) to move by Mon 2026-11-30 18:00 UTC (2 days 10 hours left)."
    ]


# --- properties -----------------------------------------------------------------------------

RANK = {"first": 0, "day": 1, "late": 2}


def _stage(effect: clock.Effect) -> int:
    return RANK[effect.kind] if isinstance(effect, SendReminder) else RANK["late"]


#: short time controls, so that random ticks reach reminders and deadlines
short_settings = st.one_of(
    st.builds(ClockSettings.per_turn, st.integers(1, 5)),
    st.integers(1, 5).flatmap(lambda r: st.builds(
        ClockSettings.bank, st.just(r), st.integers(0, 3), st.integers(r, 8))),
).flatmap(lambda s: st.builds(
    lambda f, d, a: ClockSettings(**{**s.to_dict(), "first_reminder_hours": f,
                                     "day_reminder_hours": d, "after": a}),
    st.integers(0, 72), st.integers(0, 24), st.sampled_from(["forfeit", "claim"]),
))
offsets = st.lists(st.integers(0, 12 * 24 * 60), min_size=1, max_size=12).map(sorted)
stops_strategy = st.lists(
    st.tuples(st.sampled_from([W, B]), st.integers(-2, 10), st.integers(0, 4)), max_size=3
)


def _game(s: ClockSettings, vacations: list[tuple[Side, int, int]]) -> ClockState:
    state = clock.start(s, T0, W)
    for side in Side:
        mine = [vacation((T0 + k * DAY).date(), (T0 + (k + n) * DAY).date())
                for who, k, n in vacations if who is side]
        state = clock.set_vacations(state, side, mine)
    return state


@settings(max_examples=300, deadline=None)
@given(short_settings, stops_strategy, offsets)
def test_tick_is_idempotent(
    s: ClockSettings, vacations: list[tuple[Side, int, int]], minutes: list[int]
) -> None:
    """Any ticks at non-decreasing times, with nothing else happening, send each notice at
    most once, in order (first reminder, day reminder, forfeit or claim opened); end in the
    same state as one tick at the last time; and the notice that one tick sends is the
    last one the sequence sent. Which earlier reminders the sequence sends depends on when
    it ticked (a reminder is skipped if a later one is already due), so that is not
    compared."""
    state = _game(s, vacations)
    times = [T0 + timedelta(minutes=m) for m in minutes]
    many, effects = ticks(state, s, *times)
    many_again, again = ticks(many, s, times[-1], times[-1])
    one, single = tick(state, s, times[-1])
    assert again == [] and many_again == many
    assert many == one
    assert len(effects) == len(set(effects))
    assert [_stage(e) for e in effects] == sorted({_stage(e) for e in effects})
    assert single == effects[-1:]


@given(short_settings, stops_strategy, st.integers(0, 10 * 24 * 60))
def test_deadline_is_exactly_the_allotted_running_time(
    s: ClockSettings, vacations: list[tuple[Side, int, int]], played: int
) -> None:
    state = _game(s, vacations)
    now = T0 + timedelta(minutes=played)
    if not is_late(state, s, now):
        state, _ = turn_played(state, s, W, now)
    due = deadline(state, s)
    assert due is not None
    budget = s.days * DAY if s.mode == "per_turn" else state.reserves[state.to_move]
    assert clock.running_time(state, state.turn_started, due) == budget
    assert clock.time_left(state, s, due) == timedelta(0)
    more = clock.set_vacations(state, B, [*state.vacations[B],
                                          vacation(due.date(), due.date() + DAY)])
    later = deadline(more, s)
    assert later is not None and later >= due
    assert ClockState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
