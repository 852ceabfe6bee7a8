"""The worked example of Glickman's paper, to its printed precision."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.ratings.glicko2 import SCALE, Outcome, Rating, Settings, rate


def test_the_papers_example():
    player = Rating(1500, 200, 0.06)
    games = [
        Outcome(Rating(1400, 30, 0.06), 1.0),
        Outcome(Rating(1550, 100, 0.06), 0.0),
        Outcome(Rating(1700, 300, 0.06), 0.0),
    ]
    new = rate(player, games, tau=0.5, max_deviation=350)
    # The paper prints the Glicko-2 scale to four places: mu' = -0.2069, phi' = 0.8722,
    # sigma' = 0.05999; then r' = 1464.06 and RD' = 151.52, converted from those
    # rounded values (the unrounded mu' gives 1464.05).
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.deviation / SCALE, 4) == 0.8722
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)


def test_a_period_without_games_only_widens_the_deviation():
    player = Rating(1500, 200, 0.06)
    new = rate(player, [], tau=0.5, max_deviation=350)
    assert new.rating == 1500
    assert 200 < new.deviation < 201


def test_the_deviation_never_passes_its_cap():
    fresh = Settings().initial()
    assert rate(fresh, [], tau=0.75, max_deviation=500).deviation == 500


def test_lichess_defaults():
    assert Settings().initial() == Rating(1500, 500, 0.09)
    assert Settings().tau == 0.75


ratings = st.builds(
    Rating,
    st.floats(600, 2600),
    st.floats(30, 500),
    st.floats(0.03, 0.12),
)


@given(ratings, ratings)
def test_a_win_never_lowers_and_a_loss_never_raises(me, other):
    won = rate(me, [Outcome(other, 1.0)], tau=0.75, max_deviation=500)
    lost = rate(me, [Outcome(other, 0.0)], tau=0.75, max_deviation=500)
    assert won.rating >= me.rating >= lost.rating
    assert won.deviation <= 500 and lost.deviation <= 500


@pytest.mark.parametrize("score", [0.0, 0.5, 1.0])
def test_a_drawn_game_between_equals_changes_nothing_but_the_deviation(score):
    me = Rating(1500, 200, 0.06)
    new = rate(me, [Outcome(me, score)], tau=0.5, max_deviation=350)
    if score == 0.5:
        assert new.rating == pytest.approx(1500)
    assert new.deviation < 200
