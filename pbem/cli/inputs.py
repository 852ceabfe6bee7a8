"""Reading what commands are given: a ruleset option, a record's games, each checked.

Shared by the commands of ``pbem.cli``, so that every command says the same thing about
a missing file, an unknown ruleset or a record that breaks, and chooses the same exit
code for it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import EXIT_INVALID, EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.records.reader import GameSource
    from pbem.records.search import Found
    from pbem.records.validate import GameReport


def ruleset_option(name: str | None) -> Any:
    from pbem.records.rulesets import load_ruleset

    if name is None:
        return None
    try:
        return load_ruleset(name)
    except PbemError as exc:
        raise UsageError(str(exc)) from None


def record_files(paths: Sequence[str]) -> Found:
    """The record files below ``paths``, in order, and what was skipped (for the caller to
    say); a usage error when there are none and nothing was skipped."""
    from pbem.records.search import find_records

    found = find_records([Path(p) for p in paths])
    if not found.files and not found.problems:
        raise UsageError(f"no record files (*.realm) in {', '.join(paths)}")
    return found


class CheckedGames:
    """The games of ``FILE`` (``--game N``: that one), each checked against the rules
    (``--ruleset``) as it is reached: the loop ``replay``, ``moves`` and ``board`` share.

    Iterating yields each game's report and its title (None when the file holds one game
    and none was chosen); a record that breaks is said on stderr with what is shown
    instead, and ``status`` is the exit code: 0, or 1 once a game broke.
    """

    def __init__(self, args: argparse.Namespace, what_is_shown: str) -> None:
        self.ruleset = ruleset_option(args.ruleset)
        self.sources = _record_games(args.file, args.game)
        self.titled = len(self.sources) > 1 or bool(args.game)
        self.what_is_shown = what_is_shown
        self.status = EXIT_OK

    def __iter__(self) -> Iterator[tuple[GameReport, str | None]]:
        for source in self.sources:
            report = self.check(source)
            self.say(report)
            yield report, (f"{report.path}#{report.index + 1}: {report.title()}"
                           if self.titled else None)

    def check(self, source: GameSource) -> GameReport:
        from pbem.records.validate import validate_source

        return validate_source(source, default_ruleset=self.ruleset)

    def say(self, report: GameReport) -> None:
        """Why the record breaks, on stderr, and what is shown instead; the status follows."""
        from pbem.render.verdict import broken_line

        line = broken_line(report, self.what_is_shown)
        if line is not None:
            sys.stderr.write(line + "\n")
            self.status = EXIT_INVALID


def _record_games(file: str, game: int | None) -> list[GameSource]:
    """The games of one record file (``--game``: that one), or a usage error saying why not."""
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
