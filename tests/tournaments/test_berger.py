"""The schedules against the FIDE Berger tables as printed (Handbook C.05, Annex 1)."""

from __future__ import annotations

import pytest

from pbem.tournaments.berger import berger_rounds, divisions, round_robin


def _table(text: str) -> list[list[tuple[int, int]]]:
    return [[tuple(int(n) for n in pair.split("-")) for pair in line.split()]
            for line in text.strip().splitlines()]


FIDE = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
}


@pytest.mark.parametrize("players", sorted(FIDE))
def test_the_printed_tables(players: int) -> None:
    assert berger_rounds(players) == _table(FIDE[players])


@pytest.mark.parametrize("players", range(2, 17))
def test_every_pair_once_and_colours_balanced(players: int) -> None:
    games = [g for g in round_robin(players) if g.black is not None]
    pairs = [frozenset((g.white, g.black)) for g in games]
    assert len(pairs) == len(set(pairs)) == players * (players - 1) // 2
    whites = [sum(1 for g in games if g.white == p) for p in range(1, players + 1)]
    blacks = [sum(1 for g in games if g.black == p) for p in range(1, players + 1)]
    for w, b in zip(whites, blacks, strict=True):
        assert abs(w - b) <= 1  # Berger: never more than one colour ahead
    for r in {g.round for g in games}:  # nobody plays twice in a round
        seated = [p for g in games if g.round == r for p in (g.white, g.black)]
        assert len(seated) == len(set(seated))


def test_five_players_double_round_robin() -> None:
    games = round_robin(5, double=True)
    assert max(g.round for g in games) == 10
    byes = [(g.round, g.white) for g in games if g.black is None]
    # player 6 of the six-player table is the round off: 1, 4, 2, 5, 3, then again
    assert byes == [(1, 1), (2, 4), (3, 2), (4, 5), (5, 3),
                    (6, 1), (7, 4), (8, 2), (9, 5), (10, 3)]
    first = {(g.white, g.black) for g in games if g.black and g.round <= 5}
    second = {(g.black, g.white) for g in games if g.black and g.round > 5}
    assert first == second and len(first) == 10
    for p in range(1, 6):  # four Whites and four Blacks each
        assert sum(g.white == p for g in games if g.black) == 4
        assert sum(g.black == p for g in games) == 4


def test_berger_refuses_an_odd_table() -> None:
    with pytest.raises(ValueError):
        berger_rounds(5)


def test_divisions_are_as_even_as_can_be() -> None:
    assert divisions(10, 4) == [4, 3, 3]
    assert divisions(8, 4) == [4, 4]
    assert divisions(7, None) == [7]
    assert divisions(3, 8) == [3]
