"""Time to build the static archive of N seeded random games. Prints figures; asserts nothing.

Run: .venv/bin/python bench/bench_archive.py [--games 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.random_records import write_records  # noqa: E402
from pbem.render.archive import build_archive  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records"
        t = time.perf_counter()
        write_records(records, args.games, seed=11)
        made = time.perf_counter() - t
        t = time.perf_counter()
        summary = build_archive([records], Path(tmp) / "site", title="bench")
        built = time.perf_counter() - t
        size = sum(p.stat().st_size for p in (Path(tmp) / "site").rglob("*") if p.is_file())
    print(f"made {args.games} random records in {made:.1f} s")
    print(
        f"archive of {summary.games} games ({summary.valid} valid): {built:.1f} s, "
        f"{summary.games / built:.0f} games/s, {size / 1e6:.1f} MB"
    )


if __name__ == "__main__":
    main()
