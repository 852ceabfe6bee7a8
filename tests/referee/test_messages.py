"""``say ...``: a message to the opponent is relayed and kept apart from the record (the
store's ``said`` table); a finished game's public record shows it only on opt-in (config
``public_messages``), in its front matter (``tests/referee/test_privacy.py``)."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.records.reader import read_games
from pbem.records.validate import validate_source
from pbem.referee.intake.orders import find_orders
from tests.referee.conftest import run_pbem, text_of
from tests.referee.helpers import new_table


def test_say_is_read_with_its_case_and_other_marks() -> None:
    from pbem.referee.intake.extract import BodyLine

    lines = tuple(BodyLine(i + 1, t) for i, t in enumerate(
        ["Say: Nice move, Bob!", "message: See you", "say", "Bh11"]))
    orders = find_orders("", lines)
    assert [(o.name, o.text) for o in orders] == [
        ("say", "Nice move, Bob!"), ("say", "See you"), ("turn", "Bh11")]


def test_a_message_with_a_turn_rides_in_the_report_and_stays_out_of_the_record(
        home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11\nsay Good luck {and} have fun")).outcome == \
        "accepted"
    assert "White says: Good luck {and} have fun" in text_of(table.black.last)
    assert "White says: Good luck {and} have fun" in text_of(table.white.last)
    record = table.conn.execute("SELECT record FROM games").fetchone()[0]
    assert "Good luck" not in record and record.rstrip().endswith("1.Bh11")
    # the player's own history has them, in the front matter, never as a comment
    assert table.send(table.black.reply("history")).outcome == "info"
    history = text_of(table.black.last)
    assert "1w White: Good luck {and} have fun" in history, history
    assert validate_source(next(iter(read_games(record)))).valid


def test_a_message_alone_goes_to_the_opponent(home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("say: thinking, back tomorrow")).outcome == "accepted"
    assert "Black says: thinking, back tomorrow" in text_of(table.white.last)
    assert table.white.last["X-Pbem-Kind"] == "message"
    assert table.black.last["X-Pbem-Kind"] == "report"  # the sender gets nothing back
    said = table.conn.execute("SELECT seq, side, text FROM said").fetchall()
    assert [tuple(r) for r in said] == [(1, "b", "thinking, back tomorrow")]


def test_the_public_record_of_a_finished_game_keeps_messages_only_on_opt_in(
        home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11\nsay hello")).outcome == "accepted"
    assert table.send(table.black.reply("resign")).outcome == "accepted"
    shown = run_pbem(home, "show", str(table.game_id)).stdout.decode()
    assert "1.Bh11" in shown and "hello" not in shown and "Black resigned" in shown
    config = home / "config.yaml"
    data = yaml.safe_load(config.read_text())
    data["public_messages"] = True
    config.write_text(yaml.safe_dump(data))
    shown = run_pbem(home, "show", str(table.game_id)).stdout.decode()
    assert "- '1w White: hello'" in shown or "- 1w White: hello" in shown, shown
