"""The ``pbem`` command: thin commands over the library.

Exit codes: 0 every game valid, 1 some game invalid, 2 usage error or unreadable
input, 3 an internal error (reported in one line, never as a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pbem import __version__
from pbem.cli.inputs import record_games, report_invalid, ruleset_option
from pbem.errors import EXIT_INPUT, EXIT_INVALID, EXIT_OK, EXIT_USAGE, PbemError, UsageError
from pbem.records.interchange import position_to_json
from pbem.records.search import Found, find_records
from pbem.records.validate import GameReport, validate_source
from pbem.render.text_board import render_text

#: modules that add commands: each has ``register(subparsers)``. They import their heavy
#: parts inside the command functions, so that ``pbem validate`` starts fast.
COMMAND_MODULES = (
    "pbem.cli.moves",
    "pbem.cli.generate",
    "pbem.cli.rulesets",
    "pbem.cli.referee",
    "pbem.cli.site",
    "pbem.cli.ratings",
    "pbem.cli.tournament",
    "pbem.cli.store",
)


RULESET_HELP = "the ruleset (a preset such as 'original', or a YAML file) for records naming none"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pbem",
        description="Referee, validator and archivist for Realm and the games on its board.",
    )
    p.add_argument("--version", action="version", version=f"pbem {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser(
        "validate",
        help="check game records against the rules",
        description="Check every game in the given record files and folders (*.realm, "
        "recursively). Exit 0 if all are valid, 1 if any is not, 2 for unreadable input.",
    )
    v.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders")
    v.add_argument("--json", action="store_true", help="one JSON object per game per line")
    v.add_argument("--strict", action="store_true", help="treat repairs and inferences as errors")
    v.add_argument(
        "-v", "--verbose", action="store_true", help="list every warning under its game"
    )
    v.add_argument("--ruleset", metavar="NAME|FILE", help=RULESET_HELP)
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

    r = sub.add_parser(
        "replay",
        help="the position after the last legal turn of a record",
        description="Play a record through the rules and print the position after its last "
        "legal turn: a text board with supplies, captures and the score, or JSON.",
    )
    r.add_argument("file", metavar="FILE")
    r.add_argument("--json", action="store_true", help="the position as JSON (notation.md)")
    r.add_argument(
        "--game", type=int, metavar="N", help="only the N-th game of the file (1 = first)"
    )
    r.add_argument("--flip", action="store_true", help="draw the board from Black's side")
    r.add_argument("--ruleset", metavar="NAME|FILE", help=RULESET_HELP)
    r.set_defaults(func=cmd_replay)

    b = sub.add_parser(
        "board",
        help="an SVG or PNG picture of a position of a record",
        description="Draw the position after a turn of a record as SVG (or PNG with "
        "-o FILE.png), with that turn's "
        "moves as arrows and its special events marked. Without --turn: the position after "
        "the last legal turn. Exit 0 for a valid record, 1 for an invalid one (the position "
        "after its last legal turn is still drawn), 2 for a bad turn, game or file.",
    )
    b.add_argument("file", metavar="FILE")
    b.add_argument(
        "--turn", metavar="LABEL", help="the position after this turn, e.g. 11w or 4b"
    )
    b.add_argument(
        "--game", type=int, metavar="N", help="the N-th game of the file (1 = first)"
    )
    b.add_argument("--flip", action="store_true", help="draw the board from Black's side")
    b.add_argument("--size", type=int, metavar="PX",
                   help="width and height in pixels (at most 4000)")
    b.add_argument(
        "-o", "--output", metavar="OUT",
        help="write the board here: FILE.svg or FILE.png (default: SVG on stdout)",
    )
    b.add_argument("--ruleset", metavar="NAME|FILE", help=RULESET_HELP)
    b.set_defaults(func=cmd_board)

    a = sub.add_parser(
        "archive",
        help="build a static HTML archive of games",
        description="Build a self-contained static site from record files and folders: an "
        "index of every game (sortable, filterable) and a page per game with a board viewer. "
        "Invalid records are published up to their last legal turn, with the error.",
    )
    a.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders")
    a.add_argument("-o", "--output", required=True, metavar="SITE", help="the folder to write")
    a.add_argument("--title", default="Realm games", help="the site's title")
    a.add_argument("--ruleset", metavar="NAME|FILE", help=RULESET_HELP)
    a.set_defaults(func=cmd_archive)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return p


# -- validate ----------------------------------------------------------------------------
def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of jobs (1 or more)")
    return n


def _reports(paths: Sequence[str]) -> Found:
    """The record files to validate, in order, and what was skipped (said on stderr).

    A usage error if there are none and nothing was skipped.
    """
    found = find_records([Path(p) for p in paths])
    for problem in found.problems:
        sys.stderr.write(f"pbem: {problem}\n")
    if not found.files and not found.problems:
        raise UsageError(f"no record files (*.realm) in {', '.join(paths)}")
    return found


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
    found = _reports(args.paths)
    files = found.files
    formatter = (format_json_line if args.json
                 else functools.partial(describe_report, verbose=args.verbose))
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


def describe_report(report: GameReport, *, verbose: bool = False) -> str:
    replay = report.replay
    where = f"{report.path}#{report.index + 1}"
    turns = len(replay.turns)
    nwarn = len(replay.warnings)
    warn = f", {nwarn} warning{'s' if nwarn != 1 else ''}" if nwarn else ""
    if report.valid:
        result = replay.result or "unfinished"
        line = f"{where}: valid, {result} after {turns} turns{warn} ({report.title()})\n"
        if verbose:
            line += "".join(f"  {_warning_line(report, w)}\n" for w in replay.warnings)
            line += "".join(f"  {_annotation_line(report, a)}\n" for a in replay.annotations)
        return line
    e = replay.error
    assert e is not None
    loc = f"{report.path}:{e.span.line}:{e.span.column}" if e.span else report.path
    head = f"{where}: INVALID ({report.title()})\n"
    what = " ".join(x for x in (e.turn, repr(e.action) if e.action else None) if x)
    text = head + f"{loc}: {what + ': ' if what else ''}{e.message}\n"
    if e.options and len(e.options) <= 16:
        text += f"  the rules allow: {', '.join(e.options)}\n"
    elif e.options:
        text += f"  the rules allow {len(e.options)} choices, e.g. {', '.join(e.options[:8])}\n"
    text += _caret(report, e.span.line, e.span.column, e.action) if e.span else ""
    if verbose:
        text += "".join(f"  {_warning_line(report, w)}\n" for w in replay.warnings)
    if replay.final is not None:
        board = render_text(replay.final, legend=False)
        text += "  position before the failing turn:\n"
        text += "".join(f"    {ln}\n" for ln in board.splitlines())
    return text


def _annotation_line(report: GameReport, a: dict[str, Any]) -> str:
    """An editor's annotation, as ``-v`` lists it: its place, its turn, what it says."""
    loc = f"{report.path}:{a['line']}:{a['column']}"
    variation = a["variation"]
    if variation is not None:
        state = "plays" if variation["valid"] else "breaks"
        return f"{loc}: annotation: {a['turn']}: variation {variation['text']} ({state})"
    said = " ".join(x for x in (a["mark"], a["comment"] and f"{{{a['comment']}}}") if x)
    return f"{loc}: annotation: {a['turn']}: {said}"


