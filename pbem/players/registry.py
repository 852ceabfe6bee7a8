"""Which random-game policy plays which game: the game's name -> its policy.

``pbem generate`` and the benchmarks ask here instead of importing one game's policy,
so a new game's policy is one module plus one line below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.errors import PbemError
from pbem.players import modern, oriental, realm


@dataclass(frozen=True, slots=True)
class Policy:
    """A game's random player: a whole game from a random stream, and a random ruleset."""

    game: str
    #: ``play(rng, ruleset, *, max_turns=...)`` -> the game as played
    play: Callable[..., Any]
    #: ``random_ruleset(rng)`` -> a valid random ruleset of the game
    random_ruleset: Callable[[Any], Any]
    max_turns: int


POLICIES: dict[str, Policy] = {
    "realm": Policy("realm", realm.play_random_game, realm.random_ruleset, realm.MAX_TURNS),
    "oriental": Policy(
        "oriental", oriental.play_random_game, oriental.random_ruleset, oriental.MAX_TURNS
    ),
    "modern": Policy("modern", modern.play_random_game, modern.random_ruleset, modern.MAX_TURNS),
}


class NoPolicy(PbemError):
    code = "players.unknown-game"


def policy(game: str) -> Policy:
    """The random policy of ``game``; a clear error for a game without one."""
    try:
        return POLICIES[game]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise NoPolicy(f"no random player for the game {game!r} (there is one for: {known})") \
            from None
