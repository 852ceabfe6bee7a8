"""``pbem store check`` and ``pbem store copy --to URL``: the referee's store as a whole,
on either engine (issue 28). Moving a club to PostgreSQL is three commands (README):
``pip install 'pbem[postgresql]'``, ``pbem store copy --to URL``, ``pbem init --store URL``.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from pbem.cli import options
from pbem.errors import EXIT_INVALID, EXIT_OK, UsageError


def register(sub: options.Commands) -> None:
    p = sub.add_parser(
        "store", help="check the referee's store, or copy it to PostgreSQL",
        description="check: run the integrity checks of the store's engine (SQLite's "
        "integrity and reference checks; on PostgreSQL every table read through) and the "
        "referee's own (references, turns in order, migrations); exit 1 when something is "
        "wrong. copy --to postgresql://user@host/db: copy the SQLite store into that empty "
        "database (made ready as `pbem init --store` would) and compare every table; the "
        "home keeps using its SQLite store until `pbem init --store URL` points it there.",
    )
    action = p.add_subparsers(dest="store_action", metavar="{check,copy}", required=True)
    c = action.add_parser("check", help="integrity checks of the store, on either engine")
    options.home(c)
    c.set_defaults(func=cmd_check)
    c = action.add_parser("copy", help="copy the store into an empty PostgreSQL database")
    c.add_argument("--to", required=True, metavar="URL",
                   help="postgresql://user@host[:port]/database (password from PGPASSWORD "
                   "or PBEM_STORE_PASSWORD)")
    options.home(c)
    c.set_defaults(func=cmd_copy)


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.store import connect
    from pbem.referee.store.engine import redact
    from pbem.referee.store.upkeep import check

    home = Home(home_path(args.home))
    config = home.load_config()
    target = home.store_target(config)
    conn = connect(target)
    try:
        problems = check(conn)
    finally:
        conn.close()
    where = redact(str(target))
    for problem in problems:
        out.write(f"{where}: {problem}\n")
    if problems:
        return EXIT_INVALID
    out.write(f"{where}: no problem found\n")
    return EXIT_OK


def cmd_copy(args: argparse.Namespace, out: TextIO) -> int:
    from pbem.referee.config.home import Home, home_path
    from pbem.referee.store import connect
    from pbem.referee.store.engine import has_password, is_url, redact
    from pbem.referee.store.upkeep import copy_store

    url = args.to.strip()
    if not is_url(url):
        raise UsageError(f"--to must be a postgresql://user@host/database URL, not {url!r}")
    if has_password(url):
        raise UsageError("--to must not hold the password: set PGPASSWORD or "
                         "PBEM_STORE_PASSWORD, or use ~/.pgpass")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise UsageError("the PostgreSQL driver is not installed: pip install "
                         "'pbem[postgresql]'") from None
    home = Home(home_path(args.home))
    config = home.load_config()
    source_target = home.store_target(config)
    if is_url(source_target):
        raise UsageError("the store is on PostgreSQL already; copy copies a SQLite store")
    source = connect(source_target)
    target = connect(url, create=True)
    try:
        copied = copy_store(source, target)
    finally:
        source.close()
        target.close()
    total = sum(copied.rows.values())
    out.write(f"copied {total} rows of {len(copied.rows)} tables to {redact(url)}, every "
              f"table compared: the same. Next: pbem init --store {redact(url)} "
              f"(the home then uses it; {home.db_path.name} stays as it is)\n")
    return EXIT_OK
