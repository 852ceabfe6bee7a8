"""Readings decided by the rest of the record (issue 15, item 3).

Where a look-alike letter has two or more legal readings at its turn, the reader
keeps the one under which the rest of the record stays legal, with a warning naming
the others; when more than one, or none, carries the record to its end, it is an
error listing them. The search is bounded by ``READING_BUDGET`` actions played.

RECORD is a game made by ``pbem generate --seed 5`` (its sixth), kept here as text.
At 13b Black's Power goes f12 to i12; written ``Pf12I12`` it may be read as
``Pf12i12`` or ``Pf12l12``, both legal then; 18b moves the Power on i12 again.
"""

from __future__ import annotations

import re

from pbem.errors import Span
from pbem.records.reader import read_games
from pbem.records.replay import READING_BUDGET, Replay, replay_game

RECORD = """\
---
game: Random game 5-5
ruleset: featured
white: Random White
black: Random Black
source: pbem generate --seed 5
result: 0-1
---
1.Bk8 Bb2, 2.Bh5 Be5, 3.Be11 Bh8, 4.Pk7 Pi7, 5.Pf11 Pb3, 6.Pg6 Pe4
7.Pg6d6/Pe4g4,Pi7i5
8.Pf11f5/Pb3b12(Bb11)
9.Pk7h7/Pb12e12
10.Pd6g6(Eg5W),Pf5f10(Ed12E)/Pe12k12(Bk11)
11.Pg6g8,Eg5g7(xBh8)/Pk12f12
12.Pg8g10(Bh11),Ph7h10(Ei10E),Eg7c7/Pi5i9(Bh8),Pg4a4(Bb5)
13.Ph10h9,Ei10k10,Pg10g7/Pf12i12
14.Pf10f6/Pa4a9(Bb8)
15.Ed12d4(xBe5,xEd4)/Pi9i5
16.Ph9f9(Be8)/Pa9d9
17.Pg7g10(Ei11N)/Pi5l5(Bk5)
18.Pf9h9/Pl5l11,Pi12k12
19.Ph9l9(El7E)/Pd9d11
20.Pg10b10/Pk12f12
21.Ec7c11(xBb11,xEc11)/Pd11d9,Pf12f9
22.Pf6j6,El7l5(xBk5,xEl5)/Pd9d6(Be5)
23.Pl9l6(Bk5)/Pd6d12,Pf9f10
24.Pj6j1(Bk2),Pl6h6(Eg4N)/Pf10f3(Be2)
25.Pb10j10/Pf3f9,Pd12d9
26.Eg4j4,Pj10j5/Pf9l9,Pd9h9(Eg9E)
27.Pj5j12/Rk8(Pl7)
28.Ej4j10/Ph9h10,Eg9k9(xBk8,xEk9)
29.Pj12a12(Bb11)/Rk8(Pk7,Ej9U)
30.Pa12f12(Ed12E)/Rk8(Pj9,Ek9U)
31.Ph6h7/Pl11l6
32.Pf12k12,Ed12j12(xBk11,xEj12)/Ph10b10
33.Rh11(Eh12S)/Pl6l8(Bk8)
0-1
"""
AMBIGUOUS = RECORD.replace("/Pf12i12\n", "/Pf12I12\n")


def replay(text: str, **kw) -> Replay:
    (source,) = list(read_games(text))
    assert source.game is not None, source.error
    return replay_game(source.game, **kw)


def test_the_record_as_generated_is_valid():
    result = replay(RECORD)
    assert result.valid and result.warnings == [] and result.result == "0-1"


def test_the_rest_of_the_record_decides_between_two_legal_readings():
    result = replay(AMBIGUOUS)
    assert result.valid, result.error
    assert result.result == "0-1" and len(result.turns) == 66
    (w,) = result.warnings
    assert (w.code, w.turn, w.span) == ("repair.square", "13b", Span(16, 30))
    assert w.message.startswith("read 'Pf12I12' as 'Pf12i12'; 'Pf12l12' would be legal here too")
    assert "the rest of the record is legal only under this reading" in w.message
    # the same position as the record written plainly
    assert result.final == replay(RECORD).final


def test_more_than_one_reading_carrying_the_record_to_its_end_is_an_error():
    # cut after 13b: both readings leave an unfinished, legal record
    text = AMBIGUOUS[: AMBIGUOUS.index("14.")].replace("result: 0-1", "result: '*'") + "*\n"
    result = replay(text)
    assert not result.valid and result.error is not None
    assert (result.error.code, result.error.turn, result.error.span) == (
        "notation.ambiguous", "13b", Span(16, 26),
    )
    assert "'Pf12i12' or 'Pf12l12'" in result.error.message
    assert "more than one of these carries the record to its end" in result.error.message
    assert len(result.turns) == 25  # every turn before the ambiguous one stands


def test_no_reading_carrying_the_record_to_its_end_is_an_error_saying_where_each_breaks():
    # 20b now moves k12 to f11, no straight line: the record breaks under either reading
    text = AMBIGUOUS.replace("20.Pg10b10/Pk12f12", "20.Pg10b10/Pk12f11")
    result = replay(text)
    assert not result.valid and result.error is not None
    assert (result.error.code, result.error.turn) == ("notation.ambiguous", "13b")
    message = result.error.message
    assert "under none of them is the rest of the record legal" in message
    assert re.search(r"under 'Pf12i12' it breaks at 20b \(.+\)", message), message
    assert re.search(r"under 'Pf12l12' it breaks at 18b \(there is no piece on i12\)", message)


def test_strict_mode_refuses_the_ambiguity_without_searching():
    result = replay(AMBIGUOUS, strict=True)
    assert not result.valid and result.error is not None
    assert (result.error.code, result.error.turn) == ("notation.ambiguous", "13b")
    assert "more than one of these is legal" in result.error.message


def _every_i_and_l_upper_case(text: str) -> str:
    head, body = text.split("---\n")[1:]
    body = re.sub(r"(?<=[A-Za-z0-9])([il])(?=\d)", lambda m: m.group(1).upper(), body)
    return f"---\n{head}---\n{body}"


def test_a_record_of_many_ambiguities_is_decided_within_the_bound():
    # 19 actions of this record are written with look-alikes; the position decides all but
    # 13b, which the rest of the record decides
    text = _every_i_and_l_upper_case(RECORD)
    result = replay(text)
    assert result.valid, result.error
    assert result.final == replay(RECORD).final
    repairs = [w for w in result.warnings if w.code == "repair.square"]
    assert len(repairs) == 19
    decided = [w.turn for w in repairs if "legal only under this reading" in w.message]
    assert decided == ["13b"]


def test_the_search_stops_at_its_bound_with_a_clear_error():
    assert READING_BUDGET == 20_000
    text = _every_i_and_l_upper_case(RECORD)
    # a walk of this record plays about 100 actions; deciding 13b takes two more walks
    # after the plain one (which the bound does not count), the second breaking early
    assert replay(text, budget=200).valid
    result = replay(text, budget=90)
    assert not result.valid and result.error is not None
    assert result.error.code == "notation.ambiguous"
    assert "took more than 90 actions: write the squares plainly" in result.error.message
    # the error is at the first ambiguity, with every turn before it kept
    first = next(w for w in replay(text).warnings if "would be legal here too" in w.message)
    assert result.error.turn == first.turn
