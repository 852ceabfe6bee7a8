"""The ``pbem`` command: the parser of every command, and the dispatch to it.

Each command (or group of commands) is a module of this package with a ``register(sub)``
that adds its parser; the options several commands share are written once, in
``pbem.cli.options``; what every referee command does before and after its work is
``pbem.cli.home``. The command modules import their heavy parts inside the command
functions, so that ``pbem validate`` and ``pbem --help`` start fast.

Exit codes: 0 every game valid, 1 some game invalid, 2 usage error or unreadable
input, 3 an internal error (reported in one line, never as a traceback); the referee's
commands add their own (``pbem.cli.mail``; docs/referee.md, Exit codes).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from pbem import __version__
from pbem.errors import EXIT_INPUT, EXIT_OK, EXIT_USAGE, PbemError, UsageError

#: the modules that add commands, in the order ``pbem --help`` lists their commands
COMMAND_MODULES = (
    "pbem.cli.validate",
    "pbem.cli.replay",
    "pbem.cli.board",
    "pbem.cli.archive",
    "pbem.cli.moves",
    "pbem.cli.generate",
    "pbem.cli.rulesets",
    "pbem.cli.games",
    "pbem.cli.mail",
    "pbem.cli.game_master",
    "pbem.cli.site",
    "pbem.cli.ratings",
    "pbem.cli.tournament",
    "pbem.cli.store",
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pbem",
        description="Referee, validator and archivist for Realm and the games on its board.",
    )
    p.add_argument("--version", action="version", version=f"pbem {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return p


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
