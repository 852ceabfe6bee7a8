"""A game's time control: per-turn days or a time bank, forfeit or claim, reminders;
read from and written as one line of text (config, ``pbem new --clock``, challenges)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.referee.clock.units import After, ClockError, Mode, plural
from pbem.rules.values import frozen

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


# --- settings -------------------------------------------------------------------------------


@frozen
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
        control = f"{plural(settings.days, 'day')} a turn"
    else:
        control = (
            f"a time bank of {plural(settings.reserve, 'day')}, "
            f"plus {plural(settings.increment, 'day')} a turn, up to "
            f"{plural(settings.cap, 'day')}"
        )
    if settings.after == "forfeit":
        late = "a side that misses its deadline loses"
    else:
        late = "after a missed deadline the opponent may claim the win by mail ('claim')"
    return f"Time control: {control}; {late}."
