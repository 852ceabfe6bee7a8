"""``pbem export`` and ``pbem site``: the referee's games for the world, no address in them.

``export`` writes games as ``.realm`` records that ``pbem validate`` accepts and
``pbem archive`` publishes; ``site`` brings the live site (``site:`` in
config.yaml) up to date, as ``pbem mail``, ``poll`` and ``tick`` do after each run.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from pbem.cli import options
from pbem.cli.home import game_id, open_home, say_site
from pbem.errors import EXIT_OK, UsageError


def register(sub: options.Commands) -> None:
    p = sub.add_parser(
        "export", help="write referee games as .realm records (no addresses)",
        description="Write a game (or --all) as a .realm record with full front matter: "
        "game, event, date started, date finished, the players' display names (never an "
        "address), ruleset and result. To standard output, or -o FILE; with --all and -o "
        "FOLDER, one file per game (game-N.realm).",
    )
    options.game(p, optional=True)
    p.add_argument("--all", action="store_true", help="every game of the referee")
    p.add_argument("--tournament", metavar="NAME", help="every game of the event NAME, "
                   "with event:, round: and board: in the front matter")
    options.output(p, metavar="FILE|FOLDER")
    options.home(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "site", help="bring the live site of the referee's games up to date",
        description="Rewrite the page of every game whose record changed since the site "
        "last showed it, and the index (the site: section of config.yaml says where). "
        "pbem mail, poll, tick and new do this by themselves after each run.",
    )
    options.home(p)
    p.set_defaults(func=cmd_site)


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.public.publish import public_game, slug
    from pbem.referee.store.games import GameNotFound
    from pbem.referee.store.site import game_ids

    if [args.all, args.game is not None, args.tournament is not None].count(True) != 1:
        raise UsageError("name one GAME, or --all, or --tournament NAME")
    _, config, conn = open_home(args)
    if args.tournament is not None:
        from pbem.referee.store import tournaments as events

        event = events.find_event(conn, args.tournament)
        if event is None:
            raise UsageError(f"there is no event named {args.tournament!r}")
        ids = events.game_ids(conn, event.id)
    else:
        ids = game_ids(conn) if args.all else [game_id(args.game)]
    try:
        games = [public_game(conn, config, i) for i in ids]
    except GameNotFound as exc:
        raise UsageError(str(exc)) from None
    target = Path(args.output) if args.output else None
    try:
        many = args.all or args.tournament is not None
        if target is not None and many and (target.is_dir() or args.output.endswith("/")):
            target.mkdir(parents=True, exist_ok=True)
            for g in games:
                (target / f"{slug(g.id)}.realm").write_text(g.record, encoding="utf-8")
            out.write(f"wrote {len(games)} games to {target}\n")
            return EXIT_OK
        text = "\n".join(g.record for g in games)
        if target is None:
            out.write(text)
        else:
            target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return EXIT_OK


def cmd_site(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.public.publish import site_settings, update_site

    home, config, conn = open_home(args)
    site = site_settings(config, home.root)
    if site is None:
        raise UsageError("config.yaml has no site: section (site: {path: FOLDER, url: BASE})")
    update = update_site(conn, config, home.root)
    say_site(update.problem)
    out.write(f"{site.path}: {update.written} game page(s) rewritten\n")
    return EXIT_OK