def _warning_line(report: GameReport, w: object) -> str:
    span = getattr(w, "span", None)
    loc = f"{report.path}:{span.line}:{span.column}" if span else report.path
    turn = getattr(w, "turn", None)
    return f"{loc}: warning: {turn + ': ' if turn else ''}{getattr(w, 'message', w)}"


#: the most of a record's line shown above the caret
CARET_LINE = 100


def _caret(report: GameReport, line: int, column: int, action: str | None) -> str:
    lines = report.source.text.splitlines()
    index = line - report.source.first_line
    if not 0 <= index < len(lines):
        return ""
    text = lines[index].expandtabs(1)
    width = max(1, min(len(action or "x"), len(text) - column + 1))
    offset = column - 1
    if len(text) > CARET_LINE:  # a window around the error, not a megabyte of line
        start = max(0, min(offset - CARET_LINE // 3, len(text) - CARET_LINE))
        end = start + CARET_LINE
        head = "..." if start else ""
        text = head + text[start:end] + ("..." if end < len(text) else "")
        offset += len(head) - start
        width = min(width, CARET_LINE)
    return f"  {text}\n  {' ' * offset}{'^' * width}\n"


# -- replay ------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    ruleset = ruleset_option(args.ruleset)
    sources = record_games(args.file, args.game)
    status = EXIT_OK
    for source in sources:
        report = validate_source(source, default_ruleset=ruleset)
        shown = "showing the position after the last legal turn"
        status = max(status, report_invalid(report, shown))
        final = report.final
        if args.json:
            out.write(json.dumps(position_to_json(final) if final else None) + "\n")
            continue
        title = None
        if len(sources) > 1 or args.game:
            title = f"{report.path}#{report.index + 1}: {report.title()}"
        if final is not None:
            out.write(render_text(final, flip=args.flip, title=title) + "\n")
    return status


# -- board -------------------------------------------------------------------------------
#: the largest board drawn: a PNG of 4,000 pixels a side takes 64 MB to draw
MAX_BOARD_PIXELS = 4000


def cmd_board(args: argparse.Namespace, out: TextIO) -> int:
    # imported here: svgwrite takes longer to import than validating a game
    from pbem.render.board_svg import render_svg

    ruleset = ruleset_option(args.ruleset)
    if args.size is not None and not 0 < args.size <= MAX_BOARD_PIXELS:
        raise UsageError(f"--size must be from 1 to {MAX_BOARD_PIXELS} pixels, not {args.size}")
    kind = _picture_kind(args.output)
    sources = record_games(args.file, args.game)
    if len(sources) > 1:
        raise UsageError(
            f"{args.file} holds {len(sources)} games; choose one with --game 1..{len(sources)}"
        )
    report = validate_source(sources[0], default_ruleset=ruleset)
    turns = report.replay.turns
    if args.turn is not None:
        label = args.turn.strip().lower()
        last = next((t for t in turns if t.label == label), None)
        if last is None:
            legal = f"{turns[0].label} to {turns[-1].label}" if turns else "none"
            broken = " (the record breaks after them)" if not report.valid else ""
            raise UsageError(
                f"{args.file} has no legal turn {args.turn!r}; its legal turns: {legal}{broken}"
            )
        position = last.after
    else:
        last = turns[-1] if turns else None
        position = report.final
    shown = "the chosen turn" if args.turn is not None else "the last legal turn"
    status = report_invalid(report, f"showing the position after {shown}")
    if position is None:
        return status
    title = report.title()
    title += f": the position after {last.label}" if last is not None else ": the start"
    svg = render_svg(position, last=last, flip=args.flip, size=args.size, title=title) + "\n"
    if args.output is None:
        out.write(svg)
        return status
    if kind == "png":
        from pbem.render.board_png import svg_to_png

        data = svg_to_png(svg)
    else:
        data = svg.encode("utf-8")
    try:
        Path(args.output).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return status


def _picture_kind(output: str | None) -> str:
    """``svg`` or ``png``, from the output file's extension; any other is a usage error."""
    if output is None:
        return "svg"
    suffix = Path(output).suffix.lower()
    if suffix in (".svg", ".png"):
        return suffix[1:]
    shown = f"'{suffix}'" if suffix else "no extension"
    raise UsageError(
        f"{output}: cannot tell the picture's format from {shown}; name the file .svg or .png"
    )


# -- archive ------------------------------------------------------------------------------
def cmd_archive(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.render.archive import build_archive

    ruleset = ruleset_option(args.ruleset)
    site = Path(args.output)
    if site.exists() and not site.is_dir():
        raise UsageError(f"{site} exists and is not a folder")
    try:
        summary = build_archive([Path(p) for p in args.paths], site, title=args.title,
                                ruleset=ruleset)
    except OSError as exc:
        raise UsageError(f"cannot write the site to {site}: {exc.strerror or exc}") from None
    if summary.games == 0:
        for line in summary.unreadable:
            sys.stderr.write(f"pbem: {line}\n")
        raise UsageError(f"no record files (*.realm) in {', '.join(args.paths)}")
    out.write(
        f"wrote {site / 'index.html'}: {summary.games} games, {summary.valid} valid, "
        f"{summary.invalid} invalid\n"
    )
    for line in summary.unreadable:
        sys.stderr.write(f"pbem: {line}\n")
    if summary.unreadable:
        return EXIT_USAGE
    return EXIT_OK if summary.invalid == 0 else EXIT_INVALID


# -- entry point ------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message
        return EXIT_OK if exc.code == 0 else EXIT_USAGE
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.func(args, sys.stdout))
    except UsageError as exc:
        sys.stderr.write(f"pbem: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        sys.stderr.write("pbem: interrupted\n")
        return 130
    except PbemError as exc:
        sys.stderr.write(f"pbem: {exc}\n")
        return EXIT_INPUT
    except OSError as exc:  # a file, a disk or a pipe the command had no words for
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"pbem: {where}{exc.strerror or exc}\n")
        return EXIT_USAGE
    except RecursionError:
        sys.stderr.write("pbem: the input is nested too deeply to be read\n")
        return EXIT_USAGE
    except MemoryError:
        sys.stderr.write("pbem: out of memory\n")
        return EXIT_INPUT
    except Exception as exc:  # a bug: one line, never a traceback
        sys.stderr.write(f"pbem: internal error ({type(exc).__name__}: {exc}); please report it\n")
        return EXIT_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
