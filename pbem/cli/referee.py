"""``pbem init | new | games | show | mail | poll | flush | tick`` and the game master's
``pause | resume | set-deadline | adjudicate | rollback``: the referee's commands.

Thin functions over ``pbem.referee``; the heavy modules are imported inside
them so that ``pbem validate`` keeps its fast start.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pbem.cli.printable import printable
from pbem.errors import EXIT_INPUT, EXIT_INVALID, EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.referee.config.home import Config, Home
    from pbem.referee.entry.service import Handled
    from pbem.referee.store.engine import Connection

#: sysexits' EX_TEMPFAIL: an MTA keeps the message and tries the pipe again later
EX_TEMPFAIL = 75
#: ``pbem poll``: every mail was read, but some were set aside (Maildir ``failed/``, IMAP
#: flagged): the operator should look at them; distinct from 3, a store or internal error
EXIT_SET_ASIDE = 4
#: ``pbem flush``: some mail is still queued for a later retry (a server that failed for now)
EXIT_QUEUED = 5
#: ``pbem flush``: some mail was refused for good or given up (logged, the operator told)
EXIT_GIVEN_UP = 6


def register(sub: argparse._SubParsersAction) -> None:
    """Add the referee's commands to ``pbem``."""
    home_help = "the referee's data folder (default: $PBEM_HOME, else ./pbem-home)"

    p = sub.add_parser(
        "init", help="create the referee's data folder",
        description="Create $PBEM_HOME with a working config.yaml, the SQLite store, the "
        "outbox and inbox Maildirs. Asks nothing unless on a terminal; running it again "
        "only brings the store's schema up to date. With --store postgresql://user@host/db "
        "the store is that (empty) PostgreSQL database instead, for several referee hosts "
        "on one store (docs/referee.md); its password comes from PGPASSWORD or "
        "PBEM_STORE_PASSWORD, never from config.yaml.",
    )
    p.add_argument("--home", help=home_help)
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
    p.add_argument("--ruleset", metavar="NAME", help="a preset (default: the config's)")
    p.add_argument("--name", metavar="TEXT", help="the game's title")
    p.add_argument("--white-name", metavar="TEXT", help="White's name in reports")
    p.add_argument("--black-name", metavar="TEXT", help="Black's name in reports")
    p.add_argument("--clock", metavar="TEXT", help="time control, e.g. 'days 3', "
                   "'bank 10+2 cap 14, forfeit', 'none' (default: the config's clock)")
    rated = p.add_mutually_exclusive_group()
    rated.add_argument("--unrated", dest="rated", action="store_false", default=None,
                       help="the game does not count for the ratings")
    rated.add_argument("--rated", dest="rated", action="store_true", default=None,
                       help="the game counts for the ratings (the default unless the "
                       "config says rated: false)")
    p.add_argument("--webhook", metavar="URL", help="the organiser's webhook for this game "
                   "(https; called when it becomes a player's turn, at the end, for offers)")
    p.add_argument("--home", help=home_help)
    p.add_argument("--no-send", action="store_true", help="queue the mail, do not deliver yet")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("games", help="list the referee's games",
                       description="One line per game: id, status, players, turn, title.")
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_games)

    p = sub.add_parser(
        "show", help="a game's record and board (--log: every message and mail)",
        description="Print a game's record as `pbem export` writes it (display names, no "
        "address, the players' messages only in a finished game with public_messages: "
        "true) and its board; --addresses adds the players' addresses; with --log, every "
        "message received (and why it was refused or failed), what the players said, and "
        "every mail sent.",
    )
    p.add_argument("game", metavar="GAME", help="the game's id")
    p.add_argument("--log", action="store_true", help="the message and delivery log")
    p.add_argument("--addresses", action="store_true",
                   help="also the players' addresses (the record names them as export does)")
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "mail", help="handle one message from standard input (for an MTA pipe)",
        description="Read one RFC 5322 message on standard input, handle it in one "
        "transaction, then deliver the replies. Exit 0 handled (played, answered, ignored "
        "or a duplicate), 1 refused, 2 unreadable input, 3 store or internal error. With "
        "--mta: 0 once the mail is handled (replies that cannot be delivered stay queued), 75 "
        "(try again later) for any failure before that, so a mail is never bounced or lost.",
    )
    p.add_argument("--home", help=home_help)
    p.add_argument("--mta", action="store_true", help="exit codes for an MTA pipe")
    p.add_argument("--no-send", action="store_true", help="queue replies, do not deliver")
    p.set_defaults(func=cmd_mail)

    p = sub.add_parser(
        "poll", help="handle every new message in a Maildir or an IMAP folder",
        description="Handle every new message of a Maildir (MAILDIR; else the config's IMAP "
        "folder when an imap section is configured; else the config's inbox Maildir), each "
        "in its own transaction, marking each handled once committed; then deliver. A "
        "message that cannot be read or handled is logged and put aside (a Maildir's failed/ "
        "folder; flagged \\Flagged $PbemFailed on IMAP) and the poll goes on; a store "
        "that cannot be written stops it, leaving the rest for the next poll. Exit 0 all "
        "handled, 4 some message set aside, 3 the store failed (the rest wait) or an "
        "internal error (docs/referee.md, Exit codes).",
    )
    p.add_argument("maildir", nargs="?", metavar="MAILDIR")
    p.add_argument("--home", help=home_help)
    p.add_argument("--no-send", action="store_true", help="queue replies, do not deliver")
    p.set_defaults(func=cmd_poll)

    p = sub.add_parser(
        "flush", help="deliver queued mail (retry failed deliveries)",
        description="Deliver every queued mail now, over SMTP when configured, else into the "
        "outbox Maildir, also those waiting for their next retry. A mail the server refuses "
        "for good (550, 552) is given up alone, logged in its game and reported to the "
        "operator. Exit 0 all sent, 5 some mail still queued for a retry, 6 some mail "
        "given up (refused for good), 3 a store or internal error.",
    )
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_flush)

    p = sub.add_parser(
        "check-mail", help="check the DKIM set-up offline and print the DNS records to publish",
        description="Check config.yaml's mail set-up without the network: the DKIM key "
        "readable and at least 2048 bits, selector and domain set, the From address on the "
        "DKIM domain; then print the TXT records to publish for SPF, DKIM and DMARC "
        "(docs/deliverability.md). Exit 0 all good, 1 something to fix.",
    )
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_check_mail)
    register_timed(sub, home_help)


