"""Reading what commands are given: a ruleset option, a record's games.

Shared by the commands of ``pbem.cli``, so that every command says the same thing about
a missing file, an unknown ruleset or a record that breaks.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import EXIT_INVALID, EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.records.reader import GameSource
    from pbem.records.validate import GameReport


def ruleset_option(name: str | None) -> Any:
    from pbem.records.rulesets import load_ruleset

    if name is None:
        return None
    try:
        return load_ruleset(name)
    except PbemError as exc:
        raise UsageError(str(exc)) from None


def record_games(file: str, game: int | None) -> list[GameSource]:
    from pbem.records.reader import read_file
    from pbem.records.search import find_records

    path = Path(file)
    found = find_records([path])
    if found.problems:
        raise UsageError(found.problems[0])
    if path.is_dir():
        raise UsageError(f"{file} is a folder, not a record file: name one file")
    try:
        sources = list(read_file(path))
    except PbemError as exc:
        raise UsageError(str(exc)) from None
    if game is None:
        return sources
    if not 1 <= game <= len(sources):
        raise UsageError(f"{file} holds {len(sources)} game(s); there is no game {game}")
    return [sources[game - 1]]


def report_invalid(report: GameReport, what_is_shown: str) -> int:
    """Say on stderr why a record breaks, and what is shown instead; the exit status."""
    from pbem.render.verdict import broken_line

    line = broken_line(report, what_is_shown)
    if line is None:
        return EXIT_OK
    sys.stderr.write(line + "\n")
    return EXIT_INVALID
