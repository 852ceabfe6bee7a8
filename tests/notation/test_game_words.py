"""Each game speaks its own words (issue 22, item 5): an error about how a turn is
written shows the forms of the game being played, never the Featured Game's examples
in another game; a piece that never moves, written moving, gets that rule."""

from __future__ import annotations

import pytest

from pbem.errors import NotationError
from pbem.notation.parse import parse_movetext
from pbem.rules.registry import game_for, games

BROKEN = [
    "7.eb2e2e5b5b8(xea9)",  # small letters: unreadable
    "7.Pa1a2(",  # an event list never closed
    "7.Pa1a2(q",
    "7.Pa1a2,",
    "7.Pa1",
    "7.Pa1a2 zz",
    "7.Pa1a2(xQa4)",
    "7.Pa1a2(Ea4Z)",
]
FEATURED_ONLY = ("Pc10g10", "'Bh11'", "Rh5(", "Eg12S", "xBb5")


def _error(text: str, name: str) -> str:
    with pytest.raises(NotationError) as info:
        parse_movetext(text, game=game_for(name))
    return info.value.message


@pytest.mark.parametrize("name", ["classic", "medieval", "oriental", "modern"])
def test_no_other_game_hears_the_featured_games_examples(name: str) -> None:
    for text in BROKEN:
        try:
            message = _error(text, name)
        except pytest.fail.Exception:
            continue  # read as something else (a note): no error to word
        for words in FEATURED_ONLY:
            assert words not in message, (name, text, message)


def test_each_game_shows_its_own_move() -> None:
    assert "a move like 'Pc10g10'" in _error("7.eb2b5", "featured")
    assert "a Rearrangement like 'Rh5(...)'" in _error("7.eb2b5", "featured")
    assert "a move like 'Eb5b8'" in _error("7.eb2b5", "classic")
    assert "a piece and its square like 'Pe2'" in _error("7.eb2b5", "medieval")
    assert "a move like 'Ed4d9'" in _error("7.eb2b5", "oriental")
    assert "Rearrangement" not in _error("7.eb2b5", "modern")


def test_every_games_examples_use_its_own_letters() -> None:
    for game in games():
        letters = {s.letter for s in game.pieces.styles}
        w = game.notation_words
        for example in (w.move, w.placement):
            assert example[0] in letters, (game.name, example)
        for taken in filter(None, w.taken.split(" or ")):
            assert taken[1] in letters, (game.name, taken)
        assert set(w.fixed) <= letters


@pytest.mark.parametrize(("name", "rule"), [
    ("featured", "a Base never moves: 'Be5' places one"),
    ("modern", "an HQ never moves: 'Be5' places one"),
    ("classic", "Classic Realm has no piece 'B': its pieces are E for an Enforcer"),
])
def test_a_piece_that_never_moves_written_moving_gets_that_rule(name: str, rule: str) -> None:
    assert _error("7.Be5e6", name).startswith(rule)


def test_the_letter_after_x_is_one_of_the_games_own() -> None:
    assert "'P' or 'E' after 'x' (the piece taken, like xEd4)" in _error(
        "7.Pe8e11(+Ed7,xQd7)", "medieval")
    assert "'B', 'P' or 'E' after 'x' (the piece taken, like xBb5 or xEa7)" in _error(
        "7.Pa1a2(Bb2,xQa4)", "featured")
