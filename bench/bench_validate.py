"""Parse and validate rates, and the cold start of `pbem validate`. Prints figures; asserts nothing.

Run: .venv/bin/python bench/bench_validate.py [--records N] [--seconds S]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.notation.parse import parse_game  # noqa: E402
from pbem.records.generate import write_games  # noqa: E402
from pbem.records.reader import read_games  # noqa: E402
from pbem.records.replay import replay_game  # noqa: E402
from pbem.rules.realm.ruleset import FEATURED  # noqa: E402

SAMPLE = ROOT / "games" / "sample-game-2002.realm"


def count_actions(texts: list[str]) -> int:
    n = 0
    for text in texts:
        for src in read_games(text):
            if src.game is None:
                continue
            for e in src.game.entries:
                for t in (e.white, e.black):
                    n += len(t.actions) if t is not None else 0
    return n


def rate(label: str, texts: list[str], fn, seconds: float) -> None:
    actions = count_actions(texts)
    runs = 0
    start = time.perf_counter()
    while True:
        for text in texts:
            fn(text)
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    games = runs * len(texts) / elapsed
    print(
        f"  {label:<16} {games:10.0f} games/s  {games * actions / len(texts):12.0f} actions/s  "
        f"{1000 / games:7.3f} ms/game"
    )


def parse_only(text: str) -> None:
    for src in read_games(text):
        assert src.game is not None


def parse_and_validate(text: str) -> None:
    for src in read_games(text):
        assert src.game is not None
        r = replay_game(src.game)
        assert r.valid, r.error


def cold_start(path: Path, runs: int) -> None:
    exe = shutil.which("pbem") or ""
    cmd = [exe] if exe else [sys.executable, "-m", "pbem"]
    cmd += ["validate", str(path)]
    subprocess.run(cmd, capture_output=True, check=True)  # warm the disk cache and lark's cache
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    print(
        f"  cold start of `{' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}`: "
        f"median {statistics.median(times) * 1000:.0f} ms, best {min(times) * 1000:.0f} ms "
        f"over {runs} runs"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--records", type=int, default=200, help="generated records in the larger set"
    )
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--cold-runs", type=int, default=15)
    args = ap.parse_args()
    sample = SAMPLE.read_text(encoding="utf-8")
    parse_game(sample)  # build the parser once before timing
    print(f"Sample game ({count_actions([sample])} actions), one core:")
    rate("parse only", [sample], parse_only, args.seconds)
    rate("parse+validate", [sample], parse_and_validate, args.seconds)
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_games(Path(tmp), args.records, 7, FEATURED).paths
        texts = [p.read_text(encoding="utf-8") for p in paths]
        print(f"{len(texts)} random records ({count_actions(texts)} actions), one core:")
        rate("parse only", texts, parse_only, args.seconds)
        rate("parse+validate", texts, parse_and_validate, args.seconds)
    print("Cold start (a new process validating the sample game):")
    cold_start(SAMPLE, args.cold_runs)


if __name__ == "__main__":
    main()
