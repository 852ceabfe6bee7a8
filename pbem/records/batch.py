"""Validate many record files at once, over worker processes, with output in input order.

Work goes out in chunks of pieces, not games: a piece is a small file, or a run of
whole games of a big one (byte ranges found by one pass over its lines), so that one
file of 50,000 games keeps every worker busy and shows its first results at once. The
workers are given every piece when they start (forked, at no cost) and a chunk is then
only its first and last index; a worker reads its pieces itself and sends back each
piece's output already formatted plus a few counts, as a plain tuple (``FileResult``),
which is far cheaper to pickle than a ``GameReport`` per game, or even a dataclass.
Results are yielded piece by piece in the order the files were given, whatever the
number of jobs, as soon as the pieces before them are done.

A file that cannot be read, or a game that breaks the validator itself, becomes a
one-line problem for that file and never stops the batch. ``multiprocessing`` is
imported only when a pool is worth starting, so ``pbem validate one.realm`` stays fast.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from pbem.errors import EXIT_INPUT, EXIT_INVALID, EXIT_OK, EXIT_USAGE, PbemError
from pbem.records.interchange import report_to_json
from pbem.records.reader import game_ranges, parse_source, read_file
from pbem.records.validate import GameReport, validate_source
from pbem.rules.values import frozen

T = TypeVar("T")

#: turns one game's report into its output text (ends with a newline, or is empty)
Formatter = Callable[[GameReport], str]

#: fewer files than this are validated in-process: a pool costs more than it saves
MIN_FILES_FOR_POOL = 8

#: at most this many files per chunk, counted (``chunk_files``)
MAX_CHUNK = 16

#: at most about this many bytes of records per chunk sent to a worker (some 70 generated
#: games or two pieces of a big file, 0.1 s of work): small enough to stream and
#: balance, large enough that the round trip per chunk (~0.1 ms of the parent's time)
#: does not show: chunks of 16 small files cost the parent some 80 ms of CPU over
#: 10,000 files
CHUNK_BYTES = 64 * 1024

#: a file larger than this is cut into pieces of about this many bytes of whole games
#: (some 30 games of 45 turns)
PIECE_BYTES = 32 * 1024

#: readable names of the warning codes, for the summary; unknown codes show as they are
WARNING_NAMES = {
    "record.encoding": "not UTF-8, read as Latin-1",
    "record.header": "unknown front matter key",
    "repair.label": "scanned label repaired",
    "repair.list-marker": "list marker ignored",
    "repair.number": "entry renumbered",
    "repair.comma": "stray comma ignored",
    "repair.stop": "stray full stop ignored",
    "repair.square": "look-alike letter in a square read",
    "repair.event-order": "special events reordered",
    "infer.event": "forced special event inferred",
}


@frozen
class BatchOptions:
    """What every worker needs to know, sent once per worker rather than per chunk."""

    format: Formatter
    strict: bool = False
    ruleset: Any = None
    #: only invalid games are formatted (and so shown)
    only_invalid: bool = False


@frozen
class Piece:
    """A file, or whole games of it (bytes ``start`` to ``end``): one unit of work."""

    path: Path
    start: int = 0
    end: int | None = None
    first_line: int = 1
    first_index: int = 0
    #: 0 for the file's first piece (the summary counts files by it)
    part: int = 0
    #: how many bytes it holds, as far as known (0: not known), to share the work out
    size: int = 0


def plan_pieces(files: Sequence[Path], size: int = PIECE_BYTES) -> Iterator[Piece]:
    """Each file as one piece, or, if larger than ``size``, as runs of whole games."""
    for path in files:
        nbytes = 0
        try:
            nbytes = path.stat().st_size
            ranges = list(game_ranges(path, size)) if nbytes > size else []
        except (OSError, PbemError):  # the worker says what is wrong with the file
            ranges = []
        if len(ranges) <= 1:
            yield Piece(path, size=nbytes)
            continue
        for part, r in enumerate(ranges):
            yield Piece(path, r.start, r.end, r.first_line, r.first_index, part, r.end - r.start)


class FileResult(NamedTuple):
    """One piece's output and counts: all that crosses back from a worker (a tuple, as
    that pickles in a sixth of a dataclass's time: ~3 us a game, both ways)."""

    path: str
    text: str = ""
    games: int = 0
    valid: int = 0
    invalid: int = 0
    warnings: tuple[tuple[str, int], ...] = ()
    #: why the file (or a game of it) could not be checked, in plain words
    problem: str | None = None
    #: the file could not be read at all (exit 2), as opposed to an internal error (exit 3)
    unreadable: bool = False
    #: which piece of its file this is; 0 for the first (or only) one
    part: int = 0


