"""Glicko-2, as in Mark Glickman's paper "Example of the Glicko-2 system".

Pure functions on immutable values: a rating goes in with the period's games and
a new rating comes out. Every rated game is its own rating period (as on lichess),
so a correspondence club's table never waits for a period to close.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: the paper's conversion factor between the Glicko and the Glicko-2 scale
SCALE = 173.7178
#: the paper's convergence tolerance for the volatility iteration
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Settings:
    """The defaults are lichess's: rating 1500, deviation 500, volatility 0.09, tau 0.75."""

    rating: float = 1500.0
    deviation: float = 500.0
    volatility: float = 0.09
    tau: float = 0.75

    def initial(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of the period: the opponent's rating before it, and the score (1, 0.5, 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[Outcome], *, tau: float, max_deviation: float) -> Rating:
    """The player's rating after one rating period holding ``games``.

    A period without games only widens the deviation (step 6 alone), never past
    ``max_deviation``.
    """
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    if not games:
        phi_star = math.sqrt(phi * phi + player.volatility**2)
        return Rating(player.rating, min(phi_star * SCALE, max_deviation), player.volatility)
    terms = []
    for game in games:
        mu_j = (game.opponent.rating - 1500.0) / SCALE
        phi_j = game.opponent.deviation / SCALE
        terms.append((_g(phi_j), _expected(mu, mu_j, phi_j), game.score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    sigma = _new_volatility(player.volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(SCALE * mu_new + 1500.0, min(SCALE * phi_new, max_deviation), sigma)
