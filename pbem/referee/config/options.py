"""The referee's settings for clocks, vacations, challenges, observers and digests.

They live in ``config.yaml`` beside the referee's address (``Config.extra``); this reads
and checks them once, so a wrong value is a plain-word configuration error, never a
surprise in the middle of handling a mail.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import PbemError
from pbem.ratings.glicko2 import Settings
from pbem.referee.clock import NO_CLOCK, ClockSettings, parse_settings
from pbem.referee.clock.vacation import VacationRules
from pbem.referee.config.home import Config, ConfigError
from pbem.rules.values import frozen


@frozen
class Options:
    #: the time control of new games; None: games without a clock
    clock: ClockSettings | None = None
    vacation: VacationRules = VacationRules()
    #: a challenge (or any mail) from an address the referee does not know registers it
    open_registration: bool = False
    #: who may enter an event by mail: 'anyone' (with a key) or 'known' (plays or played)
    tournament_entries: str = "anyone"
    #: open challenges a player may have made at once
    max_open_challenges: int = 3
    #: games in play a player may have at once (challenges are refused beyond it)
    max_games: int = 10
    #: anyone the referee knows may observe any game
    observers: bool = True
    #: the UTC hour from which ``pbem tick`` sends the day's digests
    digest_hour: int = 18
    #: a mailed turn with only a slip of letter case (``bh2``) is played (and the report
    #: says so) instead of refused; look-alike letters (``i`` for ``l``) never are
    case_repairs: bool = False
    #: a finished game's public record (``pbem show``) keeps the players' messages
    public_messages: bool = False
    #: new games are rated unless ``pbem new --unrated`` or ``challenge ... unrated``
    rated: bool = True
    #: Glicko-2's starting rating, deviation and volatility, and its tau
    ratings: Settings = Settings()


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false, not {value!r}")
    return value


def clock_option(text: Any, where: str = "config.yaml: clock") -> ClockSettings | None:
    """A clock as the config or ``pbem new --clock`` writes it; 'none' (or empty): no clock."""
    if text is None or str(text).strip().lower() in NO_CLOCK:
        return None
    try:
        return parse_settings(str(text))
    except PbemError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def load_options(config: Config) -> Options:
    """The options of a checked configuration (types and ranges are the schema's,
    ``config_schema.SCHEMA``); a clock that does not parse names its line."""
    extra = config.extra
    vac = extra.get("vacation") or {}
    ch = extra.get("challenges") or {}
    if not isinstance(vac, dict) or not isinstance(ch, dict):
        raise ConfigError(f"{config.source}: 'vacation' and 'challenges' must be mappings")
    try:
        rules = VacationRules(
            days_per_year=vac.get("days_per_year", 30),
            max_ahead_days=vac.get("max_ahead_days", 365),
        )
    except PbemError as exc:
        raise ConfigError(f"{config.at('vacation')}: {exc}") from None
    return Options(
        clock=clock_option(extra.get("clock"), config.at("clock")),
        vacation=rules,
        open_registration=_bool(ch.get("open_registration", False),
                                config.at("challenges.open_registration")),
        max_open_challenges=_int(ch.get("max_open", 3), config.at("challenges.max_open"),
                                 0, 1000),
        max_games=_int(ch.get("max_games", 10), config.at("challenges.max_games"), 1, 10000),
        observers=_bool(extra.get("observers", True), config.at("observers")),
        digest_hour=_int(extra.get("digest_hour", 18), config.at("digest_hour"), 0, 23),
        case_repairs=_bool(extra.get("case_repairs", False), config.at("case_repairs")),
        public_messages=_bool(extra.get("public_messages", False),
                              config.at("public_messages")),
        rated=_bool(extra.get("rated", True), config.at("rated")),
        tournament_entries=str((extra.get("tournaments") or {}).get("entries") or "anyone"),
        ratings=rating_settings(extra.get("ratings")),
    )


def rating_settings(raw: Any) -> Settings:
    """``ratings: {rating, deviation, volatility, tau}`` (checked by the schema); lichess's
    values where absent."""
    raw = raw if isinstance(raw, dict) else {}
    default = Settings()
    return Settings(
        rating=float(raw.get("rating", default.rating)),
        deviation=float(raw.get("deviation", default.deviation)),
        volatility=float(raw.get("volatility", default.volatility)),
        tau=float(raw.get("tau", default.tau)),
    )
