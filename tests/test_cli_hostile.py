"""Bad input to every command: a named error and an exit code, never a traceback or an
"internal error". Empty files, binary files, folders where files belong, huge numbers,
line breaks in names: what a careless user or a hostile file gives pbem."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.errors import EXIT_USAGE

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"
HUGE = "9" * 30


@pytest.fixture
def bad(tmp_path: Path) -> dict[str, Path]:
    """A folder of bad inputs, and a referee's home with one game."""
    (tmp_path / "empty.realm").write_bytes(b"")
    (tmp_path / "binary.realm").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "folder.realm").mkdir()
    (tmp_path / "nested.yaml").write_text("[" * 5000 + "]" * 5000)
    (tmp_path / "sample.realm").write_bytes(SAMPLE.read_bytes())
    home = tmp_path / "home"
    assert main(["init", "--home", str(home), "--address", "ref@pbem.test"]) == 0
    assert main(["new", "--home", str(home), "--white", "w@p.test", "--black", "b@p.test",
                 "--no-send"]) == 0
    return {p.stem: p for p in tmp_path.iterdir()} | {"home": home}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    _out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, (args, err)
    assert code in (0, 1, 2, 3), (args, code)
    return code, err


def _record_commands(tmp_path: Path) -> list[list[str]]:
    return [["validate"], ["replay"], ["board"], ["moves"],
            ["archive", "-o", str(tmp_path / "site")]]


@pytest.mark.parametrize("name", ["empty", "binary", "folder", "nested"])
def test_record_commands_take_any_file(bad, capsys, tmp_path, name):
    for command in _record_commands(tmp_path):
        _run(capsys, *command, str(bad[name]))
        _run(capsys, *command, "--ruleset", str(bad[name]), str(bad["sample"]))


def test_a_folder_given_for_a_file_is_called_a_folder(bad, capsys):
    for command in ("replay", "board", "moves"):
        code, err = _run(capsys, command, str(bad["folder"]))
        assert code == EXIT_USAGE and "is a folder, not a record file" in err, err


def test_huge_and_negative_numbers(bad, capsys, tmp_path):
    sample, home = str(bad["sample"]), str(bad["home"])
    for args in (
        ["replay", "--game", HUGE, sample], ["board", "--game", "-3", sample],
        ["board", "--size", HUGE, sample], ["board", "--turn", HUGE + "w", sample],
        ["moves", "--game", HUGE, sample], ["validate", "--jobs", HUGE, sample],
        ["generate", "--games", HUGE, "--seed", "1", "--out", str(tmp_path / "g")],
        ["generate", "--games", "1", "--seed", HUGE, "--out", str(tmp_path / "g")],
        ["show", HUGE, "--home", home], ["show", "-" + HUGE, "--home", home],
        ["pause", HUGE, "--home", home], ["resume", HUGE, "--home", home],
        ["adjudicate", HUGE, "1-0", "--home", home], ["rollback", HUGE, "start", "--home", home],
        ["set-deadline", HUGE, "2030-01-01", "--home", home],
        ["set-deadline", "1", f"{HUGE}-01-01", "--home", home],
        ["rollback", "1", HUGE + "w", "--home", home],
        ["new", "--white", "a@p.test", "--black", "c@p.test", "--clock", f"days {HUGE}",
         "--home", home, "--no-send"],
        ["new", "--white", "a@p.test", "--black", "c@p.test", "--clock", f"bank {HUGE}+{HUGE}",
         "--home", home, "--no-send"],
    ):
        code, err = _run(capsys, *args)
        assert code != 0 or args[0] in ("validate", "generate", "board"), (args, err)


@pytest.mark.parametrize("text", ["a\nb", "a\rb", "a\u2028b", "a\u2029b", "a\x85b", "a\x00b",
                                  "a\x1b[31mb", "a\tb", ""])
def test_new_refuses_names_that_are_not_one_line(bad, capsys, text):
    for flag in ("--name", "--white-name", "--black-name"):
        code, err = _run(capsys, "new", "--white", "a@p.test", "--black", "c@p.test", flag, text,
                         "--home", str(bad["home"]), "--no-send")
        assert code == EXIT_USAGE and flag in err, (flag, err)


