"""Time arithmetic: the clock runs except while stopped (vacations, a pause); deadlines,
time left, reserves and reminder times follow from that."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from pbem.referee.clock.settings import ClockSettings
from pbem.referee.clock.state import ClockState, Interval
from pbem.referee.clock.units import DAY, HOUR, Stage, as_utc
from pbem.rules.pieces import Side

# --- time arithmetic ------------------------------------------------------------------------


def stops(state: ClockState) -> list[Interval]:
    """All time when this game's clock is stopped (pauses, both sides' vacations, waits
    for a player whose mail bounces),
    merged and sorted."""
    spans = sorted(
        (*state.pauses, *state.vacations[0], *state.vacations[1], *state.held),
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
                   ) -> dict[Stage, datetime]:
    """When each reminder for a turn ending at ``due`` falls. A reminder is left out if it
    would fall at or before the turn's start (the report has just told the deadline), or if
    the first would not come before the one on the day."""
    times: dict[Stage, datetime] = {}
    if settings.day_reminder_hours:
        day_start = datetime.combine((due - timedelta(microseconds=1)).date(), time(),
                                     tzinfo=UTC)
        times["day"] = max(day_start, due - settings.day_reminder_hours * HOUR)
    if settings.first_reminder_hours:
        first = due - settings.first_reminder_hours * HOUR
        if "day" not in times or first < times["day"]:
            times["first"] = first
    return {k: v for k, v in times.items() if v > state.turn_started}
