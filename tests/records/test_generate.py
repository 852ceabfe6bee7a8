"""`pbem generate`: records that read back, validate strictly and replay to the same end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.records.generate import (
    RANDOM,
    generate_game,
    record_text,
    ruleset_spec,
    write_games,
)
from pbem.records.reader import read_file, read_games
from pbem.records.rulesets import load_ruleset, preset_names
from pbem.records.validate import validate_source
from pbem.rules.realm.actions import Pass
from pbem.rules.realm.ruleset import FEATURED


def round_trip(seed: int, index: int, ruleset) -> None:
    playout = generate_game(seed, index, ruleset)
    text = record_text(playout, seed, index)
    (source,) = list(read_games(text, path="<generated>"))
    report = validate_source(source, strict=True)
    assert report.valid, (report.error, text)
    assert report.replay.warnings == []
    assert report.final == playout.final
    assert report.replay.result == playout.final.result
    assert len(report.replay.turns) == len(playout.turns)
    # the positions after every turn agree too
    played = [t.after if hasattr(t, "after") else t[-1].after for t in playout.playout.turns]
    assert [t.after for t in report.replay.turns] == played


@pytest.mark.parametrize("name", preset_names())
def test_round_trip_under_every_preset(name: str) -> None:
    ruleset = load_ruleset(name)
    for i in range(3):
        round_trip(11, i, ruleset)


def test_round_trip_of_games_with_passes() -> None:
    found = 0
    for i in range(40):
        playout = generate_game(11, i, FEATURED)
        if any(isinstance(t[0].action, Pass) for t in playout.playout.turns):
            assert "pass" in record_text(playout, 11, i)
            round_trip(11, i, FEATURED)
            found += 1
    assert found >= 1


def test_round_trip_with_random_rulesets() -> None:
    for i in range(12):
        round_trip(12, i, RANDOM)


def test_front_matter_names_a_preset_or_gives_the_options() -> None:
    assert ruleset_spec(load_ruleset("original")) == "original"
    custom = FEATURED.with_options({"checkpoint": True, "bases": 11})
    spec = ruleset_spec(custom)
    assert spec == {"name": custom.name, "bases": 11, "checkpoint": True}
    assert load_ruleset(spec) == custom
    text = record_text(generate_game(1, 0, FEATURED), 1, 0)
    head = text.split("---")[1]
    for line in ("ruleset: featured", "source: pbem generate --seed 1", "white: ", "black: ",
                 "result: "):
        assert line in head


def test_a_larger_set_begins_with_the_smaller_one(tmp_path: Path) -> None:
    small = write_games(tmp_path / "a", 3, 9, FEATURED)
    large = write_games(tmp_path / "b", 5, 9, FEATURED)
    for p, q in zip(small.paths, large.paths[:3], strict=True):
        assert p.read_bytes() == q.read_bytes()
    assert large.unfinished == 0


def _generate(out: Path, seed: str, hashseed: str) -> dict[str, bytes]:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    cmd = [sys.executable, "-m", "pbem", "generate", "--games", "6", "--seed", seed,
           "--ruleset", RANDOM, "--out", str(out)]
    subprocess.run(cmd, check=True, env=env, capture_output=True)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_same_seed_same_bytes_across_processes(tmp_path: Path) -> None:
    a = _generate(tmp_path / "a", "4", "1")
    b = _generate(tmp_path / "b", "4", "2")
    assert len(a) == 6
    assert a == b
    c = _generate(tmp_path / "c", "5", "1")
    assert list(c.values()) != list(a.values())


def test_cli_writes_files_and_reports(tmp_path: Path, capsys) -> None:
    out = tmp_path / "new" / "folder"
    code = main(["generate", "--games", "3", "--seed", "2", "--out", str(out), "--stats"])
    assert code == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"featured-2-{i:05d}.realm" for i in range(3)]
    printed = capsys.readouterr().out
    assert "wrote 3 games" in printed and "games/s" in printed
    assert "capture, margin 1" in printed
    for path in out.iterdir():
        (source,) = list(read_file(path))
        assert validate_source(source, strict=True).valid


def test_a_generated_game_is_named_like_its_file_not_like_a_result(tmp_path: Path) -> None:
    """'Random game 1-0' beside 'valid, 0-1 after 36 turns' read as a result."""
    assert main(["generate", "--games", "2", "--seed", "1", "--out", str(tmp_path)]) == 0
    for path in sorted(tmp_path.iterdir()):
        (source,) = list(read_file(path))
        seed_index = path.stem.removeprefix("featured-")
        assert f"game: Random game {seed_index}\n" in source.text


def test_cli_one_file_holds_every_game(tmp_path: Path) -> None:
    code = main(["generate", "--games", "4", "--seed", "3", "--out", str(tmp_path),
                 "--ruleset", "everything", "--one-file"])
    assert code == 0
    (path,) = list(tmp_path.iterdir())
    assert path.name == "everything-3.realm"
    sources = list(read_file(path))
    assert len(sources) == 4
    assert all(validate_source(s, strict=True).valid for s in sources)


def test_cli_refuses_to_overwrite_without_force(tmp_path: Path, capsys) -> None:
    args = ["generate", "--games", "2", "--seed", "1", "--out", str(tmp_path)]
    assert main(args) == 0
    first = (tmp_path / "featured-1-00000.realm").read_bytes()
    (tmp_path / "featured-1-00001.realm").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "exists" in err and "--force" in err and "Traceback" not in err
    assert (tmp_path / "featured-1-00001.realm").read_text(encoding="utf-8") == "mine"
    assert main([*args, "--force"]) == 0
    assert (tmp_path / "featured-1-00000.realm").read_bytes() == first
    assert (tmp_path / "featured-1-00001.realm").read_text(encoding="utf-8") != "mine"


def test_cli_takes_a_ruleset_file(tmp_path: Path) -> None:
    rules = tmp_path / "mine.yaml"
    rules.write_text("preset: featured\nbases: 11\nreplacement: true\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["generate", "--games", "2", "--seed", "1", "--out", str(out),
                 "--ruleset", str(rules)]) == 0
    for path in sorted(out.iterdir()):
        (source,) = list(read_file(path))
        report = validate_source(source, strict=True)
        assert report.valid
        assert report.replay.ruleset == load_ruleset(str(rules))


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "0", "--seed", "1"],
        ["--games", "2", "--seed", "-1"],
        ["--games", "two", "--seed", "1"],
        ["--games", "2"],
        ["--games", "2", "--seed", "1", "--ruleset", "no-such-preset"],
        ["--games", "2", "--seed", "1", "--prefix", "../up"],
    ],
)
def test_cli_bad_arguments_exit_2_without_a_traceback(
    tmp_path: Path, capsys, args: list[str]
) -> None:
    assert main(["generate", *args, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_cli_out_must_be_a_folder(tmp_path: Path, capsys) -> None:
    afile = tmp_path / "file"
    afile.write_text("", encoding="utf-8")
    assert main(["generate", "--games", "1", "--seed", "1", "--out", str(afile)]) == 2
    assert "not a folder" in capsys.readouterr().err
