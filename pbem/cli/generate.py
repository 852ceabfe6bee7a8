"""``pbem generate``: seeded random games, written as canonical records."""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Any, TextIO

from pbem.cli import options
from pbem.errors import EXIT_OK, UsageError

_PREFIX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")

#: a bound on --games, so that a typo of many digits never starts a run that cannot end
#: (this many already takes most of a day)
MAX_GAMES = 10_000_000


def register(sub: options.Commands) -> None:
    """Add ``generate`` to ``pbem``."""
    p = sub.add_parser(
        "generate",
        help="write seeded random games as records",
        description="Play N random games to their end by the rules and write each as a "
        "canonical record (every special event written) into DIR, as "
        "PREFIX-SEED-NNNNN.realm. The same seed gives the same games. The policy seeks out "
        "every rule: captures, immobilisations, Rearrangements, sacrifices where allowed.",
    )
    p.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    p.add_argument("--seed", type=int, required=True, metavar="S", help="the random seed")
    options.generated_ruleset(p)
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    p.add_argument("--prefix", metavar="TEXT",
                   help="file name prefix (default: the ruleset's name, or 'random')")
    p.add_argument("--one-file", action="store_true", help="all games in one file")
    p.add_argument("--force", action="store_true", help="overwrite existing records")
    p.add_argument("--stats", action="store_true", help="print how often each rule was used")
    p.set_defaults(func=cmd_generate)


def cmd_generate(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.errors import PbemError
    from pbem.records.generate import RANDOM, write_games
    from pbem.records.rulesets import load_ruleset

    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be from 1 to {MAX_GAMES:,}, not {args.games}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {args.seed}")
    ruleset: Any
    if args.ruleset.strip() == RANDOM:
        ruleset = RANDOM
    else:
        try:
            ruleset = load_ruleset(args.ruleset)
        except PbemError as exc:
            raise UsageError(str(exc)) from None
    prefix = args.prefix or (RANDOM if isinstance(ruleset, str) else ruleset.name)
    if not _PREFIX.match(prefix):
        if args.prefix:
            raise UsageError(
                f"--prefix {args.prefix!r}: use letters, digits, '.', '_' and '-' only"
            )
        prefix = "custom"
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} exists and is not a folder")
    start = time.perf_counter()
    try:
        done = write_games(
            folder, args.games, args.seed, ruleset, prefix=prefix,
            one_file=args.one_file, force=args.force, stats=args.stats,
        )
    except FileExistsError as exc:
        raise UsageError(
            f"{exc.args[0]} exists; use --force to overwrite, or another --seed or --out"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot write into {folder}: {exc.strerror or exc}") from None
    seconds = time.perf_counter() - start
    where = done.paths[0] if args.one_file else folder
    out.write(
        f"wrote {done.games} game{'s' if done.games != 1 else ''} to {where} in "
        f"{seconds:.2f} s ({done.games / max(seconds, 1e-9):.0f} games/s)\n"
    )
    if done.unfinished:
        out.write(f"{done.unfinished} game(s) did not end by the rules (cut off; result '*')\n")
    if args.stats:
        out.write(f"dead-end games played again: {done.discarded}\n")
        out.write("".join(f"{line}\n" for line in done.coverage.lines()))
    return EXIT_OK
