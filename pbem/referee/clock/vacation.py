"""Players' vacations: an allowance of days per calendar year, booked by mail.

A player's ``VacationBook`` holds whole UTC days. ``intervals()`` turns it into the
stopped time to give every one of his games' clocks (``clock.set_vacations``). Pure: the
referee passes ``now`` and stores the book with ``to_dict``. Rules in ``docs/clock.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from pbem.errors import PbemError
from pbem.referee.clock import Interval, as_utc
from pbem.rules.game import counted
from pbem.rules.values import frozen

_ONE = timedelta(days=1)


class VacationError(PbemError):
    """A vacation request or cancel the referee refuses; the message says why."""

    code = "vacation"


@frozen
class VacationRules:
    """The referee's configuration: days a player may take per calendar year, and how far
    ahead the last day of a vacation may be booked."""

    days_per_year: int = 30
    max_ahead_days: int = 365

    def __post_init__(self) -> None:
        for option, low, high in (("days_per_year", 0, 366), ("max_ahead_days", 1, 3660)):
            value = getattr(self, option)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise VacationError(
                    f"vacation option {option!r} is {value!r}; it must be a whole number of "
                    f"days from {low} to {high}",
                    code="vacation.setting",
                )


@frozen
class Vacation:
    """Days ``first`` to ``last`` inclusive (UTC). ``ended_at``: when the player ended it
    early; the days after that instant's day were refunded."""

    first: date
    last: date
    ended_at: datetime | None = None

    @property
    def last_counted(self) -> date:
        """The last day charged against the allowance."""
        return self.last if self.ended_at is None else min(self.last, self.ended_at.date())

    def days(self) -> list[date]:
        count = (self.last_counted - self.first).days + 1
        return [self.first + i * _ONE for i in range(count)]

    def interval(self) -> Interval:
        """The stopped time: from the first day's start to the end of the last day, or to
        the moment it was ended."""
        start = datetime.combine(self.first, time(), tzinfo=UTC)
        end = datetime.combine(self.last + _ONE, time(), tzinfo=UTC)
        if self.ended_at is not None:
            end = min(end, self.ended_at)
        return Interval(start, end)

    def describe(self) -> str:
        if self.first == self.last_counted:
            return self.first.isoformat()
        return f"{self.first.isoformat()} to {self.last_counted.isoformat()}"


@frozen
class VacationBook:
    """One player's vacations, sorted by first day; overlapping or adjacent bookings are
    merged so no day is counted twice. Past vacations stay: they count against their
    year, and a running turn may still need them."""

    vacations: tuple[Vacation, ...] = ()

    def days_in(self, year: int) -> int:
        """Days charged against ``year``'s allowance."""
        return len({d for v in self.vacations for d in v.days() if d.year == year})

    def intervals(self) -> tuple[Interval, ...]:
        """The stopped time to give the clocks of all the player's games."""
        return tuple(v.interval() for v in self.vacations)

    def on_vacation(self, now: datetime) -> Vacation | None:
        now = as_utc(now)
        for vacation in self.vacations:
            span = vacation.interval()
            if span.start <= now and (span.end is None or now < span.end):
                return vacation
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"vacations": [
            {"first": v.first.isoformat(), "last": v.last.isoformat(),
             "ended_at": None if v.ended_at is None else v.ended_at.isoformat()}
            for v in self.vacations
        ]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VacationBook:
        try:
            found = []
            for item in data["vacations"]:
                ended = item.get("ended_at")
                found.append(Vacation(
                    date.fromisoformat(item["first"]), date.fromisoformat(item["last"]),
                    None if ended is None else as_utc(datetime.fromisoformat(ended)),
                ))
        except (KeyError, TypeError, ValueError, PbemError) as error:
            raise VacationError(
                f"the stored vacation book cannot be read ({type(error).__name__}: {error})",
                code="vacation.stored",
            ) from None
        return cls(tuple(sorted(found, key=lambda v: v.first)))


# --- the mail commands ----------------------------------------------------------------------


@frozen
class VacationRequest:
    first: date
    last: date


@frozen
class VacationCancel:
    """Cancel the vacation that holds ``day``, or every one not yet over if None."""

    day: date | None = None


_DATE = r"(\d{4}-\d{1,2}-\d{1,2})"
_HELP = (
    "write 'vacation YYYY-MM-DD to YYYY-MM-DD' (both days included, UTC), "
    "'vacation YYYY-MM-DD' for one day, 'vacation cancel' or 'vacation cancel YYYY-MM-DD'"
)


def _date(text: str, source: str) -> date:
    try:
        year, month, day = (int(part) for part in text.split("-"))
        return date(year, month, day)
    except ValueError:
        raise VacationError(
            f"cannot read {source!r}: {text} is not a date; {_HELP}", code="vacation.syntax"
        ) from None


