"""The referee's speed: one mail through ``pbem mail`` as a new process, and a burst
of mails across many games through ``pbem poll``. Prints figures; asserts nothing.

    python bench/bench_referee.py [--runs 15] [--games 100] [--per-game 10]
"""

from __future__ import annotations

import argparse
import compileall
import mailbox
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pbem.cli import main as pbem_main
from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.records.reader import read_file
from pbem.records.rulesets import load_ruleset
from pbem.records.validate import validate_source
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.store import connect

REPO = Path(__file__).resolve().parents[1]


def sample_turns() -> list[tuple[str, str]]:
    replay = validate_source(next(iter(read_file(REPO / "games/sample-game-2002.realm")))).replay
    return [(t.label, format_turn(TurnText(tuple(r.canonical() for r in t.resolved))))
            for t in replay.turns]


def mail(game_id: int, side: str, token: str, text: str, n: int) -> bytes:
    sender = f"{'white' if side == 'w' else 'black'}{game_id}@players.test"
    return (
        f"From: {sender}\r\nTo: referee+g{game_id}-{side}-{token}@pbem.test\r\n"
        f"Subject: Re: [realm g{game_id}-{side}-{token}] move\r\n"
        f"Message-ID: <bench-{game_id}-{n}@players.test>\r\n\r\n{text}\r\n\r\n"
        "> quoted text of the referee's mail\r\n"
    ).encode()


def setup(home: Path, games: int) -> tuple[Referee, dict[int, dict[str, str]]]:
    assert pbem_main(["init", "--home", str(home), "--address", "referee@pbem.test"]) == 0
    h = Home(home)
    referee = Referee(connect(h.db_path), h.load_config())
    tokens = {}
    featured = load_ruleset("featured")
    for g in range(games):
        gid = referee.new_game(f"white{g + 1}@players.test", f"black{g + 1}@players.test",
                               featured)
        tokens[gid] = dict(referee.conn.execute(
            "SELECT side, token FROM players WHERE game_id = ?", (gid,)).fetchall())
    return referee, tokens


def bench_mail(runs: int, baseline: Path | None = None) -> None:
    """One mail at a time through ``pbem mail`` in a new process. With ``baseline`` (another
    checkout's folder, e.g. the code before a change), each mail is also played there,
    interleaved, so both see the same load on a shared machine."""
    turns = sample_turns()[:runs]
    trees = {"this": REPO} | ({"baseline": baseline} if baseline is not None else {})
    times: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        homes, tokens = {}, {}
        for name in trees:
            homes[name] = Path(tmp) / name
            _, tokens[name] = setup(homes[name], 1)
        for n, (label, text) in enumerate(turns):
            for name, tree in trees.items():
                raw = mail(1, label[-1], tokens[name][1][label[-1]], text, n)
                env = {**os.environ, "PBEM_HOME": str(homes[name]), "PYTHONPATH": str(tree)}
                start = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "pbem", "mail", "--no-send"],
                                      input=raw, capture_output=True, env=env)
                times[name].append(time.perf_counter() - start)
                assert proc.stdout.startswith(b"accepted"), proc.stdout + proc.stderr
        env = {**os.environ, "PBEM_HOME": str(homes["this"])}
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pbem", "flush"], capture_output=True, env=env)
        flush = time.perf_counter() - start
    for name, got in times.items():
        print(f"pbem mail ({name}: {trees[name]}), new process, read -> committed turn + 2 "
              f"queued reports: median {statistics.median(got) * 1000:.0f} ms, best "
              f"{min(got) * 1000:.0f} ms, worst {max(got) * 1000:.0f} ms ({len(got)} runs; "
              "target < 300 ms)")
    print(f"pbem flush of {2 * len(turns) + 2} queued mails into the outbox Maildir: "
          f"{flush * 1000:.0f} ms")


