"""The cold start of the command line: ``pbem validate`` of the sample game and ``pbem --help``.

Prints figures; asserts nothing.

    python bench/bench_cli_start.py [--baseline DIR] [--repeat R]

Each run is a new ``python -m pbem`` process of a checkout (``PYTHONPATH`` set to it), with
its bytecode compiled first, as an installed package has it. With ``--baseline DIR`` (another
checkout, e.g. ``git worktree add --detach /tmp/old main``) both trees are timed run by run
interleaved, so both meet the same load; the children's CPU time is given beside the wall
clock, since the load on a shared machine moves the second far more than the first.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "games" / "sample-game-2002.realm"
COMMANDS = {
    "validate sample": ["validate", str(SAMPLE)],
    "--help": ["--help"],
}


def _run(tree: Path, args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``python -m pbem ARGS`` process of ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, env=env,
                   cwd=tree, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", type=Path, help="another checkout to time against")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    trees = {"this": REPO}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), **trees}
    for tree in trees.values():  # compiled bytecode and lark's cache, as installed
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "pbem")],
                       check=True)
        for cmd in COMMANDS.values():
            _run(tree, cmd)
    print(f"load average {os.getloadavg()[0]:.2f} (uptime: {_uptime()})")
    times: dict[tuple[str, str], list[tuple[float, float]]] = {
        (c, t): [] for c in COMMANDS for t in trees}
    for _ in range(args.repeat):
        for label, cmd in COMMANDS.items():
            for name, tree in trees.items():
                times[label, name].append(_run(tree, cmd))
    print(f"load average {os.getloadavg()[0]:.2f} (uptime: {_uptime()})")
    print(f"median (best) of {args.repeat} runs, interleaved; wall clock, then CPU:")
    for (label, name), got in times.items():
        wall = [w for w, _ in got]
        cpu = [c for _, c in got]
        print(f"  pbem {label:<16} {name:<8} {statistics.median(wall) * 1000:5.0f} ms "
              f"({min(wall) * 1000:4.0f})   CPU {statistics.median(cpu) * 1000:5.0f} ms "
              f"({min(cpu) * 1000:4.0f})")


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
