"""Every game on the Realm board, by name. The only module outside a game's own
package that imports it: a new game is a function that imports and makes it, and one
line in ``_GAMES``.

A game's package is imported when a record, a ruleset or a command first asks for the
game, not when pbem starts: ``pbem validate`` of a Featured Game record never loads
the other four games (a cold start's import time was half spent on them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pbem.errors import RulesetError
from pbem.rules.game import AnyGame


# each game's package, imported when the game is first asked for (the imports stay
# written out, where tests/test_layers.py sees them)
def _featured() -> AnyGame:
    from pbem.rules.realm.game import FeaturedGame

    return FeaturedGame()


def _classic() -> AnyGame:
    from pbem.rules.classic.game import ClassicGame

    return ClassicGame()


def _medieval() -> AnyGame:
    from pbem.rules.medieval.game import MedievalGame

    return MedievalGame()


def _oriental() -> AnyGame:
    from pbem.rules.oriental.game import OrientalGame

    return OrientalGame()


def _modern() -> AnyGame:
    from pbem.rules.modern.game import ModernGame

    return ModernGame()


#: every game, the Featured Game first: its name, how it is made, and the other names
#: it answers to (the game's own ``aliases``, checked when it loads); one line per game
_GAMES: dict[str, tuple[Callable[[], AnyGame], tuple[str, ...]]] = {
    "featured": (_featured, ("realm",)),
    "classic": (_classic, ()),
    "medieval": (_medieval, ()),
    "oriental": (_oriental, ()),
    "modern": (_modern, ()),
}


@functools.cache
def _load(name: str) -> AnyGame:
    make, aliases = _GAMES[name]
    game = make()
    if game.name != name or tuple(game.aliases) != aliases:  # pragma: no cover - a typo
        raise RuntimeError(f"the registry's line for {name!r} does not match its game")
    return game


def games() -> list[AnyGame]:
    """Every registered game, the Featured Game first (each loaded)."""
    return [_load(name) for name in _GAMES]


def game_names() -> list[str]:
    return list(_GAMES)


@functools.cache
def _aliases() -> dict[str, str]:
    table = {n: n for n in _GAMES}
    for name, (_, aliases) in _GAMES.items():
        for alias in aliases:
            table.setdefault(alias, name)
    return table


def game_for(name: str) -> AnyGame:
    """The game called ``name`` (or one of its aliases); RulesetError naming the games."""
    key = _aliases().get(str(name).strip().lower())
    if key is None:
        raise RulesetError(
            f"unknown game {name!r}; the games are: {', '.join(_GAMES)}",
            code="ruleset.game",
        )
    return _load(key)


def game_of(thing: Any) -> AnyGame:
    """The game a ruleset or a position (anything with a ``ruleset``) belongs to."""
    ruleset = getattr(thing, "ruleset", thing)
    return game_for(getattr(ruleset, "game", "featured"))


def featured() -> AnyGame:
    """The default game: the Featured Game."""
    return _load("featured")