@dataclass(slots=True)
class Summary:
    """Running totals over a batch, for the closing lines and the exit status."""

    files: int = 0
    games: int = 0
    valid: int = 0
    invalid: int = 0
    unreadable: int = 0
    failed: int = 0
    warnings: Counter[str] = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    def add(self, result: FileResult) -> None:
        self.files += result.part == 0
        self.games += result.games
        self.valid += result.valid
        self.invalid += result.invalid
        self.warnings.update(dict(result.warnings))
        if result.unreadable:
            self.unreadable += 1
        elif result.problem is not None:
            self.failed += 1
        self.seconds = time.monotonic() - self.started

    @property
    def status(self) -> int:
        """The worst outcome wins: internal error 3, unreadable 2, invalid 1, else 0."""
        if self.failed:
            return EXIT_INPUT
        if self.unreadable:
            return EXIT_USAGE
        return EXIT_INVALID if self.invalid else EXIT_OK


def check_file(path: Path, options: BatchOptions) -> FileResult:
    """Validate every game of one file; never raises for a bad file or a validator bug."""
    return check_piece(Piece(path), options)


def check_piece(piece: Piece, options: BatchOptions) -> FileResult:
    """Validate the games of one piece, reading them as it goes; never raises for a bad
    file or a validator bug."""
    name = str(piece.path)
    parts: list[str] = []
    warnings: Counter[str] = Counter()
    valid = invalid = 0
    problems: list[str] = []
    unreadable = False
    sources = read_file(piece.path, piece.start, piece.end, first_line=piece.first_line,
                        first_index=piece.first_index)
    while True:
        try:
            source = next(sources, None)
        except PbemError as exc:
            problems.append(str(exc))
            unreadable = True
            break
        except Exception as exc:  # a reader bug must not stop the batch
            problems.append(_internal(name, exc))
            break
        if source is None:
            break
        try:
            report = validate_source(source, strict=options.strict,
                                     default_ruleset=options.ruleset)
            text = "" if options.only_invalid and report.valid else options.format(report)
        except Exception as exc:  # a validator bug in one game: say so, go on with the next
            problems.append(_internal(f"{name}#{source.index + 1}", exc))
            continue
        parts.append(text)
        if report.replay.warnings:
            warnings.update(w.code for w in report.replay.warnings)
        if report.valid:
            valid += 1
        else:
            invalid += 1
    return FileResult(name, "".join(parts), valid + invalid, valid, invalid,
                      tuple(sorted(warnings.items())), "\n".join(problems) or None,
                      unreadable, piece.part)


def format_json_line(report: GameReport) -> str:
    """One game as one line of JSON (``grammar/notation.md``): the ``--json`` formatter."""
    return _JSON(report_to_json(report)) + "\n"


#: ``json.dumps(data, ensure_ascii=False)``, its encoder made once, not once a game; a
#: report is fresh dicts and lists, never a cycle, so the encoder does not look for one
#: (7% of its work)
_JSON = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def _internal(where: str, exc: BaseException) -> str:
    return f"{where}: internal error ({type(exc).__name__}: {exc}); please report it"


def check_files(
    files: Sequence[Path], options: BatchOptions, *, jobs: int | None = None
) -> Iterator[FileResult]:
    """Every piece's result, in the order of ``files``, streamed as each becomes ready.

    ``jobs`` defaults to every core; 1 (or a handful of small files) runs in this
    process. Closing the iterator early (or Ctrl-C) stops the workers.
    """
    yield from check_pieces(list(plan_pieces(files)), options, jobs=jobs)


def check_pieces(
    pieces: Sequence[Piece], options: BatchOptions, *, jobs: int | None = None
) -> Iterator[FileResult]:
    """``check_files`` for pieces already planned (``plan_pieces``)."""
    for batch in check_batches(pieces, options, jobs=jobs):
        yield from batch


