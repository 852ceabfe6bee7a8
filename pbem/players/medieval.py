"""The random player of Medieval Realm: Classic Realm's player (one engine, one player),
with Medieval's rulesets."""

from __future__ import annotations

from typing import Any

from pbem.players.classic import MAX_TURNS, Playout, Rng, play_random_game, random_ruleset
from pbem.rules.medieval.variant import MEDIEVAL_RULES

__all__ = ["MAX_TURNS", "Playout", "play_random_game", "random_medieval_ruleset"]


def random_medieval_ruleset(rng: Rng) -> Any:
    return random_ruleset(rng, MEDIEVAL_RULES)