# -- helpers ---------------------------------------------------------------------------
def _open(args: argparse.Namespace) -> tuple[Home, Config, Connection]:
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.store import connect

    home = Home(home_path(args.home))
    config = home.load_config()
    return home, config, connect(home.store_target(config))


def _deliver(home: Home, config: Config, conn: Connection) -> bool:
    """Deliver what is queued; say on stderr what failed. True if everything went."""
    from pbem.referee.outgoing.delivery import deliver

    result = deliver(conn, config, home.outbox_path)
    _report_delivery(result.errors[:5], result.given_up)
    _call_hooks(conn, config)  # after the mail: a hook never delays one
    return result.failed == 0


def _call_hooks(conn: Connection, config: Config, everything: bool = False) -> None:
    from pbem.referee.outgoing.hook_outbox import deliver_hooks

    hooks = deliver_hooks(conn, config, everything=everything)
    for words in hooks.dropped:
        sys.stderr.write(printable(f"pbem: a webhook was dropped: {words}") + "\n")


def _finish(args: argparse.Namespace, home: Home, config: Config,
            conn: Connection) -> None:
    """After a run: the live site's changed pages, then the mail (unless --no-send)."""
    from pbem.cli.site import update_site

    update_site(home, config, conn)
    if not args.no_send:
        _deliver(home, config, conn)


def _report_delivery(errors: list[str], given_up: list[str]) -> None:
    for error in errors:
        sys.stderr.write(printable(f"pbem: delivery failed, will retry: {error}") + "\n")
    for said in given_up:
        sys.stderr.write(printable(f"pbem: given up: {said}") + "\n")


