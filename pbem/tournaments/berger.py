"""Round-robin schedules by the FIDE Berger tables (Handbook C.05, Annex 1).

For an even number of players ``n`` (an odd field gets a dummy ``n + 1``: whoever meets
it has the round off), players ``i`` and ``j`` below ``n`` meet in round ``r`` when
``i + j == r + 1`` modulo ``n - 1``; the player ``i`` with ``2i == r + 1`` meets ``n``.
Colours: ``n`` has White in even rounds; of two others, the lower number has White when
their sum is odd, the higher when it is even. Boards follow the printed tables: the game
of player ``n`` first, then outwards from it. This reproduces the published tables
(``tests/tournaments/test_berger.py`` checks them for 4, 6, 8 and 10 players).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Scheduled:
    round: int
    board: int
    white: int
    #: None: ``white`` has the round off (an odd field)
    black: int | None


def berger_rounds(players: int) -> list[list[tuple[int, int]]]:
    """The FIDE table for ``players`` (even): per round, its (white, black) pairs."""
    n = players
    if n < 2 or n % 2:
        raise ValueError(f"a Berger table needs an even number of players, not {n}")
    m = n - 1
    rounds = []
    for r in range(1, n):
        fixed = next(i for i in range(1, n) if (2 * i - (r + 1)) % m == 0)
        pairs = [(n, fixed) if r % 2 == 0 else (fixed, n)]
        for k in range(1, n // 2):
            a = (fixed - 1 + k) % m + 1
            b = (fixed - 1 - k) % m + 1
            low, high = min(a, b), max(a, b)
            pairs.append((low, high) if (low + high) % 2 else (high, low))
        rounds.append(pairs)
    return rounds


def round_robin(players: int, *, double: bool = False) -> list[Scheduled]:
    """Every game of a round robin of ``players`` (numbered from 1 by seed): each pair
    meets once, or twice with the colours swapped in the second cycle (rounds ``n`` to
    ``2n - 2``: the first cycle again, colours reversed, as FIDE prescribes)."""
    if players < 2:
        raise ValueError("a round robin needs two players at least")
    even = players + players % 2
    table = berger_rounds(even)
    cycles = [table, [[(b, w) for w, b in pairs] for pairs in table]] if double else [table]
    games = []
    number = 0
    for cycle in cycles:
        for pairs in cycle:
            number += 1
            board = 0
            for white, black in pairs:
                if even != players and even in (white, black):
                    games.append(Scheduled(number, 0, black if white == even else white, None))
                    continue
                board += 1
                games.append(Scheduled(number, board, white, black))
    return games


def divisions(count: int, size: int | None) -> list[int]:
    """How many players go into each division: at most ``size``, as even as can be, the
    larger divisions first (10 players in divisions of at most 4: 4, 3, 3)."""
    if size is None or count <= size:
        return [count]
    parts = -(-count // size)
    base, extra = divmod(count, parts)
    return [base + 1 if i < extra else base for i in range(parts)]
