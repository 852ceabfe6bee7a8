"""What the rulesets of Oriental and Modern Realm share: a ``setup`` option that is
the reconstructed opening, placement, or a given set-up, and the checks of options
that build them. Each game keeps its own options and their words; this holds the
checks once so that the two games refuse a ruleset the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self, TypeVar

from pbem.errors import RulesetError
from pbem.rules.game import merged_options
from pbem.rules.geometry import SQUARES, is_square_name, parse_square

#: the named set-ups; a set-up may also be given as a map
SETUPS = ("standard", "placement")

#: a set-up given as a map: (square name, piece code) pairs, sorted
Opening = tuple[tuple[str, str], ...]

R = TypeVar("R")


class SetupRules:
    """The ``setup`` option's questions, and a ruleset built from options, for a frozen
    ruleset dataclass that has one (the class names its game's words below)."""

    __slots__ = ()
    #: the game in prose, for its errors: ``"Oriental Realm"``
    title: ClassVar[str]
    #: option -> what it means, in the players' words (the options it knows)
    option_help: ClassVar[Mapping[str, str]]
    #: the piece codes a set-up given as a map may use
    setup_codes: ClassVar[tuple[str, ...]]
    setup: str | Opening

    def __post_init__(self) -> None:
        """The dataclass checks its ``setup`` as it is made (each game's rules alike)."""
        self.check_setup()

    def check_setup(self) -> None:
        if not isinstance(self.setup, tuple) and self.setup not in SETUPS:
            raise RulesetError(
                f"ruleset option 'setup' is {self.setup!r}; {self.title} is set up "
                "'standard' or by 'placement'",
                code="ruleset.value",
            )

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        """Rules from a mapping of options; unknown options are an error naming the
        known ones."""
        return rules_from(cls, options, cls.option_help, cls.title, cls.setup_codes)

    def with_options(self, options: Mapping[str, object], name: str | None = None) -> Self:
        """These rules with ``options`` over them, named ``name`` (``merged_options``)."""
        return self.from_options(merged_options(self.options(), options, name))

    @property
    def placement(self) -> bool:
        return self.setup == "placement"

    @property
    def opening(self) -> Opening | None:
        """The set-up given as a map, or None for the standard one or placement."""
        return self.setup if isinstance(self.setup, tuple) else None

    def options(self) -> dict[str, Any]:
        raise NotImplementedError

    def differences(self, other: Any = None) -> dict[str, Any]:
        """The options that differ from ``other`` (the defaults when None)."""
        base = (other or type(self)()).options()
        return {k: v for k, v in self.options().items() if k != "name" and base[k] != v}


def rules_from(
    make: type[R], options: Mapping[str, Any], option_help: Mapping[str, str], title: str,
    codes: Sequence[str],
) -> R:
    """Rules from a mapping of options; unknown options are an error naming the known
    ones, a set-up given as a map is checked (``codes``: the pieces it may use)."""
    unknown = [k for k in options if k not in ("name", *option_help)]
    if unknown:
        raise RulesetError(
            f"unknown ruleset option {unknown[0]!r} for {title}; the options are: "
            f"{', '.join(option_help)}",
            code="ruleset.unknown-option",
        )
    values = dict(options)
    if isinstance(values.get("setup"), Mapping):
        values["setup"] = opening_from(values["setup"], title, codes)
    return make(**values)


def opening_from(given: Mapping[Any, Any], title: str, codes: Sequence[str]) -> Opening:
    """A set-up map (square -> piece code, like the JSON board) checked and frozen."""
    out = []
    for square, code in given.items():
        if not is_square_name(str(square)) or code not in codes:
            raise RulesetError(
                f"the set-up gives {square}: {code}; a set-up maps squares (a1 to l12) to "
                f"pieces of {title}: {', '.join(codes)}",
                code="ruleset.setup",
            )
        out.append((str(square), str(code)))
    return tuple(sorted(out))


def opening_board(
    rules: SetupRules, setup: Mapping[int, Any] | None, standard: Mapping[int, Any],
    codes: Mapping[str, Any],
) -> list[Any] | None:
    """The board a game opens with, as a list of pieces by square: the set-up given,
    else the ruleset's map (``codes``: its piece codes), else ``standard``; None when
    the pieces are placed in turn (an empty board)."""
    if setup is None and rules.placement:
        return None
    if setup is None and rules.opening is not None:
        setup = {parse_square(name): codes[code] for name, code in rules.opening}
    board: list[Any] = [None] * len(SQUARES)
    for sq, piece in (standard if setup is None else setup).items():
        board[sq] = piece
    return board
