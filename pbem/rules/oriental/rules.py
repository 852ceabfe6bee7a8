"""The options Oriental Realm is played with, checked when a ruleset is built.

Presets (``oriental``, ``oriental-placement``, ``oriental-warning``) live in
``games/``; this module only knows the options, so the rules stay free of I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pbem.errors import RulesetError

#: option -> what it means, in the players' words
OPTION_HELP: dict[str, str] = {
    "setup": "standard (the reconstructed opening) or placement (one piece per Realm, "
    "placed in turn)",
    "warning": "after each turn a player is told which of his groups the opponent could "
    "surround on his next turn",
}
SETUPS = ("standard", "placement")


@dataclass(frozen=True, slots=True)
class OrientalRules:
    game: ClassVar[str] = "oriental"

    name: str = "oriental"
    #: "standard" or "placement"
    setup: str = "standard"
    warning: bool = False

    def __post_init__(self) -> None:
        if self.setup not in SETUPS:
            raise RulesetError(
                f"ruleset option 'setup' is {self.setup!r}; Oriental Realm is set up "
                "'standard' or by 'placement'",
                code="ruleset.value",
            )
        if not isinstance(self.warning, bool):
            raise RulesetError(
                f"ruleset option 'warning' ({OPTION_HELP['warning']}) is {self.warning!r}; "
                "it must be true or false",
                code="ruleset.value",
            )

    @property
    def placement(self) -> bool:
        return self.setup == "placement"

    def differences(self, other: Any = None) -> dict[str, Any]:
        """The options that differ from ``other`` (the defaults when None)."""
        base = (other or type(self)()).options()
        return {k: v for k, v in self.options().items() if k != "name" and base[k] != v}

    def options(self) -> dict[str, Any]:
        return {"name": self.name, "setup": self.setup, "warning": self.warning}


def oriental_rules(options: Mapping[str, Any]) -> OrientalRules:
    """Rules from a mapping of options; unknown options are an error naming the known ones."""
    known = ("name", *OPTION_HELP)
    unknown = [k for k in options if k not in known]
    if unknown:
        raise RulesetError(
            f"unknown ruleset option {unknown[0]!r} for Oriental Realm; the options are: "
            f"{', '.join(OPTION_HELP)}",
            code="ruleset.unknown-option",
        )
    return OrientalRules(**dict(options))


ORIENTAL = OrientalRules()
