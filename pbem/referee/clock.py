"""The referee's clock: deadlines, time banks, reminders, forfeits and claims.

Pure: no I/O and no wall clock. Every function that needs the time takes ``now``, a
timezone-aware ``datetime`` (normalised to UTC), so the referee's ``pbem tick`` and
``pbem mail`` stay thin and the tests control time. Transitions return a new
``ClockState`` and, where something must be mailed or recorded, a list of effects.
The rules and the reasons behind them are in ``docs/clock.md``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any, Literal

from pbem.errors import PbemError
from pbem.rules.pieces import Side

Mode = Literal["per_turn", "bank"]
After = Literal["forfeit", "claim"]
Stage = Literal["first", "day", "late"]

#: notices in the order a turn reaches them; a tick only ever moves forward
STAGES: tuple[Stage, ...] = ("first", "day", "late")

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)

# allowed ranges of the settings, inclusive
_LIMITS = {
    "days": (1, 60),
    "reserve": (1, 365),
    "increment": (0, 60),
    "cap": (1, 365),
    "first_reminder_hours": (0, 240),
    "day_reminder_hours": (0, 24),
}
_BANK_ONLY = ("reserve", "increment", "cap")

#: what a configuration or ``--clock`` writes for games without a clock
NO_CLOCK = ("", "none", "off", "no")


class ClockError(PbemError):
    """A clock setting, command or stored value the referee cannot accept."""

    code = "clock"


def as_utc(value: datetime, what: str = "time") -> datetime:
    """The same instant in UTC; a naive time is a programming error, said plainly."""
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise ClockError(
            f"the {what} {value!r} has no time zone; the clock needs timezone-aware UTC times",
            code="clock.naive_time",
        )
    return value.astimezone(UTC)


# --- settings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A game's time control, fixed at ``pbem new``.

    ``per_turn``: each turn must be played within ``days`` days of running time.
    ``bank``: each side starts with ``reserve`` days; a turn uses the running time it
    took, then ``increment`` days are added, never beyond ``cap``. Options of the
    other mode must stay 0. Build with ``ClockSettings.per_turn(...)``,
    ``ClockSettings.bank(...)`` or ``parse_settings("days 3, claim")``.
    """

    mode: Mode = "per_turn"
    days: int = 3
    reserve: int = 0
    increment: int = 0
    cap: int = 0
    #: hours before the deadline of the first reminder; 0 sends none
    first_reminder_hours: int = 24
    #: the reminder on the deadline's day comes at the later of the start of that UTC day
    #: and this many hours before the deadline; 0 sends none
    day_reminder_hours: int = 12
    #: what a missed deadline means: the late side loses, or the opponent may claim
    after: After = "claim"

    @classmethod
    def per_turn(cls, days: int, **options: Any) -> ClockSettings:
        return cls(mode="per_turn", days=days, **options)

    @classmethod
    def bank(cls, reserve: int, increment: int, cap: int | None = None, **options: Any
             ) -> ClockSettings:
        """A time bank; ``cap`` defaults to the starting reserve."""
        return cls(mode="bank", days=0, reserve=reserve, increment=increment,
                   cap=reserve if cap is None else cap, **options)

    def __post_init__(self) -> None:
        if self.mode not in ("per_turn", "bank"):
            raise ClockError(
                f"clock option 'mode' is {self.mode!r}; it must be 'per_turn' or 'bank'",
                code="clock.setting",
            )
        if self.after not in ("forfeit", "claim"):
            raise ClockError(
                f"clock option 'after' is {self.after!r}; it must be 'forfeit' (the late "
                "side loses) or 'claim' (the opponent may claim the win)",
                code="clock.setting",
            )
        used = _BANK_ONLY if self.mode == "bank" else ("days",)
        unused = ("days",) if self.mode == "bank" else _BANK_ONLY
        for option in (*used, "first_reminder_hours", "day_reminder_hours"):
            low, high = _LIMITS[option]
            value = getattr(self, option)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                unit = "hours" if option.endswith("hours") else "days"
                raise ClockError(
                    f"clock option {option!r} is {value!r}; it must be a whole number of "
                    f"{unit} from {low} to {high}",
                    code="clock.setting",
                )
        for option in unused:
            if getattr(self, option) != 0:
                raise ClockError(
                    f"clock option {option!r} is {getattr(self, option)!r}, but it belongs "
                    f"to the other mode; with mode {self.mode!r} it must be 0",
                    code="clock.setting",
                )
        if self.mode == "bank" and self.cap < self.reserve:
            raise ClockError(
                f"clock option 'cap' is {self.cap}, less than the starting reserve "
                f"{self.reserve}; the cap must be at least the reserve",
                code="clock.setting",
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "days": self.days, "reserve": self.reserve,
            "increment": self.increment, "cap": self.cap,
            "first_reminder_hours": self.first_reminder_hours,
            "day_reminder_hours": self.day_reminder_hours, "after": self.after,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockSettings:
        known = set(cls().to_dict())
        extra = sorted(set(data) - known)
        if extra:
            raise ClockError(
                f"stored clock settings have unknown option(s) {', '.join(extra)}; "
                f"known: {', '.join(sorted(known))}",
                code="clock.stored",
            )
        return cls(**dict(data))


_SETTINGS_HELP = (
    "write 'days N' or 'bank R+I' or 'bank R+I cap C' (whole days), optionally followed "
    "by 'forfeit' or 'claim' and 'remind H' or 'remind H/D' (hours, or 'off'), "
    "e.g. 'days 3, claim, remind 24/12'"
)


def _whole(token: str, option: str, text: str, *, off: bool = False) -> int:
    if off and token == "off":
        return 0
    if not token.isdigit():
        allowed = "a whole number or 'off'" if off else "a whole number"
        raise ClockError(
            f"cannot read the clock setting {text!r}: {option} is {token!r}, "
            f"it must be {allowed}; {_SETTINGS_HELP}",
            code="clock.syntax",
        )
    return int(token)


def parse_settings(text: str) -> ClockSettings:
    """Read the clock's text form, as written at ``pbem new`` and in challenge mails.

    ``days 3`` | ``bank 10+2`` | ``bank 10+2 cap 14``, then in any order ``forfeit`` or
    ``claim`` and ``remind 24`` or ``remind 24/12`` (``off`` for none). Commas,
    semicolons and case do not matter. Unset options keep ``ClockSettings``' defaults.
    """
    source = text.strip()
    # "(?<!\s)": a run of spaces is tried once from its start, not from each space in it
    norm = re.sub(r"(?<!\s)\s*([+/])\s*", r"\1", source.lower())
    tokens = [t for t in re.split(r"[\s,;]+", norm) if t]
    options: dict[str, Any] = {}
    seen: set[str] = set()

    def once(what: str) -> None:
        if what in seen:
            raise ClockError(
                f"cannot read the clock setting {source!r}: {what} is given twice",
                code="clock.syntax",
            )
        seen.add(what)

    i = 0
    while i < len(tokens):
        word = tokens[i]
        arg = tokens[i + 1] if i + 1 < len(tokens) else ""
        if word in ("days", "day"):
            once("the time control")
            options.update(mode="per_turn", days=_whole(arg, "days", source))
            i += 2
        elif word == "bank":
            once("the time control")
            match = re.fullmatch(r"(\d+)\+(\d+)", arg)
            if not match:
                raise ClockError(
                    f"cannot read the clock setting {source!r}: 'bank' needs the reserve "
                    f"and the days added per turn as R+I, got {arg or 'nothing'!r}; "
                    f"{_SETTINGS_HELP}",
                    code="clock.syntax",
                )
            reserve, increment = int(match[1]), int(match[2])
            cap = reserve
            i += 2
            if i < len(tokens) and tokens[i] == "cap":
                arg = tokens[i + 1] if i + 1 < len(tokens) else ""
                cap = _whole(arg, "cap", source)
                i += 2
            options.update(mode="bank", days=0, reserve=reserve, increment=increment, cap=cap)
        elif word in ("forfeit", "claim"):
            once("forfeit or claim")
            options["after"] = word
            i += 1
        elif word == "remind":
            once("remind")
            first, _, day = arg.partition("/")
            options["first_reminder_hours"] = _whole(first, "remind", source, off=True)
            if day:
                options["day_reminder_hours"] = _whole(day, "remind", source, off=True)
            i += 2
        else:
            raise ClockError(
                f"cannot read the clock setting {source!r}: {word!r} is not a clock option; "
                f"{_SETTINGS_HELP}",
                code="clock.syntax",
            )
    if "the time control" not in seen:
        raise ClockError(
            f"the clock setting {source!r} has no time control; {_SETTINGS_HELP}",
            code="clock.syntax",
        )
    return ClockSettings(**options)


def format_settings(settings: ClockSettings) -> str:
    """The canonical text form; ``parse_settings`` reads it back to the same settings."""
    if settings.mode == "per_turn":
        control = f"days {settings.days}"
    else:
        control = f"bank {settings.reserve}+{settings.increment} cap {settings.cap}"

    def hours(value: int) -> str:
        return str(value) if value else "off"

    remind = f"remind {hours(settings.first_reminder_hours)}/{hours(settings.day_reminder_hours)}"
    return f"{control}, {settings.after}, {remind}"


def describe_settings(settings: ClockSettings) -> str:
    """One sentence for reports: the time control and what a missed deadline means."""
    if settings.mode == "per_turn":
        control = f"{_plural(settings.days, 'day')} a turn"
    else:
        control = (
            f"a time bank of {_plural(settings.reserve, 'day')}, "
            f"plus {_plural(settings.increment, 'day')} a turn, up to "
            f"{_plural(settings.cap, 'day')}"
        )
    if settings.after == "forfeit":
        late = "a side that misses its deadline loses"
    else:
        late = "after a missed deadline the opponent may claim the win by mail ('claim')"
    return f"Time control: {control}; {late}."


# --- state ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    """Time when the clock is stopped, from ``start`` up to (not including) ``end``.
    ``end`` None: still going (an operator's pause not yet resumed)."""

    start: datetime
    end: datetime | None = None

    def __post_init__(self) -> None:
        if self.end is not None and self.end < self.start:
            raise ClockError(
                f"a stopped interval ends ({self.end.isoformat()}) before it starts "
                f"({self.start.isoformat()})",
                code="clock.interval",
            )

    def to_list(self) -> list[str | None]:
        return [self.start.isoformat(), None if self.end is None else self.end.isoformat()]

    @classmethod
    def from_list(cls, data: list[str | None]) -> Interval:
        start, end = data
        return cls(_parse_instant(start), None if end is None else _parse_instant(end))


@dataclass(frozen=True, slots=True)
class Override:
    """A deadline set by the game master: the running time between ``set_at`` and the date
    asked for, so that stops after it push it like any other deadline."""

    set_at: datetime
    budget: timedelta


@dataclass(frozen=True, slots=True)
class Notice:
    """The furthest notice sent for this turn, and the deadline it was sent for: a tick
    sends a notice again only if the deadline has moved since."""

    stage: Stage
    deadline: datetime


@dataclass(frozen=True, slots=True)
class Finished:
    """The game was lost on time: ``how`` is 'forfeit' or 'claim'."""

    loser: Side
    how: After
    deadline: datetime


@dataclass(frozen=True, slots=True)
class ClockState:
    """Everything the clock knows about one game; ``to_dict`` fits one database column."""

    to_move: Side
    #: when the running turn's clock started
    turn_started: datetime
    #: bank mode: each side's reserve (White, Black) at the start of its current or next
    #: turn; None in per-turn mode
    reserves: tuple[timedelta, timedelta] | None = None
    #: the game master's pauses that still matter (the last may be open)
    pauses: tuple[Interval, ...] = ()
    #: each side's vacations (White, Black) that still matter
    vacations: tuple[tuple[Interval, ...], tuple[Interval, ...]] = ((), ())
    override: Override | None = None
    notice: Notice | None = None
    result: Finished | None = None

    @property
    def paused(self) -> bool:
        """Paused by the game master right now (an open pause)."""
        return bool(self.pauses) and self.pauses[-1].end is None

    @property
    def finished(self) -> bool:
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "to_move": self.to_move.key,
            "turn_started": self.turn_started.isoformat(),
            "reserves": None if self.reserves is None else {
                side.key: self.reserves[side].total_seconds() for side in Side
            },
            "pauses": [p.to_list() for p in self.pauses],
            "vacations": {side.key: [v.to_list() for v in self.vacations[side]] for side in Side},
            "override": None if self.override is None else {
                "set_at": self.override.set_at.isoformat(),
                "budget": self.override.budget.total_seconds(),
            },
            "notice": None if self.notice is None else {
                "stage": self.notice.stage, "deadline": self.notice.deadline.isoformat(),
            },
            "result": None if self.result is None else {
                "loser": self.result.loser.key, "how": self.result.how,
                "deadline": self.result.deadline.isoformat(),
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClockState:
        try:
            reserves = data.get("reserves")
            override = data.get("override")
            notice = data.get("notice")
            result = data.get("result")
            vacations = data.get("vacations") or {}
            stage = None if notice is None else notice["stage"]
            how = None if result is None else result["how"]
            if stage is not None and stage not in STAGES:
                raise ValueError(f"notice stage {stage!r}")
            if how is not None and how not in ("forfeit", "claim"):
                raise ValueError(f"result {how!r}")
            return cls(
                to_move=_side(data["to_move"]),
                turn_started=_parse_instant(data["turn_started"]),
                reserves=None if reserves is None else (
                    timedelta(seconds=reserves["white"]), timedelta(seconds=reserves["black"])
                ),
                pauses=tuple(Interval.from_list(p) for p in data.get("pauses", ())),
                vacations=(
                    tuple(Interval.from_list(v) for v in vacations.get("white", ())),
                    tuple(Interval.from_list(v) for v in vacations.get("black", ())),
                ),
                override=None if override is None else Override(
                    _parse_instant(override["set_at"]), timedelta(seconds=override["budget"])
                ),
                notice=None if notice is None else Notice(
                    stage, _parse_instant(notice["deadline"])
                ),
                result=None if result is None else Finished(
                    _side(result["loser"]), how, _parse_instant(result["deadline"])
                ),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ClockError(
                f"the stored clock state cannot be read ({type(error).__name__}: {error})",
                code="clock.stored",
            ) from None


def _side(key: str) -> Side:
    for side in Side:
        if side.key == key:
            return side
    raise ValueError(f"side {key!r} (must be 'white' or 'black')")


def _parse_instant(text: str) -> datetime:
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        raise ValueError(f"time {text!r} has no time zone")
    return value.astimezone(UTC)


# --- effects --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SendReminder:
    """Mail ``side`` that its deadline is near. ``kind``: 'first' or 'day'."""

    side: Side
    kind: Literal["first", "day"]
    deadline: datetime


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``side`` missed its deadline and loses the game (forfeit mode)."""

    side: Side
    deadline: datetime


@dataclass(frozen=True, slots=True)
class ClaimOpened:
    """``claimant``'s opponent missed its deadline: tell both that ``claimant`` may now
    claim the win by mail (claim mode)."""

    claimant: Side
    deadline: datetime


@dataclass(frozen=True, slots=True)
class ClaimAccepted:
    """``claimant`` won on time; the opponent missed ``deadline``."""

    claimant: Side
    deadline: datetime


@dataclass(frozen=True, slots=True)
class ResultWithdrawn:
    """A loss on time of ``side`` is void: its turn had arrived by the deadline and was
    processed only after the forfeit or the claim. The game goes on."""

    side: Side
    was: After


Effect = SendReminder | Forfeit | ClaimOpened | ClaimAccepted | ResultWithdrawn


# --- time arithmetic ------------------------------------------------------------------------


def stops(state: ClockState) -> list[Interval]:
    """All time when this game's clock is stopped (pauses and both sides' vacations),
    merged and sorted."""
    spans = sorted(
        (*state.pauses, *state.vacations[0], *state.vacations[1]),
        key=lambda i: i.start,
    )
    merged: list[Interval] = []
    for span in spans:
        if merged and (merged[-1].end is None or span.start <= merged[-1].end):
            last = merged[-1]
            end = None if last.end is None or span.end is None else max(last.end, span.end)
            merged[-1] = Interval(last.start, end)
        else:
            merged.append(span)
    return merged


def running_time(state: ClockState, start: datetime, end: datetime) -> timedelta:
    """Time between ``start`` and ``end`` while the clock was running."""
    start, end = as_utc(start), as_utc(end)
    if end <= start:
        return timedelta(0)
    total = end - start
    for span in stops(state):
        stop_end = end if span.end is None else min(span.end, end)
        overlap = stop_end - max(span.start, start)
        if overlap > timedelta(0):
            total -= overlap
    return total


def _walk(spans: list[Interval], anchor: datetime, budget: timedelta) -> datetime | None:
    """The first instant at which ``budget`` of running time has passed since ``anchor``;
    None if an open pause comes first."""
    at, left = anchor, max(budget, timedelta(0))
    for span in spans:
        if span.end is not None and span.end <= at:
            continue
        if span.start > at:
            gap = span.start - at
            if gap >= left:
                return at + left
            left -= gap
        if span.end is None:
            return None
        at = max(at, span.end)
    return at + left


def _allotted(state: ClockState, settings: ClockSettings) -> tuple[datetime, timedelta]:
    if state.override is not None:
        return state.override.set_at, state.override.budget
    if settings.mode == "per_turn":
        return state.turn_started, settings.days * DAY
    assert state.reserves is not None
    return state.turn_started, state.reserves[state.to_move]


def deadline(state: ClockState, settings: ClockSettings) -> datetime | None:
    """When the side to move runs out of time; None while the game master's pause lasts.

    Pauses and vacations of either side do not count: one that begins during the turn
    pushes the deadline back by the overlap.
    """
    anchor, budget = _allotted(state, settings)
    return _walk(stops(state), anchor, budget)


def time_left(state: ClockState, settings: ClockSettings, now: datetime) -> timedelta:
    """Running time the side to move still has at ``now`` (negative once late)."""
    now = as_utc(now)
    anchor, budget = _allotted(state, settings)
    return budget - running_time(state, anchor, now)


def is_late(state: ClockState, settings: ClockSettings, now: datetime) -> bool:
    """Whether ``now`` is after the deadline of the side to move. Arriving exactly at the
    deadline is in time. The referee passes a turn's arrival time."""
    due = deadline(state, settings)
    return due is not None and as_utc(now) > due


def reserve_now(state: ClockState, settings: ClockSettings, side: Side, now: datetime
                ) -> timedelta | None:
    """Bank mode: ``side``'s reserve at ``now`` (the running turn's time taken off, never
    below zero); None in per-turn mode."""
    if state.reserves is None:
        return None
    if side is not state.to_move or state.finished:
        return state.reserves[side]
    used = running_time(state, state.turn_started, now)
    return max(state.reserves[side] - used, timedelta(0))


def reminder_times(state: ClockState, settings: ClockSettings, due: datetime
                   ) -> dict[str, datetime]:
    """When each reminder for a turn ending at ``due`` falls. A reminder is left out if it
    would fall at or before the turn's start (the report has just told the deadline), or if
    the first would not come before the one on the day."""
    times: dict[str, datetime] = {}
    if settings.day_reminder_hours:
        day_start = datetime.combine((due - timedelta(microseconds=1)).date(), time(),
                                     tzinfo=UTC)
        times["day"] = max(day_start, due - settings.day_reminder_hours * HOUR)
    if settings.first_reminder_hours:
        first = due - settings.first_reminder_hours * HOUR
        if "day" not in times or first < times["day"]:
            times["first"] = first
    return {k: v for k, v in times.items() if v > state.turn_started}


# --- transitions ----------------------------------------------------------------------------


def start(settings: ClockSettings, now: datetime, to_move: Side = Side.WHITE) -> ClockState:
    """The clock of a new game: ``to_move``'s first turn starts at ``now``."""
    now = as_utc(now)
    reserves = None
    if settings.mode == "bank":
        reserves = (settings.reserve * DAY, settings.reserve * DAY)
    return ClockState(to_move=to_move, turn_started=now, reserves=reserves)


def _over(state: ClockState) -> ClockError:
    assert state.result is not None
    loser = state.result.loser.title
    how = "forfeited" if state.result.how == "forfeit" else "lost on a claim"
    when = format_instant(state.result.deadline)
    return ClockError(
        f"the game is over: {loser} {how} on time (deadline {when})",
        code="clock.finished",
    )


def _late(side: Side, now: datetime, due: datetime) -> ClockError:
    return ClockError(
        f"{side.title}'s turn arrived {format_instant(now)}, after the deadline "
        f"{format_instant(due)}; in this game a side that misses its deadline loses",
        code="clock.late",
    )


def turn_played(
    state: ClockState,
    settings: ClockSettings,
    side: Side,
    now: datetime,
    *,
    next_start: datetime | None = None,
    next_side: Side | None = None,
) -> tuple[ClockState, list[Effect]]:
    """``side``'s turn arrived at ``now``; the opponent's clock starts at ``next_start``
    (default ``now``; pass the time the report goes out if that is later). ``next_side``
    is the side to move next when that is not the opponent (Classic Realm's placement:
    Black places the last piece and moves first).

    Refused (``clock.late``) in forfeit mode if ``now`` is after the deadline, whatever a
    tick did. In claim mode a late turn counts as long as no claim has been accepted. A
    turn that arrived by the deadline counts even if a tick's forfeit or a claim was
    processed first: the loss is withdrawn (``ResultWithdrawn``).
    Bank mode: the running time used comes off the reserve (not below 0), the increment
    is added, the cap applies.
    """
    now = as_utc(now)
    start_next = now if next_start is None else as_utc(next_start, "next_start")
    effects: list[Effect] = []
    if side is not state.to_move:
        raise ClockError(
            f"it is {state.to_move.title}'s turn, not {side.title}'s", code="clock.not_your_turn"
        )
    if now < state.turn_started:
        raise ClockError(
            f"a turn at {format_instant(now)} comes before the turn started "
            f"({format_instant(state.turn_started)})",
            code="clock.time_order",
        )
    if start_next < now:
        raise ClockError("the next turn cannot start before this one arrived",
                         code="clock.time_order")
    result = state.result
    if result is not None:
        if result.loser is side and now <= result.deadline:
            effects.append(ResultWithdrawn(side, result.how))
            state = replace(state, result=None)
        elif result.how == "forfeit" and result.loser is side:
            raise _late(side, now, result.deadline)
        else:
            raise _over(state)
    due = deadline(state, settings)
    if settings.after == "forfeit" and due is not None and now > due:
        raise _late(side, now, due)
    reserves = state.reserves
    if reserves is not None:
        used = running_time(state, state.turn_started, now)
        used = timedelta(seconds=math.ceil(used.total_seconds()))
        left = max(reserves[side] - used, timedelta(0))
        new = min(left + settings.increment * DAY, settings.cap * DAY)
        reserves = (new, reserves[1]) if side is Side.WHITE else (reserves[0], new)
    played = replace(
        state, to_move=next_side or side.other, turn_started=start_next, reserves=reserves,
        override=None, notice=None,
    )
    return _prune(played), effects


def tick(state: ClockState, settings: ClockSettings, now: datetime
         ) -> tuple[ClockState, list[Effect]]:
    """All timed work at ``now``: reminders, and after the deadline the forfeit or the
    opening of a claim. Safe to run at any time, any number of times: a notice already
    sent for the current deadline is never sent again, and when several are due at once
    only the most urgent goes out (a reminder and then straight away another is noise).
    """
    now = as_utc(now)
    if state.result is not None:
        return state, []
    due = deadline(state, settings)
    if due is None:
        return state, []
    reached: Stage | None = None
    if now > due:
        reached = "late"
    else:
        for kind, when in sorted(reminder_times(state, settings, due).items(),
                                 key=lambda kv: kv[1]):
            if when <= now:
                reached = kind  # type: ignore[assignment]
    if reached is None:
        return state, []
    already = state.notice
    if already is not None and already.deadline == due and (
        STAGES.index(already.stage) >= STAGES.index(reached)
    ):
        return state, []
    state = replace(state, notice=Notice(reached, due))
    late = state.to_move
    if reached != "late":
        return state, [SendReminder(late, reached, due)]
    if settings.after == "forfeit":
        return replace(state, result=Finished(late, "forfeit", due)), [Forfeit(late, due)]
    return state, [ClaimOpened(late.other, due)]


def claim(state: ClockState, settings: ClockSettings, side: Side, now: datetime
          ) -> tuple[ClockState, list[Effect]]:
    """``side`` claims the win at ``now``: legal in claim mode once the opponent, to move,
    is past the deadline, whether or not a tick has noticed. Once accepted, a late turn
    is refused; one that had arrived by the deadline still voids it (see ``turn_played``).
    """
    now = as_utc(now)
    if state.result is not None:
        raise _over(state)
    if settings.after != "claim":
        raise ClockError(
            "claim refused: in this game a side that misses its deadline loses by itself; "
            "there is nothing to claim",
            code="clock.claim_mode",
        )
    if side is state.to_move:
        raise ClockError(
            f"claim refused: it is {side.title}'s own turn; only the opponent of a late "
            "side can claim",
            code="clock.claim_own_turn",
        )
    due = deadline(state, settings)
    late = state.to_move
    if due is None:
        raise ClockError(
            f"claim refused: the game is paused by the referee, so {late.title} has no "
            "deadline",
            code="clock.claim_early",
        )
    if now <= due:
        raise ClockError(
            f"claim refused: {late.title}'s deadline is {format_instant(due)}; a claim is "
            "possible only after it",
            code="clock.claim_early",
        )
    finished = replace(state, result=Finished(late, "claim", due), notice=Notice("late", due))
    return finished, [ClaimAccepted(side, due)]


def pause(state: ClockState, now: datetime) -> ClockState:
    """The game master stops the clock until ``resume``. It does not save a side already
    late: a deadline that passed before the pause stays passed."""
    now = as_utc(now)
    if state.result is not None:
        raise _over(state)
    if state.paused:
        raise ClockError("the game is already paused", code="clock.paused")
    if state.pauses and state.pauses[-1].end is not None and now < state.pauses[-1].end:
        raise ClockError("a pause cannot start before the last one ended",
                         code="clock.time_order")
    return replace(state, pauses=(*state.pauses, Interval(now)))


def resume(state: ClockState, now: datetime) -> ClockState:
    """End the game master's pause at ``now``: the deadline moves back by its length."""
    now = as_utc(now)
    if not state.paused:
        raise ClockError("the game is not paused", code="clock.not_paused")
    last = state.pauses[-1]
    if now < last.start:
        raise ClockError("the game cannot resume before it was paused",
                         code="clock.time_order")
    return replace(state, pauses=(*state.pauses[:-1], Interval(last.start, now)))


def set_deadline(state: ClockState, settings: ClockSettings, when: datetime, now: datetime
                 ) -> ClockState:
    """The game master sets the current turn's deadline to ``when``.

    Stored as the running time from ``now`` to ``when``, so the deadline is exactly
    ``when`` as things stand, and a pause or vacation added later pushes it like any
    deadline. Refused while the game is paused, for a time not after ``now``, and for a time
    when the clock is stopped. It lasts until the turn is played; in bank mode the turn
    still costs its running time (the reserve does not go below 0).
    """
    when, now = as_utc(when, "deadline"), as_utc(now)
    if state.result is not None:
        raise _over(state)
    if state.paused:
        raise ClockError("the game is paused; resume it before setting a deadline",
                         code="clock.paused")
    if when <= now:
        raise ClockError(
            f"the new deadline {format_instant(when)} is not in the future "
            f"(now {format_instant(now)})",
            code="clock.deadline_past",
        )
    for span in stops(state):
        if span.start < when and (span.end is None or when < span.end):
            end = "" if span.end is None else f" until {format_instant(span.end)}"
            raise ClockError(
                f"the new deadline {format_instant(when)} falls while the clock is stopped "
                f"(a vacation or pause{end}); choose a time outside it",
                code="clock.deadline_stopped",
            )
    budget = running_time(state, now, when)
    return replace(state, override=Override(now, budget))


def set_vacations(state: ClockState, side: Side, intervals: Iterable[Interval]) -> ClockState:
    """Replace ``side``'s vacations (``VacationBook.intervals()``) in this game's clock.
    Call it for each of the player's games whenever his book changes."""
    spans = tuple(sorted(intervals, key=lambda i: i.start))
    for span in spans:
        if span.end is None:
            raise ClockError("a vacation must have an end", code="clock.interval")
    pair = (spans, state.vacations[1]) if side is Side.WHITE else (state.vacations[0], spans)
    return _prune(replace(state, vacations=pair))


def _prune(state: ClockState) -> ClockState:
    """Forget stops that ended before the running turn began: they no longer matter, and
    the column stays small."""
    since = state.turn_started
    if state.override is not None:
        since = min(since, state.override.set_at)

    def keep(spans: tuple[Interval, ...]) -> tuple[Interval, ...]:
        return tuple(s for s in spans if s.end is None or s.end > since)

    return replace(
        state,
        pauses=keep(state.pauses),
        vacations=(keep(state.vacations[0]), keep(state.vacations[1])),
    )


def parse_when(text: str) -> datetime:
    """A deadline as the game master types it (``pbem set-deadline GAME DATE``):
    ``2026-12-30`` means the end of that UTC day (23:59), ``2026-12-30 18:00`` (or with a
    ``T``) that minute in UTC."""
    source = text.strip()
    match = re.fullmatch(r"(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2}))?(?:\s*UTC)?", source)
    try:
        if not match:
            raise ValueError
        day = datetime.fromisoformat(match[1]).replace(tzinfo=UTC)
        if match[2] is None:
            return day.replace(hour=23, minute=59)
        return day.replace(hour=int(match[2]), minute=int(match[3]))
    except ValueError:
        raise ClockError(
            f"cannot read the deadline {source!r}: write a date YYYY-MM-DD (the end of that "
            "day, UTC) or YYYY-MM-DD HH:MM (UTC), e.g. 2026-12-30 18:00",
            code="clock.syntax",
        ) from None


# --- text -----------------------------------------------------------------------------------


def format_instant(value: datetime, zone: tzinfo | None = None) -> str:
    """'Mon 2026-11-30 18:00 UTC' (with seconds when there are any); in ``zone`` (a
    player's time zone) 'Mon 2026-11-30 19:00 CET (Europe/Paris)'."""
    value = as_utc(value)
    clock = "%H:%M:%S" if value.second or value.microsecond else "%H:%M"
    if zone is None:
        return value.strftime(f"%a %Y-%m-%d {clock} UTC")
    local = value.astimezone(zone)
    return local.strftime(f"%a %Y-%m-%d {clock} %Z") + f" ({zone})"


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def format_duration(value: timedelta) -> str:
    """'2 days 4 hours', '3 hours 5 minutes', '1 day', 'less than a minute'; at most two
    units, rounded down."""
    minutes = int(value.total_seconds() // 60)
    if minutes <= 0:
        return "less than a minute" if value > timedelta(0) else "no time"
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour"), (mins, "minute")]
    first = next(i for i, (n, _) in enumerate(parts) if n)
    shown = [_plural(n, unit) for n, unit in parts[first:first + 2] if n]
    return " ".join(shown)


def _stopped_by(state: ClockState, now: datetime) -> list[tuple[Side, datetime]]:
    """Sides on vacation at ``now``, with the end of their (merged) vacation."""
    away = []
    for side in Side:
        spans = sorted(state.vacations[side], key=lambda i: i.start)
        end: datetime | None = None
        for span in spans:
            assert span.end is not None
            if end is None and span.start <= now < span.end:
                end = span.end
            elif end is not None and span.start <= end:
                end = max(end, span.end)
        if end is not None:
            away.append((side, end))
    return away


def describe_clock(
    state: ClockState,
    settings: ClockSettings,
    now: datetime,
    names: Mapping[Side, str] | None = None,
    zone: tzinfo | None = None,
) -> list[str]:
    """Lines for a report: who must move by when and how much time is left, reserves,
    vacations and pauses, or how the game was lost on time; instants in ``zone`` (the
    reader's time zone; UTC when None)."""
    now = as_utc(now)
    name = {side: (names or {}).get(side, side.title) for side in Side}
    mover = state.to_move
    if state.result is not None:
        result = state.result
        if result.how == "forfeit":
            return [f"{name[result.loser]} lost on time: the deadline was "
                    f"{format_instant(result.deadline, zone)}."]
        return [f"{name[result.loser.other]} claimed the win on time: {name[result.loser]}'s "
                f"deadline was {format_instant(result.deadline, zone)}."]
    lines = []
    due = deadline(state, settings)
    if due is None:
        lines.append(f"{name[mover]} to move; no deadline while the game is paused.")
    elif now > due:
        passed = f"{name[mover]}'s deadline {format_instant(due, zone)} has passed"
        if settings.after == "forfeit":
            lines.append(f"{passed}; {name[mover]} loses on time.")
        else:
            lines.append(f"{passed}; {name[mover.other]} may claim the win by mail ('claim').")
    else:
        left = format_duration(time_left(state, settings, now))
        main = f"{name[mover]} to move by {format_instant(due, zone)} ({left} left)"
        if state.reserves is not None:
            shown = ", ".join(
                f"{name[s]} {format_duration(state.reserves[s] if r is None else r)}"
                for s in Side
                for r in [reserve_now(state, settings, s, now)]
            )
            main += f"; reserves: {shown}"
        lines.append(main + ".")
    for side, end in _stopped_by(state, now):
        last_day = (end - timedelta(microseconds=1)).date().isoformat()
        lines.append(f"{name[side]} is on vacation until {last_day}; the clock is stopped.")
    for side in Side:
        for span in sorted(state.vacations[side], key=lambda i: i.start):
            assert span.end is not None
            if span.start > now:
                last_day = (span.end - timedelta(microseconds=1)).date().isoformat()
                lines.append(
                    f"{name[side]} will be on vacation from {span.start.date().isoformat()} "
                    f"to {last_day}; the clock will stop then."
                )
    if state.paused:
        lines.append("The game is paused by the referee; the clock is stopped.")
    if state.override is not None and due is not None:
        lines.append("The referee has set this turn's deadline.")
    return lines
