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


def test_a_rating_is_provisional_while_its_deviation_is_above_110():
    from pbem.ratings.glicko2 import Rating
    from pbem.ratings.table import Standing

    assert Standing("ann", Rating(1612.4, 110.0, 0.09), 30, 20, 0, 10).shown() == "1612"
    assert Standing("ann", Rating(1612.6, 110.1, 0.09), 30, 20, 0, 10).shown() == "1613?"


def test_ties_in_time_go_by_the_games_number():
    first = Finished("featured", "ann", "bob", "1-0", 5.0, number=1)
    second = Finished("featured", "bob", "ann", "1-0", 5.0, number=2)
    one, two = fold([second, first], S), fold([first, second], S)
    assert one == two
    # folded the other way round the table differs: the order matters and is the number's
    swapped = fold([Finished("featured", "ann", "bob", "1-0", 5.0, number=2),
                    Finished("featured", "bob", "ann", "1-0", 5.0, number=1)], S)
    assert swapped["featured"]["ann"].rating != one["featured"]["ann"].rating
