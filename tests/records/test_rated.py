"""Record files as the ratings see them: who a player is, when a game ended, what counts."""

from __future__ import annotations

from pathlib import Path

from pbem.ratings.glicko2 import Settings
from pbem.ratings.table import Finished, fold
from pbem.records.rated import finished_at, is_rated, rated_games
from pbem.records.reader import read_games
from pbem.records.validate import validate_source
from tests.ratings.club_records import record, write_club


def _reports(*texts: str):
    return [validate_source(s) for t in texts for s in read_games(t)]


def test_the_club_folds_as_its_games_say(tmp_path: Path) -> None:
    folder = write_club(tmp_path / "club")
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.realm"))]
    rated = rated_games(_reports(*texts))
    day = 86400.0
    start = finished_at({"finished": "2026-11-01"})
    expected = [
        Finished("featured", "ann", "bob", "1-0", start, number=0),
        Finished("featured", "bob", "cy <script>", "0-1", start + day, number=1),
        Finished("featured", "cy <script>", "ann", "1/2-1/2", start + 2 * day, number=2),
        Finished("featured", "ann", "cy <script>", "1-0", start + 3 * day, number=3),
        Finished("featured", "bob", "ann", "1-0", start + 4 * day, rated=False, number=4),
        Finished("classic", "bob", "ann", "1-0", start + day, number=5),
    ]
    assert rated.games == expected  # the unfinished game c1 is not there
    assert rated.names == {"ann": "Ann", "bob": "Bob", "cy <script>": "Cy <script>"}
    table = fold(rated.games, Settings())
    assert table["featured"]["bob"].games == 2  # the unrated a5 is left out
    assert table["classic"]["bob"].wins == 1


def test_a_player_is_his_name_whatever_its_case_and_spacing() -> None:
    rated = rated_games(_reports(
        record("Ann  Archer", "Bob", "1-0", finished="2026-01-01"),
        record("bob", "ann archer", "1-0", finished="2026-01-02"),
    ))
    assert {g.white for g in rated.games} == {"ann archer", "bob"}
    assert rated.names["ann archer"] == "ann archer"  # the latest game's spelling


def test_invalid_records_sides_for_names_and_self_play_are_not_rated() -> None:
    broken = record("Ann", "Bob", "1-0").replace("Bh11 Bh2", "Bh11 Bh11")
    assert not _reports(broken)[0].valid
    rated = rated_games(_reports(
        broken,
        record("White", "Bob", "1-0"),  # pbem export's word for a player without a name
        record("Ann", "Black", "1-0"),
        record("Ann", "", "1-0"),
    ))
    assert rated.games == []


def test_when_a_game_ended() -> None:
    assert finished_at({"finished": "2026-11-02", "date": "2026-10-01"}) > finished_at(
        {"date": "2026-11-01"})
    assert finished_at({"date": 2002}) == finished_at({"date": "2002-01-01"})
    assert finished_at({}) == finished_at({"date": "spring"}) == 0.0


def test_only_an_explicit_false_makes_a_game_unrated() -> None:
    assert is_rated(True) and is_rated("yes") and is_rated("anything")
    assert not is_rated(False) and not is_rated("no") and not is_rated("False")
    (report,) = _reports(record("Ann", "Bob", "1-0", rated=False))
    assert report.replay.warnings == []  # 'rated' is a known front matter key
