"""The notation is read in linear time (issue 22, part 2), proved by counting, never timing.

Each hostile text is read at N and at 10N; the tokenizer's work (tokens handed out and
characters looked at by scans that may fail: ``lexer.Work``) must grow ten times, not a
hundred. The parser's work goes by the tokens, which are counted too. A text that
breaks is read up to where it breaks, so its error costs the same bounded work.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest

from pbem.errors import PbemError
from pbem.notation.lexer import MAX_DEPTH, Work
from pbem.notation.parse import parse_game, parse_movetext

N = 400

#: name -> the text of size n
HOSTILE: dict[str, Callable[[int], str]] = {
    # the quadratic line: moves packed with commas and no events at the end
    "long move line": lambda n: "1." + "Pa1a2," * n,
    "long move line, events at the end": lambda n: "1." + "Pa1a2," * n + "Pa1a2(Bh5)",
    "long line, an event list apart at the end": lambda n: "1." + "Pa1a2," * n + "Pb1b2 (Bh5)",
    "long packed entry": lambda n: "1." + "Pa1a2," * n + "Pa1a2/" + "Pb1b2," * n + "Pb1b2",
    "long packed entry, broken at the end": lambda n: "1." + "Pa1a2," * n + "Pa1a2/Pb1b2,Q",
    "long Black half after a slash": lambda n: "1.Pa1a2/" + "Pb1b2," * n + "(",
    "deep parentheses": lambda n: "7.Pa1a2" + "(" * n,
    "parentheses, each opened and never closed": lambda n: "7.Pa1a2 " + "(Figure " * n,
    "long event list": lambda n: "7.Pa1a2(" + ",".join(["xBb5"] * n) + ")",
    "long event list, never closed": lambda n: "7.Pa1a2(" + ",".join(["xBb5"] * n),
    "long event list written apart": lambda n: "7.Pa1a2 (" + ", ".join(["xBb5"] * n) + ")",
    "long Rearrangement": lambda n: "7.Rh5(" + ",".join(["Pg4"] * n) + ")",
    "many set-up pairs": lambda n: " ".join(f"{i}.Bh11 Bh2," for i in range(1, n + 1)),
    "long comment": lambda n: "1.Pa1a2 {" + "x" * (10 * n) + "}",
    "comment never closed": lambda n: "1.Pa1a2 {" + "x" * (10 * n),
    "many comments": lambda n: "1.Pa1a2 " + "{x} " * n,
    "many marks": lambda n: "1.Pa1a2" + "!" * n,
    "nested variations": lambda n: "1.Pa1a2 " + "[1.Pb1b2 " * n + "]" * n,
    "variations never closed": lambda n: "1.Pa1a2 " + "[1.Pb1b2 " * min(n, MAX_DEPTH - 1),
    "brackets never opened": lambda n: "1.Pa1a2 " + "]" * n,
    "many variations": lambda n: "1.Pa1a2 " + "[1.Pb1b2] " * n,
    "letters that are almost a label": lambda n: "1.Pa1a2 " + "BlI" * n,
    "a run of letters": lambda n: "1." + "a" * (10 * n),
    "commas and white space": lambda n: "1.Pa1a2," + " " * (10 * n) + "Pb1b2",
    "long front matter never closed": lambda n: "---\n" + "a: b\n" * n,
    "front matter fences": lambda n: "---\n" * n,
    "move numbers": lambda n: "1." * n,
    "digits": lambda n: "1" * (10 * n),
    "squares after a piece": lambda n: "1.P" + "a1" * n,
}


def _work(text: str, read: Callable[[str], object]) -> int:
    Work.reset()
    with contextlib.suppress(PbemError):  # a clear error, after bounded work
        read(text)
    return Work.total()


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("read", [parse_movetext, parse_game], ids=["movetext", "game"])
def test_ten_times_the_text_is_ten_times_the_work(name: str, read: Callable[[str], object]):
    make = HOSTILE[name]
    small, large = _work(make(N), read), _work(make(10 * N), read)
    assert small > 0
    assert large <= 12 * small, (name, small, large)


def test_the_work_counts_what_a_long_line_costs():
    """The counter is no constant: the long line's work grows with it (a test above that
    passed with a counter that counts nothing would prove nothing)."""
    make = HOSTILE["long move line"]
    assert _work(make(10 * N), parse_movetext) >= 5 * _work(make(N), parse_movetext)


def test_variations_nested_too_deep_are_refused_clearly():
    text = "1.Pa1a2 " + "[1.Pb1b2 " * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5)
    with pytest.raises(PbemError) as caught:
        parse_movetext(text)
    assert f"more than {MAX_DEPTH} deep" in caught.value.message
    assert caught.value.span.column == len("1.Pa1a2 ") + 9 * MAX_DEPTH + 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1.Pa1a2 [1.Pb1b2", "the text ends too soon"),
        ("1.Pa1a2 ]", "closes no variation"),
        ("1.Pa1a2 {a comment", "never closed"),
        ("1.Pa1a2 [1.Pb1b2 {x]", "never closed"),
    ],
)
def test_unbalanced_brackets_are_clear_errors(text: str, words: str):
    with pytest.raises(PbemError) as caught:
        parse_movetext(text)
    assert words in caught.value.message
