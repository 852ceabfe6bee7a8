"""What the ratings cost the referee: the fold of a club's finished games, which every
turn report, result mail and ``pbem site`` run recomputes (never stored). Prints
figures; asserts nothing.

    python bench/bench_ratings.py [--games 1000] [--players 60] [--runs 9]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from pbem.cli import main as pbem_main
from pbem.records.rulesets import load_ruleset
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.public.club_ratings import club_ratings, finished, report_line
from pbem.referee.store import connect, transaction
from pbem.referee.store.games import load_game, save_game


def build(home: Path, games: int, players: int, seed: int) -> Referee:
    pbem_main(["init", "--home", str(home), "--address", "ref@bench.test"])
    h = Home(home)
    referee = Referee(connect(h.db_path), h.load_config())
    rng = random.Random(seed)
    rulesets = [load_ruleset(n) for n in ("featured", "classic", "medieval")]
    for _ in range(games):
        a, b = rng.sample(range(players), 2)
        game_id = referee.new_game(f"p{a}@bench.test", f"p{b}@bench.test",
                                   rng.choice(rulesets))
        with transaction(referee.conn):
            game = load_game(referee.conn, game_id)
            save_game(referee.conn, game_id, record=game.record, offer=None, status="over",
                      result=rng.choice(("1-0", "0-1", "1/2-1/2")), end_reason="adjudicated")
    return referee


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        referee = build(Path(tmp) / "home", args.games, args.players, args.seed)
        print(f"club of {args.games} finished games, {args.players} players: built in "
              f"{time.perf_counter() - t0:.1f} s")
        conn, settings = referee.conn, referee.options.ratings
        game = load_game(conn, 1)
        print(f"  read the finished games (store + family): "
              f"{timed(lambda: finished(conn), args.runs):7.1f} ms median")
        print(f"  the whole table with names (pbem ratings, the site): "
              f"{timed(lambda: club_ratings(conn, settings), args.runs):7.1f} ms median")
        print(f"  one report's ratings line: "
              f"{timed(lambda: report_line(conn, game, settings), args.runs):7.1f} ms median")


if __name__ == "__main__":
    main()
