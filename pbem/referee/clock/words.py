"""The clock in words for reports: who must move by when, who is away, how it ended."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo

from pbem.referee.clock.deadlines import deadline, reserve_now, time_left
from pbem.referee.clock.settings import ClockSettings
from pbem.referee.clock.state import ClockState
from pbem.referee.clock.units import as_utc, format_duration, format_instant
from pbem.rules.pieces import Side


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
    if any(h.start <= now and (h.end is None or now < h.end) for h in state.held):
        lines.append("The referee's mail to a player bounces: the clock waits until he "
                     "writes again.")
    if state.override is not None and due is not None:
        lines.append("The referee has set this turn's deadline.")
    return lines
