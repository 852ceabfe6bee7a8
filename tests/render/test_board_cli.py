"""``pbem board``: the SVG board from the command line, its outputs and exit codes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.cli import main, parser

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"
NS = "{http://www.w3.org/2000/svg}"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def last_turn_label(svg: str) -> str | None:
    root = ET.fromstring(svg)
    for el in root.iter():
        if el.get("id") == "last-turn":
            return el.get("data-turn")
    return None


def test_board_defaults_to_the_last_legal_turn_on_stdout(capsys):
    code, out, err = run(capsys, "board", str(SAMPLE))
    assert code == 0 and err == ""
    root = ET.fromstring(out)
    assert root.tag == NS + "svg"
    assert last_turn_label(out) == "16w"
    assert root.find(NS + "title").text == "Sample Game | White - Black: the position after 16w"


def test_board_turn_and_output_file(tmp_path, capsys):
    target = tmp_path / "board.svg"
    code, out, err = run(capsys, "board", str(SAMPLE), "--turn", "11W", "-o", str(target))
    assert code == 0 and out == "" and err == ""
    svg = target.read_text(encoding="utf-8")
    assert last_turn_label(svg) == "11w"
    code, again, _ = run(capsys, "board", str(SAMPLE), "--turn", "11w")
    assert again == svg  # same bytes to a file and to stdout


def test_board_flip_and_size(capsys):
    code, out, _ = run(capsys, "board", "--flip", "--size", "360", str(SAMPLE))
    assert code == 0
    root = ET.fromstring(out)
    assert root.get("width") == "360"
    a1 = next(el for el in root.iter() if el.get("id") == "sq-a1")
    assert float(a1.get("x")) > 400 and float(a1.get("y")) < 40


@pytest.mark.parametrize("label", ["40w", "0w", "xyz", "16b", ""])
def test_a_turn_not_in_the_record_is_a_usage_error(label, capsys):
    code, out, err = run(capsys, "board", str(SAMPLE), "--turn", label)
    assert code == 2 and out == ""
    assert "1w to 16w" in err
    assert "Traceback" not in err


def test_broken_record_draws_the_last_legal_position_and_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.realm"
    bad.write_text(SAMPLE.read_text().replace("Pd6d1(Be2)", "Pd6d2(Be2)"))
    code, out, err = run(capsys, "board", str(bad))
    assert code == 1
    assert "7b" in err and "last legal turn" in err
    assert last_turn_label(out) == "7w"
    # an earlier, legal turn of the broken record can still be drawn; a later one cannot
    code, out, err = run(capsys, "board", str(bad), "--turn", "3b")
    assert code == 1 and last_turn_label(out) == "3b"
    code, out, err = run(capsys, "board", str(bad), "--turn", "9w")
    assert code == 2 and "1w to 7w" in err and out == ""


def test_several_games_need_game(tmp_path, capsys):
    two = tmp_path / "two.realm"
    text = SAMPLE.read_text()
    two.write_text(text + "\n" + text)
    code, _, err = run(capsys, "board", str(two))
    assert code == 2 and "--game" in err
    code, out, _ = run(capsys, "board", str(two), "--game", "2", "--turn", "2b")
    assert code == 0 and last_turn_label(out) == "2b"
    code, _, err = run(capsys, "board", str(two), "--game", "3")
    assert code == 2 and "no game 3" in err


@pytest.mark.parametrize(
    "args",
    [
        ["board"],
        ["board", "/no/such/file.realm"],
        ["board", str(SAMPLE), "--size", "0"],
        ["board", str(SAMPLE), "--ruleset", "nonsense"],
        ["board", str(SAMPLE), "-o", "/no/such/folder/board.svg"],
    ],
)
def test_board_usage_errors_exit_2(args, capsys):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert "Traceback" not in err


def test_board_has_help(capsys):
    with pytest.raises(SystemExit) as exc:
        parser().parse_args(["board", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "usage: pbem board" in out and "--turn" in out


def test_board_png_is_a_real_png_of_the_board(tmp_path, capsys):
    from PIL import Image

    target = tmp_path / "board.png"
    code, out, err = run(capsys, "board", str(SAMPLE), "-o", str(target), "--size", "400")
    assert code == 0 and out == "" and err == ""
    assert target.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(target) as img:
        assert img.format == "PNG" and img.size == (400, 400)
        colours = img.convert("RGB").getcolors(maxcolors=400 * 400)
    counts = {rgb: n for n, rgb in colours}
    # White's realms are tinted #f5e2a0, Black's #c3cfe0 (hatched): both cover much of it
    assert counts.get((0xF5, 0xE2, 0xA0), 0) > 400 * 400 // 10
    assert counts.get((0xC3, 0xCF, 0xE0), 0) > 400 * 400 // 20


@pytest.mark.parametrize("name", ["board.gif", "board", "board.svg.txt"])
def test_board_to_an_unknown_extension_is_a_usage_error(name, tmp_path, capsys):
    code, out, err = run(capsys, "board", str(SAMPLE), "-o", str(tmp_path / name))
    assert code == 2 and out == "" and ".svg or .png" in err
    assert not (tmp_path / name).exists()


def test_a_png_larger_than_the_limit_is_refused_before_it_is_drawn(tmp_path):
    """``--size 100000 -o board.png`` asked resvg for 40 GB: the process died with a Rust
    backtrace (exit 134), or held the machine's memory. Run in a process of its own, with
    its address space capped at 2 GB, so that the old behaviour fails the test safely."""
    import resource
    import subprocess
    import sys

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    target = tmp_path / "board.png"
    proc = subprocess.run(
        [sys.executable, "-m", "pbem", "board", str(SAMPLE), "--size", "100000", "-o",
         str(target)], capture_output=True, text=True, preexec_fn=cap, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "pbem: --size must be from 1 to 4000 pixels, not 100000\n"
    assert not target.exists()
