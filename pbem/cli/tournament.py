"""``pbem tournament new | add | withdraw | start | show | adjudicate`` and ``pbem
tournaments``: the organiser's commands, thin functions over ``pbem.referee.work.tournament``.

Exit codes: 0 done, 1 refused (a closed event, a name taken, an address entered twice),
2 usage, 3 store. What prints, prints as JSON too (``--json``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from pbem.cli import options
from pbem.cli.home import finish, game_id, open_home
from pbem.errors import EXIT_INVALID, EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.referee.config.home import Config
    from pbem.referee.entry.service import Referee
    from pbem.referee.store.engine import Connection
    from pbem.referee.store.tournaments import Event


def register(sub: options.Commands) -> None:
    """Add ``tournament`` (with its steps) and ``tournaments`` to ``pbem``."""
    t = sub.add_parser(
        "tournament", help="run an event: a round robin or a Swiss, by mail",
        description="Create an event, enter players, start it (every game is started as "
        "`pbem new` starts one, with its own invitation), and show its crosstable. See "
        "docs/tournaments.md.",
    )
    steps = t.add_subparsers(dest="step", metavar="STEP")
    steps.required = True

    p = steps.add_parser("new", help="a new event, open for entries",
                         description="Create an event; players enter with `pbem tournament "
                         "add` or by mailing 'join NAME'.")
    options.event(p)
    options.game_ruleset(p)
    p.add_argument("--format", required=True,
                   choices=("round-robin", "double-round-robin", "swiss"))
    p.add_argument("--rounds", type=int, metavar="N", help="a Swiss event's rounds")
    p.add_argument("--division-size", type=int, metavar="N",
                   help="a round robin in divisions of at most N players, seeded by rating")
    options.clock(p, whose="every game's")
    p.add_argument("--unrated", action="store_true", help="the games do not count for the "
                   "ratings")
    p.add_argument("--public-delay", type=int, metavar="N", help="the live site shows each "
                   "game in play only up to N turns before its latest")
    options.webhook(p, whose="every game's")
    p.add_argument("--end-date", metavar="DATE", help="after it (UTC; 2027-03-31 is that "
                   "day's end) the organiser adjudicates unfinished games")
    options.home(p)
    p.set_defaults(func=cmd_new)

    p = steps.add_parser("add", help="enter a player", description="Enter ADDRESS; shown by "
                         "--name, else the name he chose by mail, else 'Player N'.")
    options.event(p)
    options.player_address(p)
    p.add_argument("--name", dest="display", metavar="TEXT", help="the name shown")
    options.home(p)
    p.set_defaults(func=cmd_add)

    p = steps.add_parser("withdraw", help="take a player out (his games in play are "
                         "forfeited)", description="Before the start, strike the entry; "
                         "after it, his games in play are lost by forfeit and he is paired "
                         "no more.")
    options.event(p)
    options.player_address(p)
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=cmd_withdraw)

    p = steps.add_parser("start", help="close the entries and start the games",
                         description="Seed the players by rating, start every game of a round "
                         "robin (or a Swiss event's first round) and mail the invitations.")
    options.event(p)
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=cmd_start)

    p = steps.add_parser("show", help="the crosstable, standings and schedule",
                         description="The crosstable and standings, then every game by round.")
    options.event(p)
    options.json(p, "the event as one JSON object")
    options.home(p)
    p.set_defaults(func=cmd_show)

    p = steps.add_parser("adjudicate", help="decide an unfinished game after the end date",
                         description="Adjudicate a game of the event still in play (once the "
                         "event's end date has passed, if it has one).")
    options.event(p)
    options.game(p)
    options.result(p)
    options.home(p)
    options.no_send(p)
    p.set_defaults(func=cmd_adjudicate)

    p = sub.add_parser("tournaments", help="list the events",
                       description="One line per event: name, format, status, players.")
    options.json(p, "one JSON array")
    options.home(p)
    p.set_defaults(func=cmd_list)


class _Run:
    """What a step on an event may use: the store, the config and, made when first asked
    for (``add`` and ``show`` need none), a referee for the mail it writes."""

    def __init__(self, conn: Connection, config: Config) -> None:
        self.conn = conn
        self.config = config
        self._referee: Referee | None = None

    @property
    def referee(self) -> Referee:
        from pbem.referee.entry.service import Referee

        if self._referee is None:
            self._referee = Referee(self.conn, self.config)
        return self._referee


def _on_event(args: argparse.Namespace, out: TextIO, step: Callable[[_Run, Event], str], *,
              in_transaction: bool = True, mails: bool = False,
              refusals: tuple[type[Exception], ...] = ()) -> int:
    """The shape of every step on one event: open the home, find the event NAME, run
    ``step`` on it (in one transaction unless it only reads, or runs its own), print
    what it says; a refusal (``TournamentError`` or one of ``refusals``) exits 1. A step
    that ``mails`` then finishes the run as every referee command does (site, mail)."""
    from pbem.referee.store import transaction
    from pbem.referee.work.tournament import TournamentError, find

    home, config, conn = open_home(args)
    run = _Run(conn, config)
    refused: tuple[type[Exception], ...] = (TournamentError, *refusals)
    try:
        with transaction(conn) if in_transaction else contextlib.nullcontext():
            said = step(run, find(conn, args.name))
    except refused as exc:
        sys.stderr.write(f"pbem: {exc}\n")
        return EXIT_INVALID
    out.write(said + "\n")
    if mails:
        out.flush()
        finish(args, home, config, conn, hooks=False)
    return EXIT_OK


def cmd_new(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.clock import parse_when
    from pbem.referee.clock.now import system_now
    from pbem.referee.config.options import load_options
    from pbem.referee.outgoing.hook_outbox import hook_settings
    from pbem.referee.store import transaction
    from pbem.referee.work.tournament import TournamentError, create, opened_line

    _home, config, conn = open_home(args)
    ends = None
    if args.end_date is not None:
        try:
            ends = parse_when(args.end_date)
        except PbemError as exc:
            raise UsageError(f"--end-date: {exc}") from None
    clock = args.clock
    if clock is None:
        default = load_options(config).clock
        if default is not None:
            from pbem.referee.clock import format_settings
            clock = format_settings(default)
    try:
        with transaction(conn):
            event = create(conn, system_now(), name=args.name,
                           ruleset=args.ruleset or config.ruleset, format=args.format,
                           rounds=args.rounds, division_size=args.division_size, clock=clock,
                           rated=not args.unrated, public_delay=args.public_delay, ends_at=ends,
                           webhook=args.webhook, hooks=hook_settings(config))
    except TournamentError as exc:
        sys.stderr.write(f"pbem: {exc}\n")
        return EXIT_INVALID
    out.write(opened_line(event) + "\n")
    return EXIT_OK


def cmd_add(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.work.tournament import enter

    def step(run: _Run, event: Event) -> str:
        number = enter(run.conn, event, args.address, args.display)
        return f"{event.name}: entry {number}, {args.address.strip().lower()}"

    return _on_event(args, out, step)


def cmd_withdraw(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.work.tournament_play import withdraw

    def step(run: _Run, event: Event) -> str:
        r = run.referee
        return withdraw(run.conn, run.config, r.options, r.mailer, r.now(), event,
                        args.address)

    return _on_event(args, out, step, mails=True)


def cmd_start(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.work.tournament import start

    def step(run: _Run, event: Event) -> str:
        r = run.referee
        started = start(run.conn, r.mailer, r.options, r.now(), event)
        return f"{event.name}: started, games {', '.join(map(str, started))}"

    return _on_event(args, out, step, mails=True)


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.work.tournament import as_json, event_lines, table

    def step(run: _Run, event: Event) -> str:
        t = table(run.conn, event)
        if args.json:
            return json.dumps(as_json(t), ensure_ascii=False)
        return "\n".join(event_lines(t))

    return _on_event(args, out, step, in_transaction=False)


def cmd_adjudicate(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.entry import operator
    from pbem.referee.store.games import GameNotFound
    from pbem.referee.work.tournament import check_adjudication

    number = game_id(args.game)

    def step(run: _Run, event: Event) -> str:
        try:
            check_adjudication(run.conn, event, number, run.referee.now())
            return operator.adjudicate(run.referee, number, args.result)
        except (GameNotFound, operator.OperatorArgument) as exc:
            raise UsageError(str(exc)) from None

    # operator.adjudicate runs its own transaction
    return _on_event(args, out, step, in_transaction=False, mails=True,
                     refusals=(operator.OperatorRefused,))


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.work.tournament import events_overview, overview_lines

    _, _, conn = open_home(args)
    rows = events_overview(conn)
    if args.json:
        out.write(json.dumps(rows, ensure_ascii=False) + "\n")
        return EXIT_OK
    out.write("".join(line + "\n" for line in overview_lines(rows)))
    return EXIT_OK
