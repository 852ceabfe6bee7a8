"""`pbem validate` over many files, as a user runs it: stable output, progress, summary, Ctrl-C."""

from __future__ import annotations

import os
import pty
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"
WORKED = ROOT / "games" / "worked-example-2002.realm"


def pbem(*args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "pbem", *args], capture_output=True, timeout=120, **kwargs
    )


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A folder of valid, invalid and two-game files, and a path that cannot be read."""
    folder = tmp_path_factory.mktemp("mixed")
    sample, worked = SAMPLE.read_text(), WORKED.read_text()
    broken = sample.replace("Pi10i6(Bh5)", "Pi10h10(Bh5)")
    for i in range(14):
        text = (sample, broken, worked + broken, worked)[i % 4]
        (folder / f"g{i:02d}.realm").write_text(text)
    sock = folder.parent / "socket.realm"  # exists, but open() fails even for root
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock))
    s.close()
    return folder, sock


@pytest.mark.parametrize("extra", [[], ["--json"], ["-v"], ["-q"]])
def test_same_stdout_byte_for_byte_whatever_the_jobs(mixed, extra):
    folder, sock = mixed
    runs = [pbem("validate", *extra, "--jobs", j, str(folder), str(sock)) for j in "123"]
    assert runs[0].stdout and runs[0].stdout == runs[1].stdout == runs[2].stdout
    assert {r.returncode for r in runs} == {2}  # the unreadable file decides
    for r in runs:
        assert b"Traceback" not in r.stderr
        assert f"pbem: cannot read {sock}".encode() in r.stderr


def test_unreadable_file_does_not_stop_the_batch(mixed):
    folder, sock = mixed
    r = pbem("validate", "--jobs", "2", str(sock), str(folder))
    lines = r.stdout.decode().splitlines()
    assert sum(": valid," in ln for ln in lines) == 10
    assert sum(ln.endswith(")") and ": INVALID (" in ln for ln in lines) == 7
    err = r.stderr.decode()
    assert "17 games in 15 files: 10 valid, 7 invalid" in err and "unreadable files: 1" in err


def test_exit_1_when_a_game_is_invalid_and_0_when_all_are_valid(mixed):
    folder, _ = mixed
    assert pbem("validate", "--jobs", "2", str(folder)).returncode == 1
    assert pbem("validate", "--jobs", "2", str(SAMPLE), str(WORKED)).returncode == 0


def test_quiet_shows_only_invalid_games_and_the_summary(mixed):
    folder, _ = mixed
    r = pbem("validate", "-q", str(folder))
    out = r.stdout.decode()
    assert ": valid," not in out and out.count(": INVALID (") == 7
    assert "17 games in 14 files: 10 valid, 7 invalid" in r.stderr.decode()


def test_summary_counts_warnings_by_kind_on_the_sample_game():
    r = pbem("validate", "--summary", str(SAMPLE))
    assert r.returncode == 0
    err = r.stderr.decode()
    assert err.startswith("1 game in 1 file: 1 valid, 0 invalid\n  warnings: 13\n")
    for line in ("6  list marker ignored (repair.list-marker)",
                 "5  look-alike letter in a square read (repair.square)",
                 "1  stray comma ignored (repair.comma)",
                 "1  scanned label repaired (repair.label)"):
        assert f"    {line}\n" in err
    assert "games/s, 1 job\n" in err


def test_one_game_has_no_summary_unless_asked():
    r = pbem("validate", str(SAMPLE))
    assert r.returncode == 0 and r.stderr == b""
    r = pbem("validate", "--no-summary", str(SAMPLE), str(WORKED))
    assert r.stderr == b"" and r.stdout.count(b"\n") == 2


def test_no_progress_bar_when_piped(mixed):
    folder, _ = mixed
    r = pbem("validate", "--jobs", "2", str(folder))
    assert b"\r" not in r.stderr and b"ETA" not in r.stderr


def run_in_pty(*args: str) -> tuple[int, bytes, bytes]:
    """Run pbem with stderr on a real pseudo-terminal; (status, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem", *args],
        stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out = proc.stdout.read() if proc.stdout else b""
    return proc.wait(timeout=60), out, seen


def test_progress_bar_drawn_on_a_terminal_and_cleared(mixed):
    folder, _ = mixed
    status, out, seen = run_in_pty("validate", "--jobs", "2", "--no-summary", str(folder))
    assert status == 1
    assert b"\r[" in seen and b"/14 files" in seen and b"games/s" in seen and b"ETA" in seen
    last = seen.rsplit(b"\r[", 1)[1]
    assert last.endswith(b"\r") and last.rstrip(b"\r").endswith(b" " * 20)  # cleared
    assert b"\r" not in out and out.count(b": INVALID (") == 7


def test_no_progress_overrides_the_terminal(mixed):
    folder, _ = mixed
    _, _, seen = run_in_pty("validate", "--no-progress", "--no-summary", str(folder))
    assert seen == b""


@pytest.mark.parametrize(("jobs", "whole_group"), [("1", False), ("2", False), ("2", True)])
def test_ctrl_c_exits_130_without_a_traceback(tmp_path, jobs, whole_group):
    """SIGINT to pbem alone, or to its process group (as a terminal's Ctrl-C: workers too)."""
    text = SAMPLE.read_text()
    for i in range(1500):
        (tmp_path / f"g{i:04d}.realm").write_text(text)
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbem", "validate", "--jobs", jobs, str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the batch is under way
    assert b": valid," in first
    if whole_group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert out.count(b"\n") < 1499  # it stopped early
    assert b"Traceback" not in err and err.endswith(b"pbem: interrupted\n")


@pytest.mark.parametrize("bad", ["0", "-2", "many"])
def test_bad_jobs_is_a_usage_error(bad):
    r = pbem("validate", "--jobs", bad, str(SAMPLE))
    assert r.returncode == 2 and b"number of jobs" in r.stderr and b"Traceback" not in r.stderr
