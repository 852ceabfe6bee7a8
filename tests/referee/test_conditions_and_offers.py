"""Issue 23, item 3: a conditional answer never answers a question its owner has not seen.
When the opponent's turn comes with an offer (draw, end, takeback), the owner's matching
answer waits; he is told of the offer and that his answer (line N of his set) waits;
declining plays it, accepting ends the game (or takes the turn back), another turn of his
replaces it."""

from __future__ import annotations

from pbem.referee.store.games import load_game
from pbem.rules.pieces import Side
from tests.referee.conftest import text_of
from tests.referee.helpers import Table
from tests.referee.test_conditions_by_mail import TURNS, standing, table  # noqa: F401

#: White's turn 7w with a set whose line 2 answers 7b with 8w
WHITE_MAIL = (f"{TURNS['7w']}\nif Pc9c12 then Pi6j6(Bk5)\n"
              f"{TURNS['7b'].join(['if ', ' then '])}{TURNS['8w']}\n")


def _offer_with_7b(table: Table, what: str) -> str:  # noqa: F811
    assert table.send(table.white.reply(WHITE_MAIL)).outcome == "accepted"
    assert table.send(table.black.reply(f"{TURNS['7b']}\noffer {what}")).outcome == "accepted"
    assert table.turns()[-1] == "7b"  # the answer waits: 8w is not played
    told = " ".join(text_of(table.white.last).split())
    assert "offers" in told and "line 3 of the mail that sent" in told, told
    assert f"'decline {what}' plays it" in told
    assert "lapsed" not in text_of(table.black.last)
    assert standing(table, Side.WHITE) is not None
    return told


def test_an_answer_waits_for_a_draw_offer_and_declining_plays_it(table: Table) -> None:  # noqa: F811
    _offer_with_7b(table, "draw")
    assert table.send(table.white.reply("decline draw")).outcome == "accepted"
    assert table.turns()[-1] == "8w"
    assert "declines the offer of a draw" in text_of(table.black.last)
    assert "a turn sent in advance" in text_of(table.black.last)
    assert "line 3" not in text_of(table.black.last)  # the set stays secret
    assert standing(table, Side.WHITE) is None


def test_accepting_ends_the_game(table: Table) -> None:  # noqa: F811
    _offer_with_7b(table, "draw")
    assert table.send(table.white.reply("accept draw")).outcome == "accepted"
    game = load_game(table.conn, table.game_id)
    assert game.status == "over" and game.result == "1/2-1/2"
    assert table.turns()[-1] == "end"
    assert standing(table, Side.WHITE) is None


def test_another_turn_replaces_the_waiting_answer(table: Table) -> None:  # noqa: F811
    _offer_with_7b(table, "end")
    assert table.send(table.white.reply(TURNS["8w"])).outcome == "accepted"
    assert table.turns()[-1] == "8w"
    assert "replaces the conditional answer that waited" in text_of(table.white.last)
    assert standing(table, Side.WHITE) is None


def test_without_an_offer_the_answer_is_played_at_once(table: Table) -> None:  # noqa: F811
    assert table.send(table.white.reply(WHITE_MAIL)).outcome == "accepted"
    assert table.send(table.black.reply(TURNS["7b"])).outcome == "accepted"
    assert table.turns()[-1] == "8w"
