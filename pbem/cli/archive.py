"""``pbem archive PATH... -o SITE``: a static HTML archive of record files
(``pbem.render.archive``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from pbem.cli import options
from pbem.cli.inputs import ruleset_option
from pbem.errors import EXIT_INVALID, EXIT_OK, EXIT_USAGE, UsageError


def register(sub: options.Commands) -> None:
    """Add ``archive`` to ``pbem``."""
    a = sub.add_parser(
        "archive",
        help="build a static HTML archive of games",
        description="Build a self-contained static site from record files and folders: an "
        "index of every game (sortable, filterable) and a page per game with a board viewer. "
        "Invalid records are published up to their last legal turn, with the error.",
    )
    options.paths(a)
    options.output(a, metavar="SITE", help="the folder to write", required=True)
    a.add_argument("--title", default="Realm games", help="the site's title")
    options.record_ruleset(a)
    a.set_defaults(func=cmd_archive)


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
    out.write(summary.describe(site / "index.html") + "\n")
    for line in summary.unreadable:
        sys.stderr.write(f"pbem: {line}\n")
    if summary.unreadable:
        return EXIT_USAGE
    return EXIT_OK if summary.invalid == 0 else EXIT_INVALID
