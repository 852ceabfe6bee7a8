"""One error tree for the whole project.

Every error has a ``code`` (stable, for tests and JSON) and, once the layer that
knows the text has seen it, a ``span`` (line and column in the source). The rules
core raises errors without spans; the notation and record layers add them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, overload

# Exit codes shared by every CLI command.
EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_INPUT = 3


class Span(NamedTuple):
    """Where something stands in its source text (1-based line and column).

    A named tuple, not a frozen dataclass: the parser makes one for every action,
    event and square of a record, and a tuple is made in a third of the time.
    """

    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


#: ``new_span((line, column, None, None))`` is ``Span(line, column)`` made without the
#: named tuple's ``__new__``, a Python function: in a third of the time, for the parser's
#: hundreds a game
new_span = functools.partial(tuple.__new__, Span)


class UsageError(Exception):
    """Bad arguments, or input that cannot be read: the command exits 2."""


class PbemError(Exception):
    """Base of every error the project raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, span: Span | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class RuleError(PbemError):
    """A turn or action that the rules forbid. ``code`` names the rule."""

    code = "rule"

    def __init__(
        self,
        code: str,
        message: str,
        *,
        span: Span | None = None,
        options: tuple[str, ...] = (),
    ):
        super().__init__(message, span=span, code=code)
        #: legal alternatives, in notation, when the rules know them (e.g. choices)
        self.options = options


class NotationError(PbemError):
    """Text that is not Realm notation."""

    code = "notation"


class AmbiguousReading(NotationError):
    """More than one reading of an action's look-alike letters is legal at its turn.

    ``readings`` are the readings as written text, in the order a caller holding the
    rest of the record names one to take (``pbem.rules.repairs.reading_chosen``);
    anyone else reports the error.
    """

    code = "notation.ambiguous"

    def __init__(self, message: str, *, span: Span | None, readings: tuple[str, ...]):
        super().__init__(message, span=span)
        self.readings = readings


class RecordError(PbemError):
    """A record file that cannot be read (front matter, encoding, structure)."""

    code = "record"


class RulesetError(PbemError):
    """An unknown ruleset, option or value."""

    code = "ruleset"


class NotesLater(Sequence[str]):
    """A warning's notes, worked out when first read, and equal to, hashed, shown and
    pickled as the tuple they are.

    A look-alike repair's note says why the squares as written fail, which can take one
    more attempt of the action; only a refusal quotes it (a record that breaks later, a
    repaired live turn), so a valid record's repairs never work it out. ``count``: how
    many notes ``make`` gives (``len`` does not make them)."""

    __slots__ = ("_count", "_make", "_notes")

    def __init__(self, make: Callable[[], tuple[str, ...]], count: int):
        self._make: Callable[[], tuple[str, ...]] | None = make
        self._notes: tuple[str, ...] | None = None
        self._count = count

    def notes(self) -> tuple[str, ...]:
        if self._notes is None:
            assert self._make is not None
            self._notes, self._make = self._make(), None
            assert len(self._notes) == self._count
        return self._notes

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self.notes()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.notes())

    def __eq__(self, other: object) -> bool:
        return self.notes() == (other.notes() if isinstance(other, NotesLater) else other)

    def __hash__(self) -> int:
        return hash(self.notes())

    def __repr__(self) -> str:
        return repr(self.notes())

    def __reduce__(self) -> tuple[type[tuple[str, ...]], tuple[tuple[str, ...]]]:
        return tuple, (self.notes(),)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A warning: something repaired or inferred while reading. Strict mode makes it an error."""

    code: str
    message: str
    span: Span | None = None
    turn: str | None = None
    notes: tuple[str, ...] | NotesLater = field(default=())
