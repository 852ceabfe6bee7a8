"""A record's syntax error in its game's words (issue 22, item 5): worded again once the
front matter has said the game, and an error after the ``/`` is Black's."""

from __future__ import annotations

from pbem.records.reader import read_games
from pbem.records.validate import validate_source

MODERN = """---
ruleset:
  game: modern
  setup: {a8: wE, b5: wE, c4: wP, e5: wE, b8: bE, j10: bE, k11: bP}
---
1.Eb5b7(Bb8,xEa9),Pc4d4d6/Bb8b9
"""


def _error(text: str):
    (source,) = read_games(text)
    report = validate_source(source)
    assert report.error is not None
    return report.error


def test_an_hq_move_after_the_slash_is_blacks_and_gets_the_rule() -> None:
    error = _error(MODERN)
    assert error.turn == "1b"
    assert error.message.startswith("an HQ never moves: 'Bb8' places one")


def test_a_syntax_error_after_the_slash_is_blacks() -> None:
    error = _error(MODERN.replace("/Bb8b9", "/Ek11k9,zz"))
    assert error.turn == "1b"


def test_a_syntax_error_in_a_medieval_record_shows_medieval_examples() -> None:
    error = _error("---\nruleset: medieval\n---\n1.eb5b8(xEa7)\n")
    assert "a move like 'Eb5b8'" in error.message
    assert "Pc10g10" not in error.message and "Rh5" not in error.message
    assert error.turn == "1w"
