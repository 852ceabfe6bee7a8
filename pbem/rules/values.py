"""Frozen values built at the speed of mutable ones.

A frozen dataclass stores each field through ``object.__setattr__`` when it is made,
which costs four to six times a plain slot store; validating a game makes hundreds of
such values (positions, moves, the squares as written), and that was a quarter of the
rules' time and an eighth of the parse. ``quick`` gives a frozen, slotted dataclass a
twin, a plain class with the same slots, and a ``__new__`` that stores the fields into
a twin with plain stores and then hands it the frozen class (the identical slot layout
allows that). What comes out is an ordinary instance of the frozen class: assigning to
it still raises ``FrozenInstanceError``, and equality, hashing, ``repr``,
``dataclasses.replace``, copying and pickling behave as before.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Protocol, TypeVar


class Dataclass(Protocol):
    """Any dataclass (what ``dataclasses.fields`` takes)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[object]]]


T = TypeVar("T", bound=Dataclass)
_FACTORY: Any = object()  # "no value given": the field's default factory makes one


def quick(cls: type[T]) -> type[T]:
    """Make ``cls`` (a frozen dataclass with ``slots=True``, no base, no
    ``__post_init__``) construct through a mutable twin; returns ``cls``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick() takes a frozen dataclass with slots")
    if cls.__mro__ != (cls, object) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick() takes no subclass and no __post_init__")
    names = tuple(f.name for f in dataclasses.fields(cls))
    twin = type(f"{cls.__name__}Draft", (), {"__slots__": names})
    # the twin is made by calling it (it has no __init__ of its own): cheaper than
    # ``object.__new__(twin)``, which goes through a slot wrapper
    namespace: dict[str, Any] = {"_FACTORY": _FACTORY, "_twin": twin}
    params, stores = [], []
    for f in dataclasses.fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick() needs every field in __init__")
        if f.default is not dataclasses.MISSING:
            namespace[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            stores.append(f"    if {f.name} is _FACTORY:\n        {f.name} = _f_{f.name}()")
        else:
            params.append(f.name)
        stores.append(f"    self.{f.name} = {f.name}")
    # what dataclasses writes as a mutable class's __init__, storing into the twin; then
    # the value is handed the frozen class (the same slots: only what it is changes)
    source = "\n".join(
        [f"def __new__(klass, {', '.join(params)}):", "    self = _twin()", *stores,
         "    self.__class__ = klass", "    return self"]
    )
    exec(source, namespace)  # our own text, made from the field names
    new = namespace["__new__"]
    new.__qualname__ = f"{cls.__name__}.__new__"  # what a wrong call names

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:  # copy and pickle
        return cls, tuple(getattr(self, n) for n in names)

    cls.__new__ = new  # type: ignore[method-assign]  # on purpose: see the docstring
    cls.__init__ = object.__init__  # type: ignore[method-assign]  # __new__ made it
    cls.__reduce__ = __reduce__  # type: ignore[method-assign]
    return cls
