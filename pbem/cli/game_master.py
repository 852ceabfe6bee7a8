"""``pbem tick`` and the game master's ``pause | resume | set-deadline | adjudicate |
rollback``: the clock's timed work and the commands that act on one game by hand.

Thin functions over ``pbem.referee.entry.tick`` and ``pbem.referee.entry.operator``;
every one opens the home and finishes the run (site, mail) as ``pbem.cli.home`` says.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from pbem.cli import options
from pbem.cli.home import finish, game_id, open_home
from pbem.errors import EXIT_INVALID, EXIT_OK, PbemError, UsageError

Command = Callable[[argparse.Namespace, TextIO], int]


def register(sub: options.Commands) -> None:
    """Add ``tick`` and the game master's commands to ``pbem``."""
    p = sub.add_parser(
        "tick", help="do the timed work: reminders, forfeits, claims, digests (for cron)",
        description="For every game on the clock: send due reminders, forfeit or open a claim "
        "after a missed deadline; then send the day's digests. Safe at any time, any number "
        "of times, and at once with `pbem mail`. PBEM_NOW=2026-12-01T10:00:00Z sets the "
        "time (for tests and drills).",
    )
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=cmd_tick)

    _on_one_game(sub, "pause", "stop a game's clock until `pbem resume`", cmd_pause)
    _on_one_game(sub, "resume", "restart a paused game's clock", cmd_resume)
    _on_one_game(sub, "set-deadline",
                 "set the current turn's deadline (DATE: YYYY-MM-DD [HH:MM], UTC)",
                 cmd_set_deadline,
                 lambda p: p.add_argument("date", metavar="DATE"))
    _on_one_game(sub, "adjudicate", "end a game with the result given (1-0, 0-1, 1/2-1/2)",
                 cmd_adjudicate, options.result)
    _on_one_game(sub, "rollback", "take a game back to after TURN (e.g. 11w, or start); later "
                 "turns go (kept: --undo puts them back)", cmd_rollback, _rollback_arguments)


def _on_one_game(sub: options.Commands, name: str, text: str, func: Command,
                 own: Callable[[argparse.ArgumentParser], object] | None = None) -> None:
    """One game master's command: GAME, its own arguments, --home and --no-send."""
    p = sub.add_parser(name, help=text, description=text.capitalize() + ". Both players "
                       "are mailed. Exit 1 when refused, 2 for a bad game or argument.")
    options.game(p)
    if own is not None:
        own(p)
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=func)


def _rollback_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("turn", metavar="TURN", nargs="?")
    p.add_argument("--force", action="store_true",
                   help="roll back a finished game too (its result goes)")
    p.add_argument("--undo", action="store_true",
                   help="put back what the game's last rollback or takeback removed")


def cmd_tick(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.entry.service import Referee
    from pbem.referee.entry.tick import run_tick

    home, config, conn = open_home(args)
    summary = run_tick(Referee(conn, config))
    out.write(summary.describe() + "\n")
    out.flush()
    finish(args, home, config, conn)
    return EXIT_OK


def _operator(args: argparse.Namespace, out: TextIO, action: str, *extra: object) -> int:
    """Run ``operator.<action>`` on the game; a refusal exits 1, a bad game or argument 2."""
    from pbem.referee.entry import operator
    from pbem.referee.entry.service import Referee
    from pbem.referee.store.games import GameNotFound

    home, config, conn = open_home(args)
    number = game_id(args.game)
    try:
        said = getattr(operator, action)(Referee(conn, config), number, *extra)
    except (GameNotFound, operator.OperatorArgument) as exc:
        raise UsageError(str(exc)) from None
    except operator.OperatorRefused as exc:
        sys.stderr.write(f"pbem: {exc}\n")
        return EXIT_INVALID
    except PbemError as exc:
        if exc.code.startswith(("store", "config")):
            raise
        sys.stderr.write(f"pbem: game {number}: {exc}\n")
        return EXIT_INVALID
    out.write(said + "\n")
    out.flush()
    finish(args, home, config, conn)
    return EXIT_OK


def cmd_pause(args: argparse.Namespace, out: TextIO) -> int:
    return _operator(args, out, "pause_game")


def cmd_resume(args: argparse.Namespace, out: TextIO) -> int:
    return _operator(args, out, "resume_game")


def cmd_set_deadline(args: argparse.Namespace, out: TextIO) -> int:
    return _operator(args, out, "set_deadline", args.date)


def cmd_adjudicate(args: argparse.Namespace, out: TextIO) -> int:
    return _operator(args, out, "adjudicate", args.result)


def cmd_rollback(args: argparse.Namespace, out: TextIO) -> int:
    if args.undo:
        if args.turn is not None:
            raise UsageError("--undo takes the game only: it puts back what the last "
                             "rollback removed")
        return _operator(args, out, "undo_rollback")
    if args.turn is None:
        raise UsageError("say which turn to roll back to (e.g. 11w, or start), or --undo")
    return _operator(args, out, "rollback", args.turn, args.force)
