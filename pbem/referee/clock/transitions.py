"""Transitions: each takes a state and ``now`` and returns the new state (and effects)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from pbem.referee.clock.deadlines import deadline, reminder_times, running_time, stops
from pbem.referee.clock.effects import (
    ClaimAccepted,
    ClaimOpened,
    Effect,
    Forfeit,
    ResultWithdrawn,
    SendReminder,
)
from pbem.referee.clock.settings import ClockSettings
from pbem.referee.clock.state import ClockState, Finished, Interval, Notice, Override
from pbem.referee.clock.units import DAY, STAGES, ClockError, Stage, as_utc, format_instant
from pbem.rules.pieces import Side

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
                reached = kind
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
        held=keep(state.held),
    )


def hold(state: ClockState, start: datetime, end: datetime) -> ClockState:
    """The clock waits from ``start`` to ``end`` (a player's mail bounces: his deadline
    must not pass while he cannot read his reports), like a vacation of the game."""
    return _prune(replace(state, held=(*state.held, Interval(as_utc(start), as_utc(end)))))


def release(state: ClockState, now: datetime) -> ClockState:
    """The wait ends at ``now`` (he wrote again): waits that reach past it are cut there."""
    now = as_utc(now)
    held = tuple(h if h.end is not None and h.end <= now else Interval(h.start, max(h.start, now))
                 for h in state.held)
    return _prune(replace(state, held=held))


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
