"""The options Modern Realm is played with (presets ``modern``, ``modern-placement``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pbem.rules.setup_rules import Opening, SetupRules
from pbem.rules.values import frozen

OPTION_HELP: dict[str, str] = {
    "setup": "standard (the reconstructed opening) or placement (each side places its "
    "pieces on the Centers of its own half, in turn)",
}
#: the piece codes a set-up given as a map may use
SETUP_CODES = ("wE", "wP", "wB", "bE", "bP", "bB")


@frozen
class ModernRules(SetupRules):
    game: ClassVar[str] = "modern"
    title: ClassVar[str] = "Modern Realm"
    option_help: ClassVar[Mapping[str, str]] = OPTION_HELP
    setup_codes: ClassVar[tuple[str, ...]] = SETUP_CODES

    name: str = "modern"
    #: "standard", "placement", or a given opening (square name, piece code) pairs
    setup: str | Opening = "standard"

    def options(self) -> dict[str, Any]:
        return {"name": self.name, "setup": self.setup}


def modern_rules(options: Mapping[str, Any]) -> ModernRules:
    """Rules from a mapping of options; unknown options are an error naming the known ones."""
    return ModernRules.from_options(options)


MODERN = ModernRules()
