"""Every way the parser can refuse a text: one NotationError (or RecordError for the
front matter), never a lark exception, at the right line and column, in plain words."""

from __future__ import annotations

import ast
import re

import pytest
from lark.exceptions import LarkError

from pbem.errors import NotationError, PbemError, RecordError, Span
from pbem.notation.parse import parse_game, parse_movetext
from pbem.records.reader import read_games

# names of lark's terminals and internals, which a player must never see
_JARGON = re.compile(
    r"MOVENUM|BLACKNUM|SQUARE|POWER|ENFORCER|\bBASE\b|REARRANGE|CAPTURE|FACING|\bPASS\b"
    r"|SLASH|COMMA|LPAR|RPAR|RESULT|\bWINS\b|COMMENT|PAREN_NOTE|LABEL|LIST_MARKER"
    r"|FRONT_MATTER|\$END|__ANON|Token\(|Tree\(|lark|Unexpected"
)


def refuse(text: str, *, movetext: bool = False) -> PbemError:
    parse = parse_movetext if movetext else parse_game
    with pytest.raises(PbemError) as info:
        parse(text)
    exc = info.value
    assert not isinstance(exc, LarkError)
    # no lark exception hangs on it either
    assert exc.__cause__ is None
    assert exc.__suppress_context__ or not isinstance(exc.__context__, LarkError)
    assert exc.span is not None
    assert not _JARGON.search(exc.message), exc.message
    return exc


