"""``pbem mail | poll | flush | check-mail``: the mail coming in and going out.

``mail`` takes one message from an MTA pipe, ``poll`` every new one of a Maildir or an
IMAP folder, ``flush`` delivers what is queued, ``check-mail`` checks the DKIM set-up
offline. Thin functions over ``pbem.referee``; the heavy modules are imported inside
them so that ``pbem validate`` keeps its fast start. Each outcome has its own exit code
(docs/referee.md, Exit codes), so a cron wrapper or a mail server can tell them apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pbem.cli import options
from pbem.cli.home import call_hooks, finish, open_home, report_delivery
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


def register(sub: options.Commands) -> None:
    """Add ``mail``, ``poll``, ``flush`` and ``check-mail`` to ``pbem``."""
    p = sub.add_parser(
        "mail", help="handle one message from standard input (for an MTA pipe)",
        description="Read one RFC 5322 message on standard input, handle it in one "
        "transaction, then deliver the replies. Exit 0 handled (played, answered, ignored "
        "or a duplicate), 1 refused, 2 unreadable input, 3 store or internal error. With "
        "--mta: 0 once the mail is handled (replies that cannot be delivered stay queued), 75 "
        "(try again later) for any failure before that, so a mail is never bounced or lost.",
    )
    options.home(p)
    p.add_argument("--mta", action="store_true", help="exit codes for an MTA pipe")
    options.no_send(p)
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
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=cmd_poll)

    p = sub.add_parser(
        "flush", help="deliver queued mail (retry failed deliveries)",
        description="Deliver every queued mail now, over SMTP when configured, else into the "
        "outbox Maildir, also those waiting for their next retry. A mail the server refuses "
        "for good (550, 552) is given up alone, logged in its game and reported to the "
        "operator. Exit 0 all sent, 5 some mail still queued for a retry, 6 some mail "
        "given up (refused for good), 3 a store or internal error.",
    )
    options.home(p)
    p.set_defaults(func=cmd_flush)

    p = sub.add_parser(
        "check-mail", help="check the DKIM set-up offline and print the DNS records to publish",
        description="Check config.yaml's mail set-up without the network: the DKIM key "
        "readable and at least 2048 bits, selector and domain set, the From address on the "
        "DKIM domain; then print the TXT records to publish for SPF, DKIM and DMARC "
        "(docs/deliverability.md). Exit 0 all good, 1 something to fix.",
    )
    options.home(p)
    p.set_defaults(func=cmd_check_mail)


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
        finish(args, home, config, conn)
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
    home, config, conn = open_home(args)
    return Referee(conn, config).handle(raw), home, config, conn


def cmd_poll(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.config.imap import imap_settings
    from pbem.referee.entry.poll import poll
    from pbem.referee.entry.service import Referee
    from pbem.referee.intake.sources import open_source

    home, config, conn = open_home(args)
    maildir = Path(args.maildir) if args.maildir else home.inbox_path(config)
    imap = imap_settings(config) if args.maildir is None else None  # a PbemError says why
    try:
        source = open_source(maildir, imap, home.store_target(config))
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    run = poll(Referee(conn, config), source, _tell)
    out.write(run.summary + "\n")
    out.flush()
    finish(args, home, config, conn)
    if run.stopped:
        return EXIT_INPUT
    return EXIT_SET_ASIDE if run.not_handled else EXIT_OK


def _tell(line: str) -> None:
    """A mail the poll did not handle, on stderr, escaped (its name may come from afar)."""
    sys.stderr.write(printable(f"pbem: {line}") + "\n")


def cmd_flush(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.outgoing.delivery import deliver

    home, config, conn = open_home(args)
    result = deliver(conn, config, home.outbox_path, everything=True)
    call_hooks(conn, config, everything=True)
    out.write(result.describe() + "\n")
    report_delivery(result.errors, result.given_up)
    if result.given_up:
        return EXIT_GIVEN_UP
    return EXIT_QUEUED if result.failed else EXIT_OK


def cmd_check_mail(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.outgoing.signing import check_dkim

    config = Home(home_path(args.home)).load_config()
    check = check_dkim(config.dkim, config.address,
                       config.smtp.host if config.smtp is not None else None)
    for line in check.lines(config.address, config.dkim.domain if config.dkim else ""):
        out.write(printable(line) + "\n")
    return EXIT_INVALID if check.problems else EXIT_OK


