"""The options Modern Realm is played with (presets ``modern``, ``modern-placement``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pbem.errors import RulesetError

OPTION_HELP: dict[str, str] = {
    "setup": "standard (the reconstructed opening) or placement (each side places its "
    "pieces on the Centers of its own half, in turn)",
}
SETUPS = ("standard", "placement")


@dataclass(frozen=True, slots=True)
class ModernRules:
    game: ClassVar[str] = "modern"

    name: str = "modern"
    setup: str = "standard"

    def __post_init__(self) -> None:
        if self.setup not in SETUPS:
            raise RulesetError(
                f"ruleset option 'setup' is {self.setup!r}; Modern Realm is set up "
                "'standard' or by 'placement'",
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
        return {"name": self.name, "setup": self.setup}


def modern_rules(options: Mapping[str, Any]) -> ModernRules:
    """Rules from a mapping of options; unknown options are an error naming the known ones."""
    unknown = [k for k in options if k not in ("name", *OPTION_HELP)]
    if unknown:
        raise RulesetError(
            f"unknown ruleset option {unknown[0]!r} for Modern Realm; the options are: "
            f"{', '.join(OPTION_HELP)}",
            code="ruleset.unknown-option",
        )
    return ModernRules(**dict(options))


MODERN = ModernRules()
