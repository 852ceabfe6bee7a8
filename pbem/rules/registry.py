"""Every game on the Realm board, by name. The only module outside a game's own
package that imports it: a new game is an import and one line in ``_GAMES``.
"""

from __future__ import annotations

import functools
from typing import Any

from pbem.errors import RulesetError
from pbem.rules.classic.game import ClassicGame
from pbem.rules.game import AnyGame
from pbem.rules.medieval.game import MedievalGame
from pbem.rules.modern.game import ModernGame
from pbem.rules.oriental.game import OrientalGame
from pbem.rules.realm.game import FeaturedGame

#: every game, the Featured Game first; one line per game
_GAMES: dict[str, AnyGame] = {
    g.name: g
    for g in (
        FeaturedGame(),
        ClassicGame(),
        MedievalGame(),
        OrientalGame(),
        ModernGame(),
    )
}


def _load(name: str) -> AnyGame:
    return _GAMES[name]


def games() -> list[AnyGame]:
    """Every registered game, the Featured Game first."""
    return list(_GAMES.values())


def game_names() -> list[str]:
    return list(_GAMES)


@functools.cache
def _aliases() -> dict[str, str]:
    table = {n: n for n in _GAMES}
    for g in games():
        for alias in g.aliases:
            table.setdefault(alias, g.name)
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
