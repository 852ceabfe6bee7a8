"""``pbem ratings [PATH...] [--game NAME]``: the Glicko-2 table of the club.

Without PATHs, of the referee's games (its store and its ``ratings:`` settings); with
PATHs, of record files, as ``pbem archive`` rates them: the store's games through
``pbem.referee.public.club_ratings``, the files' through ``pbem.records.rated``; the table
is ``pbem.render.ratings``'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from pbem.cli import options
from pbem.cli.inputs import record_files
from pbem.errors import EXIT_OK, EXIT_USAGE, PbemError

if TYPE_CHECKING:
    from pbem.records.validate import GameReport


def register(sub: options.Commands) -> None:
    p = sub.add_parser(
        "ratings", help="the players' Glicko-2 ratings, one table per game of the family",
        description="Print the ratings from the finished rated games: of the referee's "
        "games, or of record files and folders (*.realm) when PATHs are given. Rating, "
        "deviation (RD), games, wins, draws, losses; a '?' after a provisional rating (RD "
        "above 110). Ratings are recomputed from the games every time, in the order the "
        "games ended.",
    )
    options.paths(p, required=False)
    options.family_game(p)
    options.home(p, note="read when no PATH is given")
    p.set_defaults(func=cmd_ratings)


def cmd_ratings(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.render.ratings import sections, text_table

    if not args.paths:
        from pbem.cli.home import open_home
        from pbem.referee.config.options import load_options
        from pbem.referee.public.club_ratings import club_ratings

        _, config, conn = open_home(args)
        try:
            club = club_ratings(conn, load_options(config).ratings, public=False)
        finally:
            conn.close()
        out.write(text_table(sections(club.table, club.names, args.game), asked=args.game))
        return EXIT_OK
    from pbem.ratings.glicko2 import Settings
    from pbem.ratings.table import fold
    from pbem.records.rated import rated_games

    reports, problems = _reports(args.paths)
    if reports or not problems:  # nothing read: the errors alone, no empty table
        rated = rated_games(reports)
        parts = sections(fold(rated.games, Settings()), rated.names, args.game)
        out.write(text_table(parts, asked=args.game))
    for problem in problems:
        sys.stderr.write(f"pbem: {problem}\n")
    return EXIT_USAGE if problems else EXIT_OK


def _reports(paths: list[str]) -> tuple[list[GameReport], list[str]]:
    """Every game of the records, validated, in path order; the files that could not be read."""
    from pbem.records.reader import read_file
    from pbem.records.validate import validate_source

    found = record_files(paths)
    problems = list(found.problems)
    reports: list[GameReport] = []
    for path in found.files:
        try:
            sources = list(read_file(path))
        except PbemError as exc:
            problems.append(f"{path}: {exc}")
            continue
        reports.extend(validate_source(source) for source in sources)
    return reports, problems
