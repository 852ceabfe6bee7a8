"""What every referee command does before and after its work, written once.

Before: open the referee's home (``--home``), its checked config and its store. After:
bring the live site up to date, then deliver the mail the run queued (unless
``--no-send``), saying on stderr what could not go. Heavy modules are imported inside
the functions, so that ``pbem validate`` never loads the referee.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from pbem.cli.printable import printable
from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem.referee.config.home import Config, Home
    from pbem.referee.store.engine import Connection


def open_home(args: argparse.Namespace) -> tuple[Home, Config, Connection]:
    """The home named by ``--home`` (else $PBEM_HOME, else ./pbem-home), its config, its store."""
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.store import connect

    home = Home(home_path(args.home))
    config = home.load_config()
    return home, config, connect(home.store_target(config))


def finish(args: argparse.Namespace, home: Home, config: Config, conn: Connection,
           *, hooks: bool = True) -> None:
    """After a run: the live site's changed pages, then the mail (unless --no-send), then
    the webhooks (after the mail: a hook never delays one). The tournament commands pass
    ``hooks=False``: their hooks wait for the next mail or tick, as they always have."""
    from pbem.referee.public.publish import update_site

    say_site(update_site(conn, config, home.root).problem)
    if not args.no_send:
        deliver_queued(home, config, conn, hooks=hooks)


def say_site(problem: str | None) -> None:
    """Why the live site was not updated, if it was not (the run's work stands)."""
    if problem is not None:
        sys.stderr.write(f"pbem: the site was not updated: {problem}\n")


def deliver_queued(home: Home, config: Config, conn: Connection, *,
                   hooks: bool = True) -> bool:
    """Deliver what is queued; say on stderr what failed. True if everything went."""
    from pbem.referee.outgoing.delivery import deliver

    result = deliver(conn, config, home.outbox_path)
    report_delivery(result.errors[:5], result.given_up)
    if hooks:
        call_hooks(conn, config)
    return result.failed == 0


def call_hooks(conn: Connection, config: Config, everything: bool = False) -> None:
    """Call the webhooks that are due (``everything``: also those waiting for a retry)."""
    from pbem.referee.outgoing.hook_outbox import deliver_hooks

    hooks = deliver_hooks(conn, config, everything=everything)
    for words in hooks.dropped:
        sys.stderr.write(printable(f"pbem: a webhook was dropped: {words}") + "\n")


def report_delivery(errors: list[str], given_up: list[str]) -> None:
    """What the delivery could not do, on stderr, escaped (a server's words come from afar)."""
    for error in errors:
        sys.stderr.write(printable(f"pbem: delivery failed, will retry: {error}") + "\n")
    for said in given_up:
        sys.stderr.write(printable(f"pbem: given up: {said}") + "\n")


def game_id(text: str) -> int:
    """A game's id as the operator types it: ``12``, ``#12`` or ``g12``."""
    try:
        number = int(text.strip().lstrip("gG#"))
    except ValueError:
        number = 0
    if not 1 <= number < 2**63:  # SQLite's integers end there
        raise UsageError(f"{text!r} is not a game id (a number, as `pbem games` lists)")
    return number