# (text, code, line, column, words the message must hold)
CASES = [
    # bad squares: a file beyond l, a rank beyond 12
    ("1.Pa13a1", "notation.syntax", 1, 4, "'a13' is not a square"),
    ("1.Ph5a13", "notation.syntax", 1, 6, "'a13' is not a square"),
    ("1.Pm4a4", "notation.syntax", 1, 4, "'m4' is not a square"),
    ("1.Bm4", "notation.syntax", 1, 4, "'m4' is not a square"),
    ("1.Pa0a2", "notation.syntax", 1, 4, "'a0' is not a square"),
    ("7.Pi10i6(Bh13)", "notation.syntax", 1, 11, "'h13' is not a square"),
    ("7.Pi10i6(xEz4)", "notation.syntax", 1, 12, "'z4' is not a square"),
    ("20.Rh5(Pg4,Pm6)", "notation.syntax", 1, 13, "'m6' is not a square"),
    ("1.Bh11 Bh2,\n 2.Be8 Bq5", "notation.syntax", 2, 9, "'q5' is not a square"),
    # unclosed comment: the error stands on the '{'
    ("1.Pa1a2 {abc", "notation.syntax", 1, 9, "never closed"),
    ("{abc\n1.Pa1a2", "notation.syntax", 1, 1, "never closed"),
    ("1.Pa1a2\n2.Pb1b2/Pc1c2 {never\n3.Pd1d2", "notation.syntax", 2, 15, "never closed"),
    # unclosed event list: at the end, or where the next entry begins
    ("1.Pa1a2(Bb2", "notation.end", 1, 12, "ends too soon"),
    ("1.Pa1a2(Bb2\n\n", "notation.end", 1, 12, "')'"),
    ("1.Pa1a2(Bb2\n2.Pa3a4(Bb5)", "notation.syntax", 2, 1, "unexpected '2.': expected ',' or ')'"),
    ("20.Rh5(Pg4,Pi6", "notation.end", 1, 15, "')'"),
    # a missing move number: at the start and between entries
    ("Pa1a2", "notation.syntax", 1, 1, "expected a move number like '7.'"),
    ("1.Pa1a2/Pb1b2 Pc1c2", "notation.syntax", 1, 15, "a move number like '7.'"),
    ("1.Pa1a2/Pb1b2\nPc1c2/Pd1d2", "notation.syntax", 2, 1, "a move number like '7.'"),
    ("1 .Pa1", "notation.syntax", 1, 1, "a move number like '7.'"),
    # after a turn's second move a comma could go on with it (lark's error is raised
    # after reductions, in a state that has forgotten it); after its first, as always
    ("15.Pj2f2/Pl4h4(Bh5),Pl5l12Bk11", "notation.syntax", 1, 27,
     "unexpected 'Bk11': expected a move number like '7.', ',', a result"),
    ("1.Pa1a2/Pb1b2,Pc1c2 (Bc3) Bk4", "notation.syntax", 1, 27,
     "unexpected 'Bk4': expected a move number like '7.', ',', a result"),
    ("1.Pa1a2/Pc1c2Bk4", "notation.syntax", 1, 14,
     "unexpected 'Bk4': expected a move number like '7.', a result"),
    # the text ends early
    (
        "1.",
        "notation.end",
        1,
        3,
        "the text ends too soon: expected a move like 'Pc10g10', a piece and its square like "
        "'Bh11', a Rearrangement like 'Rh5(...)' or 'pass'",
    ),
    ("1.Bh11 Bh2,\n2.\n\n", "notation.end", 2, 3, "ends too soon"),
    ("1.Pa1a2(xE", "notation.end", 1, 11, "ends too soon: expected a square (a1 to l12)"),
    ("1.Pa1a2(x", "notation.end", 1, 10, "expected 'B', 'P' or 'E'"),
    # "(Eb3)" is an event in the neutral syntax; the Featured Game wants a facing (its
    # resolver says so: tests/records/test_corrupted.py)
    ("1.Pa1a2(Eb3", "notation.end", 1, 12, "expected ',' or ')'"),
    ("1.Rh5", "notation.end", 1, 6, "expected '('"),
    # things that are not there to be read
    ("1.Pa1a2(Bb2,)", "notation.syntax", 1, 13, "unexpected ')'"),
    ("1.Pa1a2(Bb3,xAb3)", "notation.syntax", 1, 14, "expected 'B', 'P' or 'E' after 'x'"),
    ("1.Rh5()", "notation.syntax", 1, 7, "expected a piece and its square like 'Bh11' or an"),
    ("1.pa1a2", "notation.syntax", 1, 3, "cannot read 'pa1a2'"),
    # unknown characters
    ("1.Bh11 Bh2 %", "notation.syntax", 1, 12, "cannot read '%' here"),
    ("1.Pa1a2 @", "notation.syntax", 1, 9, "cannot read '@' here"),
    ("1.Pa1a2\n  #x", "notation.syntax", 2, 3, "cannot read '#x' here"),
    ("1.Pa1a2 \x00", "notation.syntax", 1, 9, "cannot read '\\x00' here"),
    ("1.Pa1a2 Pb1b2 ~", "notation.syntax", 1, 15, "cannot read '~'"),
    ("§", "notation.syntax", 1, 1, "cannot read '§'"),
]


@pytest.mark.parametrize(("text", "code", "line", "column", "words"), CASES)
def test_notation_errors(text, code, line, column, words):
    exc = refuse(text)
    assert isinstance(exc, NotationError)
    assert exc.code == code
    assert exc.span == Span(line, column)
    assert words in exc.message
    assert str(exc) == exc.message
    # the span stands on the offending text, or just after the last of the text
    lines = text.split("\n")
    if code == "notation.end":
        last = text.rstrip().split("\n")
        assert (line, column) == (len(last), len(last[-1]) + 1)
    else:
        assert not lines[line - 1][column - 1].isspace()
    quoted = re.match(r"(?:cannot read |unexpected )?'([^']+)'", exc.message)
    if quoted and code == "notation.syntax":
        word = ast.literal_eval("'" + quoted.group(1) + "'")
        assert lines[line - 1][column - 1 :].startswith(word)


@pytest.mark.parametrize(("text", "code", "line", "column", "words"), CASES)
def test_the_same_errors_in_movetext_alone(text, code, line, column, words):
    exc = refuse(text, movetext=True)
    assert (exc.code, exc.span) == (code, Span(line, column))


@pytest.mark.parametrize(("text", "code", "line", "column", "words"), CASES)
def test_errors_after_front_matter_count_its_lines(text, code, line, column, words):
    exc = refuse("---\ngame: x\n---\n" + text)
    assert (exc.code, exc.span) == (code, Span(line + 3, column))


