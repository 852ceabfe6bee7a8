"""The options of a Center-to-Center game: the set-up, and Classic's double moves.

A Ruleset names its game through its Variant. ``setup`` is ``None`` for the
reconstructed standard opening, ``"placement"`` for placing the pieces one at a
time, or a custom opening (a club that has the booklet's real figure can use it).
Presets live in ``games/*.yaml``; this module only checks options, without I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.errors import RulesetError
from pbem.rules.classic.pieces import PIECE_BY_CODE, Piece
from pbem.rules.classic.variant import CLASSIC, Variant
from pbem.rules.geometry import IS_CENTER, SQUARE_NAMES, is_square_name, parse_square
from pbem.rules.pieces import Side
from pbem.rules.values import frozen

#: option -> what it means (for errors, docs and ``pbem rulesets``)
OPTION_HELP: dict[str, str] = {
    "setup": "the opening set-up: the reconstructed standard one, the pieces placed one "
    "at a time, or a custom one",
    "double_moves": "each player in turn may take a double move (two moves in one turn), "
    "strictly alternating, the second player first (Classic, variation 2)",
}

Opening = tuple[tuple[int, Piece], ...]


@frozen
class Ruleset:
    variant: Variant = CLASSIC
    #: the preset this came from, or a description such as "classic+double_moves"
    name: str = "classic"
    #: the players place their pieces one at a time (option ``setup: placement``)
    placement: bool = False
    #: a custom opening, by square (option ``setup:`` a map); None: the standard one
    opening: Opening | None = None
    double_moves: bool = False

    @property
    def game(self) -> str:
        return self.variant.game

    def initial_board(self) -> Opening:
        """The opening's pieces, by square: empty with ``placement``."""
        if self.placement:
            return ()
        return self.opening if self.opening is not None else self.variant.opening()

    def first_to_move(self) -> Side:
        return self.variant.first_after_placement() if self.placement else Side.WHITE

    def options(self) -> dict[str, Any]:
        """Every option this game has, by name (``name`` included), as a ruleset file
        writes it: ``ruleset.with_options(ruleset.options()) == ruleset``."""
        out: dict[str, Any] = {"name": self.name, "setup": self.setup_option()}
        if "double_moves" in self.variant.options:
            out["double_moves"] = self.double_moves
        return out

    def differences(self, other: Ruleset | None = None) -> dict[str, Any]:
        """The options that differ from ``other`` (the game's standard rules by default)."""
        base = (other or Ruleset(self.variant)).options()
        return {k: v for k, v in self.options().items() if k != "name" and base.get(k) != v}

    def setup_option(self) -> str | dict[str, str]:
        if self.placement:
            return "placement"
        if self.opening is not None:
            return {SQUARE_NAMES[s]: p.code for s, p in self.opening}
        return "standard"

    def with_options(self, options: Mapping[str, Any], name: str | None = None) -> Ruleset:
        """A copy with ``options`` changed; every mistake is a RulesetError naming it."""
        allowed = self.variant.options
        if "name" in options:
            if name is None:
                name = options["name"]
            options = {k: v for k, v in options.items() if k != "name"}
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise RulesetError(
                f"ruleset option 'name' is {name!r}; it must be a non-empty text",
                code="ruleset.value",
            )
        for key in options:
            if key not in allowed:
                raise RulesetError(
                    f"unknown ruleset option {key!r} for {self.variant.title}; its options "
                    f"are: name, {', '.join(allowed)}",
                    code="ruleset.unknown-option",
                )
        placement, opening, double = self.placement, self.opening, self.double_moves
        if "setup" in options:
            placement, opening = _setup(self.variant, options["setup"])
        if "double_moves" in options:
            double = options["double_moves"]
            if not isinstance(double, bool):
                raise RulesetError(
                    f"ruleset option 'double_moves' ({OPTION_HELP['double_moves']}) is "
                    f"{double!r}; it must be true or false",
                    code="ruleset.value",
                )
        if name is None:
            name = self.name
            for k, v in options.items():
                if k == "setup":
                    name += "+" + ("placement" if placement else "custom-setup" if opening else "")
                elif v is True:
                    name += f"+{k}"
                elif v is False:
                    name += f"+no-{k}"
            name = name.rstrip("+")
        return Ruleset(self.variant, name, placement, opening, double)


def _setup(variant: Variant, value: Any) -> tuple[bool, Opening | None]:
    if value is None or value == "standard":
        return False, None
    if value == "placement":
        return True, None
    if not isinstance(value, Mapping):
        raise RulesetError(
            f"ruleset option 'setup' is {value!r}; it must be standard, placement, or a "
            "map from square to piece such as {b2: wE, e2: wP}",
            code="ruleset.value",
        )
    return False, parse_opening(variant, value)


def parse_opening(variant: Variant, value: Mapping[Any, Any]) -> Opening:
    """A custom opening from a map of square name to piece code, checked: each side
    has exactly the game's pieces, and at least one of them on a Center."""
    placed: dict[int, Piece] = {}
    for key, code in value.items():
        name = str(key).strip().lower()
        if not is_square_name(name):
            raise RulesetError(
                f"the set-up names {key!r}, which is not a square (a1 to l12)",
                code="ruleset.setup",
            )
        p = PIECE_BY_CODE.get(str(code).strip()) if isinstance(code, str) else None
        if p is None or p.kind not in dict(variant.complement):
            codes = ", ".join(
                f"{s.letter}{k.value}" for s in Side for k, _ in variant.complement
            )
            raise RulesetError(
                f"the set-up puts {code!r} on {name}; the pieces of {variant.title} are "
                f"written {codes}",
                code="ruleset.setup",
            )
        placed[parse_square(name)] = p
    counts = Counter(placed.values())
    for side in Side:
        for kind, n in variant.complement:
            have = sum(c for p, c in counts.items() if p.side is side and p.kind is kind)
            if have != n:
                raise RulesetError(
                    f"the set-up gives {side.title} {have} "
                    f"{variant.names[kind][0 if have == 1 else 1]}; each side has {n}",
                    code="ruleset.setup",
                )
        if not any(IS_CENTER[s] for s, p in placed.items() if p.side is side):
            raise RulesetError(
                f"the set-up puts none of {side.title}'s pieces on a Center: only pieces "
                "on Centers move",
                code="ruleset.setup",
            )
    return tuple(sorted(placed.items()))


CLASSIC_RULES = Ruleset()
