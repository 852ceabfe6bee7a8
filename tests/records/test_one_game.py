"""one_game: the search that finds a file to be a single game says so only where cutting it
line by line (cut_games) gives that very game, the whole text."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.records.reader import cut_games, one_game, read_file, split_games

LINES = [b"---\n", b"--- \t\n", b"---\r\n", b"---x\n", b"----\n", b" ---\n", b"game: x\n",
         b"\n", b"7.Pc4g4/Pd6d1\n", b"---", b"abc", b"\r\n", b"1-0"]


def _whole(data: bytes) -> bool:
    games = list(cut_games(iter(io.BytesIO(data))))
    return len(games) == 1 and games[0].data == data and games[0].first_line == 1


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(LINES), max_size=9))
def test_one_game_only_where_cutting_gives_the_whole_text(lines):
    data = b"".join(lines)
    if one_game(data):
        assert _whole(data)


def test_the_forms_of_one_game_and_of_several():
    assert one_game(b"") and one_game(b"1.Bh11 Bh2,\n")
    assert one_game(b"---\ngame: a\n---\n7.Pc4g4\n")
    assert one_game(b"7.Pc4g4\n---\n")  # a front matter never closed belongs to its game
    assert not one_game(b"---\ngame: a\n---\n7.Pc4g4\n---\ngame: b\n---\n")
    assert not one_game(b"7.Pc4g4\n---\ngame: b\n---\n")  # a game before the front matter


def test_read_file_and_split_games_cut_as_before(tmp_path):
    two = "---\ngame: a\n---\n7.Pc4g4/Pd6d1\n---\ngame: b\n---\n1-0\n"
    one = "---\ngame: a\n---\n7.Pc4g4/Pd6d1\n"
    for text in (one, two, "7.Pc4g4\n" + two):
        path = tmp_path / "x.realm"
        path.write_text(text, encoding="utf-8")
        got = [(s.first_line, s.text) for s in read_file(path)]
        assert got == split_games(text)
        assert "".join(t for _, t in got).strip() in text
    assert [line for line, _ in split_games(two)] == [1, 5]
