"""Issue 23, item 10: a folded line never parts a tie-break (or a verdict) from its numbers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbem.render.prose import clauses, fill

TIE = ("Score so far: White 3 Realms, Black 3; Enforcers (mobile + in supply) White 8, "
       "Black 8 (level)")


def test_the_tie_break_is_a_line_of_its_own() -> None:
    assert fill(TIE, 78, "", "  ").split("\n") == [
        "Score so far: White 3 Realms, Black 3;",
        "  Enforcers (mobile + in supply) White 8, Black 8 (level)",
    ]


def test_a_line_that_fits_is_left_alone_and_sentences_are_packed_whole() -> None:
    assert fill("Next: White to move (#4w).") == "Next: White to move (#4w)."
    verdict = ("The game is over: White created the last of its 12 Bases. White wins 1-0, "
               "with 8 Realms to Black's 7.")
    assert fill(verdict).split("\n") == [
        "The game is over: White created the last of its 12 Bases.",
        "White wins 1-0, with 8 Realms to Black's 7."]


def test_a_long_clause_folds_at_words_but_never_inside_brackets() -> None:
    text = "word " * 14 + "(mobile + in supply + Bases captured) and more words after it"
    lines = fill(text, 78).split("\n")
    assert any("(mobile + in supply + Bases captured)" in line for line in lines)
    assert clauses("1. 2 and 3.5; four. Five") == ["1. 2 and 3.5;", "four.", "Five"]
    assert clauses("White 1742?, Black 1258?. (? provisional: few. Yet)") == [
        "White 1742?, Black 1258?.", "(? provisional: few. Yet)"]


@given(st.lists(st.sampled_from(["White", "8,", "Realms;", "(mobile", "+", "supply)", "each.",
                                 "a" * 30]), max_size=60))
def test_every_word_kept_in_order_and_lines_within_the_width(words: list[str]) -> None:
    text = " ".join(words)
    out = fill(text, 40, "", "  ")
    assert out.split() == text.split()
    for line in out.split("\n"):
        alone = line.strip()  # too long: one word, or one short bracket kept whole
        assert len(line) <= 40 or " " not in alone or (
            alone.startswith("(") and alone.endswith(")") and len(alone) <= 48)
