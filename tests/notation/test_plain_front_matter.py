"""The plain ``key: value`` front matter read without YAML is exactly what YAML reads.

``plain_front_matter`` either gives the mapping YAML would give (same keys in the
same order, same values of the same types) or None (YAML reads it then): compared
here over the forms records use, and over many generated ones.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import RecordError, Span
from pbem.notation.plain_front_matter import plain_front_matter
from pbem.notation.transform import TEXT_KEYS, load_front_matter, yaml_front_matter

SPAN = Span(1, 1)


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same type, key order included (NaN equal to NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _yaml(inner: str) -> Any:
    try:
        return yaml_front_matter(inner, SPAN)
    except RecordError as exc:
        return exc


GENERATED = (
    "game: Random game 3-00017\nruleset: featured\nwhite: Random White\n"
    "black: Random Black\nsource: pbem generate --seed 3\nresult: 1-0"
)

#: forms read without YAML, each the same as YAML's reading
PLAIN = [
    GENERATED,
    "result: *",  # PGN's unfinished result: quoted before YAML reads it
    "result: 0-1\nresult2: 1/2-1/2\nr3: ½-½",
    "date: 1999-03-04",
    "date: 2001-12-14 21:59:43.10 -5",
    "date: 2001-12-14t21:59:43.10-05:00",
    "round: 3\nboard: 0x1f\nold: 012\nbig: 1_000\nclock: 12:30\nplus: +1",
    "rating: 1.5\nhigh: .inf\nnone: .nan\ntext: 1e3\nexp: 1.0e+3",
    "checkpoint: yes\ndouble: Off\nx: true\nnothing: ~\nalso: null",
    "white: No\nblack: yes\nevent: ~\nsite: null\nsource: off\ngame: Y",
    "white: @ann\nblack: &bob\nevent: `quoted`\nsite: %d",
    "event: Abstract Games: issue 9\nsite: Realm Club:",
    "white: O'Brien\nblack: a \"b\" c\nevent: Cup, round 3 [final] {x}",
    "event: a#b\nsite: 50% off!\nsource: x & y * z",
    "white: Ærø Ünal\nblack: 王\nevent: ♞ cup 🎲",
    "white: a  b   \nblack:    c",
    "white: x\u00a0",
    "Key_1-x: v",
]

#: forms left to YAML (None), whatever YAML makes of them
NOT_PLAIN = [
    "# a comment\nwhite: a",
    "white: a # a comment",
    "white: 'quoted'",
    'white: "quoted"',
    "white: [a, b]",
    "white: {a: 1}",
    "white: |\n  text",
    "white: >\n  text",
    "white: - a",
    "round: -3",  # a value starting with '-' is YAML's to read
    "low: -.inf",
    "white: !tag a",
    "white: ? a",
    "white:\ta",
    "white: a\t",
    "white: a\n\nblack: b",
    "white: a\nwhite: b",
    "yes: a",
    "null: a",
    "  white: a",
    "white:a",
    "white:",
    "white: \u00a0a",
    "white: a\ufeff",
    "white: a\x07",
    "<<: a",
    "k: =",
    "k: <<",
    "- a",
    "...",
]


@pytest.mark.parametrize("inner", PLAIN)
def test_plain_forms_are_read_as_yaml_reads_them(inner):
    plain = plain_front_matter(inner, TEXT_KEYS)
    assert plain is not None
    assert _same(plain, _yaml(inner)), (plain, _yaml(inner))


@pytest.mark.parametrize("inner", NOT_PLAIN)
def test_other_forms_are_left_to_yaml(inner):
    assert plain_front_matter(inner, TEXT_KEYS) is None


def test_values_keep_their_types():
    got = plain_front_matter(
        "date: 1999-03-04\nround: 3\nrating: 1.5\ncheckpoint: yes\nwhite: No\nresult: *",
        TEXT_KEYS,
    )
    assert got == {"date": datetime.date(1999, 3, 4), "round": 3, "rating": 1.5,
                   "checkpoint": True, "white": "No", "result": "*"}


def test_a_generated_record_is_read_without_yaml_and_as_before():
    block = f"---\n{GENERATED}\n---\n"
    assert plain_front_matter(GENERATED, TEXT_KEYS) is not None
    assert load_front_matter(block, SPAN) == {
        "game": "Random game 3-00017", "ruleset": "featured", "white": "Random White",
        "black": "Random Black", "source": "pbem generate --seed 3", "result": "1-0",
    }


def test_a_yaml_error_still_names_its_line_and_column():
    with pytest.raises(RecordError) as info:
        load_front_matter("---\nwhite: a\nblack: [b\n---\n", Span(10, 1))
    assert info.value.code == "record.yaml"
    assert info.value.span is not None and info.value.span.line > 10


# -- generated forms --------------------------------------------------------------------
_KEYS = st.one_of(
    st.sampled_from(["game", "white", "black", "event", "site", "source", "result",
                     "ruleset", "date", "round"]),
    st.sampled_from(["yes", "No", "on", "null", "y", "n", "_", "true", "Null", "OFF", "~",
                     "1", "a b", "-k", "x:y", "k\u00e9"]),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,8}", fullmatch=True),
)
#: pieces of values: what records write, and what YAML reads otherwise
_WORDS = st.sampled_from([
    "", "1-0", "0-1", "1/2-1/2", "½-½", "*", "&a", "@ann", "`x`", "%x", "!x", "'q'", '"q"',
    "[1, 2]", "{a: 1}", "|", ">", "#", "-", "- x", "?", "? x", ":", ": x", "~", "null",
    "yes", "No", "ON", "off", "True", "y", "n", "=", "<<", "1999-03-04",
    "2001-12-14 21:59:43.10 -5", "2001-12-14t21:59:43.10-05:00", "12", "012", "0x1F",
    "0b101", "0o17", "1_000", "12:30", "190:20:30", "+1", "-3", "1.5", ".5", "1e3",
    "1.0e+3", ".inf", "-.Inf", ".NaN", "Random game 3-00017", "pbem generate --seed 3",
    "Abstract Games: issue 9", "Realm Club:", "a: b", "O'Brien", "a # b", "a#b", "a, b",
    "[b]", "{c}", "é", "王", "🎲", "\u00a0", "\ufeff", "\u3000", "\x07", "\t", " ", "  ",
    "\\", "\\n", "'", '"', "Ann", "Bob Smith", "x",
])
#: pieces that keep a value plain, or quoted before YAML reads it
_PLAIN_WORDS = st.sampled_from([
    "1-0", "0-1", "1/2-1/2", "½-½", "*", "&a", "@ann", "`x`", "%x", "~", "null", "yes", "No",
    "ON", "True", "y", "1999-03-04", "2001-12-14 21:59:43.10 -5", "12", "012", "0x1F",
    "0b101", "1_000", "12:30", "+1", "1.5", ".5", "1e3", ".inf", ".NaN", "Abstract Games:",
    "issue 9", "Club:", "O'Brien", 'a"b', "a#b", "a, b", "[b]", "{c}", "é", "王", "🎲",
    "Ann", "x\u00a0", "50%", "a!b", "a&b", "a*b", "a|b", "a>b", "a-", "a?", "\\",
])
_PLAIN_VALUES = st.one_of(
    st.lists(_PLAIN_WORDS, min_size=1, max_size=3).map(" ".join),
    st.lists(_PLAIN_WORDS, min_size=1, max_size=3).map("".join),
    st.text(alphabet="ab1-:#'*&@!%,[]{}.é _", min_size=1, max_size=10),
)
_VALUES = st.one_of(
    _PLAIN_VALUES,
    _WORDS,
    st.lists(_WORDS, min_size=1, max_size=4).map("".join),
    st.lists(_WORDS, min_size=1, max_size=4).map(" ".join),
    st.text(alphabet="ab1-:#' \t*&@!%,[]{}.\u00a0é", max_size=8),
)
_LINE = st.tuples(
    _KEYS,
    st.sampled_from([": ", ":  ", ":", ":\t", " : ", ": \t"]),
    _VALUES,
    st.sampled_from(["", " ", "  ", "\t"]),
).map("".join)
_OTHER_LINES = st.sampled_from(
    ["", " ", "# note", "  white: x", "- a", "...", "---", "white: a: b", "white: a"]
)


def _check(inner: str) -> None:
    plain = plain_front_matter(inner, TEXT_KEYS)
    if plain is not None:
        assert _same(plain, _yaml(inner)), (plain, _yaml(inner))


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LINE)
def test_generated_lines_are_read_as_yaml_reads_them_or_left_to_it(inner):
    _check(inner)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(_KEYS, _PLAIN_VALUES), min_size=1, max_size=6))
def test_generated_key_value_lines_are_read_as_yaml_reads_them(pairs):
    _check("\n".join(f"{k}: {v}" for k, v in pairs))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(_LINE, _OTHER_LINES), min_size=1, max_size=6).map("\n".join))
def test_generated_documents_are_read_as_yaml_reads_them_or_left_to_it(inner):
    _check(inner)
