"""Time to build the static archive of N games made by ``pbem generate``. Prints figures.

Run: .venv/bin/python bench/bench_archive.py [--games 1000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pbem.records.generate import write_games
from pbem.render.archive import build_archive
from pbem.rules.realm.ruleset import FEATURED


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records"
        t = time.perf_counter()
        write_games(records, args.games, 11, FEATURED)
        made = time.perf_counter() - t
        t = time.perf_counter()
        summary = build_archive([records], Path(tmp) / "site", title="bench")
        built = time.perf_counter() - t
        size = sum(p.stat().st_size for p in (Path(tmp) / "site").rglob("*") if p.is_file())
    print(f"generated {args.games} records in {made:.1f} s")
    print(
        f"archive of {summary.games} games ({summary.valid} valid): {built:.1f} s, "
        f"{summary.games / built:.0f} games/s, {size / 1e6:.1f} MB"
    )


if __name__ == "__main__":
    main()
