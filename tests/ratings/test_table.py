from __future__ import annotations

from pbem.ratings.glicko2 import Settings
from pbem.ratings.table import Finished, fold, ranked

S = Settings()


def test_a_win_puts_the_winner_above():
    t = fold([Finished("featured", "ann", "bob", "1-0", 1.0)], S)
    rows = ranked(t["featured"])
    assert [r.player for r in rows] == ["ann", "bob"]
    assert rows[0].rating.rating > 1500 > rows[1].rating.rating
    assert (rows[0].wins, rows[1].losses) == (1, 1)


def test_one_rating_per_game_of_the_family():
    t = fold([
        Finished("featured", "ann", "bob", "1-0", 1.0),
        Finished("classic", "ann", "bob", "0-1", 2.0),
    ], S)
    assert t["featured"]["ann"].rating.rating > 1500
    assert t["classic"]["ann"].rating.rating < 1500


def test_unrated_unfinished_and_self_play_are_left_out():
    t = fold([
        Finished("featured", "ann", "bob", "1-0", 1.0, rated=False),
        Finished("featured", "ann", "bob", "*", 2.0),
        Finished("featured", "ann", "ann", "1-0", 3.0),
    ], S)
    assert t == {}


def test_the_order_games_ended_in_counts_not_the_order_given():
    games = [
        Finished("featured", "ann", "bob", "1-0", 2.0),
        Finished("featured", "bob", "cy", "1-0", 1.0),
        Finished("featured", "cy", "ann", "1/2-1/2", 3.0),
    ]
    assert fold(games, S) == fold(list(reversed(games)), S)


def test_a_draw_between_newcomers_keeps_them_level():
    t = fold([Finished("featured", "ann", "bob", "1/2-1/2", 1.0)], S)
    assert round(t["featured"]["ann"].rating.rating, 6) == 1500
    assert t["featured"]["ann"].rating.deviation < 500
