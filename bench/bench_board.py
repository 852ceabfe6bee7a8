"""SVG board rate: every position of the sample game, each with its turn drawn. Prints figures;
asserts nothing. The target is under 5 ms per board.

Run: .venv/bin/python bench/bench_board.py [--seconds S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.records.reader import read_file  # noqa: E402
from pbem.records.replay import PlayedTurn  # noqa: E402
from pbem.records.validate import validate_source  # noqa: E402
from pbem.render.board_svg import render_svg  # noqa: E402

SAMPLE = ROOT / "games" / "sample-game-2002.realm"


def sample_turns() -> list[PlayedTurn]:
    report = validate_source(next(read_file(SAMPLE)))
    assert report.valid, report.error
    return report.replay.turns


def rate(label: str, turns: list[PlayedTurn], flip: bool, seconds: float) -> None:
    boards = 0
    start = time.perf_counter()
    while True:
        for t in turns:
            render_svg(t.after, last=t, flip=flip)
        boards += len(turns)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    per = elapsed / boards
    print(f"  {label:<18} {per * 1000:7.3f} ms/board  {1 / per:8.0f} boards/s  ({boards} boards)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = ap.parse_args()
    turns = sample_turns()
    t = time.perf_counter()
    svg = render_svg(turns[-1].after, last=turns[-1])
    first = time.perf_counter() - t
    print(
        f"Sample game: {len(turns)} positions, each with its turn drawn "
        f"({len(svg.encode())} bytes for the final board), one core:"
    )
    print(f"  first board (builds the static layer) {first * 1000:.2f} ms")
    rate("White's view", turns, False, args.seconds)
    rate("Black's view", turns, True, args.seconds)


if __name__ == "__main__":
    main()
