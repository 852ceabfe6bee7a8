"""The benchmark's random records are legal games that read back the same."""

from __future__ import annotations

import random
from pathlib import Path

from bench.random_records import random_game, write_records
from pbem.records.reader import read_file
from pbem.records.replay import replay_game


def test_random_records_validate_and_replay_to_the_same_position(tmp_path: Path) -> None:
    paths = write_records(tmp_path, 6, seed=3)
    rng = random.Random(3)
    for path in paths:
        _, played = random_game(rng)
        (source,) = list(read_file(path))
        assert source.game is not None, source.error
        replay = replay_game(source.game, strict=True)
        assert replay.valid, replay.error
        assert replay.final == played
