"""The tight LALR loop (pbem.notation.lalr) gives what lark's own parse gives, spans and
all, and leaves every error to lark."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import NotationError
from pbem.notation import parse as parse_module
from pbem.notation.grammar import loop, parser, transformer
from pbem.notation.lalr import FAILED, VERIFIED_LARK, Loop, checked
from pbem.notation.parse import parse_game, parse_movetext
from pbem.records.generate import write_games
from pbem.records.reader import split_games
from pbem.rules.realm.ruleset import FEATURED

GAMES = Path(__file__).resolve().parents[2] / "games"


def _full(x: Any) -> Any:
    """``x`` with every field, spans too (syntax objects leave spans out of equality)."""
    if dataclasses.is_dataclass(x):
        return (type(x).__name__, *((f.name, _full(getattr(x, f.name)))
                                    for f in dataclasses.fields(x)))
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, *(_full(i) for i in x))
    if isinstance(x, dict):
        return tuple((k, _full(v)) for k, v in x.items())
    return (type(x).__name__, x)


def _both(text: str, start: str, line_offset: int = 0) -> tuple[Any, Any]:
    transformer().line_offset = line_offset
    fast = loop()
    assert fast is not None  # the loop is built for this grammar, so records go through it
    return fast.parse(text, start), parser().parse(text, start=start)


def _texts(tmp_path: Path) -> list[str]:
    texts = [chunk for p in sorted(GAMES.glob("*.realm"))
             for _, chunk in split_games(p.read_text(encoding="utf-8"))]
    texts += [p.read_text(encoding="utf-8")
              for p in write_games(tmp_path, 12, 5, FEATURED).paths]
    return texts


def test_the_loop_parses_every_record_as_lark_does(tmp_path):
    texts = _texts(tmp_path)
    assert len(texts) > 15
    for text in texts:
        for offset in (0, 41):
            fast, slow = _both(text, "game", offset)
            assert fast is not FAILED
            assert _full(fast) == _full(slow)


def test_lines_and_columns_after_crlf_comments_and_notes():
    text = ("---\r\ngame: x\r\n---\r\n{ a comment\r\n over two lines }\r\n"
            "1.Bh11 Bh2, 2.Be8 Be5,\r\n 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9\r\n"
            "7.Pi10i6 (Bh5) {x\ny} (Figure 6)\r\n/ Pd6d1(Be2)\n\n  8.Pi6j6 / Pd1d2 1-0")
    fast, slow = _both(text, "game", 3)
    assert fast is not FAILED
    assert _full(fast) == _full(slow)
    fast, slow = _both(text.split("---\r\n")[-1], "movetext")
    assert _full(fast) == _full(slow)


@pytest.mark.parametrize("text", [
    "1.Bh11 Bh2, 2.Be8 Be5,\n7.Pi10i6(Bh5)/Pd6d1(Be2)\n8.Pi6j6(Bk5) 9.",   # a token out of place
    "7.Pi10i6(Bh5)/Pd6d1(Be2)\n8.Pi6j6(Bk5)/Pd1q1\n",                        # no terminal matches
    "7.Pi10i6(Bh5",                                                           # the text ends
])
def test_errors_are_lark_s_own(text):
    fast = loop()
    assert fast is not None
    transformer().line_offset = 0
    assert fast.parse(text, "movetext") is FAILED
    with pytest.raises(NotationError) as caught:
        parse_movetext(text)
    assert caught.value.span is not None and caught.value.span.line >= 1


def test_an_error_a_callback_raises_comes_out_of_the_loop():
    """A Base among a Rearrangement's items: the transformer's error, at its place."""
    with pytest.raises(NotationError, match="cannot be rearranged") as caught:
        parse_game("7.Pi10i6/Rh5( Pg4,Bh6)\n")
    assert (caught.value.span.line, caught.value.span.column) == (1, 19)


# -- another lark: the loop steps aside, and lark's own parse is used, always right ------
def test_a_lark_whose_insides_the_loop_does_not_know_gives_no_loop():
    from lark import Lark

    assert checked(object(), transformer()) is None  # no tables where the loop reads them
    other = Lark("start: WORD\nWORD: /[a-z]+/\n", parser="lalr")  # a rule it has no method for
    assert checked(other, transformer()) is None


def test_a_loop_that_parses_the_probe_otherwise_than_lark_is_not_used(monkeypatch):
    def other(self: Loop, text: str, start: str) -> Any:
        return parser().parse("7.Pc4g4", start=start)

    monkeypatch.setattr(Loop, "parse", other)
    assert checked(parser(), transformer(), probe=True) is None


def test_the_installed_lark_parses_the_probe_alike_both_ways():
    """What lets a start skip the probe on a verified lark: the probe agrees on this one."""
    assert checked(parser(), transformer(), probe=True) is not None


def test_an_unverified_lark_is_probed(monkeypatch):
    import lark

    probed: list[str] = []

    def counting(self: Loop, text: str, start: str) -> Any:
        probed.append(text)
        return FAILED

    monkeypatch.setattr(lark, "__version__", "9.9.9")
    monkeypatch.setattr(Loop, "parse", counting)
    assert checked(parser(), transformer()) is None
    assert probed, "an unverified lark must be probed before the loop is trusted"


def test_a_verified_lark_is_trusted_without_the_probe(monkeypatch):
    import lark

    monkeypatch.setattr(lark, "__version__", sorted(VERIFIED_LARK)[-1])
    monkeypatch.setattr(Loop, "parse", lambda *_: pytest.fail("the probe was parsed"))
    assert checked(parser(), transformer()) is not None


def _parsed_both_ways(monkeypatch, text: str) -> tuple[Any, Any]:
    def outcome() -> Any:
        try:
            return _full(parse_game(text, line_offset=5))
        except NotationError as exc:
            return (str(exc), exc.span, exc.code)

    with_loop = outcome()
    monkeypatch.setattr(parse_module, "loop", lambda: None)
    return with_loop, outcome()


@pytest.mark.parametrize("name", ["sample-game-2002.realm", "classic-examples.realm"])
def test_without_the_loop_records_parse_the_same(monkeypatch, name):
    text = split_games((GAMES / name).read_text(encoding="utf-8"))[0][1]
    with_loop, without = _parsed_both_ways(monkeypatch, text)
    assert with_loop == without and with_loop[0] == "GameText"


def test_without_the_loop_errors_are_the_same(monkeypatch):
    with_loop, without = _parsed_both_ways(monkeypatch, "7.Pi10i6(Bh5)/Pd6d1(Be2)\n8.Pi6q6\n")
    assert with_loop == without and "not a square" in with_loop[0]


def test_a_loop_that_breaks_mid_parse_hands_the_text_to_lark(monkeypatch):
    text = split_games((GAMES / "sample-game-2002.realm").read_text(encoding="utf-8"))[0][1]
    expected = _full(parse_game(text))

    def broken(self: Loop, text: str, start: str) -> Any:
        raise KeyError("a table shaped otherwise")

    monkeypatch.setattr(Loop, "parse", broken)
    assert _full(parse_game(text)) == expected
