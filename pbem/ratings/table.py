"""The club's ratings, folded from its finished rated games in the order they ended.

The table is always recomputed from the games, never kept as running state: a game
rolled back after its end, or made unrated, simply drops out of the fold, and the
same games always give the same table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pbem.ratings.glicko2 import Outcome, Rating, Settings, rate

SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


@dataclass(frozen=True, slots=True)
class Finished:
    """One finished game as the ratings see it. ``game`` is the game of the family
    (``featured``, ``classic``, ...), ``white``/``black`` identify players, ``number``
    breaks ties between games that ended at the same time (the game's id)."""

    game: str
    white: str
    black: str
    result: str
    finished_at: float
    rated: bool = True
    number: int = 0


#: above this deviation a rating is provisional, shown with a '?' (as lichess does)
PROVISIONAL_DEVIATION = 110.0
#: what the '?' means, in the same words wherever a rating is shown (issue 23.10)
PROVISIONAL_WORDS = "too few rated games yet to be sure"


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    rating: Rating
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def provisional(self) -> bool:
        return self.rating.deviation > PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """The rating as people read it: ``1662``, or ``1662?`` while provisional."""
        return f"{self.rating.rating:.0f}" + ("?" if self.provisional else "")


def fold(games: Iterable[Finished], settings: Settings) -> dict[str, dict[str, Standing]]:
    """Ratings per game of the family, then per player.

    Unrated games, unfinished results (``*``) and games a player played against
    himself are left out. Each game is one rating period for its two players, folded
    in the order the games ended (ties: the lower ``number`` first).
    """
    table: dict[str, dict[str, Standing]] = {}
    ordered = sorted(games, key=lambda g: (g.finished_at, g.number, g.game, g.white, g.black))
    for g in ordered:
        if not g.rated or g.result not in SCORES or g.white == g.black:
            continue
        rows = table.setdefault(g.game, {})
        white = rows.get(g.white) or Standing(g.white, settings.initial(), 0, 0, 0, 0)
        black = rows.get(g.black) or Standing(g.black, settings.initial(), 0, 0, 0, 0)
        sw, sb = SCORES[g.result]
        rows[g.white] = _after(white, black.rating, sw, settings)
        rows[g.black] = _after(black, white.rating, sb, settings)
    return table


def _after(me: Standing, opponent: Rating, score: float, settings: Settings) -> Standing:
    new = rate(me.rating, [Outcome(opponent, score)], tau=settings.tau,
               max_deviation=settings.deviation)
    return Standing(
        me.player, new, me.games + 1,
        me.wins + (score == 1.0), me.draws + (score == 0.5), me.losses + (score == 0.0),
    )


def ranked(rows: dict[str, Standing]) -> list[Standing]:
    """Highest rating first; ties by fewer games, then by name, so the order is stable."""
    return sorted(rows.values(), key=lambda s: (-s.rating.rating, s.games, s.player))
