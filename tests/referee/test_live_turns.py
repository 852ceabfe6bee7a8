"""Issue 11's three faults: a live turn is never silently changed, a notice sent with a
turn reaches the opponent, and Black's boards (text and SVG, reports and notices) are all
seen from Black's side."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.records.rulesets import load_ruleset
from pbem.render.text_board import render_board
from pbem.rules.geometry import Direction, parse_square
from pbem.rules.pieces import Side, enforcer
from pbem.rules.realm.position import initial_position
from tests.referee.conftest import text_of
from tests.referee.helpers import Table, new_table, play_setup
from tests.referee.test_sample_by_mail import sample_turns


def _sample_until(home: Path, label: str) -> Table:
    """A table with the sample game played up to (not including) ``label``."""
    table = new_table(home)
    turns = sample_turns()
    play_setup(table, turns[: [t[0] for t in turns].index(label)])
    return table


def test_a_look_alike_square_is_refused_with_the_legal_reading_offered(home: Path) -> None:
    table = _sample_until(home, "13b")
    before = table.turns()
    handled = table.send(table.black.reply("Pi7i4(Bk5)"))
    assert handled.outcome == "refused"
    said = "there is no piece on i7. Did you mean Pl7l4(Bk5)? Reply with it to play it."
    assert handled.reason == said
    assert table.turns() == before  # nothing was played
    refusal = text_of(table.black.last)
    assert said in refusal
    assert table.send(table.black.reply("Pl7l4(Bk5)")).outcome == "accepted"


def test_a_repaired_action_inside_a_longer_turn_offers_the_whole_turn(home: Path) -> None:
    table = _sample_until(home, "12b")
    handled = table.send(table.black.reply("Pj6b6(Bb5),Pi6i7,Ej4j7(xBk8,xEj7)"))
    assert handled.outcome == "refused"
    assert handled.reason == ("there is no piece on i6. Did you mean "
                              "Pj6b6(Bb5),Pl6l7,Ej4j7(xBk8,xEj7)? Reply with it to play it.")


def test_a_look_alike_in_a_special_event_is_refused_too(home: Path) -> None:
    table = _sample_until(home, "9w")
    handled = table.send(table.white.reply("Pg9l9(Bk8),Pj6j7(Ei7W)"))
    assert handled.outcome == "refused"
    assert "Did you mean Pg9l9(Bk8),Pj6j7(El7W)?" in (handled.reason or "")


def test_a_slip_of_case_is_refused_unless_the_config_allows_it(home: Path) -> None:
    table = new_table(home)
    for written in ("bh2", "BH2"):
        handled = table.send(table.white.reply(written))
        assert handled.outcome == "refused", written
        assert "Did you mean Bh2? Reply with it to play it." in (handled.reason or "")
    assert table.turns() == []
    config = home / "config.yaml"
    data = yaml.safe_load(config.read_text())
    data["case_repairs"] = True
    config.write_text(yaml.safe_dump(data))
    table = new_table(home)
    assert table.send(table.white.reply("bh2")).outcome == "accepted"
    for player in (table.white, table.black):  # said in the report, to both
        assert "White wrote 'bh2', read as 'Bh2' (letter case only)." in text_of(player.last)


def test_the_case_switch_never_lets_a_look_alike_through(tmp_path: Path) -> None:
    from tests.referee.conftest import init_home

    home = init_home(tmp_path / "home")
    config = home / "config.yaml"
    data = yaml.safe_load(config.read_text())
    data["case_repairs"] = True
    config.write_text(yaml.safe_dump(data))
    table = _sample_until(home, "13b")
    assert table.send(table.black.reply("Pi7i4(Bk5)")).outcome == "refused"


def test_a_draw_offer_with_a_turn_reaches_the_opponent(home: Path) -> None:
    table = _sample_until(home, "12w")
    turns = dict(sample_turns())
    handled = table.send(table.white.reply(f"{turns['12w']}\noffer draw"))
    assert handled.outcome == "accepted"
    report = text_of(table.black.last)
    assert table.black.last["X-Pbem-Kind"] == "report"
    assert "White offers a draw" in report
    assert "accept draw" in report
    offer = table.conn.execute("SELECT offer FROM games WHERE id = ?",
                               (table.game_id,)).fetchone()[0]
    assert offer == "draw:w"  # the turn in the same mail did not lapse it
    assert table.send(table.black.reply("accept draw")).outcome == "accepted"
    assert "1/2-1/2" in text_of(table.white.last)


def test_an_offer_written_before_the_turn_stands_as_well(home: Path) -> None:
    table = _sample_until(home, "12w")
    turns = dict(sample_turns())
    assert table.send(table.white.reply(f"offer end\n{turns['12w']}")).outcome == "accepted"
    assert "White offers to end the game by agreement" in text_of(table.black.last)
    # and Black's turn answers it by playing on: the offer lapses, both are told
    assert table.send(table.black.reply(turns["12b"])).outcome == "accepted"
    assert "The offer that stood lapsed with this turn." in text_of(table.white.last)


def test_black_sees_enforcer_arrows_turned_with_the_board() -> None:
    pos = initial_position(load_ruleset("featured"))
    board = list(pos.board)
    board[parse_square("l6")] = enforcer(Side.BLACK, Direction.W)
    board[parse_square("a1")] = enforcer(Side.WHITE, Direction.N)
    from dataclasses import replace

    pos = replace(pos, board=tuple(board))
    white_view = render_board(pos)
    black_view = render_board(pos, flip=True)
    assert "bE<" in white_view and "wE^" in white_view
    # Black's view is turned half round: West is to the right, North down
    assert "bE>" in black_view and "wEv" in black_view
    assert "bE<" not in black_view and "wE^" not in black_view


def test_black_reports_and_notices_are_all_flipped(home: Path) -> None:
    table = _sample_until(home, "16w")
    # 15b created a Black Enforcer on l6 facing West
    report = text_of(table.black.last)
    assert "bE>" in report and "pointing v < ^ >" in report
    assert "bE<" in text_of(table.white.last)
    # a takeback notice shows each player the board from his side
    assert table.send(table.black.reply("takeback")).outcome == "accepted"
    assert table.send(table.white.reply("accept takeback")).outcome == "accepted"
    black_notice, white_notice = text_of(table.black.last), text_of(table.white.last)
    assert "15b is taken back" in black_notice
    files_black = next(ln for ln in black_notice.splitlines() if ln.strip().startswith("l"))
    files_white = next(ln for ln in white_notice.splitlines() if ln.strip().startswith("a"))
    assert files_black.split()[:3] == ["l", "k", "j"]
    assert files_white.split()[:3] == ["a", "b", "c"]
