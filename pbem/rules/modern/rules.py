"""The options Modern Realm is played with (presets ``modern``, ``modern-placement``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pbem.errors import RulesetError
from pbem.rules.geometry import is_square_name

OPTION_HELP: dict[str, str] = {
    "setup": "standard (the reconstructed opening) or placement (each side places its "
    "pieces on the Centers of its own half, in turn)",
}
SETUPS = ("standard", "placement")
#: the piece codes a set-up given as a map may use
SETUP_CODES = ("wE", "wP", "wB", "bE", "bP", "bB")

#: a set-up given as a map: (square name, piece code) pairs, sorted
Opening = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class ModernRules:
    game: ClassVar[str] = "modern"

    name: str = "modern"
    #: "standard", "placement", or a given opening (square name, piece code) pairs
    setup: str | Opening = "standard"

    def __post_init__(self) -> None:
        if not isinstance(self.setup, tuple) and self.setup not in SETUPS:
            raise RulesetError(
                f"ruleset option 'setup' is {self.setup!r}; Modern Realm is set up "
                "'standard' or by 'placement'",
                code="ruleset.value",
            )

    @property
    def placement(self) -> bool:
        return self.setup == "placement"

    @property
    def opening(self) -> Opening | None:
        """The set-up given as a map, or None for the standard one or placement."""
        return self.setup if isinstance(self.setup, tuple) else None

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
    values = dict(options)
    if isinstance(values.get("setup"), Mapping):
        values["setup"] = opening_from(values["setup"])
    return ModernRules(**values)


def opening_from(given: Mapping[Any, Any]) -> Opening:
    """A set-up map (square -> piece code, like the JSON board) checked and frozen."""
    out = []
    for square, code in given.items():
        if not is_square_name(str(square)) or code not in SETUP_CODES:
            raise RulesetError(
                f"the set-up gives {square}: {code}; a set-up maps squares (a1 to l12) to "
                f"pieces of Modern Realm: {', '.join(SETUP_CODES)}",
                code="ruleset.setup",
            )
        out.append((str(square), str(code)))
    return tuple(sorted(out))


MODERN = ModernRules()