def bench_png() -> None:
    """What the PNG board costs a mail: importing the renderer (in a new process, as
    ``pbem mail`` pays it) and drawing one 480-pixel board. resvg is pbem's; cairosvg,
    which it replaced, is measured in the same run when it is installed."""
    from pbem.render.board_png import svg_to_png
    from pbem.render.board_svg import render_svg

    replay = validate_source(next(iter(read_file(REPO / "games/sample-game-2002.realm")))).replay
    svgs = [render_svg(t.after, last=t, flip=i % 2 == 1, size=480)
            for i, t in enumerate(replay.turns)]
    draw = {"resvg_py": svg_to_png}
    try:
        import cairosvg

        draw["cairosvg"] = lambda svg: cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    except (ImportError, OSError):
        pass
    for name, to_png in draw.items():
        code = (f"import time; t = time.perf_counter(); import {name}; "
                "print(time.perf_counter() - t)")
        imports = [float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                        text=True, check=True).stdout) for _ in range(5)]
        to_png(svgs[0])  # the import, out of the figure
        start = time.perf_counter()
        for svg in svgs:
            to_png(svg)
        each = (time.perf_counter() - start) / len(svgs)
        print(f"PNG board by {name}: import in a new process median "
              f"{statistics.median(imports) * 1000:.0f} ms; one 480-px board "
              f"{each * 1000:.0f} ms ({len(svgs)} boards)")


def bench_poll(games: int, per_game: int, baseline: Path | None = None,
               rounds: int = 1) -> None:
    """A burst of mails across many games through one ``pbem poll``. With ``baseline``,
    the same burst also goes through the other checkout, the two alternating ``rounds``
    times, so both see the same load on a shared machine."""
    turns = sample_turns()[:per_game]
    trees = {"this": REPO} | ({"baseline": baseline} if baseline is not None else {})
    figures: dict[str, list[float]] = {name: [] for name in trees}
    said: dict[str, str] = {}
    for _ in range(rounds):
        for name, tree in trees.items():
            elapsed, n, said[name] = _burst(tree, games, turns)
            figures[name].append(elapsed)
    for name, got in figures.items():
        best = min(got)
        print(f"pbem poll ({name}: {trees[name]}), {n} mails across {games} games (+ {2 * n} "
              f"replies delivered to the outbox Maildir): best {best:.1f} s "
              f"({n / best:.0f} mails/s), all {', '.join(f'{t:.1f}' for t in got)} s "
              "(target < 60 s)")
        print(f"  {said[name]}")


def _burst(tree: Path, games: int, turns: list[tuple[str, str]]) -> tuple[float, int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        referee, tokens = setup(home, games)
        referee.conn.close()
        env = {**os.environ, "PBEM_HOME": str(home), "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, "-m", "pbem", "flush"], capture_output=True, env=env)
        inbox = mailbox.Maildir(str(home / "inbox"))
        n = 0
        for label, text in turns:  # mails arrive interleaved across the games
            for gid, tok in tokens.items():
                inbox.add(mail(gid, label[-1], tok[label[-1]], text, n))
                n += 1
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pbem", "poll"], capture_output=True,
                              env=env)
        elapsed = time.perf_counter() - start
        sent = len(list((home / "outbox" / "new").iterdir()))
    return elapsed, n, f"{proc.stdout.decode().strip()}; outbox holds {sent} mails"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--per-game", type=int, default=10)
    ap.add_argument("--mail-only", action="store_true", help="skip the poll burst")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --baseline: poll bursts per checkout, alternating")
    ap.add_argument("--no-png", action="store_true", help="skip the PNG board's figures")
    ap.add_argument("--baseline", type=Path, metavar="DIR",
                    help="another checkout to time against, mail by mail (e.g. the code "
                    "before a change: git archive main | tar -x -C DIR)")
    args = ap.parse_args()
    # as `pip install` does: measure the referee, not Python compiling its sources again in
    # every process (this machine sets PYTHONDONTWRITEBYTECODE, so nothing else writes them)
    compileall.compile_dir(str(REPO / "pbem"), quiet=1)
    print(f"bytecode compiled for {REPO / 'pbem'}; PYTHONDONTWRITEBYTECODE="
          f"{os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")
    if not args.no_png:
        bench_png()
    if args.baseline is not None:
        compileall.compile_dir(str(args.baseline / "pbem"), quiet=1)
    bench_mail(args.runs, args.baseline)
    if not args.mail_only:
        bench_poll(args.games, args.per_game, args.baseline, args.rounds)


if __name__ == "__main__":
    main()