def parse_vacation(text: str) -> VacationRequest | VacationCancel:
    """Read a vacation command from a mail line: ``vacation 2026-12-20 to 2026-12-27``,
    ``vacation 2026-12-24``, ``vacation cancel`` or ``vacation cancel 2026-12-20``.
    ``until``, ``-`` and ``through`` may stand for ``to``; case does not matter."""
    source = text.strip()
    words = source.lower().split(None, 1)
    if not words or words[0] != "vacation":
        raise VacationError(f"{source!r} is not a vacation command; {_HELP}",
                            code="vacation.syntax")
    rest = words[1].strip() if len(words) > 1 else ""
    if match := re.fullmatch(rf"cancel(?:\s+{_DATE})?", rest):
        return VacationCancel(None if match[1] is None else _date(match[1], source))
    if match := re.fullmatch(rf"{_DATE}(?:\s*(?:to|until|through|-|–)\s*{_DATE})?", rest):
        first = _date(match[1], source)
        last = first if match[2] is None else _date(match[2], source)
        return VacationRequest(first, last)
    raise VacationError(f"cannot read {source!r}; {_HELP}", code="vacation.syntax")


# --- decisions ------------------------------------------------------------------------------


@frozen
class Granted:
    """A vacation booked. ``vacation``: the booking it is now part of (merged);
    ``charged``: new days per year; ``left``: days left per year after it."""

    vacation: Vacation
    charged: tuple[tuple[int, int], ...]
    left: tuple[tuple[int, int], ...]


@frozen
class Cancelled:
    """``removed``: future vacations dropped; ``ended``: vacations under way, as ended now;
    ``refunded``: days given back to the allowance."""

    removed: tuple[Vacation, ...]
    ended: tuple[Vacation, ...]
    refunded: int


def request_vacation(
    book: VacationBook, rules: VacationRules, first: date, last: date, now: datetime
) -> tuple[VacationBook, Granted]:
    """Book days ``first`` to ``last``. Refused if reversed, if it starts before tomorrow
    (UTC) -- a vacation never stops time that has already run --, if the last day is more
    than ``max_ahead_days`` after today, or if any year's allowance would be exceeded."""
    today = as_utc(now).date()
    asked = f"{first.isoformat()} to {last.isoformat()}" if first != last else first.isoformat()
    if last < first:
        raise VacationError(
            f"vacation {asked} is reversed: the last day comes before the first",
            code="vacation.reversed",
        )
    if first <= today:
        raise VacationError(
            f"vacation {asked} starts in the past or today ({today.isoformat()}, UTC); a "
            f"vacation can start tomorrow ({(today + _ONE).isoformat()}) at the earliest",
            code="vacation.past",
        )
    limit = today + rules.max_ahead_days * _ONE
    if last > limit:
        raise VacationError(
            f"vacation {asked} is too far ahead: the last day may be at most "
            f"{counted(rules.max_ahead_days, 'day', 'days')} from today, that is "
            f"{limit.isoformat()}",
            code="vacation.too_far",
        )
    new = Vacation(first, last)
    kept = []
    for old in book.vacations:
        if old.ended_at is None and old.first <= last + _ONE and old.last >= first - _ONE:
            new = Vacation(min(new.first, old.first), max(new.last, old.last))
        else:
            kept.append(old)
    after = VacationBook(tuple(sorted((*kept, new), key=lambda v: v.first)))
    charged, left = [], []
    for year in range(first.year, last.year + 1):
        before_days, after_days = book.days_in(year), after.days_in(year)
        extra = after_days - before_days
        if after_days > rules.days_per_year:
            remaining = max(rules.days_per_year - before_days, 0)
            raise VacationError(
                f"vacation {asked} needs {extra} more day(s) in {year}, but only {remaining} "
                f"of your {rules.days_per_year} for {year} are left",
                code="vacation.allowance",
            )
        charged.append((year, extra))
        left.append((year, rules.days_per_year - after_days))
    return after, Granted(new, tuple(charged), tuple(left))


def cancel_vacation(
    book: VacationBook, now: datetime, day: date | None = None
) -> tuple[VacationBook, Cancelled]:
    """Cancel future vacations (all their days come back) and end one under way at
    ``now`` (the days after today come back; the clocks run again from ``now``). With
    ``day``, only the vacation holding that day."""
    now = as_utc(now)
    today = now.date()
    removed: list[Vacation] = []
    ended: list[Vacation] = []
    kept: list[Vacation] = []
    refunded = 0
    for vacation in book.vacations:
        over = vacation.ended_at is not None or vacation.last < today
        chosen = day is None or vacation.first <= day <= vacation.last_counted
        if not chosen:
            kept.append(vacation)
        elif over:
            if day is not None:
                raise VacationError(
                    f"your vacation {vacation.describe()} is already over; only a vacation "
                    "under way or to come can be cancelled",
                    code="vacation.over",
                )
            kept.append(vacation)
        elif vacation.first > today:
            removed.append(vacation)
            refunded += len(vacation.days())
        else:
            cut = replace(vacation, ended_at=now)
            ended.append(cut)
            kept.append(cut)
            refunded += len(vacation.days()) - len(cut.days())
    if not removed and not ended:
        which = f"on {day.isoformat()}" if day is not None else "under way or to come"
        raise VacationError(f"you have no vacation {which} to cancel",
                            code="vacation.nothing_to_cancel")
    return VacationBook(tuple(kept)), Cancelled(tuple(removed), tuple(ended), refunded)


def apply_vacation_command(
    book: VacationBook,
    rules: VacationRules,
    command: VacationRequest | VacationCancel,
    now: datetime,
) -> tuple[VacationBook, Granted | Cancelled]:
    """Carry out a parsed mail command."""
    if isinstance(command, VacationCancel):
        return cancel_vacation(book, now, command.day)
    return request_vacation(book, rules, command.first, command.last, now)