def check_batches(
    pieces: Sequence[Piece], options: BatchOptions, *, jobs: int | None = None
) -> Generator[list[FileResult], None, None]:
    """``check_pieces``'s results a batch at a time, as they become ready (a worker's
    chunk, or one piece in this process): a caller that writes them can flush once a
    batch, not once a file."""
    workers = pool_size(len(pieces), jobs)
    if workers <= 1:
        # as in a worker, the young generation is collected less often while the games
        # are checked here (set back after: the caller's process goes on)
        threshold = gc.get_threshold()
        gc.set_threshold(WORKER_GC_THRESHOLD, *threshold[1:])
        try:
            for piece in pieces:
                yield [check_piece(piece, options)]
        finally:
            gc.set_threshold(*threshold)
        return
    yield from _check_in_pool(pieces, options, workers)


def pool_size(npieces: int, jobs: int | None = None) -> int:
    """How many processes a batch of ``npieces`` pieces uses: 1 means in-process, no pool."""
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or npieces < MIN_FILES_FOR_POOL:
        return 1
    return min(jobs, npieces)  # no more workers than pieces to hand them


def chunk_files(files: Sequence[T], jobs: int) -> list[list[T]]:
    """Runs of neighbouring files: about four chunks per worker, at most MAX_CHUNK files
    each, and smaller ones at the end, so that the workers finish nearly together."""
    return [[files[i] for i in run] for run in chunk_runs([1] * len(files), jobs, MAX_CHUNK)]


