"""A game's clock as stored: whose turn since when, banks, stops, notices sent, result."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from pbem.referee.clock.units import STAGES, After, ClockError, Stage
from pbem.rules.pieces import Side
from pbem.rules.values import frozen

# --- state ----------------------------------------------------------------------------------


@frozen
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


@frozen
class Override:
    """A deadline set by the game master: the running time between ``set_at`` and the date
    asked for, so that stops after it push it like any other deadline."""

    set_at: datetime
    budget: timedelta


@frozen
class Notice:
    """The furthest notice sent for this turn, and the deadline it was sent for: a tick
    sends a notice again only if the deadline has moved since."""

    stage: Stage
    deadline: datetime


@frozen
class Finished:
    """The game was lost on time: ``how`` is 'forfeit' or 'claim'."""

    loser: Side
    how: After
    deadline: datetime


@frozen
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
    #: time the clock waits for a player whose mail bounces (issue 25), as it waits for a
    #: vacation: from the bounce up to the grace's end, cut short when he writes again
    held: tuple[Interval, ...] = ()

    @property
    def paused(self) -> bool:
        """Paused by the game master right now (an open pause)."""
        return bool(self.pauses) and self.pauses[-1].end is None

    @property
    def finished(self) -> bool:
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        found = {
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
        if self.held:  # only then: stored clocks of before keep their exact text
            found["held"] = [h.to_list() for h in self.held]
        return found

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
                    notice["stage"], _parse_instant(notice["deadline"])
                ),
                result=None if result is None else Finished(
                    _side(result["loser"]), result["how"], _parse_instant(result["deadline"])
                ),
                held=tuple(Interval.from_list(h) for h in data.get("held", ())),
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


def _parse_instant(text: object) -> datetime:
    if not isinstance(text, str):
        raise TypeError(f"time {text!r} is not text")
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        raise ValueError(f"time {text!r} has no time zone")
    return value.astimezone(UTC)
