"""``moves`` answers as a player thinks (issue 23, item 7): per piece its destinations as
ranges, what each creates or captures, "any facing" once, never every facing spelled
out; ``moves after ...`` lists what may follow within the turn."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.referee.commands.moves import format_moves
from pbem.referee.store.games import load_game
from pbem.render.legal_text import format_listing, legal_listing
from tests.referee.conftest import text_of
from tests.referee.test_player_words import _until


def test_moves_is_ranges_and_any_facing_not_a_wall(home: Path) -> None:
    table = _until(home, "9w")
    position = load_game(table.conn, table.game_id).position
    full = format_listing(position, legal_listing(position))
    told = format_moves(position)
    written = re.compile(r"(?<![A-Za-z])[PE][a-l]\d+[a-l]\d+")
    assert len(written.findall(told)) * 3 < len(written.findall(full))  # not a wall
    assert "any facing" in told
    assert re.search(r"to [a-l]\d+-[a-l]\d+", told)  # a run along a line, as a range
    # no created Enforcer with its facing spelled out four times
    assert not re.search(r"\(E[a-l]\d+N\)", told)
    assert table.send(table.white.reply("moves")).outcome == "info"
    assert "any facing" in text_of(table.white.last)


def test_moves_after_lists_what_may_follow_within_the_turn(home: Path) -> None:
    table = _until(home, "9w")
    position = load_game(table.conn, table.game_id).position
    first = next(m for ms in legal_listing(position)["moves"].values() for m in ms
                 if "(" not in m)
    assert table.send(table.white.reply(f"moves after {first}")).outcome == "info"
    text = text_of(table.white.last)
    assert f"Legal moves after {first}" in text
    assert (f"After {first}, your turn may go on with:" in text
            or "Nothing may follow" in text)


def test_moves_after_a_move_that_cannot_be_played_is_refused_in_words(home: Path) -> None:
    table = _until(home, "9w")
    handled = table.send(table.white.reply("moves after Pa1a2"))
    assert handled.outcome == "refused"
    assert (handled.reason or "").startswith("'Pa1a2' cannot begin your turn now: ")
