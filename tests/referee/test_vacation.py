"""Vacations: the allowance per calendar year, booking, merging, cancelling, the clocks."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.referee import clock
from pbem.referee.clock import ClockSettings, Interval
from pbem.referee.clock.vacation import (
    Cancelled,
    Granted,
    Vacation,
    VacationBook,
    VacationCancel,
    VacationError,
    VacationRequest,
    VacationRules,
    apply_vacation_command,
    cancel_vacation,
    parse_vacation,
    request_vacation,
)
from pbem.rules.pieces import Side

RULES = VacationRules(days_per_year=14, max_ahead_days=365)
#: 1 December 2026, 10:00 UTC
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
D = date


def book_of(*ranges: tuple[date, date], now: datetime = NOW,
            rules: VacationRules = RULES) -> VacationBook:
    book = VacationBook()
    for first, last in ranges:
        book, _ = request_vacation(book, rules, first, last, now)
    return book


# --- text -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("vacation 2026-12-20 to 2026-12-27", VacationRequest(D(2026, 12, 20), D(2026, 12, 27))),
        ("Vacation 2026-12-20 until 2027-1-3", VacationRequest(D(2026, 12, 20), D(2027, 1, 3))),
        ("vacation 2026-12-20 - 2026-12-21", VacationRequest(D(2026, 12, 20), D(2026, 12, 21))),
        ("VACATION 2026-12-24", VacationRequest(D(2026, 12, 24), D(2026, 12, 24))),
        ("vacation cancel", VacationCancel()),
        ("  vacation   cancel 2026-12-20 ", VacationCancel(D(2026, 12, 20))),
    ],
)
def test_the_mail_forms(text: str, command: VacationRequest | VacationCancel) -> None:
    assert parse_vacation(text) == command


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("vacation 2026-02-30", "2026-02-30 is not a date"),
        ("vacation next week", "cannot read"),
        ("vacation", "cannot read"),
        ("holiday 2026-12-24", "is not a vacation command"),
        ("vacation 2026-12-20 to", "cannot read"),
    ],
)
def test_unreadable_commands_say_what_to_write(text: str, words: str) -> None:
    with pytest.raises(VacationError) as info:
        parse_vacation(text)
    assert info.value.code == "vacation.syntax"
    assert words in info.value.message
    assert "vacation YYYY-MM-DD to YYYY-MM-DD" in info.value.message


# --- booking --------------------------------------------------------------------------------


def test_a_request_is_granted_with_the_days_charged_and_left() -> None:
    book, granted = request_vacation(VacationBook(), RULES, D(2026, 12, 20), D(2026, 12, 27),
                                     NOW)
    assert granted == Granted(Vacation(D(2026, 12, 20), D(2026, 12, 27)), ((2026, 8),),
                              ((2026, 6),))
    assert book.days_in(2026) == 8
    assert book.intervals() == (Interval(datetime(2026, 12, 20, tzinfo=UTC),
                                         datetime(2026, 12, 28, tzinfo=UTC)),)


def test_overlapping_requests_merge_and_count_each_day_once() -> None:
    book = book_of((D(2026, 12, 10), D(2026, 12, 15)))
    book, granted = request_vacation(book, RULES, D(2026, 12, 13), D(2026, 12, 18), NOW)
    assert granted.charged == ((2026, 3),)
    assert book.vacations == (Vacation(D(2026, 12, 10), D(2026, 12, 18)),)
    book, granted = request_vacation(book, RULES, D(2026, 12, 11), D(2026, 12, 12), NOW)
    assert granted.charged == ((2026, 0),)
    assert book.days_in(2026) == 9


def test_adjacent_requests_merge_into_one_vacation() -> None:
    book = book_of((D(2026, 12, 10), D(2026, 12, 11)), (D(2026, 12, 12), D(2026, 12, 12)),
                   (D(2026, 12, 5), D(2026, 12, 9)))
    assert book.vacations == (Vacation(D(2026, 12, 5), D(2026, 12, 12)),)


def test_a_vacation_across_new_year_counts_against_each_year() -> None:
    book, granted = request_vacation(VacationBook(), RULES, D(2026, 12, 29), D(2027, 1, 4), NOW)
    assert granted.charged == ((2026, 3), (2027, 4))
    assert granted.left == ((2026, 11), (2027, 10))
    assert (book.days_in(2026), book.days_in(2027)) == (3, 4)


def test_the_allowance_exhausted() -> None:
    book = book_of((D(2026, 12, 2), D(2026, 12, 11)))  # 10 of 14 days
    with pytest.raises(VacationError) as info:
        request_vacation(book, RULES, D(2026, 12, 20), D(2026, 12, 24), NOW)
    assert info.value.code == "vacation.allowance"
    assert info.value.message == (
        "vacation 2026-12-20 to 2026-12-24 needs 5 more day(s) in 2026, but only 4 of your "
        "14 for 2026 are left"
    )
    book, _ = request_vacation(book, RULES, D(2026, 12, 20), D(2026, 12, 23), NOW)
    assert book.days_in(2026) == 14


def test_the_allowance_of_the_next_year_is_checked_too() -> None:
    book = book_of((D(2027, 1, 2), D(2027, 1, 15)))  # all 14 days of 2027
    with pytest.raises(VacationError, match="in 2027, but only 0 of your 14") as info:
        request_vacation(book, RULES, D(2026, 12, 30), D(2027, 1, 1), NOW)
    assert info.value.code == "vacation.allowance"


def test_refused_in_the_past_today_reversed_or_too_far() -> None:
    cases = [
        (D(2026, 11, 30), D(2026, 12, 3), "vacation.past", "tomorrow (2026-12-02)"),
        (D(2026, 12, 1), D(2026, 12, 3), "vacation.past", "starts in the past or today"),
        (D(2026, 12, 9), D(2026, 12, 3), "vacation.reversed", "last day comes before"),
        (D(2027, 11, 30), D(2027, 12, 2), "vacation.too_far", "at most 365 days from today, "
                                                             "that is 2027-12-01"),
    ]
    for first, last, code, words in cases:
        with pytest.raises(VacationError) as info:
            request_vacation(VacationBook(), RULES, first, last, NOW)
        assert info.value.code == code
        assert words in info.value.message
    book, _ = request_vacation(VacationBook(), RULES, D(2027, 11, 30), D(2027, 12, 1), NOW)
    assert book.days_in(2027) == 2


def test_rules_are_validated() -> None:
    with pytest.raises(VacationError, match="'days_per_year' is -1") as info:
        VacationRules(days_per_year=-1)
    assert info.value.code == "vacation.setting"


# --- cancelling -----------------------------------------------------------------------------


def test_cancel_a_future_vacation_refunds_every_day() -> None:
    book = book_of((D(2026, 12, 20), D(2026, 12, 27)), (D(2026, 12, 5), D(2026, 12, 6)))
    book, done = cancel_vacation(book, NOW, D(2026, 12, 22))
    assert done == Cancelled((Vacation(D(2026, 12, 20), D(2026, 12, 27)),), (), 8)
    assert book.vacations == (Vacation(D(2026, 12, 5), D(2026, 12, 6)),)
    assert book.days_in(2026) == 2


def test_ending_a_vacation_under_way_refunds_the_days_not_used() -> None:
    book = book_of((D(2026, 12, 2), D(2026, 12, 8)))
    later = datetime(2026, 12, 4, 15, 30, tzinfo=UTC)
    book, done = cancel_vacation(book, later)
    cut = Vacation(D(2026, 12, 2), D(2026, 12, 8), ended_at=later)
    assert done == Cancelled((), (cut,), 4)
    assert book.days_in(2026) == 3
    assert book.intervals() == (Interval(datetime(2026, 12, 2, tzinfo=UTC), later),)
    # the days refunded can be booked again, and an ended vacation is not merged into
    book, granted = request_vacation(book, RULES, D(2026, 12, 5), D(2026, 12, 6), later)
    assert granted.charged == ((2026, 2),)
    assert len(book.vacations) == 2


def test_cancel_with_nothing_to_cancel_or_already_over() -> None:
    with pytest.raises(VacationError, match="no vacation under way or to come") as info:
        cancel_vacation(VacationBook(), NOW)
    assert info.value.code == "vacation.nothing_to_cancel"
    book = book_of((D(2026, 12, 2), D(2026, 12, 3)))
    later = datetime(2026, 12, 10, tzinfo=UTC)
    with pytest.raises(VacationError, match="2026-12-02 to 2026-12-03 is already over") as info:
        cancel_vacation(book, later, D(2026, 12, 2))
    assert info.value.code == "vacation.over"
    with pytest.raises(VacationError, match="no vacation on 2026-12-25"):
        cancel_vacation(book, NOW, D(2026, 12, 25))
    with pytest.raises(VacationError, match="no vacation under way or to come"):
        cancel_vacation(book, later)


def test_commands_from_mail_are_carried_out() -> None:
    book, granted = apply_vacation_command(
        VacationBook(), RULES, parse_vacation("vacation 2026-12-24"), NOW
    )
    assert isinstance(granted, Granted) and book.days_in(2026) == 1
    book, done = apply_vacation_command(book, RULES, parse_vacation("vacation cancel"), NOW)
    assert isinstance(done, Cancelled) and done.refunded == 1 and book.vacations == ()


def test_book_round_trips_through_json() -> None:
    book = book_of((D(2026, 12, 2), D(2026, 12, 8)), (D(2026, 12, 20), D(2027, 1, 2)),
                   rules=VacationRules(days_per_year=30))
    book, _ = cancel_vacation(book, datetime(2026, 12, 4, 15, 30, tzinfo=UTC), D(2026, 12, 3))
    assert VacationBook.from_dict(json.loads(json.dumps(book.to_dict()))) == book
    with pytest.raises(VacationError, match="cannot be read") as info:
        VacationBook.from_dict({"vacations": [{"first": "2026-13-01", "last": "x"}]})
    assert info.value.code == "vacation.stored"


# --- with the clock -------------------------------------------------------------------------


def test_a_vacation_stops_the_clocks_and_ending_it_early_restarts_them() -> None:
    """Booked on 1 December, taken 2 to 8 December, ended on the 4th at 15:30."""
    s = ClockSettings.per_turn(3)
    game = clock.start(s, NOW, Side.BLACK)  # Black's deadline: 4 December 10:00
    book = book_of((D(2026, 12, 2), D(2026, 12, 8)))
    game = clock.set_vacations(game, Side.WHITE, book.intervals())
    # 14 hours ran before the vacation; 2 days 10 hours are left after it
    assert clock.deadline(game, s) == datetime(2026, 12, 11, 10, tzinfo=UTC)
    on_holiday = datetime(2026, 12, 3, tzinfo=UTC)
    assert clock.describe_clock(game, s, on_holiday)[1] == (
        "White is on vacation until 2026-12-08; the clock is stopped."
    )
    ended = datetime(2026, 12, 4, 15, 30, tzinfo=UTC)
    book, _ = cancel_vacation(book, ended)
    game = clock.set_vacations(game, Side.WHITE, book.intervals())
    assert clock.deadline(game, s) == ended + timedelta(days=2, hours=10)
    assert book.on_vacation(ended) is None
    assert book.on_vacation(on_holiday) is not None


# --- properties -----------------------------------------------------------------------------

requests = st.lists(
    st.tuples(st.integers(1, 400), st.integers(0, 20), st.booleans()), max_size=12
)


@given(requests)
def test_the_book_never_exceeds_the_allowance_nor_counts_a_day_twice(
    asks: list[tuple[int, int, bool]]
) -> None:
    book = VacationBook()
    now = NOW
    for offset, length, cancel in asks:
        first = now.date() + timedelta(days=offset)
        try:
            if cancel:
                book, _ = cancel_vacation(book, now, first)
            else:
                book, _ = request_vacation(book, RULES, first, first + timedelta(days=length), now)
        except VacationError:
            pass
        now += timedelta(days=3, hours=5)
    for year in (2026, 2027, 2028):
        assert book.days_in(year) <= RULES.days_per_year
    open_ones = [v for v in book.vacations if v.ended_at is None]
    for a, b in pairwise(open_ones):
        assert a.last + timedelta(days=1) < b.first
    counted = [d for v in book.vacations for d in v.days()]
    assert len(counted) == len(set(counted))
    assert VacationBook.from_dict(book.to_dict()) == book
