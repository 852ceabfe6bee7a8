"""What the results add up to: points, Sonneborn-Berger, direct encounter, ranks and the
crosstable's cells, for one division (a Swiss event is one division).

The rules (``docs/tournaments.md``): a win 1, a draw ½, a loss 0, the pairing-allocated
bye 1. A game lost on time or forfeited by a withdrawal counts like any loss and is marked
(``+`` and ``-`` in the crosstable). In a round robin, a player who withdraws having
played fewer than half of his games has all his games struck: they count for nobody (as in
FIDE's rules), and show in brackets. Ties are broken by Sonneborn-Berger (each game's
points times the opponent's final score, summed; byes add nothing), then by direct
encounter (the points the tied players took from each other, used only when each of them
met every other), then by the starting rating, then by the starting number.

Points are counted in whole halves and Sonneborn-Berger in whole quarters (plain integers:
exact, and some five times faster than ``Fraction`` arithmetic on a 400-game event); they
are read as ``Fraction`` (``Row.points``), and become floats (exact in binary) only for
JSON.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

#: a result's points for White, in halves; Black's are 2 minus these
WHITE_HALVES = {"1-0": 2, "0-1": 0, "1/2-1/2": 1}
#: the crosstable's words for a player's halves in a game
CELL_TEXT = {2: "1", 1: "½", 0: "0"}


@dataclass(frozen=True, slots=True)
class Entrant:
    #: the starting number in the division (1: the highest seed)
    number: int
    name: str
    rating: float
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Board:
    """A game of the schedule, or a bye (``black`` None)."""

    round: int
    board: int
    white: int
    black: int | None
    #: the referee's game number (None for a bye)
    game: int | None = None
    #: '1-0', '0-1' or '1/2-1/2' once the game is over; None while in play (or a bye)
    result: str | None = None
    #: how it ended when that is marked: 'time' (the clock) or 'withdrawn'
    how: str | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    """One game (or bye) of a player, from his side."""

    round: int
    opponent: int | None
    colour: str | None  # 'w', 'b'; None for a bye
    #: '1', '½', '0', '+' (won by forfeit), '-' (lost by forfeit), '*' (in play), 'bye';
    #: in brackets when the game is struck
    text: str
    game: int | None
    #: the player's points in halves; None: in play, or struck
    halves: int | None
    board: int = 0


@dataclass(slots=True)
class Row:
    entrant: Entrant
    halves: int = 0
    quarters: int = 0  # Sonneborn-Berger
    direct_halves: int = 0
    played: int = 0
    rank: int = 0
    cells: list[Cell] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.entrant.number

    @property
    def points(self) -> Fraction:
        return Fraction(self.halves, 2)

    @property
    def sonneborn_berger(self) -> Fraction:
        return Fraction(self.quarters, 4)

    @property
    def direct(self) -> Fraction:
        return Fraction(self.direct_halves, 2)


def format_points(value: Fraction) -> str:
    """2 -> '2', 5/2 -> '2½', 1/2 -> '½'; quarters (Sonneborn-Berger) as decimals."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        whole = value.numerator // 2
        return f"{whole or ''}½"
    return f"{float(value):g}"


def struck_players(entrants: list[Entrant], boards: list[Board]) -> set[int]:
    """The withdrawn players whose games count for nobody: fewer than half of their games
    were played over the board (the rest were forfeited when they withdrew)."""
    struck = set()
    for e in entrants:
        if not e.withdrawn:
            continue
        mine = [b for b in boards if b.black is not None and e.number in (b.white, b.black)]
        played = sum(1 for b in mine if b.result is not None and b.how != "withdrawn")
        if 2 * played < len(mine):
            struck.add(e.number)
    return struck


def compute(entrants: list[Entrant], boards: list[Board], *,
            strike: bool = True) -> list[Row]:
    """The division's rows in rank order. ``strike``: apply the withdrawal rule (round
    robins; a Swiss event keeps every game)."""
    rows = {e.number: Row(e) for e in entrants}
    struck = struck_players(entrants, boards) if strike else set()
    # each counted game: (player, opponent, his halves)
    counted: list[tuple[int, int, int]] = []
    for b in sorted(boards, key=lambda b: (b.round, b.board)):
        if b.black is None:
            rows[b.white].cells.append(Cell(b.round, None, None, "bye", None, 2, b.board))
            rows[b.white].halves += 2
            continue
        off = b.white in struck or b.black in struck
        for me, other, colour in ((b.white, b.black, "w"), (b.black, b.white, "b")):
            if b.result is None:
                rows[me].cells.append(Cell(b.round, other, colour, "*", b.game, None, b.board))
                continue
            halves = WHITE_HALVES[b.result] if colour == "w" else 2 - WHITE_HALVES[b.result]
            text = CELL_TEXT[halves]
            if b.how in ("time", "withdrawn") and halves != 1:
                text = "+" if halves else "-"
            if off:
                rows[me].cells.append(Cell(b.round, other, colour, f"({text})", b.game, None,
                                           b.board))
                continue
            rows[me].cells.append(Cell(b.round, other, colour, text, b.game, halves, b.board))
            rows[me].halves += halves
            rows[me].played += 1
            counted.append((me, other, halves))
    for me, other, halves in counted:
        rows[me].quarters += halves * rows[other].halves
    ordered = sorted(rows.values(), key=lambda r: (-r.halves, -r.quarters))
    ranked: list[Row] = []
    i = 0
    while i < len(ordered):
        j = i
        while (j < len(ordered) and ordered[j].halves == ordered[i].halves
               and ordered[j].quarters == ordered[i].quarters):
            j += 1
        group = ordered[i:j]
        _direct_encounter(group, counted)
        group.sort(key=lambda r: (-r.direct_halves, -r.entrant.rating, r.number))
        ranked.extend(group)
        i = j
    for rank, row in enumerate(ranked, 1):
        row.rank = rank
    return ranked


def _direct_encounter(group: list[Row], counted: list[tuple[int, int, int]]) -> None:
    """The points each tied player took from the others of ``group``, when every two of
    them met (else the tie-break does not apply and stays 0 for all)."""
    for row in group:
        row.direct_halves = 0
    if len(group) < 2:
        return
    numbers = {r.number for r in group}
    met: set[frozenset[int]] = set()
    took: dict[int, int] = defaultdict(int)
    for me, other, halves in counted:
        if me in numbers and other in numbers:
            met.add(frozenset((me, other)))
            took[me] += halves
    if all(frozenset(pair) in met for pair in combinations(numbers, 2)):
        for row in group:
            row.direct_halves = took[row.number]
