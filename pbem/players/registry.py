"""Which random-game policy plays which game: the game's name -> its policy.

``pbem generate`` and the benchmarks ask here instead of importing one game's policy,
so a new game's policy is one module plus one line below. A policy plays a whole
game and hands it back as a ``GeneratedGame``: every turn's actions as canonical
written syntax (``pbem.rules.written``), so the record writer needs no game's types.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pbem.errors import PbemError
from pbem.players import classic, medieval, modern, oriental, realm
from pbem.rules.game import GamePosition, GameRuleset
from pbem.rules.pieces import Side
from pbem.rules.values import frozen
from pbem.rules.written import ActionText


@frozen
class GeneratedGame:
    """A game a policy played, as the record will say it."""

    ruleset: GameRuleset
    #: every turn in order (placements included): who played it and its actions
    turns: tuple[tuple[Side, tuple[ActionText, ...]], ...]
    final: GamePosition
    #: cut off (turn cap or dead end) instead of ending by the rules
    capped: bool = False
    #: games thrown away before this one and played afresh
    discarded: int = 0
    #: the policy's own account of the game (the Featured coverage counts read it)
    playout: object = None


@frozen
class Policy:
    """A game's random player: a whole game from a random stream, and a random ruleset."""

    game: str
    #: ``play(rng, ruleset, *, max_turns=...)`` -> the game as the policy played it
    play: Callable[..., object]
    #: ``random_ruleset(rng)`` -> a valid random ruleset of the game
    random_ruleset: Callable[[random.Random], GameRuleset]
    max_turns: int
    #: ``written(played)`` -> the GeneratedGame of what ``play`` returned
    written: Callable[[Any], GeneratedGame]

    def generate(
        self, rng: random.Random, ruleset: GameRuleset, *, max_turns: int | None = None
    ) -> GeneratedGame:
        played = self.play(rng, ruleset, max_turns=max_turns or self.max_turns)
        return self.written(played)


def _realm_written(playout: realm.Playout) -> GeneratedGame:
    turns = tuple((turn[0].side, realm.written_turn(turn)) for turn in playout.turns)
    return GeneratedGame(
        playout.ruleset, turns, playout.final, playout.capped, playout.discarded, playout
    )


def _steps_written(playout: Any, written_turn: Callable[[Any], Any]) -> GeneratedGame:
    """A playout of steps (side, action, events, before, after) as a GeneratedGame."""
    turns = tuple((turn[0].side, written_turn(turn)) for turn in playout.turns)
    return GeneratedGame(playout.rules, turns, playout.final, playout.capped, 0, playout)


_REALM = Policy(
    "featured", realm.play_random_game, realm.random_ruleset, realm.MAX_TURNS, _realm_written
)


def _center_written(playout: classic.Playout) -> GeneratedGame:
    turns = tuple((t.side, t.texts) for t in playout.turns)
    return GeneratedGame(playout.ruleset, turns, playout.final, playout.capped, 0, playout)


_CLASSIC = Policy(
    "classic", classic.play_random_game, classic.random_ruleset, classic.MAX_TURNS,
    _center_written,
)
_MEDIEVAL = Policy(
    "medieval", medieval.play_random_game, medieval.random_medieval_ruleset,
    medieval.MAX_TURNS, _center_written,
)

#: game name (``pbem.rules.registry``) -> its policy
POLICIES: dict[str, Policy] = {
    "featured": _REALM,
    "realm": _REALM,  # the Featured Game's former name here
    "oriental": Policy(
        "oriental", oriental.play_random_game, oriental.random_ruleset, oriental.MAX_TURNS,
        lambda p: _steps_written(p, oriental.written_turn),
    ),
    "modern": Policy(
        "modern", modern.play_random_game, modern.random_ruleset, modern.MAX_TURNS,
        lambda p: _steps_written(p, modern.written_turn),
    ),
    "classic": _CLASSIC,
    "medieval": _MEDIEVAL,
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