# -- commands --------------------------------------------------------------------------
def cmd_init(args: argparse.Namespace, out: TextIO) -> int:
    import mailbox

    from pbem.errors import PbemError
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
    home, config, conn = _open(args)
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
    game_id = Referee(conn, config).new_game(
        args.white, args.black, ruleset, args.name, args.white_name, args.black_name, clock,
        rated=args.rated,
    )
    if args.webhook is not None:
        with transaction(conn):
            set_organiser_hook(conn, config, game_id, args.webhook)
    out.write(f"{game_id}\n")
    out.flush()
    _finish(args, home, config, conn)
    return EXIT_OK


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.clock.now import system_now
    from pbem.referee.outgoing.mailer import END_WORDS, clock_lines
    from pbem.referee.store import games
    from pbem.referee.store.games import load_game
    from pbem.referee.work.reach import unreachable_words
    from pbem.rules.pieces import Side

    _, _, conn = _open(args)
    rows = games.overview(conn)
    if not rows:
        out.write("no games yet: start one with `pbem new --white EMAIL --black EMAIL`\n")
    now = system_now()
    for r in rows:
        game = load_game(conn, r["id"])
        white, black = game.players[Side.WHITE], game.players[Side.BLACK]
        if game.status == "over":
            state = f"over {game.result}"
        else:
            pos = game.position
            state = f"{pos.to_move.title} to move ({pos.turn_number()}{pos.to_move.letter})"
        if r["last"] == "end":  # ended off the board: how, not the 'end' entry's label
            loser = {"1-0": "Black", "0-1": "White"}.get(str(game.result), "a side")
            last = END_WORDS.get(str(game.end_reason), "ended off the board").format(
                side=loser)
        else:
            last = "no turn yet" if r["last"] == "start" else f"last {r['last']}"
        out.write(printable(f"{game.id:>4}  {game.name}: {white.name} (White) v {black.name} "
                            f"(Black); {state}; {last}; ruleset {game.ruleset}") + "\n")
        if game.status == "playing":
            for line in [*clock_lines(game, now, with_settings=False),
                         *unreachable_words(conn, game)]:
                out.write(printable(f"      {line}") + "\n")
    return EXIT_OK


def _game_id(text: str) -> int:
    try:
        game_id = int(text.lstrip("gG#"))
    except ValueError:
        game_id = 0
    if not 1 <= game_id < 2**63:  # SQLite's integers end there
        raise UsageError(f"{text!r} is not a game id (a number, as `pbem games` lists)")
    return game_id


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    import time

    from pbem.referee.clock.now import system_now
    from pbem.referee.outgoing.mailer import clock_lines
    from pbem.referee.public.publish import mask_addresses, public_game
    from pbem.referee.store.games import GameNotFound, load_game
    from pbem.referee.store.mail import game_history
    from pbem.referee.work.reach import unreachable_words
    from pbem.render.text_board import render_text

    _, config, conn = _open(args)
    try:
        game = load_game(conn, _game_id(args.game))
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
        if game.offer:
            what, side = game.offer.split(":")
            words = {"end": "to end by agreement", "draw": "a draw",
                     "takeback": "to take back the last turn"}.get(what, what)
            out.write(f"Pending: {'White' if side == 'w' else 'Black'} offers {words}\n")
        for line in clock_lines(game, system_now()):
            out.write(line + "\n")
        for line in unreachable_words(conn, game) if game.status == "playing" else []:
            out.write(printable(line) + "\n")
        return EXIT_OK

    def when(t: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))

    for at, text in game_history(conn, game.id):
        out.write(f"{when(at)}  {printable(text)}\n")
    return EXIT_OK


def _handle_one(referee: object, raw: bytes) -> object:
    from pbem.referee.entry.service import Referee

    assert isinstance(referee, Referee)
    return referee.handle(raw)


def cmd_mail(args: argparse.Namespace, out: TextIO) -> int:
    """One mail from an MTA pipe. Under ``--mta`` the exit code tells the mail server what to
    do: 75 (try again later) for any failure before the mail's transaction committed, so it
    is never bounced nor lost; 0 once committed, whatever happens to the replies (they stay
    queued for ``pbem flush``)."""
    try:
        handled, home, config, conn = _handle_stdin(args)
    except Exception as exc:
        if not args.mta:
            raise
        words = str(exc) if isinstance(exc, PbemError | UsageError) else (
            f"{type(exc).__name__}: {exc}")
        sys.stderr.write(printable(f"pbem: {words} (the message was not handled: "
                                   "the mail server will try again later)") + "\n")
        return EX_TEMPFAIL
    game = f" (game {handled.game_id})" if handled.game_id else ""
    out.write(printable(f"{handled.outcome}{game}: {handled.reason or ''}") + "\n")
    out.flush()
    try:
        _finish(args, home, config, conn)
    except Exception as exc:  # the mail is handled: its replies wait for `pbem flush`
        if not args.mta:
            raise
        sys.stderr.write(printable(f"pbem: after the mail was handled: {type(exc).__name__}: "
                                   f"{exc} (its replies stay queued)") + "\n")
    if handled.outcome == "refused" and not args.mta:
        return EXIT_INVALID
    return EXIT_OK