def test_error_span_on_the_third_line():
    text = (
        "1.Bh11 Bh2, 2.Be8 Be5,\n"
        " 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4, Pc9,\n"
        " 7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2),Pg3d3(Ed2Z)"
    )
    exc = refuse(text)
    assert exc.span == Span(3, 48)
    assert "expected a direction" in exc.message and "not 'Z)'" in exc.message
    assert text.split("\n")[2][47] == "Z"


@pytest.mark.parametrize(("text", "column"), [("9.Pg9l9 (Figure 6", 9), ("(Figure 6\n1.Bh11", 1)])
def test_unclosed_note(text, column):
    exc = refuse(text)
    assert exc.span == Span(1, column)
    assert "never closed" in exc.message


# -- front matter ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("---\ngame: [1,\n---\n1.Bh11", 3, 1, "did not find expected node content"),
        ("---\ngame: x\n  y: z\n---\n1.Bh11", 3, 4, "mapping values are not allowed"),
        ("---\n\t- x\n---\n", 2, 1, "cannot start any token"),
        ('---\nwhite: "a\\x"\n---\n', 2, 12, "hexdecimal"),
        ("---\n? [a]\n: b\n---\n", 2, 3, "unhashable key"),
        ("---\na: !!python/object:os.system x\n---\n", 2, 4, "constructor"),
    ],
)
def test_bad_yaml_front_matter(text, line, column, words):
    exc = refuse(text)
    assert isinstance(exc, RecordError)
    assert exc.code == "record.yaml"
    assert exc.span == Span(line, column)
    assert exc.message.startswith("the front matter is not valid YAML: ")
    assert words in exc.message


@pytest.mark.parametrize("inner", ["- a\n- b", "just some words", "42", "[white, black]"])
def test_front_matter_that_is_not_a_mapping(inner):
    exc = refuse(f"---\n{inner}\n---\n1.Bh11")
    assert isinstance(exc, RecordError)
    assert exc.code == "record.front-matter"
    assert exc.span == Span(1, 1)
    assert "must be a mapping" in exc.message


def test_front_matter_not_at_the_start_is_not_front_matter():
    exc = refuse("1.Bh11\n---\ngame: x\n---\n")
    assert isinstance(exc, NotationError)
    assert exc.span == Span(2, 1)


def test_front_matter_never_closed():
    exc = refuse("---\ngame: x\n1.Bh11")
    assert isinstance(exc, NotationError)
    assert exc.span == Span(1, 1)


# -- errors in a file of several games ----------------------------------------------------------
FILE = """\
---
game: good
---
1.Bh11 Bh2
---
game: broken
---
1.Bh11 Bh2,
 2.Be8 Bm5
---
game: bad yaml
white: [
---
1.Bh11
---
game: good again
---
1.Bh11
"""


def test_errors_in_later_games_count_lines_from_the_top_of_the_file():
    sources = list(read_games(FILE, "f.realm"))
    assert len(sources) == 4
    good, broken, bad_yaml, again = sources
    assert good.error is None and again.error is None
    assert good.game.entries[0].span == Span(4, 1)
    assert again.game.entries[0].span == Span(18, 1)
    assert broken.game is None
    assert isinstance(broken.error, NotationError)
    assert broken.error.span == Span(9, 9)
    assert "'m5' is not a square" in broken.error.message
    assert bad_yaml.game is None
    assert isinstance(bad_yaml.error, RecordError)
    assert bad_yaml.error.code == "record.yaml"
    assert bad_yaml.error.span.line == 13
    assert FILE.split("\n")[12] == "---"


def test_end_of_text_in_a_later_game_is_placed_in_that_game():
    text = "---\ngame: a\n---\n1.Bh11\n---\ngame: b\n---\n1.Bh11 Bh2,\n2.\n"
    first, second = list(read_games(text))
    assert first.error is None
    assert second.error.code == "notation.end"
    assert second.error.span == Span(9, 3)
