"""The numbers and switches a game of Realm is played with.

The Featured Game's numbers are the defaults. Other presets and the variation
options come with the variations work; the engine already reads its piece
counts from here, so nothing in the rules hard-codes 12, 8 or 3.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from pbem.errors import RulesetError

_RANGES = {
    "bases": (11, 13),
    "enforcers": (4, 9),
    "powers": (3, 4),
    "setup_bases": (3, 4),
}


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str = "featured"
    #: Bases each side may create in the game (placing one counts)
    bases: int = 12
    enforcers: int = 8
    powers: int = 3
    #: Bases (and Powers) each side places during set-up
    setup_bases: int = 3
    #: the three-in-a-row limit on rearranging the same Realm
    rearrangement_limit: bool = True

    def __post_init__(self) -> None:
        for option, (low, high) in _RANGES.items():
            value = getattr(self, option)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RulesetError(
                    f"ruleset option {option!r} is {value!r}; it must be a whole number "
                    f"from {low} to {high}",
                    code="ruleset.range",
                )
        if self.setup_bases > self.bases:
            raise RulesetError("setup_bases cannot exceed bases", code="ruleset.combination")

    def options(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


FEATURED = Ruleset()

PRESETS: dict[str, Ruleset] = {"featured": FEATURED}


def load_ruleset(name: str) -> Ruleset:
    """A preset by name. The variations issue adds options and preset files."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise RulesetError(
            f"unknown ruleset {name!r}; known rulesets: {known}", code="ruleset.unknown"
        ) from None
