"""``frozen``: a class that behaves as ``@dataclass(frozen=True, slots=True)`` makes it.

Each check makes the same class body twice, once with ``frozen`` and once with the
dataclass, and compares what the two do."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, replace
from typing import Any, Generic, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.rules.realm.position import Position
from pbem.rules.values import frozen, new_of

T = TypeVar("T")


def both(make: Any) -> tuple[Any, Any]:
    """``make(decorator)`` with ``frozen`` and with the frozen, slotted dataclass."""
    return make(frozen), make(dataclass(frozen=True, slots=True))


def pair_class(decorate: Any) -> Any:
    @decorate
    class Pair:
        a: int
        b: Any = 2
        note: tuple[str, ...] = field(default=(), compare=False)
        hidden: str = field(default="", repr=False)
        extra: list[int] = field(default_factory=list, compare=False, hash=False)

    return Pair


VALUE, DATACLASS = both(pair_class)
scalars = st.one_of(st.integers(-3, 3), st.text(max_size=2), st.none(), st.floats(allow_nan=True))


@given(st.integers(-3, 3), scalars, st.integers(-3, 3), scalars, st.text(max_size=2))
def test_equality_hash_and_repr_are_the_dataclass_own(a: int, b: Any, c: int, d: Any, s: str):
    x, y = VALUE(a, b, (s,), s), VALUE(c, d)
    dx, dy = DATACLASS(a, b, (s,), s), DATACLASS(c, d)
    assert (x == y) == (dx == dy) and (x != y) == (dx != dy)
    assert (x == x) == (dx == dx)  # a NaN field: the same object compares equal, as in a tuple
    assert repr(x).replace("Pair", "P") == repr(dx).replace("Pair", "P")
    if b == b:  # hashable and not NaN
        assert hash(x) == hash(dx) and hash(y) == hash(dy)


def test_a_value_is_an_instance_of_its_class_and_stays_frozen():
    p = VALUE(1)
    assert type(p) is VALUE and p == VALUE(1, 2) and hash(p) == hash(VALUE(a=1))
    assert p.extra == [] and p.extra is not VALUE(1).extra  # a factory per value
    for obj in (p, DATACLASS(1)):
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
            obj.a = 5
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'a'"):
            del obj.a
    with pytest.raises(FrozenInstanceError):
        Position().ply = 3  # type: ignore[misc]
    assert VALUE(1) != DATACLASS(1) and VALUE(1).__eq__(DATACLASS(1)) is NotImplemented


def test_fields_replace_match_args_copy_and_pickle():
    p = VALUE(1, 3, ("x",))
    assert [f.name for f in dataclasses.fields(p)] == ["a", "b", "note", "hidden", "extra"]
    assert dataclasses.is_dataclass(p) and VALUE.__match_args__ == DATACLASS.__match_args__
    assert replace(p, b=7) == VALUE(1, 7) and type(replace(p, b=7)) is VALUE
    assert dataclasses.astuple(p) == dataclasses.astuple(DATACLASS(1, 3, ("x",)))
    position = Position()
    for original, twin in ((p, copy.copy(p)), (p, copy.deepcopy(p)),
                           (position, pickle.loads(pickle.dumps(position)))):
        assert type(twin) is type(original) and twin == original and twin is not original
    assert copy.deepcopy(p).note == ("x",) and pickle.loads(pickle.dumps(Position())) == Position()
    # the same slots, held by the class's draft (its base): no __dict__
    slots = [name for k in VALUE.__mro__ for name in k.__dict__.get("__slots__", ())]
    assert not hasattr(p, "__dict__") and tuple(slots) == DATACLASS.__slots__


def test_a_wrong_call_is_refused_as_by_the_dataclass():
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        VALUE()
    with pytest.raises(TypeError):
        VALUE(1, 2, (), "", [], 6)
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        VALUE(1, c=3)


def test_post_init_fields_left_out_of_init_and_own_methods():
    def make(decorate: Any) -> Any:
        @decorate
        class Sized:
            items: tuple[int, ...]
            size: int = field(init=False)
            seen: int = field(init=False, default=0)

            def __post_init__(self) -> None:
                object.__setattr__(self, "size", len(self.items))

        return Sized

    v, d = both(make)
    assert repr(v((1, 2))).replace("Sized", "S") == repr(d((1, 2))).replace("Sized", "S")
    assert v((1, 2)).size == 2 and v((1,)).seen == 0 and hash(v((1,))) == hash(d((1,)))
    for twin in (copy.copy(v((1, 2))), copy.deepcopy(v((1, 2)))):  # made again, not by fields
        assert twin == v((1, 2)) and twin.size == 2 and twin.seen == 0

    def own(decorate: Any) -> Any:
        @decorate
        class Loose:
            a: int
            b: int = 0

            def __eq__(self, other: object) -> bool:
                return isinstance(other, type(self)) and self.a == other.a

            def __hash__(self) -> int:
                return self.a

            def __repr__(self) -> str:
                return "loose"

        return Loose

    v, d = both(own)
    assert v(1, 2) == v(1, 3) and hash(v(1, 2)) == 1 and repr(v(1)) == "loose"


def test_generic_classes_and_bases_that_add_nothing():
    @frozen
    class Box(Generic[T]):
        item: T

    assert Box(1) == Box(1) and hash(Box("a")) == hash(Box("a"))
    assert repr(Box(1)).endswith(".Box(item=1)")

    class Mixin:
        __slots__ = ()

        def doubled(self) -> int:
            return 2 * self.n  # type: ignore[attr-defined]

    @frozen
    class Counted(Mixin):
        n: int

    assert Counted(3).doubled() == 6


def test_frozen_takes_no_dataclass_base_and_no_base_with_slots():
    @dataclass(frozen=True, slots=True)
    class Base:
        a: int

    class Slotted:
        __slots__ = ("x",)

    for base in (Base, Slotted):
        with pytest.raises(TypeError, match="no base class"):

            @frozen
            class Child(base):  # type: ignore[valid-type, misc]
                b: int


def test_new_of_makes_the_value_the_class_makes_without_the_class_call():
    new = new_of(VALUE)
    made = new(VALUE, 1, 3)
    assert type(made) is VALUE and made == VALUE(1, 3) and repr(made) == repr(VALUE(1, 3))
    assert made.extra == [] and made.extra is not new(VALUE, 1).extra  # defaults, factories
    with pytest.raises(FrozenInstanceError):
        made.a = 2
    with pytest.raises(TypeError, match="not made by its __new__ alone"):
        new_of(DATACLASS)  # its __init__ makes it: its __new__ alone gives an empty object
