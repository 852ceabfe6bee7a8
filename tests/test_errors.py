"""The error tree's values: a warning's notes worked out when first read."""

from __future__ import annotations

import copy
import pickle

from pbem.errors import Diagnostic, NotesLater


def _later(calls: list[int], notes: tuple[str, ...] = ("why",)) -> NotesLater:
    def make() -> tuple[str, ...]:
        calls.append(1)
        return notes

    return NotesLater(make, len(notes))


def test_notes_later_are_made_once_and_only_when_read():
    calls: list[int] = []
    notes = _later(calls)
    assert len(notes) == 1 and bool(notes) and calls == []  # counted, not made
    assert notes[0] == "why" and list(notes) == ["why"] and notes[:1] == ("why",)
    assert calls == [1]


def test_notes_later_are_the_tuple_they_stand_for():
    calls: list[int] = []
    notes = _later(calls, ("a", "b"))
    # both ways: a tuple on the left asks the notes (it knows no other sequence)
    assert notes == ("a", "b") and ("a", "b") == notes and notes != ("a",)  # noqa: SIM300
    assert notes == _later([], ("a", "b")) and notes != _later([], ("b", "a"))
    assert hash(notes) == hash(("a", "b")) and repr(notes) == repr(("a", "b"))
    assert pickle.loads(pickle.dumps(notes)) == ("a", "b")
    assert type(pickle.loads(pickle.dumps(notes))) is tuple
    assert calls == [1]


def test_a_warning_with_notes_later_is_the_warning_with_its_notes():
    eager = Diagnostic("repair.square", "read 'EI7a7' as 'El7a7'", None, "11w", ("no piece",))
    lazy = Diagnostic("repair.square", "read 'EI7a7' as 'El7a7'", None, "11w",
                      _later([], ("no piece",)))
    assert lazy == eager and eager == lazy and hash(lazy) == hash(eager)
    assert repr(lazy) == repr(eager)
    assert pickle.loads(pickle.dumps(lazy)) == eager and copy.copy(lazy) == eager
    assert lazy != Diagnostic("repair.square", "read 'EI7a7' as 'El7a7'", None, "11w", ())
