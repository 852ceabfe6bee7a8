"""``pbem ratings [PATH...] [--game NAME]``: the Glicko-2 table of the club.

Without PATHs, of the referee's games (its store and its ``ratings:`` settings); with
PATHs, of record files, as ``pbem archive`` rates them. It lives in the referee's layer
because only this layer may read both the records and the referee's store.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pbem.errors import EXIT_OK, EXIT_USAGE, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.records.validate import GameReport


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ratings", help="the players' Glicko-2 ratings, one table per game of the family",
        description="Print the ratings from the finished rated games: of the referee's "
        "games, or of record files and folders (*.realm) when PATHs are given. Rating, "
        "deviation (RD), games, wins, draws, losses; a '?' after a provisional rating (RD "
        "above 110). Ratings are recomputed from the games every time, in the order the "
        "games ended.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="record files or folders")
    p.add_argument("--game", metavar="NAME",
                   help="one game of the family only (featured, classic, medieval, ...)")
    p.add_argument("--home", help="the referee's data folder (default: $PBEM_HOME, else "
                   "./pbem-home); read when no PATH is given")
    p.set_defaults(func=cmd_ratings)


def cmd_ratings(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.render.ratings import sections, text_table

    if not args.paths:
        from pbem.referee.config.home import Home, home_path
        from pbem.referee.config.options import load_options
        from pbem.referee.public.club_ratings import club_ratings
        from pbem.referee.store import connect

        home = Home(home_path(args.home))
        config = home.load_config()
        conn = connect(home.store_target(config))
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
    from pbem.records.search import find_records
    from pbem.records.validate import validate_source

    found = find_records([Path(p) for p in paths])
    problems = list(found.problems)
    if not found.files and not problems:
        raise UsageError(f"no record files (*.realm) in {', '.join(paths)}")
    reports: list[GameReport] = []
    for path in found.files:
        try:
            sources = list(read_file(path))
        except PbemError as exc:
            problems.append(f"{path}: {exc}")
            continue
        reports.extend(validate_source(source) for source in sources)
    return reports, problems
