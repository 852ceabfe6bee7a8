"""``pbem tournament new | add | withdraw | start | show | adjudicate`` and ``pbem
tournaments``: the organiser's commands, thin functions over ``pbem.referee.work.tournament``.

Exit codes: 0 done, 1 refused (a closed event, a name taken, an address entered twice),
2 usage, 3 store. What prints, prints as JSON too (``--json``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from pbem.errors import EXIT_INVALID, EXIT_OK, PbemError, UsageError

if TYPE_CHECKING:
    from pbem.referee.config.home import Config, Home
    from pbem.referee.store.engine import Connection


def register(sub: argparse._SubParsersAction) -> None:
    home_help = "the referee's data folder (default: $PBEM_HOME, else ./pbem-home)"
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
    p.add_argument("name", metavar="NAME")
    p.add_argument("--ruleset", metavar="NAME", help="a preset (default: the config's)")
    p.add_argument("--format", required=True,
                   choices=("round-robin", "double-round-robin", "swiss"))
    p.add_argument("--rounds", type=int, metavar="N", help="a Swiss event's rounds")
    p.add_argument("--division-size", type=int, metavar="N",
                   help="a round robin in divisions of at most N players, seeded by rating")
    p.add_argument("--clock", metavar="TEXT", help="every game's time control, e.g. "
                   "'days 3, forfeit' (default: the config's clock)")
    p.add_argument("--unrated", action="store_true", help="the games do not count for the "
                   "ratings")
    p.add_argument("--public-delay", type=int, metavar="N", help="the live site shows each "
                   "game in play only up to N turns before its latest")
    p.add_argument("--webhook", metavar="URL", help="every game's webhook (called when it "
                   "becomes a player's turn and when a game ends; docs/deliverability.md)")
    p.add_argument("--end-date", metavar="DATE", help="after it (UTC; 2027-03-31 is that "
                   "day's end) the organiser adjudicates unfinished games")
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_new)

    p = steps.add_parser("add", help="enter a player", description="Enter ADDRESS; shown by "
                         "--name, else the name he chose by mail, else 'Player N'.")
    p.add_argument("name", metavar="NAME")
    p.add_argument("address", metavar="ADDRESS")
    p.add_argument("--name", dest="display", metavar="TEXT", help="the name shown")
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_add)

    p = steps.add_parser("withdraw", help="take a player out (his games in play are "
                         "forfeited)", description="Before the start, strike the entry; "
                         "after it, his games in play are lost by forfeit and he is paired "
                         "no more.")
    p.add_argument("name", metavar="NAME")
    p.add_argument("address", metavar="ADDRESS")
    p.add_argument("--home", help=home_help)
    p.add_argument("--no-send", action="store_true", help="queue the mail, do not deliver")
    p.set_defaults(func=cmd_withdraw)

    p = steps.add_parser("start", help="close the entries and start the games",
                         description="Seed the players by rating, start every game of a round "
                         "robin (or a Swiss event's first round) and mail the invitations.")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--home", help=home_help)
    p.add_argument("--no-send", action="store_true", help="queue the mail, do not deliver")
    p.set_defaults(func=cmd_start)

    p = steps.add_parser("show", help="the crosstable, standings and schedule",
                         description="The crosstable and standings, then every game by round.")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--json", action="store_true", help="the event as one JSON object")
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_show)

    p = steps.add_parser("adjudicate", help="decide an unfinished game after the end date",
                         description="Adjudicate a game of the event still in play (once the "
                         "event's end date has passed, if it has one).")
    p.add_argument("name", metavar="NAME")
    p.add_argument("game", metavar="GAME")
    p.add_argument("result", metavar="RESULT", help="1-0 (white), 0-1 (black), 1/2-1/2 (draw)")
    p.add_argument("--home", help=home_help)
    p.add_argument("--no-send", action="store_true", help="queue the mail, do not deliver")
    p.set_defaults(func=cmd_adjudicate)

    p = sub.add_parser("tournaments", help="list the events",
                       description="One line per event: name, format, status, players.")
    p.add_argument("--json", action="store_true", help="one JSON array")
    p.add_argument("--home", help=home_help)
    p.set_defaults(func=cmd_list)


def _open(args: argparse.Namespace) -> tuple[Home, Config, Connection]:
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.store import connect

    home = Home(home_path(args.home))
    config = home.load_config()
    return home, config, connect(home.store_target(config))


def _finish(args: argparse.Namespace, home: Home, config: Config,
            conn: Connection) -> None:
    """The live site's changed pages, then the mail (unless --no-send)."""
    from pbem.cli.printable import printable
    from pbem.cli.site import update_site
    from pbem.referee.outgoing.delivery import deliver

    update_site(home, config, conn)
    if getattr(args, "no_send", False):
        return
    result = deliver(conn, config, home.outbox_path)
    for error in result.errors[:5]:
        sys.stderr.write(printable(f"pbem: delivery failed, will retry: {error}") + "\n")


