"""The reader (issue 22, item 7): a list marker before a bare result is ignored with a
warning, as the list markers before entries are; a record that no reading carries to its
end names where the record as written breaks first, and each look-alike reading."""

from __future__ import annotations

from pathlib import Path

from pbem.records.reader import read_games
from pbem.records.validate import validate_source

ROOT = Path(__file__).resolve().parents[2]


def _report(text: str):
    (source,) = read_games(text)
    return validate_source(source)


def test_a_list_marker_before_a_bare_result_is_ignored_with_a_warning() -> None:
    text = (ROOT / "games/oriental-example.realm").read_text().replace(" 1-0\n", "\n- *\n")
    report = _report(text)
    assert report.error is None, report.error
    assert any(w.message == "ignored the list marker '-' before the result"
               for w in report.replay.warnings)


def test_a_record_read_on_by_a_look_alike_names_where_it_breaks_as_written() -> None:
    text = (ROOT / "games/sample-game-2002.realm").read_text()
    # as scanned, 9w's 'Ei7W' is legal only read as 'El7W' (a look-alike i for l)
    assert "15.Pc7e7(Ef7N)" in text
    text = text.replace("15.Pc7e7(Ef7N)", "15.Pa1a2")  # and the record breaks at 15w
    report = _report(text)
    assert report.error is not None
    message = report.error.message
    assert message.startswith("there is no piece on a1. The record as written breaks "
                              "earlier, at 9w (")
    assert "read 'Pj6j7(Ei7W)' as 'Pj6j7(El7W)'" in message
    assert "PL1L6" not in message  # a slip of case is no other reading
    assert "under that reading it breaks at 15w" in message
