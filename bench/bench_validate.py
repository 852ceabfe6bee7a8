"""Parse and validate rates, and the cold start of `pbem validate`. Prints figures; asserts nothing.

Run: .venv/bin/python bench/bench_validate.py [--records N] [--seconds S]
     .venv/bin/python bench/bench_validate.py --baseline DIR [--repeat R] [--instructions]

With ``--baseline DIR`` (another checkout, e.g. ``git worktree add /tmp/old COMMIT``)
the sample game's rates are measured for both trees in turn, R times interleaved, each
in a fresh process, and the best of each is shown: the machine is shared, so the two
must meet the same load. ``--instructions`` also counts the instructions per game
under valgrind (``callgrind``), which no load changes: (2N games) minus (N games), so
that caches the first games fill once (spans, square readings) are not counted as the
cost of a game.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# ``--code DIR``: measure the pbem of another checkout (what --baseline runs)
CODE = Path(sys.argv[sys.argv.index("--code") + 1]) if "--code" in sys.argv else ROOT
sys.path.insert(0, str(CODE))

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


def rate(label: str, texts: list[str], fn, seconds: float) -> float:
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
    return games


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


def lark_only(text: str) -> None:
    """lark's own parse of a game into a tree, no transformer: the floor of any parse here."""
    _plain_lark().parse(text, start="game")


def _plain_lark() -> Any:
    global _PLAIN
    if _PLAIN is None:
        from lark import Lark

        from pbem.notation.grammar import START_RULES

        grammar = (CODE / "grammar" / "realm.lark").read_text(encoding="utf-8")
        options: dict[str, Any] = {}
        try:  # the notation's own tokenizer (issue 22); before it, lark's contextual lexer
            from pbem.notation.lexer import RealmLexer

            options["lexer"] = RealmLexer
        except ImportError:
            pass
        _PLAIN = Lark(grammar, parser="lalr", start=START_RULES, maybe_placeholders=False,
                      **options)
    return _PLAIN


def rules_only(text: str) -> None:
    """The rules' share alone: the record parsed once, then replayed (walker, resolver, rules)."""
    for game in _parsed(text):
        r = replay_game(game)
        assert r.valid, r.error


def _parsed(text: str) -> list[Any]:
    games = _PARSED.get(text)
    if games is None:
        games = _PARSED[text] = [src.game for src in read_games(text) if src.game is not None]
    return games


_PLAIN: Any = None
_PARSED: dict[str, list[Any]] = {}
_STAGES = {
    "lark": lark_only, "parse": parse_only, "rules": rules_only, "validate": parse_and_validate,
}


def child(stage: str, games: int) -> None:
    """``--stage``: run ``games`` games of one stage and nothing else (for callgrind)."""
    sample = SAMPLE.read_text(encoding="utf-8")
    fn = _STAGES[stage]
    fn(sample)  # build and warm everything first: (N games) - (0 games) is the games alone
    for _ in range(games):
        fn(sample)


def _instructions(code: Path, stage: str, games: int) -> int | None:
    """Instructions of ``games`` games of ``stage`` in ``code``, less those of games games
    (steady state: what the first games fill once is in both counts)."""
    if shutil.which("valgrind") is None:
        return None
    counts = []
    # one hash seed for every run: lark's parser build (the "lark only" stage builds one)
    # walks sets whose order, and so whose cost, changes with the seed
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    for n in (games, 2 * games):
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             __file__, "--code", str(code), "--stage", stage, "--games", str(n)],
            capture_output=True, text=True, env=env,
        )
        found = re.search(r"Collected : ([\d,]+)", proc.stderr)
        if found is None:
            return None
        counts.append(int(found.group(1).replace(",", "")))
    return (counts[1] - counts[0]) // games


def compare(baseline: Path, repeat: int, seconds: float, instructions: bool) -> None:
    """The sample game in this tree and in ``baseline``, interleaved, best of ``repeat``."""
    trees = {"before": baseline.resolve(), "after": CODE}
    best: dict[tuple[str, str], float] = {}
    for _ in range(repeat):
        for name, code in trees.items():
            out = subprocess.run(
                [sys.executable, __file__, "--code", str(code), "--sample-only",
                 "--seconds", str(seconds)],
                capture_output=True, text=True, check=True,
            ).stdout
            for label, games in re.findall(r"^  (\S[^\n]*?)\s{2,}(\d+) games/s", out, re.M):
                key = (name, label.strip())
                best[key] = max(best.get(key, 0.0), float(games))
    print(f"Sample game, one core, best of {repeat} interleaved runs per tree "
          f"(load average now {os.getloadavg()[0]:.1f}):")
    for label in ("lark only", "parse only", "rules only", "parse+validate"):
        before, after = best.get(("before", label)), best.get(("after", label))
        if before and after:
            print(f"  {label:<16} before {before:6.0f} games/s  after {after:6.0f} games/s  "
                  f"({after / before:.2f}x)")
    if instructions:
        print("Instructions per game (valgrind callgrind; the same under any load):")
        for stage in _STAGES:
            counts = {name: _instructions(code, stage, 10) for name, code in trees.items()}
            if None in counts.values():
                print("  valgrind is not available")
                return
            b, a = counts["before"], counts["after"]
            print(f"  {stage:<10} before {b / 1e6:6.2f} M  after {a / 1e6:6.2f} M  "  # type: ignore[operator]
                  f"({a / b:.2f})")  # type: ignore[operator]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--records", type=int, default=200, help="generated records in the larger set"
    )
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--cold-runs", type=int, default=15)
    ap.add_argument("--baseline", type=Path, metavar="DIR",
                    help="another checkout to compare the sample game with, interleaved")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs per tree")
    ap.add_argument("--instructions", action="store_true",
                    help="with --baseline: instructions per game under valgrind too")
    ap.add_argument("--code", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--stage", choices=list(_STAGES), help=argparse.SUPPRESS)
    ap.add_argument("--games", type=int, default=10, help=argparse.SUPPRESS)
    ap.add_argument("--sample-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.stage:
        child(args.stage, args.games)
        return
    if args.baseline is not None:
        compare(args.baseline, args.repeat, args.seconds, args.instructions)
        return
    sample = SAMPLE.read_text(encoding="utf-8")
    parse_game(sample)  # build the parsers once before timing
    lark_only(sample)
    print(f"Sample game ({count_actions([sample])} actions), one core:")
    rate("lark only", [sample], lark_only, args.seconds)
    rate("parse only", [sample], parse_only, args.seconds)
    rate("rules only", [sample], rules_only, args.seconds)
    rate("parse+validate", [sample], parse_and_validate, args.seconds)
    if args.sample_only:
        return
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
