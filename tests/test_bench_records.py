"""The benchmarks' generated records are legal games that read back the same."""

from __future__ import annotations

from pathlib import Path

from pbem.records.generate import generate_game, write_games
from pbem.records.reader import read_file
from pbem.records.replay import replay_game
from pbem.rules.realm.ruleset import FEATURED


def test_generated_records_validate_and_replay_to_the_same_position(tmp_path: Path) -> None:
    written = write_games(tmp_path, 6, 3, FEATURED)
    for i, path in enumerate(written.paths):
        played = generate_game(3, i, FEATURED).final
        (source,) = list(read_file(path))
        assert source.game is not None, source.error
        replay = replay_game(source.game, strict=True)
        assert replay.valid, replay.error
        assert replay.final == played
