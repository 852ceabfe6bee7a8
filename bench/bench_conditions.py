"""What conditional turns cost the referee: one mail handled (``Referee.handle``, the
reports queued) with and without a set of 40 lines, the most a mail may hold, games
alternating so that both are measured under the same load. Prints figures; asserts
nothing.

    python bench/bench_conditions.py [--games 12]

Per game: Black mails 7b alone, or 7b with 40 lines (each checked where it would be
played: 80 turns); then White mails 8w, answered by none, or matched against a standing
set of 40 lines that all miss (40 turns played, the set dropped).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_referee import mail, sample_turns, setup

#: a line that never matches 8w (White's Power stops on g8, not g9), legal where it stands
MISS = "if Pi6j6(Bk5),Pg4g8,Ei4d4 then Ed2c2,Pd1l1(Bk2)"


def run(games: int) -> dict[str, list[float]]:
    turns = sample_turns()
    times: dict[str, list[float]] = {k: [] for k in ("7b alone", "7b + 40 lines",
                                                    "8w, no set", "8w, 40 lines miss")}
    with tempfile.TemporaryDirectory() as tmp:
        referee, tokens = setup(Path(tmp) / "home", games)
        n = 0
        for gid, keys in tokens.items():
            for label, text in turns[:13]:
                n += 1
                side = label[-1]
                referee.handle(mail(gid, side, keys[side], text, n))
        for gid, keys in tokens.items():
            with_set = gid % 2 == 0  # alternate: both kinds under the same load
            body = turns[13][1] + ("\r\n" + "\r\n".join([MISS] * 40) if with_set else "")
            for key, raw in (("7b + 40 lines" if with_set else "7b alone",
                              mail(gid, "b", keys["b"], body, n + 1)),
                             ("8w, 40 lines miss" if with_set else "8w, no set",
                              mail(gid, "w", keys["w"], turns[14][1], n + 2))):
                start = time.perf_counter()
                handled = referee.handle(raw)
                times[key].append((time.perf_counter() - start) * 1000)
                assert handled.outcome == "accepted", handled
            n += 2
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    for key, values in run(args.games).items():
        print(f"{key:20} median {statistics.median(values):7.1f} ms   "
              f"min {min(values):7.1f} ms   ({len(values)} mails)")


if __name__ == "__main__":
    main()
