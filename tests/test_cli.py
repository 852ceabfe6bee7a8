"""The CLI as a user runs it: output, exit codes, and no traceback for any input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_bundled_games_all_valid(capsys):
    code, out, _ = run(capsys, "validate", str(ROOT / "games"))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 7  # three Featured games (one annotated), a few turns of each other
    assert "sample-game-2002.realm#1: valid, 1-0 after 31 turns" in out
    assert "classic-examples.realm#1: valid, unfinished after 6 turns" in out
    assert "medieval-examples.realm#1: valid, unfinished after 4 turns" in out
    assert "oriental-example.realm#1: valid, 1-0 after 9 turns" in out
    assert "modern-example.realm#1: valid, unfinished after 3 turns" in out


def test_validate_json_is_one_object_per_game_with_final(capsys):
    code, out, _ = run(capsys, "validate", "--json", str(SAMPLE))
    assert code == 0
    (line,) = out.splitlines()
    data = json.loads(line)
    assert set(data) == {"path", "index", "valid", "result", "turns", "error", "warnings", "final",
                         "annotations"}
    assert data["annotations"] == []  # "(Figure 6)" is the article's note, no annotation
    assert data["valid"] is True and data["result"] == "1-0" and data["turns"] == 31
    assert data["final"]["realms"] == {"white": 8, "black": 7}
    assert data["final"]["phase"] == "over" and data["final"]["to_move"] is None
    assert {"line", "column", "message"} == set(data["warnings"][0])


def test_validate_json_reports_the_annotated_sample_game_s_annotations(capsys):
    code, out, _ = run(capsys, "validate", "--json", str(ROOT / "games" /
                                                          "sample-game-2002-annotated.realm"))
    assert code == 0
    data = json.loads(out.splitlines()[0])
    assert data["valid"] is True and data["turns"] == 31
    first, *rest = data["annotations"]
    assert first == {"turn": "7w", "line": 16, "column": 15, "mark": "!",
                     "comment": "White takes the h5 Realm at once.", "variation": None}
    (variation,) = [a["variation"] for a in rest if a["variation"] is not None]
    assert variation["valid"] is True and variation["text"].startswith("[14...Pl4l10 {")
    assert not any("annotation" in w["message"] for w in data["warnings"])


def test_validate_verbose_lists_the_annotations(capsys):
    path = ROOT / "games" / "sample-game-2002-annotated.realm"
    code, out, _ = run(capsys, "validate", "-v", str(path))
    assert code == 0
    assert f"{path}:16:15: annotation: 7w: ! {{White takes the h5 Realm at once.}}" in out
    assert "annotation: 14b: variation [14...Pl4l10 " in out and "(plays)" in out


def test_strict_turns_warnings_into_errors(capsys):
    code, out, _ = run(capsys, "validate", "--strict", str(SAMPLE))
    assert code == 1
    assert "INVALID" in out and "Set?up:" in out


def test_broken_game_shows_location_turn_action_caret_and_board(tmp_path, capsys):
    bad = tmp_path / "bad.realm"
    bad.write_text(SAMPLE.read_text().replace("Pi10i6(Bh5)", "Pi10h10(Bh5)"))
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1
    assert f"{bad}:14:4: 7w 'Pi10h10(Bh5)': the Power on i10 cannot stop on h10" in out
    assert "a piece must stop in a different Realm" in out
    lines = out.splitlines()
    caret = next(i for i, ln in enumerate(lines) if ln.strip().startswith("^"))
    assert lines[caret - 1].strip().startswith("7.Pi10h10(Bh5)")
    assert lines[caret].index("^") == lines[caret - 1].index("P")
    assert "position before the failing turn" in out and "wB" in out


def test_the_caret_line_of_a_huge_line_shows_a_window_around_the_error(tmp_path, capsys):
    """A 2 MB line was printed whole under the error."""
    bad = tmp_path / "huge.realm"
    bad.write_text("1.Bh11 Bh2 " + "{" + "x" * 200_000 + "} " + "2.Zz99 Bh5\n")
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1
    column = len("1.Bh11 Bh2 {} 2.Z") + 200_000 + 1
    assert f"huge.realm:1:{column}: 2w: 'z99' is not a square" in out
    lines = out.splitlines()
    caret = next(i for i, ln in enumerate(lines) if ln.strip().startswith("^"))
    assert len(lines[caret - 1]) <= 110 and len(lines[caret]) <= 110
    shown = lines[caret - 1]
    assert shown.startswith("  ...") and shown.endswith("Bh5")
    assert shown[lines[caret].index("^"):].startswith("z99 Bh5")


def test_one_broken_game_never_stops_the_others(tmp_path, capsys):
    text = SAMPLE.read_text()
    (tmp_path / "a.realm").write_text(text.replace("7.Pi10i6", "7.Pi10i6 ((("))
    (tmp_path / "b.realm").write_text(text)
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 1
    assert "a.realm#1: INVALID" in out and "b.realm#1: valid" in out


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "/no/such/file.realm"],
        ["validate"],
        ["frobnicate"],
        [],
        ["replay"],
        ["validate", "--ruleset", "nonsense", "games"],
    ],
)
def test_usage_errors_exit_2(args, capsys):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert "Traceback" not in err


def test_folder_without_records_is_a_usage_error(tmp_path, capsys):
    code, _, err = run(capsys, "validate", str(tmp_path))
    assert code == 2 and "no record files" in err


def test_replay_text_and_json(capsys):
    code, out, _ = run(capsys, "replay", str(SAMPLE))
    assert code == 0
    assert "White 8 Realms, Black 7" in out and "1-0" in out
    code, out, _ = run(capsys, "replay", "--json", str(SAMPLE))
    data = json.loads(out)
    assert data["board"]["e5"] == "wB" and data["supply"]["white"]["B"] == 0


def test_replay_of_broken_game_shows_last_legal_position(tmp_path, capsys):
    bad = tmp_path / "bad.realm"
    bad.write_text(SAMPLE.read_text().replace("Pd6d1(Be2)", "Pd6d2(Be2)"))
    code, out, err = run(capsys, "replay", "--json", str(bad))
    assert code == 1
    assert "7b" in err
    data = json.loads(out)
    assert data["board"]["i6"] == "wP" and data["board"]["d6"] == "bP"  # 7w played, 7b not
    assert data["to_move"] == "black"


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\x01\x02garbage\xff\xfe",
        b"---\nfoo: [unclosed\n---\n1.Bh11",
        b"---\n- a list\n---\n",
        b"1." * 5000,
        "7.P\u00e9\u00e9".encode(),
        b"{" * 100,
    ],
)
def test_any_bytes_give_a_verdict_not_a_traceback(tmp_path, content):
    f = tmp_path / "x.realm"
    f.write_bytes(content)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "pbem", "validate", str(f)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode in (0, 1)
    assert "Traceback" not in proc.stderr + proc.stdout


def test_every_command_has_help(capsys):
    for command in ("validate", "replay", "board", "archive"):
        with pytest.raises(SystemExit) as exc:
            from pbem.cli import parser

            parser().parse_args([command, "--help"])
        assert exc.value.code == 0
        out = capsys.readouterr().out
        assert "usage: pbem " + command in out


def test_archive_command(tmp_path, capsys):
    site = tmp_path / "site"
    code, out, _ = run(capsys, "archive", str(ROOT / "games"), "-o", str(site), "--title", "T")
    assert code == 0
    assert "7 games, 7 valid, 0 invalid" in out
    assert (site / "index.html").is_file() and (site / "games" / "sample-game-2002.html").is_file()
    assert "<title>T</title>" in (site / "index.html").read_text()


def test_archive_with_an_invalid_record_exits_1_and_still_builds(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "bad.realm").write_text(SAMPLE.read_text().replace("Pi10i6", "Pi10i8"))
    (tmp_path / "in" / "good.realm").write_text(SAMPLE.read_text())
    code, out, _ = run(capsys, "archive", str(tmp_path / "in"), "-o", str(tmp_path / "site"))
    assert code == 1 and "2 games, 1 valid, 1 invalid" in out
    assert (tmp_path / "site" / "games" / "good.html").is_file()


@pytest.mark.parametrize("bad", ["missing", "file"])
def test_archive_usage_errors(tmp_path, capsys, bad):
    target = tmp_path / "out"
    if bad == "file":
        target.write_text("x")
        args = ["archive", str(ROOT / "games"), "-o", str(target)]
    else:
        args = ["archive", str(tmp_path / "nope"), "-o", str(target)]
    code, _, err = run(capsys, *args)
    assert code == 2 and "pbem:" in err and "Traceback" not in err


def _command_names() -> list[str]:
    """The commands ``pbem --help`` lists (the lines under COMMAND)."""
    from pbem.cli import parser

    text = parser().format_help().split("  COMMAND\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in text.splitlines() if line.startswith("    ") and
            not line.startswith("     ")]


def _said(argv: list[str], built: list[str] | None) -> tuple[object, str, str]:
    """What parsing ``argv`` with the parser built for ``built`` prints, and its exit."""
    import contextlib
    import io

    from pbem.cli import parser

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result: object = vars(parser(built).parse_args(argv))
        except SystemExit as exc:
            result = exc.code
    return result, out.getvalue(), err.getvalue()


def test_the_parser_of_one_command_says_what_the_whole_parser_says():
    """``pbem validate ...`` builds only validate's parser: every command's help, a wrong
    option, a missing argument and a good call come out as with every command built."""
    names = _command_names()
    assert len(names) > 20 and {"validate", "tournament", "set-deadline", "store"} <= set(names)
    for name in names:
        for argv in ([name, "--help"], [name, "--no-such-option"], [name],
                     [name, "x", "y", "z", "--json"]):
            one = _said(argv, argv)
            assert one == _said(argv, None), argv
            if argv[1:] == ["--help"]:
                assert f"usage: pbem {name}" in one[1]
    for argv in (["tournament", "new", "--help"], ["store", "copy", "--help"],
                 ["validate", "games", "--json", "-j", "1"], ["valid", "x"], ["--version"]):
        assert _said(argv, argv) == _said(argv, None), argv


def test_only_the_command_that_runs_has_its_parser_built():
    from pbem.cli import parser

    listed = parser(["validate", "x"]).format_help().split("COMMAND\n", 1)[1]
    assert "validate" in listed and "replay" not in listed and "tournament" not in listed
    assert "replay      the position" in parser(["nonsense"]).format_help()


def test_the_program_freezes_what_it_made_after_validate_only(monkeypatch, capsys):
    """``pbem`` (``run``) returns ``main``'s exit code; after ``validate`` it leaves every
    object frozen, so that the exit's last collection does not walk them. After another
    command (one that may leave a store for that collection to close) it freezes nothing,
    and ``main`` itself never does."""
    import gc

    from pbem.cli import run

    gc.unfreeze()
    try:
        assert main(["validate", str(ROOT / "games")]) == 0 and gc.get_freeze_count() == 0
        monkeypatch.setattr(sys, "argv", ["pbem", "rulesets"])
        assert run() == 0 and gc.get_freeze_count() == 0
        monkeypatch.setattr(sys, "argv", ["pbem", "validate", str(ROOT / "games")])
        assert run() == 0 and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    capsys.readouterr()
