"""Where the floor of validating the sample game is: what each layer costs with the layers
under it taken away. Prints figures; asserts nothing.

Run: .venv/bin/python bench/bench_floor.py [--seconds S]

Issue 15 asks that the rules' share of parse+validate be at most half of the parse. This
bench shows, on the Featured Game's sample game, one core:

* ``lark only``: lark's own LALR parse into a tree, no transformer (the parse's floor);
* ``parse only``: pbem's reader, front matter to syntax objects;
* ``walk on a tape``: the record walker and the ``Game`` interface with the rules
  replaced by a tape of the answers they gave (every ``begin_turn``, ``resolve_action``
  and ``finish_turn`` returns what it returned before): the cost of the interface that
  every game shares, with no rules at all;
* ``rules only``: the real replay of the parsed record;
* ``immutable step``: what the design asks of every attempt at the least: one new board
  (a 144-square tuple with two squares changed), one new ``Position``, one ``Move`` and
  one ``Resolved``, times the attempts the sample game makes (actions plus the readings
  of its look-alike letters). Positions are immutable values because a game's history is
  a list of them (the referee stores one per turn and answers `moves` and takebacks from
  them); this is what that costs before any rule is checked.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lark import Lark  # noqa: E402

from pbem.notation.grammar import START_RULES  # noqa: E402
from pbem.records.reader import read_games  # noqa: E402
from pbem.records.replay import replay_game  # noqa: E402
from pbem.rules.game import Resolved  # noqa: E402
from pbem.rules.pieces import power  # noqa: E402
from pbem.rules.realm.actions import Move  # noqa: E402
from pbem.rules.realm.position import Phase, initial_position  # noqa: E402
from pbem.rules.registry import featured  # noqa: E402

SAMPLE = ROOT / "games" / "sample-game-2002.realm"
TAPED = ("begin_turn", "resolve_action", "finish_turn")


def per_game(fn: Callable[[], object], seconds: float) -> float:
    """Best of five rounds of ``fn`` in a loop, in ms per call."""
    best = float("inf")
    for _ in range(5):
        n = 0
        start = time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 5:
                break
        best = min(best, elapsed / n)
    return best * 1000


def taped_walk(game_text: Any) -> tuple[Callable[[], object], int]:
    """A replay whose rules answer from a tape; also the number of attempts made."""
    game = featured()
    tape: list[Any] = []

    def recorder(name: str) -> Callable[..., Any]:
        real = getattr(game, name)

        def record(*args: Any) -> Any:
            out = real(*args)
            tape.append(out)
            return out

        return record

    for name in TAPED:
        setattr(game, name, recorder(name))
    try:
        replay = replay_game(game_text)
        assert replay.valid, replay.error
    finally:
        for name in TAPED:
            delattr(game, name)
    # a written action with look-alike letters is attempted under several readings: count
    # the attempts (the resolvers' inner functions) by their names in a profiled replay
    attempts = [0]

    def count(frame: Any, event: str, _arg: Any) -> None:
        if event == "call" and frame.f_code.co_name in ("attempt", "_attempt_move"):
            attempts[0] += 1

    sys.setprofile(count)
    try:
        replay_game(game_text)
    finally:
        sys.setprofile(None)
    position = [0]

    def play(*_args: Any) -> Any:
        i = position[0]
        position[0] = i + 1
        return tape[i]

    def walk() -> object:
        position[0] = 0
        for name in TAPED:
            setattr(game, name, play)
        try:
            return replay_game(game_text)
        finally:
            for name in TAPED:
                delattr(game, name)

    # the resolvers' names are theirs to change: then count one attempt per action
    actions = sum(len(t.resolved) for t in replay.turns)
    return walk, max(attempts[0], actions)


def immutable_step(attempts: int) -> Callable[[], object]:
    start = initial_position()
    board = list(start.board)
    for s in range(0, 144, 7):
        board[s] = power(start.to_move)
    playing = start.with_board(tuple(board), phase=Phase.PLAY)
    moved = power(playing.to_move)

    def steps() -> object:
        pos = playing
        for i in range(attempts):
            b = list(pos.board)
            b[i % 144] = None
            b[(i + 1) % 144] = moved
            move = Move(i % 144, (i + 1) % 144)
            pos = pos.with_board(tuple(b), ply=pos.ply + 1)
            Resolved(move, (), pos.board)
        return pos

    return steps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = ap.parse_args()
    text = SAMPLE.read_text(encoding="utf-8")
    grammar = (ROOT / "grammar" / "realm.lark").read_text(encoding="utf-8")
    plain = Lark(grammar, parser="lalr", start=START_RULES, maybe_placeholders=False)
    (game_text,) = [src.game for src in read_games(text) if src.game is not None]
    walk, attempts = taped_walk(game_text)
    actions = sum(
        len(t.actions) for e in game_text.entries for t in (e.white, e.black) if t is not None
    )
    figures = {
        "lark only": per_game(lambda: plain.parse(text, start="game"), args.seconds),
        "parse only": per_game(lambda: [src.game for src in read_games(text)], args.seconds),
        "walk on a tape": per_game(walk, args.seconds),
        "rules only": per_game(lambda: replay_game(game_text), args.seconds),
        "immutable step": per_game(immutable_step(attempts), args.seconds),
    }
    print(f"Sample game ({actions} actions, {attempts} attempts with the look-alike readings), "
          "one core, best of 5:")
    for label, ms in figures.items():
        print(f"  {label:<16} {ms:7.3f} ms/game")
    half = figures["parse only"] / 2
    rules_core = figures["rules only"] - figures["walk on a tape"]
    print(f"  half the parse   {half:7.3f} ms/game: the most the rules may cost (issue 15)")
    print(f"  rules core       {rules_core:7.3f} ms/game = rules only - walk on a tape, "
          f"{rules_core / attempts * 1000:.1f} us an attempt")
    print(f"  allowed          {(half - figures['walk on a tape']) / attempts * 1000:7.1f} us an "
          f"attempt for the rules core; the immutable step alone is "
          f"{figures['immutable step'] / attempts * 1000:.1f} us")


if __name__ == "__main__":
    main()
