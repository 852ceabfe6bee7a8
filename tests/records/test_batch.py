"""Batch validation as a library: order, counts and per-file failures, in and out of a pool."""

from __future__ import annotations

import io
import os
import socket
from collections import Counter
from pathlib import Path

import pytest

from pbem.records.batch import (
    CHUNK_BYTES,
    MAX_CHUNK,
    MIN_FILES_FOR_POOL,
    BatchOptions,
    FileResult,
    Summary,
    check_batches,
    check_file,
    check_files,
    chunk_files,
    chunk_runs,
    format_json_line,
    format_summary,
    plan_pieces,
    pool_size,
    warm_up,
)
from pbem.records.rulesets import load_ruleset
from pbem.records.validate import GameReport
from pbem.render.progress import ProgressBar, format_bar

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"
WORKED = ROOT / "games" / "worked-example-2002.realm"
SAMPLE_WARNINGS = {"repair.list-marker": 6, "repair.square": 5, "repair.comma": 1,
                   "repair.label": 1}


def short(report: GameReport) -> str:
    return f"{report.path}#{report.index + 1} {'valid' if report.valid else 'INVALID'}\n"


def explode_on_bad(report: GameReport) -> str:
    """A formatter with a bug that only one file triggers (stands in for a validator bug)."""
    if Path(report.path).name == "explodes.realm":
        raise ValueError("boom")
    return short(report)


def die_on_bad(report: GameReport) -> str:
    """A formatter that kills its worker process on one file, as the OOM killer might."""
    if Path(report.path).name == "dies.realm":
        os._exit(9)
    return short(report)


def unix_socket(path: Path) -> Path:
    """A path that exists but cannot be read as a file, even by root."""
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    s.close()
    return path


@pytest.fixture
def mixed(tmp_path: Path) -> list[Path]:
    """Valid, invalid and two-game files, more than enough to start a pool."""
    sample, worked = SAMPLE.read_text(), WORKED.read_text()
    files = []
    for i in range(12):
        f = tmp_path / f"g{i:02d}.realm"
        if i % 4 == 1:
            f.write_text(sample.replace("Pi10i6(Bh5)", "Pi10h10(Bh5)"))
        elif i % 4 == 2:
            f.write_text(worked + sample)
        else:
            f.write_text(worked if i % 2 else sample)
        files.append(f)
    files.insert(5, unix_socket(tmp_path / "sock.realm"))
    return files


@pytest.mark.parametrize("jobs", [2, 3])
def test_pool_gives_the_same_results_in_the_same_order_as_one_process(mixed, jobs):
    options = BatchOptions(short)
    alone = list(check_files(mixed, options, jobs=1))
    pooled = list(check_files(mixed, options, jobs=jobs))
    assert pooled == alone
    assert [r.path for r in pooled] == [str(p) for p in mixed]


def test_counts_per_file(mixed):
    results = {Path(r.path).name: r for r in check_files(mixed, BatchOptions(short), jobs=2)}
    assert (results["g00.realm"].games, results["g00.realm"].valid) == (1, 1)
    assert (results["g01.realm"].games, results["g01.realm"].invalid) == (1, 1)
    assert results["g02.realm"].games == 2 and results["g02.realm"].text.count("\n") == 2
    sock = results["sock.realm"]
    assert sock.unreadable and sock.games == 0 and "cannot read" in (sock.problem or "")


def test_unreadable_file_is_one_problem_and_the_batch_goes_on(mixed):
    summary = Summary()
    for result in check_files(mixed, BatchOptions(short), jobs=2):
        summary.add(result)
    assert summary.files == 13 and summary.unreadable == 1 and summary.failed == 0
    assert summary.games == 15 and summary.invalid == 3 and summary.valid == 12
    assert summary.status == 2


def test_a_worker_side_failure_is_reported_for_its_file_only(mixed, tmp_path):
    bad = tmp_path / "explodes.realm"
    bad.write_text(SAMPLE.read_text())
    files = [*mixed[:3], bad, *mixed[3:]]
    results = list(check_files(files, BatchOptions(explode_on_bad), jobs=2))
    assert [r.path for r in results] == [str(p) for p in files]
    broken = results[3]
    assert broken.problem == f"{bad}#1: internal error (ValueError: boom); please report it"
    assert broken.games == 0 and not broken.unreadable
    assert all(r.problem is None for r in results if r.path not in (str(bad), str(mixed[5])))
    summary = Summary()
    for r in results:
        summary.add(r)
    assert summary.failed == 1 and summary.status == 3


