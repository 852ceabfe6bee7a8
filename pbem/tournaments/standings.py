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

Points are kept as ``Fraction`` so that halves and the quarters of Sonneborn-Berger stay
exact; they become floats (exact in binary) only for JSON.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

HALF = Fraction(1, 2)
#: a result's points for White; Black's are 1 minus these
WHITE_POINTS = {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": HALF}


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
    points: Fraction | None  # None: in play, or struck
    board: int = 0


@dataclass(slots=True)
class Row:
    entrant: Entrant
    points: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    direct: Fraction = Fraction(0)
    played: int = 0
    rank: int = 0
    cells: list[Cell] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.entrant.number


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
    # each counted game: (player, opponent, points)
    counted: list[tuple[int, int, Fraction]] = []
    for b in sorted(boards, key=lambda b: (b.round, b.board)):
        if b.black is None:
            rows[b.white].cells.append(Cell(b.round, None, None, "bye", None, Fraction(1),
                                            b.board))
            rows[b.white].points += 1
            continue
        off = b.white in struck or b.black in struck
        for me, other, colour in ((b.white, b.black, "w"), (b.black, b.white, "b")):
            if b.result is None:
                rows[me].cells.append(Cell(b.round, other, colour, "*", b.game, None, b.board))
                continue
            pts = WHITE_POINTS[b.result] if colour == "w" else 1 - WHITE_POINTS[b.result]
            text = format_points(pts) if pts else "0"
            if b.how in ("time", "withdrawn") and pts != HALF:
                text = "+" if pts else "-"
            if off:
                rows[me].cells.append(Cell(b.round, other, colour, f"({text})", b.game, None,
                                           b.board))
                continue
            rows[me].cells.append(Cell(b.round, other, colour, text, b.game, pts, b.board))
            rows[me].points += pts
            rows[me].played += 1
            counted.append((me, other, pts))
    for me, other, pts in counted:
        rows[me].sonneborn_berger += pts * rows[other].points
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.sonneborn_berger))
    ranked: list[Row] = []
    i = 0
    while i < len(ordered):
        j = i
        while (j < len(ordered) and ordered[j].points == ordered[i].points
               and ordered[j].sonneborn_berger == ordered[i].sonneborn_berger):
            j += 1
        group = ordered[i:j]
        _direct_encounter(group, counted)
        group.sort(key=lambda r: (-r.direct, -r.entrant.rating, r.number))
        ranked.extend(group)
        i = j
    for rank, row in enumerate(ranked, 1):
        row.rank = rank
    return ranked


def _direct_encounter(group: list[Row], counted: list[tuple[int, int, Fraction]]) -> None:
    """The points each tied player took from the others of ``group``, when every two of
    them met (else the tie-break does not apply and stays 0 for all)."""
    for row in group:
        row.direct = Fraction(0)
    if len(group) < 2:
        return
    numbers = {r.number for r in group}
    met: set[frozenset[int]] = set()
    took: dict[int, Fraction] = defaultdict(Fraction)
    for me, other, pts in counted:
        if me in numbers and other in numbers:
            met.add(frozenset((me, other)))
            took[me] += pts
    if all(frozenset(pair) in met for pair in combinations(numbers, 2)):
        for row in group:
            row.direct = took[row.number]
