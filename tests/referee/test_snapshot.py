"""A stored snapshot reads back as exactly the position it was made from."""

from __future__ import annotations

import pytest

from pbem.errors import RecordError
from pbem.records.rulesets import load_ruleset
from pbem.records.snapshot import dump_snapshot, load_snapshot
from pbem.rules.realm.position import initial_position
from tests.referee.test_sample_by_mail import SAMPLE


def test_every_position_of_the_sample_game_round_trips() -> None:
    from pbem.records.reader import read_file
    from pbem.records.validate import validate_source

    replay = validate_source(next(iter(read_file(SAMPLE)))).replay
    positions = replay.positions()
    assert len(positions) == 32
    for pos in positions:
        assert load_snapshot(dump_snapshot(pos)) == pos


def test_a_ruleset_with_options_round_trips() -> None:
    pos = initial_position(load_ruleset("original"))
    back = load_snapshot(dump_snapshot(pos))
    assert back == pos and back.ruleset.options() == pos.ruleset.options()


@pytest.mark.parametrize("text", ["", "[]", '{"version": 99}', '{"version": 1, "board": [1]}'])
def test_a_broken_snapshot_is_a_clear_error(text: str) -> None:
    with pytest.raises(RecordError):
        load_snapshot(text)
