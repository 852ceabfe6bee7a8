"""``pbem moves``: the legal actions after a record's last legal turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"
TEXT = SAMPLE.read_text(encoding="utf-8")
HEAD = TEXT[: TEXT.index("Set?up:")]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["moves", *args])
    out, err = capsys.readouterr()
    return code, out, err


def cut(tmp_path: Path, movetext: str) -> Path:
    """The sample's front matter (without its result) and ``movetext``."""
    path = tmp_path / "cut.realm"
    path.write_text(HEAD.replace("result: 1-0\n", "") + movetext + "\n", encoding="utf-8")
    return path


def test_at_the_end_of_the_sample_the_game_is_over(capsys):
    code, out, err = run(capsys, str(SAMPLE))
    assert (code, out, err) == (0, "the game is over (1-0)\n", "")
    code, out, _ = run(capsys, "--json", str(SAMPLE))
    data = json.loads(out)
    assert data["phase"] == "over" and data["to_move"] is None and data["moves"] == {}
    assert data["result"] == "1-0" and data["pass"] is False


def test_in_set_up_the_placements_are_listed(tmp_path, capsys):
    path = cut(tmp_path, "1.Bh11 Bh2, 2.Be8")
    code, out, _ = run(capsys, str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Black to move, turn 2b"
    # Black's Base on h2 rules out the bottom row and the h column of Realms; e8 is taken
    assert lines[1] == "set-up, Black places a Base: Bb5 Be5 Bk5 Bb8 Bk8 Bb11 Be11 Bk11 (8)"
    data = json.loads(run(capsys, "--json", str(path))[1])
    assert data["placements"] == ["Bb5", "Be5", "Bk5", "Bb8", "Bk8", "Bb11", "Be11", "Bk11"]


def test_mid_game_moves_are_grouped_by_piece(tmp_path, capsys):
    movetext = TEXT[TEXT.index("Set?up:") : TEXT.index(" 8.")]
    path = cut(tmp_path, movetext)
    code, out, _ = run(capsys, str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "White to move, turn 8w"
    enforcer = next(ln for ln in lines if ln.startswith("Enforcer on i4: "))
    assert enforcer.endswith("(3)")
    power = next(ln for ln in lines if ln.startswith("Power on i6: "))
    assert "Pi6j6(Bk5)" in power  # the move the sample plays, with its event
    assert lines[-1].startswith("Rearrangements: ")
    data = json.loads(run(capsys, "--json", str(path))[1])
    assert data["to_move"] == "white" and data["turn"] == "8w"
    assert len(data["moves"]["i4"]) == 3 and "Pi6j6(Bk5)" in data["moves"]["i6"]
    assert data["sacrifices"] == [] and data["pass"] is False
    assert sum(data["rearrangements"].values()) == int(lines[-1].split()[1])
    assert "rearrangement_list" not in data


def test_all_lists_every_rearrangement(tmp_path, capsys):
    movetext = TEXT[TEXT.index("Set?up:") : TEXT.index(" 8.")]
    path = cut(tmp_path, movetext)
    data = json.loads(run(capsys, "--json", "--all", str(path))[1])
    for realm, n in data["rearrangements"].items():
        listed = data["rearrangement_list"][realm]
        assert len(listed) == len(set(listed)) == n
        assert all(text.startswith(f"R{realm}(") for text in listed)
    out = run(capsys, "--all", str(path))[1]
    assert "Rearrangements of the " in out


def test_an_invalid_record_lists_the_moves_before_the_break(tmp_path, capsys):
    bad = tmp_path / "bad.realm"
    bad.write_text(TEXT.replace("Pi10i6(Bh5)", "Pi10h10(Bh5)"), encoding="utf-8")
    code, out, err = run(capsys, str(bad))
    assert code == 1
    assert out.splitlines()[0] == "White to move, turn 7w"
    assert "7w: the Power on i10 cannot stop on h10" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["missing.realm"], "no such file"),
        ([str(SAMPLE), "--game", "2"], "there is no game 2"),
        ([str(SAMPLE), "--ruleset", "no-such-preset"], "no-such-preset"),
        ([], "usage"),
    ],
)
def test_usage_errors_exit_2(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert words in err and out == ""
    assert "Traceback" not in err


def test_help_documents_the_json(capsys):
    assert main(["moves", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert '"rearrangements": {"h5": 123}' in out and '"moves": {"c10": [...]}' in out