def _refused(exc: PbemError) -> int:
    sys.stderr.write(f"pbem: {exc}\n")
    return EXIT_INVALID


def cmd_new(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.clock import parse_when
    from pbem.referee.clock.now import system_now
    from pbem.referee.config.options import load_options
    from pbem.referee.outgoing.hook_outbox import hook_settings
    from pbem.referee.store import transaction
    from pbem.referee.work.tournament import TournamentError, create

    _home, config, conn = _open(args)
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
        return _refused(exc)
    out.write(f"{event.name}: open for entries ({event.format}, {event.ruleset}"
              f"{', clock ' + event.clock if event.clock else ', no clock'}"
              f"{'' if event.rated else ', unrated'})\n")
    return EXIT_OK


def cmd_add(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.store import transaction
    from pbem.referee.work.tournament import TournamentError, enter, find

    _, _, conn = _open(args)
    try:
        with transaction(conn):
            event = find(conn, args.name)
            number = enter(conn, event, args.address, args.display)
    except TournamentError as exc:
        return _refused(exc)
    out.write(f"{event.name}: entry {number}, {args.address.strip().lower()}\n")
    return EXIT_OK


def cmd_withdraw(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.entry.service import Referee
    from pbem.referee.store import transaction
    from pbem.referee.work.tournament import TournamentError, find
    from pbem.referee.work.tournament_play import withdraw

    home, config, conn = _open(args)
    referee = Referee(conn, config)
    try:
        with transaction(conn):
            event = find(conn, args.name)
            said = withdraw(conn, config, referee.options, referee.mailer, referee.now(),
                            event, args.address)
    except TournamentError as exc:
        return _refused(exc)
    out.write(said + "\n")
    out.flush()
    _finish(args, home, config, conn)
    return EXIT_OK


def cmd_start(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.entry.service import Referee
    from pbem.referee.store import transaction
    from pbem.referee.work.tournament import TournamentError, find, start

    home, config, conn = _open(args)
    referee = Referee(conn, config)
    try:
        with transaction(conn):
            event = find(conn, args.name)
            started = start(conn, referee.mailer, referee.options, referee.now(), event)
    except TournamentError as exc:
        return _refused(exc)
    out.write(f"{event.name}: started, games {', '.join(map(str, started))}\n")
    out.flush()
    _finish(args, home, config, conn)
    return EXIT_OK


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.work.tournament import (
        TournamentError,
        as_json,
        crosstable_lines,
        find,
        schedule_lines,
        table,
    )

    _, _, conn = _open(args)
    try:
        t = table(conn, find(conn, args.name))
    except TournamentError as exc:
        return _refused(exc)
    if args.json:
        out.write(json.dumps(as_json(t), ensure_ascii=False) + "\n")
        return EXIT_OK
    lines = crosstable_lines(t)
    if t.divisions:
        lines += ["", *schedule_lines(t)]
    out.write("\n".join(lines) + "\n")
    return EXIT_OK


def cmd_adjudicate(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.entry import operator
    from pbem.referee.entry.service import Referee
    from pbem.referee.store.games import GameNotFound
    from pbem.referee.work.tournament import TournamentError, check_adjudication, find

    home, config, conn = _open(args)
    referee = Referee(conn, config)
    try:
        game_id = int(args.game.strip().lstrip("#g"))
    except ValueError:
        raise UsageError(f"GAME is a game's number, not {args.game!r}") from None
    try:
        event = find(conn, args.name)
        check_adjudication(conn, event, game_id, referee.now())
        said = operator.adjudicate(referee, game_id, args.result)
    except (GameNotFound, operator.OperatorArgument) as exc:
        raise UsageError(str(exc)) from None
    except (TournamentError, operator.OperatorRefused) as exc:
        return _refused(exc)
    out.write(said + "\n")
    out.flush()
    _finish(args, home, config, conn)
    return EXIT_OK


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.store import tournaments as store

    _, _, conn = _open(args)
    rows = []
    for e in store.events(conn):
        rows.append({"name": e.name, "format": e.format, "status": e.status,
                     "ruleset": e.ruleset, "players": len(store.entries(conn, e.id)),
                     "rounds": e.rounds})
    if args.json:
        out.write(json.dumps(rows, ensure_ascii=False) + "\n")
        return EXIT_OK
    for r in rows:
        out.write(f"{r['name']}  {r['format']}  {r['status']}  {r['ruleset']}  "
                  f"{r['players']} players\n")
    if not rows:
        out.write("no events yet (pbem tournament new NAME --format ...)\n")
    return EXIT_OK