def test_referee_commands_on_a_home_that_is_broken(bad, capsys, tmp_path):
    home = bad["home"]
    for config in (b"\xff\xfe\x00binary", b"referee: [1, 2]\n", b"[" * 5000):
        (home / "config.yaml").write_bytes(config)
        for args in (["games"], ["show", "1"], ["poll"], ["flush"], ["tick"],
                     ["new", "--white", "a@p.test", "--black", "c@p.test", "--no-send"]):
            code, _err = _run(capsys, *args, "--home", str(home))
            assert code != 0, (config, args)
    folder_home = tmp_path / "folder-home"
    (folder_home / "config.yaml").mkdir(parents=True)
    code, _ = _run(capsys, "games", "--home", str(folder_home))
    assert code == EXIT_USAGE


def test_a_store_that_is_not_sqlite(bad, capsys):
    home = bad["home"]
    (home / "pbem.sqlite").write_bytes(b"not a database at all" * 100)
    for args in (["games"], ["show", "1"], ["tick"], ["flush"]):
        code, err = _run(capsys, *args, "--home", str(home))
        assert code != 0 and "pbem.sqlite" in err, (args, err)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_files(bad, capsys, tmp_path):
    locked = tmp_path / "locked.realm"
    locked.write_bytes(SAMPLE.read_bytes())
    locked.chmod(0)
    try:
        for command in _record_commands(tmp_path):
            code, err = _run(capsys, *command, str(locked))
            assert code == EXIT_USAGE and "Permission denied" in err, (command, err)
    finally:
        locked.chmod(0o644)


# -- validate and archive say what they skip ---------------------------------------------------
@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder of records with a link loop, a link to nothing and a locked folder."""
    root = tmp_path / "records"
    (root / "ok").mkdir(parents=True)
    (root / "ok" / "sample.realm").write_bytes(SAMPLE.read_bytes())
    (root / "ok" / "up").symlink_to(root)  # a folder that leads back up
    (root / "self.realm").symlink_to(root / "self.realm")  # a link to itself
    (root / "gone.realm").symlink_to(tmp_path / "nothing.realm")
    return root


def test_validate_reports_link_loops_and_dangling_links(tree, capsys):
    code, err = _run(capsys, "validate", "--summary", str(tree))
    assert code == EXIT_USAGE, err
    assert f"{tree / 'self.realm'}: a loop of symbolic links" in err
    assert f"{tree / 'ok' / 'up'}: a loop of symbolic links" in err
    assert f"{tree / 'gone.realm'}: a symbolic link to nothing" in err
    assert "no such file" not in err and "unreadable files: 3" in err
    code, err = _run(capsys, "validate", str(tree / "self.realm"))
    assert code == EXIT_USAGE and "a loop of symbolic links" in err and "no such" not in err
    for command in ("replay", "board", "moves"):
        code, err = _run(capsys, command, str(tree / "self.realm"))
        assert code == EXIT_USAGE and "a loop of symbolic links" in err, err


def test_archive_reports_what_it_skips(tree, capsys, tmp_path):
    code, err = _run(capsys, "archive", "-o", str(tmp_path / "site"), str(tree))
    assert code == EXIT_USAGE, err
    assert "a loop of symbolic links" in err and "a symbolic link to nothing" in err
    index = (tmp_path / "site" / "index.html").read_text()
    assert "self.realm" in index and "sample" in index


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_folder_is_an_error(tree, capsys, tmp_path):
    locked = tree / "locked"
    locked.mkdir()
    (locked / "hidden.realm").write_bytes(SAMPLE.read_bytes())
    locked.chmod(0)
    try:
        for command in (["validate"], ["archive", "-o", str(tmp_path / "site")]):
            code, err = _run(capsys, *command, str(tree))
            assert code == EXIT_USAGE and f"{locked}: cannot read the folder" in err, err
    finally:
        locked.chmod(0o755)


def test_a_full_disk_is_named_not_an_internal_error(tmp_path):
    """Output to a device with no room: the system's words and exit 2."""
    import subprocess
    import sys

    for args in (["validate", str(SAMPLE)], ["replay", str(SAMPLE)], ["board", str(SAMPLE)]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "pbem", *args], stdout=full,
                                  stderr=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.returncode == EXIT_USAGE, (args, proc.stderr)
        assert "No space left on device" in proc.stderr and "internal error" not in proc.stderr
        assert "Traceback" not in proc.stderr
