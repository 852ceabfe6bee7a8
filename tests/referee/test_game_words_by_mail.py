"""Each game speaks its own words by mail too (issue 22, item 5): small letters of any
length get "Did you mean", a square off the board is named as ``pbem validate`` names it,
a piece that never moves gets that rule, and the piece names are the game's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.records.replay import GameError
from pbem.referee.store.games import load_game
from pbem.referee.turns.wording import in_player_words
from tests.referee.helpers import new_table


def _refusal(home: Path, ruleset: str, text: str) -> str:
    table = new_table(home, ruleset)
    handled = table.send(table.white.reply(text))
    assert handled.outcome == "refused", handled
    return handled.reason or ""


@pytest.mark.parametrize(("ruleset", "text", "meant"), [
    ("classic", "eb2e2e5b5b8(xea9)", "Eb2e2e5b5b8(xEa9)"),
    ("medieval", "eb2e2e5b5b8(xea9)", "Eb2e2e5b5b8(xEa9)"),
    ("classic", "eb5b8(xea7)", "Eb5b8(xEa7)"),
])
def test_a_long_turn_in_small_letters_gets_did_you_mean(
    home: Path, ruleset: str, text: str, meant: str
) -> None:
    reason = _refusal(home, ruleset, text)
    assert f"Did you mean {meant}?" in reason
    assert "Pc10g10" not in reason and "(B P E R)" not in reason


def test_small_letters_name_the_games_own_pieces(home: Path) -> None:
    reason = _refusal(home, "medieval", "eb2e2e5b5b8(xea9)")
    assert "pieces are written as capitals (P for a Duke and E for a Man)" in reason


def test_small_letters_of_an_illegal_turn_say_why_it_cannot_be_played(home: Path) -> None:
    reason = _refusal(home, "medieval", "eb5b8")
    assert "Did you mean Eb5b8? Written so, it cannot be played either: " in reason
    assert "expected" not in reason


@pytest.mark.parametrize("ruleset", ["classic", "featured"])
def test_a_square_off_the_board_is_named_as_validate_names_it(home: Path, ruleset: str) -> None:
    text = "Em2e5b5b8b11(xEb10)" if ruleset == "classic" else "Bm2"
    reason = _refusal(home, ruleset, text)
    assert reason.startswith("'m2' is not a square: files run from a to l and ranks from 1 to 12")


def test_an_hq_written_moving_gets_the_rule(home: Path) -> None:
    reason = _refusal(home, "modern", "Be2e3")
    assert reason.startswith("an HQ never moves")


def test_a_refused_move_lists_the_moves_of_the_games_own_piece(home: Path) -> None:
    table = new_table(home, "oriental")
    position = load_game(table.conn, table.game_id).position
    error = GameError("the Emperor cannot go to e9", "move.line", None, "1w", "Pe2e9")
    message = in_player_words(error, position, True).message
    assert "The Emperor on e2 can move: Pe2e3" in message
    assert "Power" not in message
