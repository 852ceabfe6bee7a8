"""One big record file against the same games in separate files: games/s and peak memory of
`pbem validate`, with 1 and 2 jobs. Prints figures; asserts nothing.

Run: python bench/bench_bigfile.py [--games N] [--copies K] [--seed S] [--jobs 1,2]
                                   [--other DIR] [--cut-only]

The games come from `pbem generate --one-file` (made once into build/bench-bigfile/
and reused); the big file is that file K times over (K=9 of 6,000 games: 54,000 games,
about 50 MB), and the separate files are the same games one per file. Each run is a
fresh `pbem validate --jobs J` process; "peak RSS" is the largest resident size of it or
any worker, from the kernel's accounting of children (GNU time's %M). ``--other DIR``
runs a second checkout's pbem on the same inputs, interleaved run by run with this one,
so that a shared machine's load falls on both alike. ``--cut-only`` times only the
cutting of the big file into games (``split_games``) at 1/4, 1/2 and all of its size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.records.reader import split_games  # noqa: E402


def generated(n: int, seed: int) -> Path:
    """N games in one file by `pbem generate --one-file` (made once, then reused)."""
    folder = ROOT / "build" / "bench-bigfile" / f"generated-n{n}-seed{seed}"
    done = folder / ".complete"
    if not done.exists():
        shutil.rmtree(folder, ignore_errors=True)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pbem", "generate", "--games", str(n), "--seed", str(seed),
             "--one-file", "--out", str(folder)],
            check=True, stdout=subprocess.DEVNULL, cwd=ROOT,
        )
        done.write_text(f"{n}\n")
        print(f"generated {n:,} games in {time.perf_counter() - start:.1f} s")
    (path,) = folder.glob("*.realm")
    return path


def inputs(source: Path, copies: int, work: Path) -> tuple[Path, Path, int]:
    """(the big file, the folder of separate files, the number of games)."""
    text = source.read_text(encoding="utf-8")
    big = work / "big" / "all.realm"
    big.parent.mkdir(parents=True)
    with big.open("w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write(text)
    games = split_games(text)
    separate = work / "separate"
    n = 0
    for copy in range(copies):
        sub = separate / f"{copy:02d}"
        sub.mkdir(parents=True)
        for _, chunk in games:
            (sub / f"{n:06d}.realm").write_text(chunk, encoding="utf-8")
            n += 1
    return big, separate, n


def run(checkout: Path, target: Path, jobs: int) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit status) of one validate."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    start = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M %U %S", sys.executable, "-m", "pbem", "validate", "--jobs",
         str(jobs), "--no-progress", "--no-summary", str(target)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=checkout, env=env,
    )
    wall = time.perf_counter() - start
    rss_kb, user, system = proc.stderr.strip().splitlines()[-1].split()[-3:]
    return wall, float(user) + float(system), int(rss_kb) // 1024, proc.returncode


def cut_only(big: Path) -> None:
    text = big.read_text(encoding="utf-8")
    for part in (4, 2, 1):
        piece = text[: len(text) // part]
        start = time.perf_counter()
        n = len(split_games(piece))
        seconds = time.perf_counter() - start
        print(f"  cut {len(piece) / 1e6:5.1f} MB ({n:,} games): {seconds:.2f} s, "
              f"{n / seconds:,.0f} games/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6_000, help="games to generate")
    ap.add_argument("--copies", type=int, default=9, help="times the games are repeated")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--jobs", default="1,2", help="comma-separated job counts")
    ap.add_argument("--other", type=Path, help="another checkout to compare, interleaved")
    ap.add_argument("--cut-only", action="store_true", help="time only the cutting")
    args = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    source = generated(args.games, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        big, separate, n = inputs(source, args.copies, Path(tmp))
        size = big.stat().st_size / 1e6
        print(f"{n:,} games: one file of {size:.1f} MB, or {n:,} separate files; "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        if args.cut_only:
            cut_only(big)
            return
        checkouts = [("this", ROOT)] + ([("other", args.other.resolve())] if args.other else [])
        for jobs in (int(j) for j in args.jobs.split(",")):
            for what, target in (("one file", big), ("separate files", separate)):
                for name, checkout in checkouts:
                    wall, cpu, rss, status = run(checkout, target, jobs)
                    label = f"{name}: " if args.other else ""
                    print(f"  {label}{what:<14} --jobs {jobs}: {wall:7.1f} s, "
                          f"{n / wall:5.0f} games/s, peak RSS {rss:4d} MB "
                          f"(CPU {cpu:.1f} s, exit {status})")


if __name__ == "__main__":
    main()
