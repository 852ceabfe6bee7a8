"""One file of many games: cut in one pass over its lines (linear, streaming), and shared
by every worker. Work is counted, never timed (bench/bench_bigfile.py has the figures)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.records.batch import BatchOptions, check_file, check_pieces, plan_pieces
from pbem.records.reader import cut_games, game_ranges, read_file, read_games, split_games
from pbem.records.validate import GameReport

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "games" / "sample-game-2002.realm").read_text()
WORKED = (ROOT / "games" / "worked-example-2002.realm").read_text()
BROKEN = SAMPLE.replace("Pi10i6(Bh5)", "Pi10h10(Bh5)")


class Counted:
    """The lines of a text, counting how many were asked for."""

    def __init__(self, text: str, then: Iterator[bytes] | None = None) -> None:
        self.lines = itertools.chain(text.encode().splitlines(keepends=True), then or ())
        self.taken = 0

    def __iter__(self) -> Iterator[bytes]:
        for line in self.lines:
            self.taken += 1
            yield line


def _explode() -> Iterator[bytes]:
    raise AssertionError("read past the game that was asked for")
    yield b""  # pragma: no cover


@pytest.mark.parametrize("games", [10, 100, 1000])
def test_cutting_reads_every_line_once(games):
    """The work is one step per line, however many games: linear, not quadratic."""
    text = (SAMPLE + WORKED) * games
    lines = Counted(text)
    cut = list(cut_games(lines))
    assert len(cut) == 2 * games
    assert lines.taken == text.count("\n")
    assert b"".join(raw.data for raw in cut) == text.encode()
    assert [raw.first_line for raw in cut[:3]] == [1, 1 + SAMPLE.count("\n"),
                                                   1 + (SAMPLE + WORKED).count("\n")]


def test_a_game_is_handed_on_before_the_rest_of_the_file_is_read():
    """Streaming: the first game comes out while the rest is unread (memory stays flat)."""
    lines = Counted(SAMPLE + WORKED, then=_explode())
    first = next(cut_games(lines))
    assert first.data.decode() == SAMPLE
    # and the next game's front matter, which closes the first game
    front_matter = WORKED[: WORKED.index("\n---\n") + 5].count("\n")
    assert lines.taken == SAMPLE.count("\n") + front_matter


def test_the_cut_is_the_same_as_the_one_of_the_front_matter_pattern():
    text = "1.Bh11\n---\ngame: B\n---\n1.Bh2\n---\nnever closed\n1.Bh5\n"
    assert split_games(text) == [(1, "1.Bh11\n"), (2, "---\ngame: B\n---\n1.Bh2\n"
                                                      "---\nnever closed\n1.Bh5\n")]
    assert split_games("") == [(1, "")]
    assert split_games("\n\n---\na: 1\n---\n") == [(3, "---\na: 1\n---\n")]
    assert split_games("---\r\na: 1\r\n--- \r\n1.Bh2") == [(1, "---\r\na: 1\r\n--- \r\n1.Bh2")]


def test_a_latin1_game_warns_where_it_is_and_leaves_the_others_alone(tmp_path):
    big = tmp_path / "mixed.realm"
    latin = SAMPLE.replace("Sample Game", "Sämple").encode("latin-1")
    big.write_bytes(SAMPLE.replace("Sample Game", "Smörgås").encode() + latin)
    first, second = read_file(big)
    assert first.game.headers["game"] == "Smörgås" and not first.warnings
    assert second.game.headers["game"] == "Sämple"
    (warning,) = second.warnings
    assert warning.code == "record.encoding"
    assert warning.span.line == SAMPLE.count("\n") + 2


def _big(tmp_path: Path, copies: int) -> Path:
    path = tmp_path / "big.realm"
    path.write_text((SAMPLE + BROKEN + WORKED) * copies)
    return path


def test_ranges_cover_the_file_with_whole_games(tmp_path):
    big = _big(tmp_path, 20)
    ranges = list(game_ranges(big, 4096))
    assert len(ranges) > 5
    assert ranges[0].start == 0 and ranges[-1].end == big.stat().st_size
    assert all(a.end == b.start for a, b in itertools.pairwise(ranges))
    assert sum(r.games for r in ranges) == 60
    whole = [(s.index, s.first_line, s.text) for s in read_file(big)]
    pieces = [(s.index, s.first_line, s.text) for r in ranges
              for s in read_file(big, r.start, r.end, first_line=r.first_line,
                                 first_index=r.first_index)]
    assert pieces == whole
    assert whole == [(s.index, s.first_line, s.text)
                     for s in read_games(big.read_text(), str(big))]


def where(report: GameReport) -> str:
    """A formatter that says which process validated the game."""
    return f"{report.index} {report.valid} {report.source.first_line} {os.getpid()}\n"


def test_one_big_file_uses_every_worker_and_keeps_its_order(tmp_path):
    big = _big(tmp_path, 12)
    pieces = list(plan_pieces([big], size=2048))
    assert len(pieces) >= 8 and [p.part for p in pieces] == list(range(len(pieces)))
    results = list(check_pieces(pieces, BatchOptions(where), jobs=2))
    lines = [line.split() for r in results for line in r.text.splitlines()]
    assert [int(x[0]) for x in lines] == list(range(36))
    assert len({x[3] for x in lines}) == 2, "both workers validated games of the one file"
    alone = check_file(big, BatchOptions(where))
    assert [x[:3] for x in lines] == [x.split()[:3] for x in alone.text.splitlines()]
    assert (sum(r.valid for r in results), sum(r.invalid for r in results)) == (24, 12)


def test_validate_counts_one_file_of_many_pieces_as_one_file(tmp_path, capsys):
    from pbem.cli import main

    big = _big(tmp_path, 40)  # over 32 KB: cut into pieces
    assert len(list(plan_pieces([big]))) > 1
    assert main(["validate", "-q", "--jobs", "2", str(big)]) == 1
    _, err = capsys.readouterr()
    assert "120 games in 1 file: 80 valid, 40 invalid" in err