def _handle_stdin(args: argparse.Namespace) -> tuple[Handled, Home, Config, Connection]:
    """Read the mail on standard input and handle it (committed when this returns)."""
    from pbem.referee.entry.service import Referee
    from pbem.referee.intake.inbox import looks_like_mail

    raw = sys.stdin.buffer.read()
    if not raw.strip():
        raise UsageError("no message on standard input")
    if not looks_like_mail(raw):
        raise UsageError("standard input is not an email message (it has no header lines)")
    home, config, conn = _open(args)
    return Referee(conn, config).handle(raw), home, config, conn


def cmd_poll(args: argparse.Namespace, out: TextIO) -> int:
    import sqlite3

    from pbem.referee.entry.service import Referee
    from pbem.referee.intake.inbox import looks_like_mail
    from pbem.referee.intake.sources import (
        ImapMessageSource,
        MaildirSource,
        MessageSource,
        Unreadable,
    )
    from pbem.referee.store import StoreError

    home, config, conn = _open(args)
    imap = config.extra.get("imap")
    source: MessageSource
    if args.maildir is None and imap is not None:
        # a PbemError says what is wrong
        source = ImapMessageSource(imap, home.store_target(config))
    else:
        path = Path(args.maildir) if args.maildir else home.inbox_path(config)
        try:
            source = MaildirSource(path)
        except FileNotFoundError as exc:
            raise UsageError(str(exc)) from None
    referee = Referee(conn, config)
    counts: dict[str, int] = {}
    failed = 0
    stopped = False  # the store failed: every message waits for the next poll
    try:
        for key, raw in source.messages():
            name = Path(key).name if isinstance(source, MaildirSource) else key
            try:
                if isinstance(raw, Unreadable):
                    raise raw
                if not looks_like_mail(raw):  # what `pbem mail` refuses is put aside
                    raise Unreadable("not an email message (it has no header lines)")
                handled = referee.handle(raw)
            except (StoreError, sqlite3.Error) as exc:  # the store, not the mail: all wait
                sys.stderr.write(printable(f"pbem: {name}: not handled, left for the next "
                                           f"poll: {exc}") + "\n")
                failed += 1
                stopped = True
                break
            except Exception as exc:  # this mail alone: put aside, and go on with the next
                failed += 1
                where = source.failed(key)
                words = str(exc) if isinstance(exc, PbemError | Unreadable) else (
                    f"{type(exc).__name__}: {exc}")
                sys.stderr.write(printable(f"pbem: {name}: not handled ({words}); {where}")
                                 + "\n")
                continue
            source.done(key)
            counts[handled.outcome] = counts.get(handled.outcome, 0) + 1
    finally:
        source.close()
    total = sum(counts.values())
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    out.write(f"{total} message{'s' if total != 1 else ''}" + (f": {summary}" if total else "")
              + (f"; {failed} not handled" if failed else "") + "\n")
    out.flush()
    _finish(args, home, config, conn)
    if stopped:
        return EXIT_INPUT
    return EXIT_SET_ASIDE if failed else EXIT_OK


