"""Frozen values built at the speed of mutable ones.

A frozen dataclass stores each field through ``object.__setattr__`` when it is made,
which costs four to six times a plain slot store; validating a game makes hundreds of
such values (positions, moves, the squares as written), and that was a quarter of the
rules' time and an eighth of the parse. ``quick`` gives a frozen, slotted dataclass a
twin: a mutable dataclass with the same fields, defaults and slots. A value is built as
the twin (plain stores) and then handed the frozen class, which the twin's identical
slot layout allows. What comes out is an ordinary instance of the frozen class:
assigning to it still raises ``FrozenInstanceError``, and equality, hashing, ``repr``,
``dataclasses.replace``, copying and pickling behave as before.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick(cls: type[T]) -> type[T]:
    """Make ``cls`` (a frozen dataclass with ``slots=True``, no base, no
    ``__post_init__``) construct through a mutable twin; returns ``cls``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick() takes a frozen dataclass with slots")
    if cls.__mro__ != (cls, object) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick() takes no subclass and no __post_init__")
    specs: list[Any] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick() needs every field in __init__")
        if f.default is not dataclasses.MISSING:
            specs.append((f.name, f.type, dataclasses.field(default=f.default)))
        elif f.default_factory is not dataclasses.MISSING:
            specs.append((f.name, f.type, dataclasses.field(default_factory=f.default_factory)))
        else:
            specs.append((f.name, f.type))
    twin = dataclasses.make_dataclass(
        f"{cls.__name__}Draft", specs, slots=True, eq=False, repr=False, match_args=False
    )
    twin.__init__.__qualname__ = f"{cls.__name__}.__init__"  # what a wrong call names
    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    def __new__(klass: type[T], *args: Any, **kwargs: Any) -> T:
        value = twin(*args, **kwargs)
        value.__class__ = klass  # the same slots: this only changes what the value is
        return value  # type: ignore[return-value]

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
        return cls, tuple(getattr(self, n) for n in names)

    cls.__new__ = __new__  # type: ignore[assignment]
    cls.__init__ = object.__init__  # type: ignore[assignment,misc]  # __new__ made it
    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls
