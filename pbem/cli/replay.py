"""``pbem replay FILE``: the position after the last legal turn of a record, as a text
board (``pbem.render.text_board``) or as JSON (``pbem.records.interchange``)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from pbem.cli import options
from pbem.cli.inputs import CheckedGames


def register(sub: options.Commands) -> None:
    """Add ``replay`` to ``pbem``."""
    r = sub.add_parser(
        "replay",
        help="the position after the last legal turn of a record",
        description="Play a record through the rules and print the position after its last "
        "legal turn: a text board with supplies, captures and the score, or JSON.",
    )
    options.record_file(r)
    options.json(r, "the position as JSON (notation.md)")
    options.game_in_file(r)
    options.flip(r)
    options.record_ruleset(r)
    r.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.records.interchange import position_to_json
    from pbem.render.text_board import render_text

    games = CheckedGames(args, "showing the position after the last legal turn")
    for report, title in games:
        final = report.final
        if args.json:
            out.write(json.dumps(position_to_json(final) if final else None) + "\n")
        elif final is not None:
            out.write(render_text(final, flip=args.flip, title=title) + "\n")
    return games.status
