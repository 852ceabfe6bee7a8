"""``pbem moves FILE``: the legal actions after a record's last legal turn.

A thin command over each game's ``legal_listing``; every action is written in canonical
notation, its special events included, so that it can be pasted into a record.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from pbem.cli import options
from pbem.cli.inputs import CheckedGames

JSON_HELP = (
    'one object per game: {"phase": "setup|play|over", "to_move": "white|black|null", '
    '"turn": "11w", "result": null, "placements": [...], "moves": {"c10": [...]}, '
    '"sacrifices": [...], "rearrangements": {"h5": 123}, "pass": false}; with --all also '
    '"rearrangement_list": {"h5": [...]}'
)


def register(sub: options.Commands) -> None:
    """Add ``pbem moves`` to ``pbem``."""
    m = sub.add_parser(
        "moves",
        help="the legal actions after the last legal turn of a record",
        description="Replay a record and list every legal action after its last legal "
        "turn, in canonical notation: set-up placements, the first move of a turn grouped "
        "by piece (every created-Enforcer square and facing and every choice of enemy "
        "Enforcer spelled out), Power sacrifices, and Rearrangements counted per Realm. "
        "Exit 0; 1 when the record is invalid (the actions after its last legal turn are "
        "still listed, the error goes to stderr); 2 for a bad file, game or option.",
    )
    options.record_file(m)
    options.json(m, JSON_HELP)
    options.game_in_file(m)
    options.record_ruleset(m)
    m.add_argument("--all", action="store_true", help="list every Rearrangement, not only counts")
    m.set_defaults(func=cmd_moves)


def cmd_moves(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.render.legal_text import format_listing, legal_listing

    games = CheckedGames(args, "listing the legal actions after the last legal turn")
    for report, title in games:
        listing = legal_listing(report.final, every=args.all) if report.final else None
        if args.json:
            out.write(json.dumps(listing) + "\n")
            continue
        if title is not None:
            out.write(title + "\n")
        if listing is not None:
            out.write(format_listing(report.final, listing))
    return games.status
