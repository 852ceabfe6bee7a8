"""``pbem init | new | games | show``: the referee's home and its games.

``init`` creates the home, ``new`` starts a game by mail, ``games`` lists the games and
``show`` prints one. Thin functions over ``pbem.referee``; the heavy modules are imported
inside them so that ``pbem validate`` keeps its fast start.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from pbem.cli import options
from pbem.cli.home import finish, game_id, open_home
from pbem.cli.printable import printable
from pbem.errors import EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.referee.config.home import Home


def register(sub: options.Commands) -> None:
    """Add ``init``, ``new``, ``games`` and ``show`` to ``pbem``."""
    p = sub.add_parser(
        "init", help="create the referee's data folder",
        description="Create $PBEM_HOME with a working config.yaml, the SQLite store, the "
        "outbox and inbox Maildirs. Asks nothing unless on a terminal; running it again "
        "only brings the store's schema up to date. With --store postgresql://user@host/db "
        "the store is that (empty) PostgreSQL database instead, for several referee hosts "
        "on one store (docs/referee.md); its password comes from PGPASSWORD or "
        "PBEM_STORE_PASSWORD, never from config.yaml.",
    )
    options.home(p)
    p.add_argument("--address", help="the referee's email address (default referee@localhost)")
    p.add_argument("--store", metavar="URL",
                   help="keep the store in this PostgreSQL database (postgresql://user@host/db; "
                   "needs pip install 'pbem[postgresql]'); written into config.yaml")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser(
        "new", help="start a game by mail and invite both players",
        description="Create a game, print its id, and mail both players an invitation with "
        "the rules in force, the empty board and how to reply.",
    )
    p.add_argument("--white", required=True, metavar="EMAIL")
    p.add_argument("--black", required=True, metavar="EMAIL")
    options.game_ruleset(p)
    p.add_argument("--name", metavar="TEXT", help="the game's title")
    p.add_argument("--white-name", metavar="TEXT", help="White's name in reports")
    p.add_argument("--black-name", metavar="TEXT", help="Black's name in reports")
    options.clock(p, whose="the game's")
    rated = p.add_mutually_exclusive_group()
    rated.add_argument("--unrated", dest="rated", action="store_false", default=None,
                       help="the game does not count for the ratings")
    rated.add_argument("--rated", dest="rated", action="store_true", default=None,
                       help="the game counts for the ratings (the default unless the "
                       "config says rated: false)")
    options.webhook(p, whose="the organiser's")
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("games", help="list the referee's games",
                       description="One line per game: id, status, players, turn, title.")
    options.home(p)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser(
        "show", help="a game's record and board (--log: every message and mail)",
        description="Print a game's record as `pbem export` writes it (display names, no "
        "address, the players' messages only in a finished game with public_messages: "
        "true) and its board; --addresses adds the players' addresses; with --log, every "
        "message received (and why it was refused or failed), what the players said, and "
        "every mail sent.",
    )
    options.game(p)
    p.add_argument("--log", action="store_true", help="the message and delivery log")
    p.add_argument("--addresses", action="store_true",
                   help="also the players' addresses (the record names them as export does)")
    options.home(p)
    p.set_defaults(func=cmd_show)


def cmd_init(args: argparse.Namespace, out: TextIO) -> int:
    import mailbox

    from pbem.referee.config.home import DEFAULT_CONFIG, Home, home_path, parse_config
    from pbem.referee.store import connect
    from pbem.referee.store.engine import has_password, redact

    home = Home(home_path(args.home))
    if home.root.exists() and not home.root.is_dir():
        raise UsageError(f"{home.root} exists and is not a folder")
    if args.store and has_password(args.store):  # before anything is made
        raise UsageError("--store must not hold the password: set PGPASSWORD or "
                         "PBEM_STORE_PASSWORD, or use ~/.pgpass")
    address = args.address
    if home.exists():
        out.write(f"{home.root}: already set up; ")
    else:
        if address is None and sys.stdin.isatty() and sys.stdout.isatty():
            answer = input("The referee's email address [referee@localhost]: ").strip()
            address = answer or None
        text = DEFAULT_CONFIG.format(address=address or "referee@localhost")
        try:
            parse_config(text)  # the default must be valid, and the address too
        except PbemError as exc:
            raise UsageError(f"--address {address!r}: {exc}") from None
        try:
            home.root.mkdir(parents=True, exist_ok=True)
            home.config_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot create {home.root}: {exc.strerror or exc}") from None
        out.write(f"{home.root}: created {home.config_path.name}; ")
    if args.store:
        _set_store(home, args.store)
    config = home.load_config()
    target = home.store_target(config)
    conn = connect(target, create=True)
    conn.close()
    mailbox.Maildir(str(home.outbox_path), create=True)
    mailbox.Maildir(str(home.inbox_path(config)), create=True)
    shown = home.db_path.name if target == home.db_path else redact(str(target))
    out.write(f"store {shown} up to date; outbox {home.outbox_path}\n")
    return EXIT_OK


def _set_store(home: Home, url: str) -> None:
    """Write ``store: URL`` into config.yaml (replacing one there), after checking it: a
    PostgreSQL URL without a password, and the driver installed."""
    import re

    from pbem.referee.config.checks import ConfigError
    from pbem.referee.config.home import parse_config

    url = url.strip()
    text = home.config_path.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if not re.match(r"store\s*:", ln)]
    new = "\n".join(lines).rstrip("\n") + (
        "\n# the store: this PostgreSQL database (its password from the environment)\n"
        f"store: {url}\n")
    try:
        parse_config(new, str(home.config_path))
    except ConfigError as exc:
        raise UsageError(f"--store: {exc.message}") from None
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise UsageError("--store postgresql://...: the PostgreSQL driver is not installed; "
                         "pip install 'pbem[postgresql]'") from None
    if not any(re.match(r"store\s*:\s*" + re.escape(url) + r"\s*$", ln)
               for ln in text.splitlines()):
        home.config_path.write_text(new, encoding="utf-8")


def cmd_new(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.records.rulesets import load_ruleset
    from pbem.referee.entry.service import Referee

    for flag, value in (("--white", args.white), ("--black", args.black)):
        if "@" not in value or " " in value.strip():
            raise UsageError(f"{flag} {value!r} is not an email address")
    if args.white.strip().lower() == args.black.strip().lower():
        raise UsageError("White and Black need different addresses")
    from pbem.referee.outgoing.labels import label_problem

    for flag, label in (("--name", args.name), ("--white-name", args.white_name),
                        ("--black-name", args.black_name)):
        problem = None if label is None else label_problem(label)
        if problem is not None:
            raise UsageError(f"{flag} {label!r} {problem}")
    home, config, conn = open_home(args)
    try:
        ruleset = load_ruleset(args.ruleset or config.ruleset)
    except PbemError as exc:
        raise UsageError(str(exc)) from None
    from pbem.referee.config.options import clock_option, load_options

    clock = load_options(config).clock
    if args.clock is not None:
        try:
            clock = clock_option(args.clock, "--clock")
        except PbemError as exc:
            raise UsageError(str(exc)) from None
    from pbem.referee.store import transaction
    from pbem.referee.work.hook_events import (
        WebhookRefused,
        check_organiser_hook,
        set_organiser_hook,
    )

    if args.webhook is not None:
        try:
            check_organiser_hook(config, args.webhook)
        except WebhookRefused as exc:
            raise UsageError(str(exc)) from None
    number = Referee(conn, config).new_game(
        args.white, args.black, ruleset, args.name, args.white_name, args.black_name, clock,
        rated=args.rated,
    )
    if args.webhook is not None:
        with transaction(conn):
            set_organiser_hook(conn, config, number, args.webhook)
    out.write(f"{number}\n")
    out.flush()
    finish(args, home, config, conn)
    return EXIT_OK


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.clock.now import system_now
    from pbem.referee.entry.overview import game_lines

    _, _, conn = open_home(args)
    for line in game_lines(conn, system_now()):
        out.write(printable(line) + "\n")
    return EXIT_OK


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    import time

    from pbem.referee.clock.now import system_now
    from pbem.referee.entry.overview import status_lines
    from pbem.referee.public.publish import mask_addresses, public_game
    from pbem.referee.store.games import GameNotFound, load_game
    from pbem.referee.store.mail import game_history
    from pbem.render.text_board import render_text

    _, config, conn = open_home(args)
    try:
        game = load_game(conn, game_id(args.game))
    except GameNotFound as exc:
        raise UsageError(str(exc)) from None
    if not args.log:
        # the public form, as export writes it: what the organiser may paste anywhere
        record = public_game(conn, config, game.id).record
        out.write(printable(record, keep_newlines=True) + "\n")
        if args.addresses:
            for p in game.players.values():
                out.write(printable(f"{p.title}: {p.email}") + "\n")
        title = mask_addresses(f"game {game.id}: {game.name}")
        out.write(printable(render_text(game.position, title=title), keep_newlines=True) + "\n")
        for line in status_lines(conn, game, system_now()):
            out.write(printable(line) + "\n")
        return EXIT_OK

    def when(t: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))

    for at, text in game_history(conn, game.id):
        out.write(f"{when(at)}  {printable(text)}\n")
    return EXIT_OK


