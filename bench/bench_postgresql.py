"""The referee on PostgreSQL beside SQLite (issue 28): one mail's latency through
``pbem mail`` as a new process, the burst of mails across many games through ``pbem
poll``, and the same burst split between two referee homes on one PostgreSQL database,
polled at once (two hosts). The engines alternate mail by mail and burst by burst, so
both see the same load on a shared machine. Prints figures; checks that every mail was
accepted exactly once; asserts no time.

    python bench/bench_postgresql.py [--runs 15] [--games 100] [--per-game 10] [--rounds 2]
                                     [--baseline DIR]

``--baseline DIR`` (a checkout of the code before, ``git worktree add --detach DIR REV``)
runs only the PostgreSQL bursts, one home and two, DIR's code and this tree's alternating.

A throw-away server is started (tests/pgserver.py: Debian's postgresql;
fsync off there, as on a test server, which flatters PostgreSQL's commits: say so when
quoting the figures).
"""

from __future__ import annotations

import argparse
import compileall
import json
import mailbox
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_referee import mail, sample_turns  # noqa: E402
from pbem.cli import main as pbem_main  # noqa: E402
from pbem.records.rulesets import load_ruleset  # noqa: E402
from pbem.referee.config.home import Home  # noqa: E402
from pbem.referee.entry.service import Referee  # noqa: E402
from pbem.referee.store import connect  # noqa: E402
from tests import pgserver  # noqa: E402


def setup(home: Path, games: int, url: str | None) -> dict[int, dict[str, str]]:
    args = ["init", "--home", str(home), "--address", "referee@pbem.test"]
    assert pbem_main([*args, *(["--store", url] if url else [])]) == 0
    h = Home(home)
    config = h.load_config()
    referee = Referee(connect(h.store_target(config)), config)
    tokens = {}
    featured = load_ruleset("featured")
    for g in range(games):
        gid = referee.new_game(f"white{g + 1}@players.test", f"black{g + 1}@players.test",
                               featured)
        tokens[gid] = dict(referee.conn.execute(
            "SELECT side, token FROM players WHERE game_id = ?", (gid,)).fetchall())
    referee.conn.close()
    return tokens


def _env(home: Path, code: Path = REPO) -> dict[str, str]:
    """The environment of a ``pbem`` process of the tree ``code`` (this one, or a
    ``--baseline`` checkout: first on the path, before the installed package)."""
    return {**os.environ, "PBEM_HOME": str(home), "PYTHONPATH": str(code)}


def _setup_in(code: Path, home: Path, games: int, url: str | None) -> dict[int, dict[str, str]]:
    """``setup`` as the tree ``code`` does it (its own schema), in a process of its own."""
    if code == REPO:
        return setup(home, games, url)
    script = ("import json, sys; from pathlib import Path; "
              "from bench.bench_postgresql import setup; "
              "print(json.dumps(setup(Path(sys.argv[1]), int(sys.argv[2]), "
              "sys.argv[3] or None)))")
    proc = subprocess.run([sys.executable, "-c", script, str(home), str(games), url or ""],
                          capture_output=True, check=True, cwd=code, env=_env(home, code))
    return {int(g): tok for g, tok in json.loads(proc.stdout.splitlines()[-1]).items()}


def bench_mail(runs: int, new_url: object) -> None:
    turns = sample_turns()[:runs]
    times: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    with tempfile.TemporaryDirectory() as tmp:
        homes = {e: Path(tmp) / e for e in times}
        tokens = {e: setup(homes[e], 1, None if e == "sqlite" else new_url())  # type: ignore[operator]
                  for e in times}
        for n, (label, text) in enumerate(turns):
            for e in times:
                raw = mail(1, label[-1], tokens[e][1][label[-1]], text, n)
                start = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "pbem", "mail", "--no-send"],
                                      input=raw, capture_output=True, env=_env(homes[e]))
                times[e].append(time.perf_counter() - start)
                assert proc.stdout.startswith(b"accepted"), proc.stdout + proc.stderr
    for e, got in times.items():
        print(f"pbem mail on {e}, new process, read -> committed turn + 2 queued reports: "
              f"median {statistics.median(got) * 1000:.0f} ms, best {min(got) * 1000:.0f} ms,"
              f" worst {max(got) * 1000:.0f} ms ({len(got)} runs)")


