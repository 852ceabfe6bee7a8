"""`pbem validate` over an archive of N generated games, one job against several. Prints figures.

Run: python bench/bench_batch.py [--games N] [--seed S] [--jobs 1,2] [--repeat R]
     python bench/bench_batch.py --baseline DIR [--jobs 2] [--repeat R]

The records are made once into build/bench-batch/ and reused. Each run is a fresh
`pbem validate --jobs J` process (stdout to /dev/null), timed by the wall clock; its
CPU time and the machine's load average are printed too, because other work on the
machine shows in the wall clock first. Target: 10,000 games in under 60 s with 2 jobs
(issue 3), under 10 s (issue 15). ``--baseline DIR`` (another checkout) times that code
on the same records too, run by run interleaved with this tree, so both meet the same load.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


PBEM = [sys.executable, "-m", "pbem"]


def records(n: int, seed: int) -> Path:
    """N records written by `pbem generate` (made once, then reused)."""
    folder = ROOT / "build" / "bench-batch" / f"generated-n{n}-seed{seed}"
    done = folder / ".complete"
    if done.exists():
        print(f"reusing {n:,} records in {folder.relative_to(ROOT)}")
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run(
        [*PBEM, "generate", "--games", str(n), "--seed", str(seed), "--out", str(folder)],
        check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
    )
    done.write_text(f"{n}\n")
    print(f"wrote {n:,} records to {folder.relative_to(ROOT)} with pbem generate "
          f"in {time.perf_counter() - start:.1f} s")
    return folder


def run(folder: Path, jobs: int, code: Path = ROOT) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds of pbem and its workers, exit status, its summary);
    ``code``: the checkout whose pbem runs (``python -m pbem`` from its folder)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [*PBEM, "validate", "--jobs", str(jobs), "--no-progress", "--summary", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=code,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode, proc.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--jobs", default="1,2", help="comma-separated job counts to time")
    ap.add_argument("--repeat", type=int, default=1, help="runs per job count; the best counts")
    ap.add_argument("--baseline", type=Path, metavar="DIR",
                    help="another checkout, timed on the same records, interleaved")
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]  # figures as they come
    folder = records(args.games, args.seed)
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}")
    if args.baseline is not None:
        compare(folder, args.baseline.resolve(), [int(j) for j in args.jobs.split(",")],
                args.repeat, args.games)
        return
    best: dict[int, float] = {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        for _ in range(args.repeat):
            load = os.getloadavg()[0]
            wall, cpu, status, summary = run(folder, jobs)
            if status not in (0, 1):
                print(f"  --jobs {jobs}: pbem exited {status}:\n{summary}")
                continue
            best[jobs] = min(wall, best.get(jobs, wall))
            print(f"  --jobs {jobs}: {wall:6.1f} s, {args.games / wall:6.0f} games/s "
                  f"(CPU {cpu:.1f} s; load average before {load:.2f})")
    if 1 in best:
        for jobs, wall in sorted(best.items()):
            if jobs != 1:
                print(f"  speed-up of --jobs {jobs} over --jobs 1: {best[1] / wall:.2f}x")
    if 2 in best and args.games == 10_000:
        verdict = "met" if best[2] < 60 else "NOT met"
        print(f"target 10,000 games < 60 s with 2 jobs: {verdict} ({best[2]:.1f} s)")


def compare(folder: Path, baseline: Path, jobs: list[int], repeat: int, games: int) -> None:
    """Each job count, the baseline and this tree one after the other, ``repeat`` times."""
    best: dict[tuple[str, int], float] = {}
    for j in jobs:
        for _ in range(repeat):
            for name, code in (("before", baseline), ("after", ROOT)):
                load = os.getloadavg()[0]
                wall, cpu, status, summary = run(folder, j, code)
                if status not in (0, 1):
                    print(f"  {name} --jobs {j}: pbem exited {status}:\n{summary}")
                    continue
                best[(name, j)] = min(wall, best.get((name, j), wall))
                print(f"  {name:<6} --jobs {j}: {wall:6.1f} s, {games / wall:6.0f} games/s "
                      f"(CPU {cpu:.1f} s; load average before {load:.2f})")
    for j in jobs:
        b, a = best.get(("before", j)), best.get(("after", j))
        if b and a:
            print(f"--jobs {j}, best of {repeat}: before {b:.1f} s, after {a:.1f} s ({b / a:.2f}x)")


if __name__ == "__main__":
    main()