def chunk_runs(sizes: Sequence[int], jobs: int, most: int) -> list[range]:
    """Runs of neighbouring items (their indexes), each of about ``most`` in size at most
    and about four per worker, then smaller and smaller ones at the end (a half, a
    quarter, ... down to single items), so that the workers finish nearly together.

    ``sizes``: each item's size, at least 1 (all 1: runs of a number of items).
    """
    total = sum(sizes)
    target = max(1, min(most, total // (jobs * 4)))
    end = len(sizes)  # the items from ``end`` on, some ``jobs`` runs' worth, are the tail
    if total > 2 * target * jobs:
        rest = 0
        while end > 0 and rest + sizes[end - 1] <= target * jobs:
            end -= 1
            rest += sizes[end]
    runs = _runs_of(sizes, 0, end, target)
    while end < len(sizes):
        target = max(1, target // 2)
        for run in _runs_of(sizes, end, len(sizes), target)[:jobs]:
            runs.append(run)
            end = run.stop
    return runs


def _runs_of(sizes: Sequence[int], start: int, stop: int, target: int) -> list[range]:
    """Items ``start`` to ``stop`` in runs that each reach ``target`` (the last may not)."""
    runs = []
    first, held = start, 0
    for i in range(start, stop):
        held += sizes[i]
        if held >= target:
            runs.append(range(first, i + 1))
            first, held = i + 1, 0
    if first < stop:
        runs.append(range(first, stop))
    return runs


def _check_in_pool(
    pieces: Sequence[Piece], options: BatchOptions, jobs: int
) -> Iterator[list[FileResult]]:
    """Chunks over ``jobs`` workers, in order.

    A worker that dies (killed, out of memory) breaks the whole pool, so the chunks
    in flight fail with it: the first failed chunk is run again alone, and if it breaks
    again, each half of it alone, and so on, until the piece that breaks it is found and
    reported; the rest goes on in a fresh pool.
    """
    chunks = chunk_runs([max(1, p.size) for p in pieces], jobs, CHUNK_BYTES)
    if _workers_fork():
        warm_up(options)
    done = 0
    suspect = False
    while done < len(chunks):
        alone = suspect
        todo = chunks[done : done + 1] if alone else chunks[done:]
        suspect = False
        with contextlib.closing(
            _run_pool(todo, pieces, options, 1 if alone else jobs)
        ) as batches:
            for results in batches:
                if results is None:
                    suspect = True
                    break
                done += 1
                yield [FileResult._make(r) for r in results]
        if suspect and alone:
            run = chunks[done]
            if len(run) > 1:  # halve it and try each half alone: which piece is it?
                chunks[done : done + 1] = [run[: len(run) // 2], run[len(run) // 2 :]]
                continue
            yield [FileResult(str(pieces[i].path), problem=f"{pieces[i].path}: {_DIED}",
                              part=pieces[i].part) for i in run]
            done += 1
            suspect = False


#: a game of one line, validated in the parent before the workers fork (``warm_up``)
_WARM_UP = "1.Bb11 Bh2\n"


def warm_up(options: BatchOptions) -> GameReport | None:
    """Validate a one-line game, so that what a process builds for its first game (the
    parser's scanners above all, ~55 ms) is built once, before the workers fork and
    share it, instead of in each of them. None if that failed: it never stops a batch."""
    try:
        source = parse_source(_WARM_UP, "<warm-up>", 0, 1)
        return validate_source(source, strict=options.strict, default_ruleset=options.ruleset)
    except Exception:  # a bug shows in the batch's own games, said there for each file
        return None


def _workers_fork() -> bool:
    """The workers start as copies of this process (not fresh ones, as on macOS)."""
    import multiprocessing

    return multiprocessing.get_start_method() == "fork"


def _run_pool(
    chunks: list[range], pieces: Sequence[Piece], options: BatchOptions, jobs: int
) -> Generator[list[tuple[Any, ...]] | None, None, None]:
    """Each chunk's results (as plain tuples) in order, until the end, or None when the
    pool breaks."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # the pieces go to each worker once, as it starts (forked: not even pickled)
    pool = ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(options, pieces))
    try:
        # Workers must not see Ctrl-C (the parent stops them): ignore SIGINT while they
        # fork, so that not even a worker still starting up prints a traceback.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            futures = [pool.submit(_check_chunk, c.start, c.stop) for c in chunks]
        finally:
            signal.signal(signal.SIGINT, previous)
        for future in futures:
            try:
                results = future.result()
            except BrokenProcessPool:
                yield None
                return
            yield results
    finally:
        # pending chunks are dropped; running ones (a few files each) are let finish
        pool.shutdown(wait=True, cancel_futures=True)


_DIED = "a worker process died while checking this file or one checked with it"


_options: BatchOptions | None = None
_pieces: Sequence[Piece] = ()


#: the first-generation collection threshold of a worker, and of a batch checked in this
#: process (Python's default is 700): replaying a game allocates many short-lived objects
#: and very few cycles, and the default collections cost about 6% of a worker's time
#: (``-j 1``: about 0.5% of a game's instructions)
WORKER_GC_THRESHOLD = 10_000


def _init_worker(options: BatchOptions, pieces: Sequence[Piece]) -> None:
    global _options, _pieces
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _options, _pieces = options, pieces
    # what the worker inherits from the parent (modules above all) lives as long as it:
    # leave it out of every collection, then collect the young generation less often
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])


def _check_chunk(start: int, stop: int) -> list[tuple[Any, ...]]:
    assert _options is not None
    return [tuple(check_piece(_pieces[i], _options)) for i in range(start, stop)]


def format_summary(summary: Summary, jobs: int) -> str:
    """The closing lines of a batch, for stderr: counts, warnings by kind, time."""
    s = summary
    files = f"{s.files} file{'s' if s.files != 1 else ''}"
    lines = [f"{s.games} game{'s' if s.games != 1 else ''} in {files}: "
             f"{s.valid} valid, {s.invalid} invalid"]
    if s.unreadable:
        lines.append(f"  unreadable files: {s.unreadable}")
    if s.failed:
        lines.append(f"  files with an internal error: {s.failed}")
    total = sum(s.warnings.values())
    if total:
        lines.append(f"  warnings: {total}")
        width = len(str(max(s.warnings.values())))
        for code, count in sorted(s.warnings.items(), key=lambda kv: (-kv[1], kv[0])):
            name = WARNING_NAMES.get(code, code)
            lines.append(f"    {count:>{width}}  {name} ({code})")
    rate = s.games / s.seconds if s.seconds > 0 else 0.0
    lines.append(f"  time: {s.seconds:.2f} s, {rate:,.0f} games/s, "
                 f"{jobs} job{'s' if jobs != 1 else ''}")
    return "".join(line + "\n" for line in lines)
