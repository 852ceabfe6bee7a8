"""The referee's clock: deadlines, time banks, reminders, forfeits and claims.

Pure: no I/O and no wall clock. Every function that needs the time takes ``now``, a
timezone-aware ``datetime`` (normalised to UTC), so the referee's ``pbem tick`` and
``pbem mail`` stay thin and the tests control time. Transitions return a new
``ClockState`` and, where something must be mailed or recorded, a list of effects.
The rules and the reasons behind them are in ``docs/clock.md``.
"""

from pbem.referee.clock.deadlines import (
    deadline,
    is_late,
    reminder_times,
    reserve_now,
    running_time,
    stops,
    time_left,
)
from pbem.referee.clock.effects import (
    ClaimAccepted,
    ClaimOpened,
    Effect,
    Forfeit,
    ResultWithdrawn,
    SendReminder,
)
from pbem.referee.clock.settings import (
    ClockSettings,
    describe_settings,
    format_settings,
    parse_settings,
)
from pbem.referee.clock.state import ClockState, Finished, Interval, Notice, Override
from pbem.referee.clock.transitions import (
    claim,
    hold,
    parse_when,
    pause,
    release,
    resume,
    set_deadline,
    set_vacations,
    start,
    tick,
    turn_played,
)
from pbem.referee.clock.units import (
    DAY,
    HOUR,
    NO_CLOCK,
    STAGES,
    After,
    ClockError,
    Mode,
    Stage,
    as_utc,
    format_duration,
    format_instant,
    plural,
)
from pbem.referee.clock.words import describe_clock

__all__ = [
    "DAY",
    "HOUR",
    "NO_CLOCK",
    "STAGES",
    "After",
    "ClaimAccepted",
    "ClaimOpened",
    "ClockError",
    "ClockSettings",
    "ClockState",
    "Effect",
    "Finished",
    "Forfeit",
    "Interval",
    "Mode",
    "Notice",
    "Override",
    "ResultWithdrawn",
    "SendReminder",
    "Stage",
    "as_utc",
    "claim",
    "deadline",
    "describe_clock",
    "describe_settings",
    "format_duration",
    "format_instant",
    "format_settings",
    "hold",
    "is_late",
    "parse_settings",
    "parse_when",
    "pause",
    "plural",
    "release",
    "reminder_times",
    "reserve_now",
    "resume",
    "running_time",
    "set_deadline",
    "set_vacations",
    "start",
    "stops",
    "tick",
    "time_left",
    "turn_played",
]
