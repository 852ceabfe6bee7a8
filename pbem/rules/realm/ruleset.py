"""The numbers and switches a game of Realm is played with: every variation is an option.

The Featured Game's values are the defaults. Presets (``featured``, ``original``,
...) are YAML files in ``games/``, read by ``pbem.records.rulesets``; this module
only knows the options, their ranges, and how to build a checked Ruleset from a
mapping, so the rules core stays free of file I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, ClassVar

from pbem.errors import RulesetError
from pbem.rules.values import frozen

_RANGES = {
    "bases": (11, 13),
    "enforcers": (4, 9),
    "powers": (3, 4),
    "setup_bases": (3, 4),
}

#: option -> what it means, in the words of the rulings (for errors, docs and `--help`)
OPTION_HELP: dict[str, str] = {
    "bases": "Bases each side may create, set-up Bases included",
    "enforcers": "Enforcers each side has",
    "powers": "Powers each side places at set-up",
    "setup_bases": "Bases each side places at set-up",
    "free_placement": "set-up Bases may go on any vacant Center (no row/column restriction)",
    "checkpoint": "a Power or Enforcer entering a Realm with an enemy Base must stop in it",
    "exclusive_creation": "a Power creates a Base only if no other Power is in the Realm",
    "replacement": "a captured Base is at once replaced by one of the capturer's",
    "second_player_first": "after set-up, Black (the second player) moves first",
    "rearrange_opponent": "a Rearrangement may also move the opponent's pieces in the Realm",
    "tiebreak_captures": "the tie-break also counts Bases captured",
    "power_sacrifice": "a player may remove a Power to remobilise a friendly Enforcer",
    "rearrangement_limit": "no Realm may be rearranged on three turns in a row by one player",
    "end_by_agreement": "the game may end when both players agree no Base can be created",
}


@frozen
class Ruleset:
    #: the game these rules are for (``pbem.rules.registry``)
    game: ClassVar[str] = "featured"
    #: the preset this came from, or a description such as "featured+checkpoint"
    name: str = "featured"
    #: Bases each side may create in the game (placing one counts)
    bases: int = 12
    enforcers: int = 8
    powers: int = 3
    #: Bases each side places during set-up (each of them then places a Power)
    setup_bases: int = 3
    free_placement: bool = False
    checkpoint: bool = False
    exclusive_creation: bool = False
    replacement: bool = False
    second_player_first: bool = False
    rearrange_opponent: bool = False
    tiebreak_captures: bool = False
    power_sacrifice: bool = False
    #: the three-in-a-row limit on rearranging the same Realm
    rearrangement_limit: bool = True
    end_by_agreement: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesetError(
                f"ruleset option 'name' is {self.name!r}; it must be a non-empty text",
                code="ruleset.value",
            )
        for option, (low, high) in _RANGES.items():
            value = getattr(self, option)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RulesetError(
                    f"ruleset option {option!r} ({OPTION_HELP[option]}) is {value!r}; it "
                    f"must be a whole number from {low} to {high}",
                    code="ruleset.range",
                )
        for option in SWITCHES:
            value = getattr(self, option)
            if not isinstance(value, bool):
                raise RulesetError(
                    f"ruleset option {option!r} ({OPTION_HELP[option]}) is {value!r}; it "
                    "must be true or false",
                    code="ruleset.value",
                )
        if self.powers < self.setup_bases:
            raise RulesetError(
                f"ruleset options 'powers' ({self.powers}) and 'setup_bases' "
                f"({self.setup_bases}) do not fit together: each set-up Realm receives a "
                "Power at set-up, so a side needs at least as many Powers as set-up Bases",
                code="ruleset.combination",
            )

    def options(self) -> dict[str, Any]:
        """Every option by name, ``name`` included: ``Ruleset(**r.options()) == r``."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def differences(self, other: Ruleset | None = None) -> dict[str, Any]:
        """The options that differ from ``other`` (the Featured Game by default)."""
        base = other or FEATURED
        return {
            k: v for k, v in self.options().items() if k != "name" and getattr(base, k) != v
        }

    def with_options(self, options: Mapping[str, Any], name: str | None = None) -> Ruleset:
        """A copy with ``options`` changed; unknown options are an error naming them."""
        check_option_names(options)
        merged = self.options()
        merged.update(options)
        if name is not None:
            merged["name"] = name
        elif "name" not in options and options:
            extra = "+".join(
                f"{k}={v}" if not isinstance(v, bool) else (k if v else f"no-{k}")
                for k, v in options.items()
            )
            merged["name"] = f"{self.name}+{extra}"
        return Ruleset(**merged)


#: the on/off options
SWITCHES = tuple(
    f.name for f in fields(Ruleset) if f.name != "name" and f.name not in _RANGES
)
OPTIONS = tuple(f.name for f in fields(Ruleset))


def check_option_names(options: Mapping[str, Any]) -> None:
    unknown = [k for k in options if k not in OPTIONS]
    if unknown:
        raise RulesetError(
            f"unknown ruleset option {unknown[0]!r}; the options are: {', '.join(OPTIONS)}",
            code="ruleset.unknown-option",
        )


def option_range(option: str) -> str:
    """What values ``option`` allows, in words."""
    if option in _RANGES:
        low, high = _RANGES[option]
        return f"{low} to {high}"
    return "true or false" if option in SWITCHES else "a text"


FEATURED = Ruleset()
