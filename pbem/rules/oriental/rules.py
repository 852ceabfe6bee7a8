"""The options Oriental Realm is played with, checked when a ruleset is built.

Presets (``oriental``, ``oriental-placement``, ``oriental-warning``) live in
``games/``; this module only knows the options, so the rules stay free of I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pbem.errors import RulesetError
from pbem.rules.setup_rules import Opening, SetupRules
from pbem.rules.values import frozen

#: option -> what it means, in the players' words
OPTION_HELP: dict[str, str] = {
    "setup": "standard (the reconstructed opening) or placement (one piece per Realm, "
    "placed in turn)",
    "warning": "after each turn a player is told which of his groups the opponent could "
    "surround on his next turn",
}
#: the piece codes a set-up given as a map may use
SETUP_CODES = ("wE", "wP", "bE", "bP")


@frozen
class OrientalRules(SetupRules):
    game: ClassVar[str] = "oriental"
    title: ClassVar[str] = "Oriental Realm"
    option_help: ClassVar[Mapping[str, str]] = OPTION_HELP
    setup_codes: ClassVar[tuple[str, ...]] = SETUP_CODES

    name: str = "oriental"
    #: "standard", "placement", or a given opening (square name, piece code) pairs
    setup: str | Opening = "standard"
    warning: bool = False

    def __post_init__(self) -> None:
        self.check_setup()
        if not isinstance(self.warning, bool):
            raise RulesetError(
                f"ruleset option 'warning' ({OPTION_HELP['warning']}) is {self.warning!r}; "
                "it must be true or false",
                code="ruleset.value",
            )

    def options(self) -> dict[str, Any]:
        setup = dict(self.setup) if isinstance(self.setup, tuple) else self.setup
        return {"name": self.name, "setup": setup, "warning": self.warning}


def oriental_rules(options: Mapping[str, Any]) -> OrientalRules:
    """Rules from a mapping of options; unknown options are an error naming the known ones."""
    return OrientalRules.from_options(options)


ORIENTAL = OrientalRules()