def _fill(inbox: Path, tokens: dict[int, dict[str, str]], turns: list[tuple[str, str]],
          only: set[int] | None = None) -> int:
    box = mailbox.Maildir(str(inbox))
    n = 0
    for k, (label, text) in enumerate(turns):  # interleaved across the games
        for gid, tok in tokens.items():
            if only is None or gid in only:
                box.add(mail(gid, label[-1], tok[label[-1]], text, k * 10_000 + gid))
                n += 1
    return n


def _accepted(out: bytes) -> int:
    first = out.decode().split(":")[1] if b":" in out else ""
    return int(first.split(" accepted")[0].split()[-1]) if " accepted" in first else 0


def burst(games: int, turns: list[tuple[str, str]], url: str | None,
          hosts: int = 1, code: Path = REPO) -> tuple[float, int, int]:
    """(seconds, mails, accepted): the burst through ``hosts`` referee homes at once, each
    polling its own inbox with its share of the games (one store), with the tree ``code``."""
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp) / "h0"
        tokens = _setup_in(code, first, games, url)
        homes = [first]
        for i in range(1, hosts):
            home = Path(tmp) / f"h{i}"
            home.mkdir()
            (home / "config.yaml").write_text((first / "config.yaml").read_text())
            subprocess.run([sys.executable, "-m", "pbem", "init", "--home", str(home)],
                           capture_output=True, check=True, cwd=code, env=_env(home, code))
            homes.append(home)
        subprocess.run([sys.executable, "-m", "pbem", "flush"], capture_output=True,
                       cwd=code, env=_env(first, code))
        n = 0
        for i, home in enumerate(homes):
            n += _fill(home / "inbox", tokens, turns,
                       {g for g in tokens if g % hosts == i})
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-m", "pbem", "poll"], cwd=code,
                                  env=_env(home, code),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for home in homes]
        outs = [p.communicate() for p in procs]
        elapsed = time.perf_counter() - start
        accepted = sum(_accepted(out) for out, _ in outs)
    return elapsed, n, accepted


def bench_burst(games: int, per_game: int, rounds: int, new_url: object,
                baseline: Path | None = None) -> None:
    """The burst on each engine; with ``baseline``, only PostgreSQL's, one home and two,
    this tree's and the baseline's alternating round by round."""
    turns = sample_turns()[:per_game]
    kinds: dict[str, tuple[bool, int, Path]] = {
        "sqlite, one process": (False, 1, REPO), "postgresql, one process": (True, 1, REPO),
        "postgresql, two homes polling at once": (True, 2, REPO)}
    if baseline is not None:
        kinds = {f"postgresql, {hosts} home(s), {name}": (True, hosts, code)
                 for hosts in (1, 2) for name, code in (("before (baseline)", baseline),
                                                        ("after (this tree)", REPO))}
    figures: dict[str, list[float]] = {k: [] for k in kinds}
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(rounds):
        for kind, (pg, hosts, code) in kinds.items():
            url = new_url() if pg else None  # type: ignore[operator]
            elapsed, n, accepted = burst(games, turns, url, hosts, code)
            figures[kind].append(elapsed)
            counts[kind] = (n, accepted)
    for kind, got in figures.items():
        n, accepted = counts[kind]
        best = min(got)
        print(f"pbem poll burst on {kind}: {n} mails across {games} games ({accepted} "
              f"accepted): best {best:.1f} s ({n / best:.0f} mails/s), all "
              f"{', '.join(f'{t:.1f}' for t in got)} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--per-game", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--mail-only", action="store_true")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="a checkout of the code before (git worktree add --detach DIR REV):"
                         " only the PostgreSQL bursts, before and after interleaved")
    args = ap.parse_args()
    for code in (REPO, args.baseline):
        if code is not None:
            compileall.compile_dir(str(code / "pbem"), quiet=1)
    server = pgserver.start()
    if server is None:
        sys.exit("no PostgreSQL server can be started here (postgresql, psycopg)")
    try:
        print(f"load before: {os.getloadavg()}")
        if args.baseline is None:
            bench_mail(args.runs, server.new_database)
        if not args.mail_only:
            bench_burst(args.games, args.per_game, args.rounds, server.new_database,
                        args.baseline.resolve() if args.baseline else None)
        print(f"load after: {os.getloadavg()}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