def cmd_flush(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.outgoing.delivery import deliver

    home, config, conn = _open(args)
    result = deliver(conn, config, home.outbox_path, everything=True)
    _call_hooks(conn, config, everything=True)
    given_up = f", {len(result.given_up)} given up" if result.given_up else ""
    out.write(f"{result.sent} sent, {result.failed} still queued{given_up}\n")
    _report_delivery(result.errors, result.given_up)
    if result.given_up:
        return EXIT_GIVEN_UP
    return EXIT_QUEUED if result.failed else EXIT_OK


def cmd_check_mail(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.outgoing.signing import check_dkim

    config = Home(home_path(args.home)).load_config()
    check = check_dkim(config.dkim, config.address,
                       config.smtp.host if config.smtp is not None else None)
    for problem in check.problems:
        out.write(printable(f"problem: {problem}") + "\n")
    if not check.problems:
        out.write(f"ok: mail from {config.address} is DKIM-signed for "
                  f"{config.dkim.domain if config.dkim else ''}\n")
    out.write("\nPublish in DNS:\n")
    for name, kind, value in check.records:
        out.write(printable(f"{name}. IN {kind} \"{value}\"") + "\n")
    out.write("\n")
    for note in check.notes:
        out.write(printable(f"note: {note}") + "\n")
    return EXIT_INVALID if check.problems else EXIT_OK


# -- the clock and the game master ------------------------------------------------------
def register_timed(sub: argparse._SubParsersAction, home_help: str) -> None:
    """``pbem tick`` and the game master's commands."""
    p = sub.add_parser(
        "tick", help="do the timed work: reminders, forfeits, claims, digests (for cron)",
        description="For every game on the clock: send due reminders, forfeit or open a claim "
        "after a missed deadline; then send the day's digests. Safe at any time, any number "
        "of times, and at once with `pbem mail`. PBEM_NOW=2026-12-01T10:00:00Z sets the "
        "time (for tests and drills).",
    )
    p.add_argument("--home", help=home_help)
    p.add_argument("--no-send", action="store_true", help="queue the mail, do not deliver")
    p.set_defaults(func=cmd_tick)

    commands = (
        ("pause", "stop a game's clock until `pbem resume`", cmd_pause, ()),
        ("resume", "restart a paused game's clock", cmd_resume, ()),
        ("set-deadline", "set the current turn's deadline (DATE: YYYY-MM-DD [HH:MM], UTC)",
         cmd_set_deadline, ("date",)),
        ("adjudicate", "end a game with the result given (1-0, 0-1, 1/2-1/2)", cmd_adjudicate,
         ("result",)),
        ("rollback", "take a game back to after TURN (e.g. 11w, or start); later turns go "
         "(kept: --undo puts them back)", cmd_rollback, ("turn",)),
    )
    for name, text, func, extra in commands:
        p = sub.add_parser(name, help=text, description=text.capitalize() + ". Both players "
                           "are mailed. Exit 1 when refused, 2 for a bad game or argument.")
        p.add_argument("game", metavar="GAME", help="the game's id")
        for arg in extra:
            p.add_argument(arg, metavar=arg.upper(), nargs="?" if name == "rollback" else None)
        if name == "rollback":
            p.add_argument("--force", action="store_true",
                           help="roll back a finished game too (its result goes)")
            p.add_argument("--undo", action="store_true",
                           help="put back what the game's last rollback or takeback removed")
        p.add_argument("--home", help=home_help)
        p.add_argument("--no-send", action="store_true", help="queue the mail, do not deliver")
        p.set_defaults(func=func)


def cmd_tick(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.entry.service import Referee
    from pbem.referee.entry.tick import run_tick

    home, config, conn = _open(args)
    summary = run_tick(Referee(conn, config))
    out.write(summary.describe() + "\n")
    out.flush()
    _finish(args, home, config, conn)
    return EXIT_OK


def _operator(args: argparse.Namespace, out: TextIO, action: str, *extra: object) -> int:
    from pbem.referee.entry import operator
    from pbem.referee.entry.service import Referee
    from pbem.referee.store.games import GameNotFound

    home, config, conn = _open(args)
    game_id = _game_id(args.game)
    try:
        said = getattr(operator, action)(Referee(conn, config), game_id, *extra)
    except (GameNotFound, operator.OperatorArgument) as exc:
        raise UsageError(str(exc)) from None
    except operator.OperatorRefused as exc:
        sys.stderr.write(f"pbem: {exc}\n")
        return EXIT_INVALID
    except PbemError as exc:
        if exc.code.startswith(("store", "config")):
            raise
        sys.stderr.write(f"pbem: game {game_id}: {exc}\n")
        return EXIT_INVALID
    out.write(said + "\n")
    out.flush()
    _finish(args, home, config, conn)
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
