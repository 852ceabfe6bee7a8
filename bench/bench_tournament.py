"""A 100-player Swiss of 8 rounds (400 games) through the referee: how long ``pbem tournament
show`` and the live site's update take. Prints figures (and the machine's load).

Every game is started as ``pbem tournament start`` starts it (invitations and all) and
ended by the organiser's adjudication (result mail with the crosstable, the next round's
pairing by py4swiss), so the store holds what a real event leaves.

Run: .venv/bin/python bench/bench_tournament.py [--players 100] [--rounds 8] [--repeat 5]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from pbem.cli import main as pbem
from pbem.referee.config.home import Home
from pbem.referee.entry import operator
from pbem.referee.entry.service import Referee
from pbem.referee.public.publish import update_site
from pbem.referee.store import accounts, connect, transaction
from pbem.referee.store import tournaments as store
from pbem.referee.work.tournament import create, enter, start


def _quiet(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert pbem(list(args)) == 0
    return out.getvalue()


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", metavar="FOLDER", help="build in FOLDER and leave it there")
    args = ap.parse_args()
    rng = random.Random(26)
    with (contextlib.nullcontext(args.keep) if args.keep
          else tempfile.TemporaryDirectory()) as tmp:
        home = Path(tmp) / "home"
        _quiet("init", "--home", str(home), "--address", "referee@bench.test")
        cfg = home / "config.yaml"
        data = yaml.safe_load(cfg.read_text())
        data["site"] = {"path": str(Path(tmp) / "site")}
        cfg.write_text(yaml.safe_dump(data))
        config = Home(home).load_config()
        referee = Referee(connect(Home(home).db_path), config)
        conn = referee.conn
        t = time.perf_counter()
        with transaction(conn):
            event = create(conn, referee.now(), name="Bench Open", ruleset="featured",
                           format="swiss", rounds=args.rounds)
            for i in range(args.players):
                enter(conn, event, f"p{i}@bench.test")  # shown as Player N
            start(conn, referee.mailer, referee.options, referee.now(), event)
        for _ in range(args.rounds):  # end every game of the round: the next is paired
            playing = [b.game_id for b in store.boards(conn, event.id)
                       if b.game_id is not None and b.status == "playing"]
            for game_id in playing:
                operator.adjudicate(referee, game_id, rng.choice(["1-0", "0-1", "1/2-1/2"]))
        made = time.perf_counter() - t
        boards = store.boards(conn, event.id)
        games = sum(1 for b in boards if b.game_id is not None)
        status = store.event_by_id(conn, event.id).status
        site = Path(tmp) / "site"
        home_obj = Home(home)

        def show() -> None:
            _quiet("tournament", "show", "Bench Open", "--home", str(home))

        def show_json() -> None:
            _quiet("tournament", "show", "Bench Open", "--json", "--home", str(home))

        def full_site() -> None:
            import shutil

            shutil.rmtree(site, ignore_errors=True)
            update_site(conn, config, home_obj.root)

        renames = iter(range(10**6))

        def one_change() -> None:  # a player renames himself: his games' pages and the event
            accounts.set_display_name(conn, "p0@bench.test", f"Renamed {next(renames)}")
            update_site(conn, config, home_obj.root)

        def nothing_changed() -> None:  # a run that changed no game (a refused mail)
            update_site(conn, config, home_obj.root)

        def event_page_only() -> None:  # the event's page, rewritten after a result
            from pbem.referee.public.event_pages import site_views
            from pbem.render.live_site import publish_events

            views = [(v, f"x{time.perf_counter()}") for v, _ in site_views(conn)]
            publish_events(site, views, title="bench")

        t_show = _median(show, args.repeat)
        t_json = _median(show_json, args.repeat)
        t_full = _median(full_site, 1)
        t_one = _median(one_change, args.repeat)
        t_none = _median(nothing_changed, args.repeat)
        t_page = _median(event_page_only, args.repeat)
        size = (site / "events" / "event-bench-open.html").stat().st_size
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print(f"{args.players}-player Swiss, {args.rounds} rounds: {games} games ({status}), "
          f"started, adjudicated and paired in {made:.1f} s")
    print(f"pbem tournament show:        {t_show * 1000:7.1f} ms (median of {args.repeat}, "
          "in process)")
    print(f"pbem tournament show --json: {t_json * 1000:7.1f} ms")
    print(f"site update, nothing changed: {t_none * 1000:.1f} ms")
    print(f"site update, a player renamed ({args.rounds} game pages, the index, the event "
          f"page): {t_one * 1000:.1f} ms")
    print(f"the event page alone: {t_page * 1000:.1f} ms ({size / 1000:.0f} kB)")
    print(f"site from nothing ({games} game pages, the event page): {t_full:.1f} s")


if __name__ == "__main__":
    main()
