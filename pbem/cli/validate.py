"""``pbem validate``: check record files against the rules, every game's verdict in order.

The records layer finds, reads and checks the games (``pbem.records.batch``, over worker
processes with ``--jobs``); the verdict's text is ``pbem.render.verdict``'s, its JSON
``pbem.records.batch``'s. Here: the options, the stream to stdout, the progress bar and
the closing counts on stderr, the exit code.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from pbem.cli import options
from pbem.cli.inputs import record_files, ruleset_option


def register(sub: options.Commands) -> None:
    """Add ``validate`` to ``pbem``."""
    v = sub.add_parser(
        "validate",
        help="check game records against the rules",
        description="Check every game in the given record files and folders (*.realm, "
        "recursively). Exit 0 if all are valid, 1 if any is not, 2 for unreadable input.",
    )
    options.paths(v)
    options.json(v, "one JSON object per game per line")
    v.add_argument("--strict", action="store_true", help="treat repairs and inferences as errors")
    v.add_argument(
        "-v", "--verbose", action="store_true", help="list every warning under its game"
    )
    options.record_ruleset(v)
    v.add_argument(
        "-j", "--jobs", type=_jobs, metavar="N",
        help="worker processes (default: every core; 1: no workers)",
    )
    v.add_argument(
        "-q", "--quiet", action="store_true",
        help="show only invalid games (and the summary)",
    )
    v.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )
    v.add_argument(
        "--summary", action=argparse.BooleanOptionalAction, default=None,
        help="closing counts on stderr (default: for more than one game, or with -q)",
    )
    v.set_defaults(func=cmd_validate)


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of jobs (1 or more)")
    return n


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    """Stream every game's verdict to ``out`` in file order; progress and summary on stderr."""
    import contextlib
    import functools

    from pbem.records.batch import (
        BatchOptions,
        Summary,
        check_batches,
        format_json_line,
        format_summary,
        plan_pieces,
        pool_size,
    )
    from pbem.render.progress import ProgressBar

    ruleset = ruleset_option(args.ruleset)
    found = record_files(args.paths)
    for problem in found.problems:
        sys.stderr.write(f"pbem: {problem}\n")
    files = found.files
    if args.json:  # the verdict's words and the text board are loaded only for a reader
        formatter = format_json_line
    else:
        from pbem.render.verdict import describe_report

        formatter = functools.partial(describe_report, verbose=args.verbose)
    options = BatchOptions(formatter, args.strict, ruleset, only_invalid=args.quiet)
    err = sys.stderr
    show_bar = args.progress if args.progress is not None else err.isatty()
    summary = Summary(unreadable=len(found.problems))
    pieces = list(plan_pieces(files))  # one quick pass over big files: where games start
    cut = len(pieces) > len(files)  # the bar counts parts of big files then
    bar = ProgressBar(err, len(pieces), enabled=show_bar, unit="parts" if cut else "files")
    out_is_terminal = show_bar and out.isatty()
    parts = 0
    try:
        with contextlib.closing(check_batches(pieces, options, jobs=args.jobs)) as batches:
            for batch in batches:  # one flush a batch: 10,000 files are 600 writes, not 10,000
                written = False
                for result in batch:
                    summary.add(result)
                    if result.text:
                        if out_is_terminal:
                            bar.clear()
                        out.write(result.text)
                        written = True
                    if result.problem:
                        if written:
                            out.flush()
                            written = False
                        bar.clear()
                        err.write("".join(f"pbem: {ln}\n" for ln in result.problem.splitlines()))
                        err.flush()
                    parts += 1
                if written:
                    out.flush()
                bar.update(parts, summary.games)
    finally:
        bar.close()
    if args.summary if args.summary is not None else (summary.games > 1 or args.quiet):
        err.write(format_summary(summary, pool_size(len(pieces), args.jobs)))
    return summary.status
