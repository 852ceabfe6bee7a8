"""The notation front end as a whole process: long lines, a hostile mail, a batch, a cold start.

Prints figures; asserts nothing (tests/notation/test_linear.py counts the work instead).

    python bench/bench_notation.py [--baseline DIR] [--repeat R] [--skip-long]

- ``pbem validate`` of one line of N moves (``1.Pa1a2,Pa1a2,...``) for N = 2,000 and 20,000:
  linear work means the second takes about ten times the first;
- ``pbem mail`` of a keyed player's mail whose body is one 100 KB line of moves (the referee
  must answer it in about a second, whatever it holds);
- ``pbem validate --json -j 1`` of 300 copies of the sample game, as a whole process;
- a cold ``pbem validate`` of the sample game against ``python -c 'import lark'``.

With ``--baseline DIR`` (another checkout, e.g. ``git worktree add /tmp/old main``) every
figure is measured for both trees, run by run interleaved, so both meet the same load; a
baseline run that takes longer than ``--timeout`` seconds is stopped and shown as ``>T s``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "games" / "sample-game-2002.realm"


def _run(tree: Path, args: list[str], timeout: float, stdin: bytes | None = None,
         env: dict[str, str] | None = None) -> float | None:
    """Seconds a ``python -m pbem ARGS`` process of ``tree`` takes; None past ``timeout``."""
    full = {**os.environ, **(env or {}), "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, *args], input=stdin, capture_output=True, env=full,
                       timeout=timeout, cwd=tree)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start


def _shown(t: float | None, timeout: float) -> str:
    return f">{timeout:.0f} s" if t is None else f"{t * 1000:8.0f} ms"


def long_lines(trees: dict[str, Path], timeout: float, sizes: list[int]) -> None:
    print("pbem validate of one line of N moves (1.Pa1a2,Pa1a2,...), one run each:")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"line-{n}.realm"
            path.write_text("1." + "Pa1a2," * n + "\n", encoding="utf-8")
            for name, tree in trees.items():
                t = _run(tree, ["-m", "pbem", "validate", str(path)], timeout)
                print(f"  N = {n:6,} ({path.stat().st_size / 1000:5.0f} KB)  {name:<8} "
                      f"{_shown(t, timeout)}")


def make_mail(home: Path) -> None:
    """``--make-mail HOME``: a referee home with one game and a keyed player's mail whose
    body is one 100 KB line of moves, made by the pbem on ``PYTHONPATH`` (each tree reads
    the home its own code made)."""
    sys.path.append(str(REPO))  # after PYTHONPATH: the tree's pbem, this bench's kit
    from bench.bench_referee import mail, setup  # the referee bench's own mail and game

    _, tokens = setup(home, 1)
    body = "1." + "Pa1a2," * (100_000 // 6)
    (home / "mail.eml").write_bytes(mail(1, "w", tokens[1]["w"], body, 1))


def hostile_mail(trees: dict[str, Path], timeout: float) -> None:
    """A keyed player's mail: one 100 KB line of moves through ``pbem mail --no-send``."""
    print("pbem mail --no-send of a keyed player's mail with one 100 KB line of moves:")
    with tempfile.TemporaryDirectory() as tmp:
        for name, tree in trees.items():
            home = Path(tmp) / name
            subprocess.run([sys.executable, __file__, "--make-mail", str(home)], check=True,
                           capture_output=True, env={**os.environ, "PYTHONPATH": str(tree)})
            raw = (home / "mail.eml").read_bytes()
            t = _run(tree, ["-m", "pbem", "mail", "--no-send"], timeout, raw,
                     {"PBEM_HOME": str(home)})
            print(f"  {name:<8} {_shown(t, timeout)}")


def batch(trees: dict[str, Path], repeat: int, timeout: float) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    for tree in trees.values():  # compiled bytecode, as installed
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "pbem")],
                       check=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "copies"
        folder.mkdir()
        for i in range(300):
            (folder / f"copy-{i:03}.realm").write_text(text, encoding="utf-8")
        times: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(repeat):
            for name, tree in trees.items():
                t = _run(tree, ["-m", "pbem", "validate", "--json", "-j", "1", str(folder)],
                         timeout)
                if t is not None:
                    times[name].append(t)
    print(f"pbem validate --json -j 1 of 300 copies of the sample game, whole process, "
          f"best of {repeat} interleaved:")
    for name, got in times.items():
        if got:
            print(f"  {name:<8} {min(got) * 1000:6.0f} ms  ({300 / min(got):4.0f} games/s; "
                  f"median {statistics.median(got) * 1000:.0f} ms)")


def cold(trees: dict[str, Path], repeat: int) -> None:
    lark: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in trees}
    for tree in trees.values():  # compiled bytecode, as installed; lark's cache filled
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "pbem")],
                       check=True)
        _run(tree, ["-m", "pbem", "validate", str(SAMPLE)], 60)
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import lark"], check=True)
        lark.append(time.perf_counter() - start)
        for name, tree in trees.items():
            t = _run(tree, ["-m", "pbem", "validate", str(SAMPLE)], 60)
            assert t is not None
            times[name].append(t)
    base = statistics.median(lark)
    print(f"cold start, median of {repeat} interleaved: python -c 'import lark' "
          f"{base * 1000:.0f} ms")
    for name, got in times.items():
        m = statistics.median(got)
        print(f"  pbem validate sample ({name}) {m * 1000:.0f} ms = {m / base:.2f} x import lark")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, help="another checkout to time against")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--skip-long", action="store_true", help="no long line, no hostile mail")
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--make-mail", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make_mail is not None:
        make_mail(args.make_mail)
        return
    trees = {"this": REPO}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores shared)")
    if not args.skip_long:
        long_lines(trees, args.timeout, [int(n) for n in args.sizes.split(",")])
        hostile_mail(trees, args.timeout)
    batch(trees, args.repeat, args.timeout * 2)
    cold(trees, args.repeat * 3)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
