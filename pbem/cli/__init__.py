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
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from pbem import __version__
from pbem.cli.options import Commands
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


def parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """``pbem``'s parser. Given the arguments of one run whose first word names a command,
    only that command's parser is built, and the command modules after its own are not
    imported: the others' options are never needed, and building them all was a quarter
    of what ``pbem validate`` of one game spends on its own code. Anything else
    (``--help``, no command, an unknown word) gets every command."""
    if argv and not argv[0].startswith("-"):  # pbem's own options (-h, --version) come first
        p, found = _built(argv[0])
        if found:
            return p
    return _built(None)[0]


def _built(wanted: str | None) -> tuple[argparse.ArgumentParser, bool]:
    """The parser with every command, or only with ``wanted`` (and whether it was found)."""
    p = argparse.ArgumentParser(
        prog="pbem",
        description="Referee, validator and archivist for Realm and the games on its board.",
    )
    p.add_argument("--version", action="version", version=f"pbem {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    one = None if wanted is None else _OneCommand(wanted, sub)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub if one is None else one)
        if one is not None and one.found:  # the later modules are not even imported
            return p, True
    return p, False


class _OneCommand:
    """What the modules' ``register`` get when one command runs: ``add_parser`` makes that
    command's parser, and for any other command a stand-in that takes every call and
    keeps nothing."""

    def __init__(self, name: str, sub: Commands):
        self.name = name
        self.sub = sub
        self.found = False

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if name != self.name and self.name not in kwargs.get("aliases", ()):
            return _IGNORED
        self.found = True
        return self.sub.add_parser(name, **kwargs)


class _Ignored:
    """A parser of a command that does not run: every method call is taken and ignored."""

    def __getattr__(self, name: str) -> Callable[..., _Ignored]:
        return lambda *args, **kwargs: self


_IGNORED: Any = _Ignored()


# -- entry point ------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    top = parser(argv)
    try:
        args = top.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its message
        return EXIT_OK if exc.code == 0 else EXIT_USAGE
    if not getattr(args, "func", None):
        top.print_help(sys.stderr)
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


#: the commands that leave nothing for Python's last collection at the exit: no store
#: (a SQLite connection left to the exit is closed, and its log checkpointed, only by that
#: collection), no file written outside a ``with``. ``validate`` reads and prints.
LEAVE_NOTHING_AT_EXIT = frozenset({"validate"})


def run() -> int:
    """The ``pbem`` program (the console script and ``python -m pbem``): ``main``, and then
    the process ends. After a command of ``LEAVE_NOTHING_AT_EXIT``, what the run made is
    frozen first (``gc.freeze``): Python's last collection as it exits would otherwise go
    over every object still alive, the parser's tables and the modules among them (about
    40 M instructions, 6% of a cold ``pbem validate`` of one game), only to free memory the
    exit frees anyway. ``main`` itself freezes nothing: tests and other programs call it."""
    argv = sys.argv[1:]
    code = main(argv)
    if argv and argv[0] in LEAVE_NOTHING_AT_EXIT:
        gc.freeze()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
