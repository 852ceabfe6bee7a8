"""``say ...``: a message to the opponent is relayed and kept in the record as a comment;
a finished game's public record shows it only on opt-in (config ``public_messages``)."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.records.reader import read_games
from pbem.records.validate import validate_source
from pbem.referee.orders import find_orders
from tests.referee.conftest import run_pbem, text_of
from tests.referee.helpers import new_table


def test_say_is_read_with_its_case_and_other_marks() -> None:
    from pbem.referee.extract import BodyLine

    lines = tuple(BodyLine(i + 1, t) for i, t in enumerate(
        ["Say: Nice move, Bob!", "message: See you", "say", "Bh11"]))
    orders = find_orders("", lines)
    assert [(o.name, o.text) for o in orders] == [
        ("say", "Nice move, Bob!"), ("say", "See you"), ("turn", "Bh11")]


def test_a_message_with_a_turn_rides_in_the_report_and_stays_in_the_record(home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11\nsay Good luck {and} have fun")).outcome == \
        "accepted"
    assert "White says: Good luck {and} have fun" in text_of(table.black.last)
    record = table.conn.execute("SELECT record FROM games").fetchone()[0]
    assert "1.Bh11 {White: Good luck (and) have fun}" in record
    report = validate_source(next(iter(read_games(record))))
    assert report.valid


def test_a_message_alone_goes_to_the_opponent(home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("say: thinking, back tomorrow")).outcome == "accepted"
    assert "Black says: thinking, back tomorrow" in text_of(table.white.last)
    assert table.white.last["X-Pbem-Kind"] == "message"
    assert table.black.last["X-Pbem-Kind"] == "report"  # the sender gets nothing back
    record = table.conn.execute("SELECT record FROM games").fetchone()[0]
    assert "1.Bh11 {Black: thinking, back tomorrow}" in record


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
    assert "{White: hello}" in shown
