"""``quick``: a frozen dataclass built through a mutable twin stays what it was."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from pbem.rules.realm.position import Position
from pbem.rules.values import quick


@quick
@dataclass(frozen=True, slots=True)
class Pair:
    a: int
    b: int = 2
    note: tuple[str, ...] = field(default=(), compare=False)


def test_a_quick_value_is_an_instance_of_its_frozen_class_and_stays_frozen():
    p = Pair(1)
    assert type(p) is Pair and p == Pair(1, 2) and hash(p) == hash(Pair(a=1))
    with pytest.raises(FrozenInstanceError):
        p.a = 5  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        Position().ply = 3  # type: ignore[misc]


def test_equality_repr_replace_copy_and_pickle_are_the_dataclass_own():
    p = Pair(1, 3, ("x",))
    assert p == Pair(1, 3) and p != Pair(1, 4)  # note is left out of equality
    assert repr(p) == "Pair(a=1, b=3, note=('x',))"
    assert replace(p, b=7) == Pair(1, 7) and type(replace(p, b=7)) is Pair
    for twin in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(twin) is Pair and twin == p and twin.note == ("x",)


def test_a_wrong_call_is_refused_as_before():
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        Pair()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Pair(1, 2, (), 4)  # type: ignore[call-arg]


def test_quick_takes_only_frozen_slotted_dataclasses():
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class Mutable:
        a: int

    for cls in (NoSlots, Mutable):
        with pytest.raises(TypeError, match="frozen dataclass with slots"):
            quick(cls)
