"""Frozen values, made cheaply at import and built at the speed of mutable ones.

``@frozen`` makes what ``@dataclass(frozen=True, slots=True)`` makes, for a class with
no dataclass base: the same fields, slots, equality, hash, ``repr``, refusal to
change, ``dataclasses.fields``, ``dataclasses.replace``, copying and pickling. Two
costs of the dataclass are why it exists:

- **Building a value.** A frozen dataclass stores each field through
  ``object.__setattr__``, four to six times a plain slot store; validating a game makes
  hundreds of values (positions, moves, the squares as written). Here the class's
  ``__new__`` stores the fields into a *draft*, a plain class that holds the slots, and
  then hands the object the frozen class, the draft's heir that adds nothing to its
  layout (so the hand-over is allowed, and costs no comparison of slots). So the
  frozen class's own ``__slots__`` is empty and its draft's names the fields: read a
  value's fields with ``dataclasses.fields``, as for any dataclass.
- **Making the class.** ``dataclass`` writes each generated method as source text and
  compiles it when the class is made: six or seven compilations a frozen class, about
  1 ms, and the notation, the rules and the records make some sixty such classes at
  every start of ``pbem``. Here the dataclass is asked only for its fields and slots;
  ``__new__`` is the one method compiled (it must be fast), and equality, hash,
  ``repr`` and the refusals are shared functions that read the fields' values through
  one ``operator.attrgetter``.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
_FACTORY: Any = object()  # "no value given": the field's default factory makes one


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: type[T]) -> type[T]:
    """``cls`` as a frozen, slotted dataclass (see the module's docstring). Its bases may
    only be ones that add nothing to a value (``typing.Generic``, a mixin of methods with
    empty ``__slots__``); a ``__post_init__`` runs as a dataclass's does."""
    for base in cls.__mro__[1:-1]:  # only bases that add nothing to a value (Generic)
        if (base.__dict__.get("__slots__") != () or hasattr(base, "__dataclass_fields__")
                or "__init__" in base.__dict__ or "__new__" in base.__dict__):
            raise TypeError(f"{cls.__name__}: frozen() takes no base class that adds to a value")
    own = cls.__dict__
    # as dataclass decides: a class that writes __eq__ without __hash__ has __hash__ = None
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    keep = {name for name in ("__eq__", "__repr__") if name in own}
    if cls.__doc__ is None:  # the dataclass would work one out from a signature: slow
        cls.__doc__ = f"{cls.__name__}({', '.join(cls.__annotations__)})"
    # the fields as the dataclass reads them (it adds no methods and no slots: see below)
    read: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    fields = dataclasses.fields(read)
    made: Any = _slotted(cls, fields)
    made.__new__ = _constructor(made, fields)
    made.__init__ = object.__init__  # __new__ has made the value
    compared = _getter([f.name for f in fields if f.compare])
    if "__eq__" not in keep:
        made.__eq__ = _equality(compared)
    if not explicit_hash:
        made.__hash__ = _hash(
            _getter([f.name for f in fields if (f.compare if f.hash is None else f.hash)])
        )
    if "__repr__" not in keep:
        made.__repr__ = _representation([f.name for f in fields if f.repr])
    names = frozenset(f.name for f in fields)
    made.__setattr__ = _refusal(made, names, "assign to", object.__setattr__)
    made.__delattr__ = _refusal(made, names, "delete", object.__delattr__)
    # made again from what __init__ takes (a field left out of it is set as when made)
    made.__reduce__ = _reduction(made, tuple(f.name for f in fields if f.init))
    result: type[T] = made
    return result


def _slotted(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> type[Any]:
    """``cls`` made again without a ``__dict__``, as the heir of a *draft*: a plain class
    with the fields' slots and ``cls``'s own bases. A value is made as a draft and then
    handed the frozen class, which adds nothing to the draft's layout: CPython allows
    that hand-over without comparing the two classes' slots name by name, as it must for
    two unrelated classes (some 200 machine instructions a value)."""
    names = tuple(f.name for f in fields)
    draft_body: dict[str, Any] = {"__slots__": names}
    if "__orig_bases__" in cls.__dict__:  # Generic[...]: Generic takes no plain heir
        draft_body["__orig_bases__"] = cls.__dict__["__orig_bases__"]
    draft = type(f"{cls.__name__}Draft", cls.__bases__, draft_body)
    body = {k: v for k, v in cls.__dict__.items()
            if k not in names and k not in ("__dict__", "__weakref__")}
    body["__slots__"] = ()
    body["__qualname__"] = cls.__qualname__  # kept by the class, not in its __dict__
    metaclass: Any = type(cls)
    made: type[Any] = metaclass(cls.__name__, (draft,), body)
    return made


def _constructor(cls: type[Any], fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """The class's ``__new__``: what dataclasses writes as a mutable class's ``__init__``,
    storing into the draft, then the value is handed the frozen class."""
    # the draft is made by calling it (none of its bases has an __init__ or __new__ of
    # its own): cheaper than ``object.__new__(draft)``, which goes through a slot wrapper
    draft = cls.__bases__[0]
    namespace: dict[str, Any] = {"_FACTORY": _FACTORY, "_draft": draft}
    params, stores = [], []
    for f in fields:
        has_default = f.default is not dataclasses.MISSING
        has_factory = f.default_factory is not dataclasses.MISSING
        if has_default:
            namespace[f"_d_{f.name}"] = f.default
        if has_factory:
            namespace[f"_f_{f.name}"] = f.default_factory
        if not f.init:  # set as the dataclass sets it: its default, or by __post_init__
            if has_default or has_factory:
                store = f"_d_{f.name}" if has_default else f"_f_{f.name}()"
                stores.append(f"    self.{f.name} = {store}")
            continue
        if has_default:
            params.append(f"{f.name}=_d_{f.name}")
        elif has_factory:
            params.append(f"{f.name}=_FACTORY")
            stores.append(f"    if {f.name} is _FACTORY:\n        {f.name} = _f_{f.name}()")
        else:
            params.append(f.name)
        stores.append(f"    self.{f.name} = {f.name}")
    post = ["    self.__post_init__()"] if hasattr(cls, "__post_init__") else []
    source = "\n".join(
        [f"def __new__(klass, {', '.join(params)}):", "    self = _draft()", *stores,
         "    self.__class__ = klass", *post, "    return self"]
    )
    exec(source, namespace)  # our own text, made from the field names
    new = namespace["__new__"]
    new.__qualname__ = f"{cls.__name__}.__new__"  # what a wrong call names
    return new


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of ``names`` as a tuple, as the dataclass's methods compare and hash them."""
    if len(names) > 1:
        many: Callable[[Any], tuple[Any, ...]] = operator.attrgetter(*names)
        return many
    if names:
        one = operator.attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


def _equality(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _representation(names: list[str]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _refusal(
    cls: type[Any], names: frozenset[str], verb: str, allowed: Callable[..., None]
) -> Callable[..., None]:
    """``__setattr__`` or ``__delattr__``: a frozen dataclass's refusal, word for word."""

    def refuse(self: Any, name: str, *rest: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot {verb} field {name!r}")
        allowed(self, name, *rest)

    return refuse


def _reduction(cls: type[Any], names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """``__reduce__``: copying and pickling make the value again through its class."""

    def __reduce__(self: Any) -> tuple[Any, tuple[Any, ...]]:
        return cls, tuple(getattr(self, n) for n in names)

    return __reduce__


def new_of(cls: type[T]) -> Callable[..., T]:
    """``cls``'s ``__new__``, called as ``new(cls, *fields)`` (the fields in order, as the
    class takes them): the value made by ``__new__`` alone, as ``frozen`` makes it (its
    ``__init__`` is object's, which does nothing). Calling the class costs about a third
    more (the interpreter's call of ``__new__`` from ``type.__call__``, some 1,000
    machine instructions a value): the replay's hot paths make a few hundred values a
    game so."""
    if cls.__init__ is not object.__init__:  # made otherwise: only the class makes it
        raise TypeError(f"{cls.__name__} is not made by its __new__ alone")
    new: Callable[..., T] = cls.__new__
    return new
