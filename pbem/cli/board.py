"""``pbem board FILE``: an SVG or PNG picture of a position of a record
(``pbem.render.board_svg``, ``pbem.render.board_png``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from pbem.cli import options
from pbem.cli.inputs import CheckedGames
from pbem.errors import UsageError


def register(sub: options.Commands) -> None:
    """Add ``board`` to ``pbem``."""
    b = sub.add_parser(
        "board",
        help="an SVG or PNG picture of a position of a record",
        description="Draw the position after a turn of a record as SVG (or PNG with "
        "-o FILE.png), with that turn's "
        "moves as arrows and its special events marked. Without --turn: the position after "
        "the last legal turn. Exit 0 for a valid record, 1 for an invalid one (the position "
        "after its last legal turn is still drawn), 2 for a bad turn, game or file.",
    )
    options.record_file(b)
    b.add_argument(
        "--turn", metavar="LABEL", help="the position after this turn, e.g. 11w or 4b"
    )
    options.game_in_file(b)
    options.flip(b)
    b.add_argument("--size", type=int, metavar="PX",
                   help="width and height in pixels (at most 4000)")
    options.output(b, metavar="OUT",
                   help="write the board here: FILE.svg or FILE.png (default: SVG on stdout)")
    options.record_ruleset(b)
    b.set_defaults(func=cmd_board)


#: the largest board drawn: a PNG of 4,000 pixels a side takes 64 MB to draw
MAX_BOARD_PIXELS = 4000


def cmd_board(args: argparse.Namespace, out: TextIO) -> int:
    # imported here: svgwrite takes longer to import than validating a game
    from pbem.render.board_svg import render_svg

    if args.size is not None and not 0 < args.size <= MAX_BOARD_PIXELS:
        raise UsageError(f"--size must be from 1 to {MAX_BOARD_PIXELS} pixels, not {args.size}")
    kind = _picture_kind(args.output)
    shown = "the chosen turn" if args.turn is not None else "the last legal turn"
    games = CheckedGames(args, f"showing the position after {shown}")
    if len(games.sources) > 1:
        n = len(games.sources)
        raise UsageError(f"{args.file} holds {n} games; choose one with --game 1..{n}")
    report = games.check(games.sources[0])  # said below, once the turn is known to exist
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
    games.say(report)
    if position is None:
        return games.status
    title = report.title()
    title += f": the position after {last.label}" if last is not None else ": the start"
    svg = render_svg(position, last=last, flip=args.flip, size=args.size, title=title) + "\n"
    if args.output is None:
        out.write(svg)
        return games.status
    if kind == "png":
        from pbem.render.board_png import svg_to_png

        data = svg_to_png(svg)
    else:
        data = svg.encode("utf-8")
    try:
        Path(args.output).write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return games.status


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
