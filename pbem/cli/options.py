"""The options that several commands take, each written once.

As sqlite-utils names a shared click option once and puts it on every command that
takes it, each function here adds one argparse option (its flag, metavar and help) to a
command's parser: ``options.home(p)`` is ``--home`` wherever a command reads the
referee's data folder, so the flag and its help cannot drift apart between commands.
A parameter says only what differs between commands in meaning (whose clock, what the
JSON looks like), never the flag. ``tests/test_cli_options.py`` fails if a flag written
here is written anywhere else in ``pbem/cli``, or if a flag is written at two places
outside this module (but for a few words, such as ``--force``, that mean different
things to different commands; the test names them and why).
"""

from __future__ import annotations

import argparse
from typing import Any, Protocol


class Commands(Protocol):
    """What each command module's ``register`` adds its commands to: argparse's
    subparsers, or, when one command runs, only that command's (``pbem.cli.parser``)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...

#: the help of --home everywhere (the folder ``pbem init`` creates)
HOME_HELP = "the referee's data folder (default: $PBEM_HOME, else ./pbem-home)"
#: where ``pbem mail``, ``poll`` and ``flush``'s pages say what --no-send does: one sentence
#: for all eight commands (it was three: "queue replies", "queue the mail", "... yet")
NO_SEND_HELP = "queue the mail, do not deliver it now (`pbem flush` delivers it)"
#: the ruleset a record file is read with when its front matter names none
RECORD_RULESET_HELP = (
    "the ruleset (a preset such as 'original', or a YAML file) for records naming none"
)


def home(p: argparse.ArgumentParser, *, note: str = "") -> None:
    """``--home``: the referee's data folder; ``note`` says when a command reads it."""
    p.add_argument("--home", help=HOME_HELP + (f"; {note}" if note else ""))


def no_send(p: argparse.ArgumentParser) -> None:
    """``--no-send``: the mail a command writes is queued for ``pbem flush``."""
    p.add_argument("--no-send", action="store_true", help=NO_SEND_HELP)


def record_ruleset(p: argparse.ArgumentParser) -> None:
    """``--ruleset NAME|FILE`` of the commands that read record files."""
    p.add_argument("--ruleset", metavar="NAME|FILE", help=RECORD_RULESET_HELP)


def game_ruleset(p: argparse.ArgumentParser) -> None:
    """``--ruleset NAME`` of the commands that start referee games (a game, an event)."""
    p.add_argument("--ruleset", metavar="NAME", help="a preset (default: the config's)")


def generated_ruleset(p: argparse.ArgumentParser) -> None:
    """``--ruleset R`` of ``pbem generate``, which may also be 'random'."""
    p.add_argument(
        "--ruleset", default="featured", metavar="R",
        help="a preset name, a ruleset YAML file, or 'random' (a different random valid "
        "ruleset for every game); default: featured",
    )


def paths(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``PATH...``: record files and folders (searched for ``*.realm``)."""
    p.add_argument("paths", nargs="+" if required else "*", metavar="PATH",
                   help="record files or folders")


def record_file(p: argparse.ArgumentParser) -> None:
    """``FILE``: one record file (which may hold several games)."""
    p.add_argument("file", metavar="FILE")


def game_in_file(p: argparse.ArgumentParser) -> None:
    """``--game N``: one game of a record file that holds several."""
    p.add_argument("--game", type=int, metavar="N",
                   help="only the N-th game of the file (1 = first)")


def family_game(p: argparse.ArgumentParser) -> None:
    """``--game NAME`` of ``pbem ratings``: one game of the family (not of a file)."""
    p.add_argument("--game", metavar="NAME",
                   help="one game of the family only (featured, classic, medieval, ...)")


def flip(p: argparse.ArgumentParser) -> None:
    """``--flip``: the board seen from Black's side."""
    p.add_argument("--flip", action="store_true", help="draw the board from Black's side")


def output(p: argparse.ArgumentParser, *, metavar: str, help: str | None = None,
           required: bool = False) -> None:
    """``-o/--output``: where a command writes (a file, a folder or a site)."""
    p.add_argument("-o", "--output", metavar=metavar, help=help, required=required)


def json(p: argparse.ArgumentParser, shape: str) -> None:
    """``--json``: the output as JSON; ``shape`` says what the JSON is."""
    p.add_argument("--json", action="store_true", help=shape)


def game(p: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """``GAME``: a referee game's id, as ``pbem games`` lists it."""
    p.add_argument("game", metavar="GAME", nargs="?" if optional else None,
                   help="the game's id")


def result(p: argparse.ArgumentParser) -> None:
    """``RESULT``: the result a game master gives a game."""
    p.add_argument("result", metavar="RESULT",
                   help="1-0 (White wins), 0-1 (Black wins), 1/2-1/2 (a draw)")


def event(p: argparse.ArgumentParser) -> None:
    """``NAME``: a tournament's name."""
    p.add_argument("name", metavar="NAME", help="the event's name")


def player_address(p: argparse.ArgumentParser) -> None:
    """``ADDRESS``: a player's email address, as he entered an event."""
    p.add_argument("address", metavar="ADDRESS", help="the player's email address")


def clock(p: argparse.ArgumentParser, *, whose: str) -> None:
    """``--clock TEXT``: the time control of the games a command starts."""
    p.add_argument("--clock", metavar="TEXT",
                   help=f"{whose} time control, e.g. 'days 3', 'bank 10+2 cap 14, forfeit', "
                   "'none' (default: the config's clock)")


def webhook(p: argparse.ArgumentParser, *, whose: str) -> None:
    """``--webhook URL``: the organiser's webhook of the games a command starts."""
    p.add_argument("--webhook", metavar="URL",
                   help=f"{whose} webhook (https; called when it becomes a player's turn, "
                   "when a game ends and for offers; docs/deliverability.md)")
