"""The neutral syntax reads forms the Featured Game has no use for; its resolver
refuses them in the players' words, at the right turn and column."""

from __future__ import annotations

import pytest

from pbem.notation.parse import parse_game
from pbem.records.replay import replay_game

SETUP = "1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9\n"


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("7.Pi10i6(Eh5)", "notation.event", "needs the created Enforcer's facing"),
        ("7.Pi10i6(Ph5)", "notation.event", "a Power is never created"),
        ("7.Pi10i6(+Eh5)", "notation.event", "nothing is rescued or replaced"),
        ("7.Pi10i8i6", "move.squares", "never through more than one square"),
        ("7.Pi10off", "move.squares", "never off the board"),
    ],
)
def test_featured_refuses_what_it_does_not_play(text, code, words):
    replay = replay_game(parse_game(SETUP + text))
    assert replay.error is not None
    assert replay.error.code == code
    assert words in replay.error.message
    assert replay.error.turn == "7w" and replay.error.span.line == 2


def test_an_enforcer_is_never_placed_at_set_up():
    replay = replay_game(parse_game("1.Eh11"))
    assert replay.error is not None and replay.error.code == "setup.enforcer"
    assert "Enforcers are created in play" in replay.error.message