def test_a_worker_that_dies_costs_only_its_chunk(mixed, tmp_path):
    bad = tmp_path / "dies.realm"
    bad.write_text(SAMPLE.read_text())
    files = [*mixed[:3], bad, *mixed[3:]]
    results = list(check_files(files, BatchOptions(die_on_bad), jobs=2))
    assert [r.path for r in results] == [str(p) for p in files]
    assert results[3].problem == (
        f"{bad}: a worker process died while checking this file or one checked with it"
    )
    # the files before and after it were checked, the ones after by a fresh pool
    assert all(r.problem is None for r in results if r.path not in (str(bad), str(mixed[5])))
    assert [r.text for r in results[4:]] == [r.text for r in check_files(files[4:],
                                                                         BatchOptions(short),
                                                                         jobs=1)]


def test_warnings_are_counted_by_kind_on_the_sample_game():
    result = check_file(SAMPLE, BatchOptions(short))
    assert dict(result.warnings) == SAMPLE_WARNINGS
    summary = Summary()
    summary.add(result)
    text = format_summary(summary, 1)
    assert text.startswith("1 game in 1 file: 1 valid, 0 invalid\n")
    assert "  warnings: 13\n" in text
    assert "    6  list marker ignored (repair.list-marker)\n" in text
    assert "    5  look-alike letter in a square read (repair.square)\n" in text


def test_only_invalid_formats_nothing_for_valid_games_but_still_counts(mixed):
    results = list(check_files(mixed, BatchOptions(short, only_invalid=True), jobs=1))
    shown = "".join(r.text for r in results)
    assert shown.count("\n") == 3 and "valid\n" not in shown.replace("INVALID", "")
    assert sum(r.valid for r in results) == 12


def test_json_formatter_is_one_line_per_game():
    text = check_file(SAMPLE, BatchOptions(format_json_line)).text
    assert text.count("\n") == 1 and text.startswith("{") and '"valid": true' in text


def test_strict_reaches_the_workers(mixed):
    results = list(check_files(mixed, BatchOptions(short, strict=True), jobs=2))
    assert sum(r.valid for r in results) == 6  # the six worked examples: they need no repair


def test_chunks_keep_order_and_stay_small():
    files = list(range(1000))
    chunks = chunk_files(files, 2)
    assert [f for c in chunks for f in c] == files
    assert max(len(c) for c in chunks) == MAX_CHUNK
    assert chunk_files(files[:10], 2) == [[f] for f in range(10)]


@pytest.mark.parametrize("n", [9, 40, 101, 1000, 10_000])
@pytest.mark.parametrize("jobs", [2, 3, 8])
def test_chunks_get_smaller_at_the_end_so_that_workers_finish_together(n, jobs):
    chunks = chunk_files(list(range(n)), jobs)
    assert [f for c in chunks for f in c] == list(range(n)) and all(chunks)
    sizes = [len(c) for c in chunks]
    assert max(sizes[-2 * jobs :]) <= max(1, sizes[0] // 2)  # the last ones are small
    assert sizes[-jobs:] == [1] * jobs  # each worker's last chunk is one file


@pytest.mark.parametrize("sizes", [
    [4000] * 10_000,  # generated records
    [32_000] * 1500,  # the pieces of a big file
    [3000, 90_000, 1, 1, 500_000, 1, 20_000] * 40,  # all kinds
    [1] * 5 + [10**6] + [1] * 50,
    [4000] * 8,
])
@pytest.mark.parametrize("jobs", [2, 3])
def test_runs_by_size_hold_about_as_much_and_get_smaller_at_the_end(sizes, jobs):
    most = 256 * 1024
    runs = chunk_runs(sizes, jobs, most)
    assert [i for r in runs for i in r] == list(range(len(sizes))) and all(runs)
    held = [sum(sizes[i] for i in r) for r in runs]
    # a run closes as soon as it holds enough: all but its last item hold less than most
    assert all(h - sizes[r[-1]] < most for h, r in zip(held, runs, strict=True))
    if len(runs) > 2 * jobs:  # the workers' last chunks are small (but for one big piece)
        last = zip(held[-jobs:], runs[-jobs:], strict=True)
        assert all(h - sizes[r[-1]] <= max(held) // 2 for h, r in last)


def test_a_chunk_of_generated_records_is_about_seventy_of_them():
    runs = chunk_runs([930] * 10_000, 2, CHUNK_BYTES)  # a generated record: ~930 bytes
    assert 60 <= len(runs[0]) <= 80 and 120 <= len(runs) <= 180


def test_batches_are_the_results_a_chunk_at_a_time(mixed):
    pieces = list(plan_pieces(mixed))
    batches = list(check_batches(pieces, BatchOptions(short), jobs=2))
    assert len(batches) > 1
    assert [r for b in batches for r in b] == list(check_files(mixed, BatchOptions(short), jobs=1))
    alone = check_batches(pieces, BatchOptions(short), jobs=1)
    assert [len(b) for b in alone] == [1] * len(mixed)


def test_small_batches_and_one_job_run_without_a_pool():
    assert pool_size(MIN_FILES_FOR_POOL - 1, 4) == 1
    assert pool_size(1000, 1) == 1
    assert pool_size(1000, 2) == 2
    assert pool_size(MIN_FILES_FOR_POOL, 64) == MIN_FILES_FOR_POOL


@pytest.mark.parametrize(
    ("result", "status"),
    [
        (FileResult("a", games=1, valid=1), 0),
        (FileResult("a", games=1, invalid=1), 1),
        (FileResult("a", problem="cannot read a", unreadable=True), 2),
        (FileResult("a", problem="a#1: internal error"), 3),
    ],
)
def test_exit_status_of_a_batch(result, status):
    summary = Summary()
    summary.add(FileResult("ok", games=1, valid=1))
    summary.add(result)
    assert summary.status == status


def test_summary_adds_warning_counts_across_files():
    summary = Summary()
    summary.add(FileResult("a", games=1, valid=1, warnings=(("repair.comma", 2),)))
    summary.add(FileResult("b", games=1, valid=1, warnings=(("repair.comma", 1),
                                                            ("x.unknown", 1))))
    assert summary.warnings == Counter({"repair.comma": 3, "x.unknown": 1})
    text = format_summary(summary, 2)
    assert "    3  stray comma ignored (repair.comma)\n" in text
    assert "    1  x.unknown (x.unknown)\n" in text and "2 jobs" in text


def test_progress_bar_line():
    line = format_bar(250, 1000, 500, 5.0, 80)
    assert line.startswith("[#######.......")
    assert "250/1,000 files" in line and "500 games" in line and "100 games/s" in line
    assert line.endswith("ETA 0:15") and len(line) <= 80
    assert len(format_bar(1, 10_000, 1, 0.0, 30)) <= 30


def test_progress_bar_draws_only_when_enabled_and_clears():
    off = io.StringIO()
    bar = ProgressBar(off, 10, enabled=False)
    bar.update(1, 1)
    bar.close()
    assert off.getvalue() == ""
    on = io.StringIO()
    bar = ProgressBar(on, 10, enabled=True)
    bar.update(1, 2)
    bar.update(2, 4)  # within 0.1 s of the first: not redrawn
    drawn = on.getvalue()
    assert drawn.startswith("\r[") and "1/10 files" in drawn and "2/10" not in drawn
    bar.close()
    assert on.getvalue().endswith("\r" + " " * (len(drawn) - 1) + "\r")


@pytest.mark.parametrize("preset", [None, "original", "classic"])
def test_the_warm_up_game_is_validated_whatever_the_ruleset(preset):
    ruleset = None if preset is None else load_ruleset(preset)
    report = warm_up(BatchOptions(short, ruleset=ruleset))
    assert report is not None and report.path == "<warm-up>"
    assert report.valid == (preset != "classic")  # Classic has no set-up phase
