"""Look-alike letters in written squares, repaired against the position.

A square's file letter may be upper case (``PL1L6``) or a look-alike (``i``/``l``/
``I``/``L``/``1``). Every reading is tried; a repair stands only when exactly one
reading is legal, and it is reported as a warning. This is the same for every game
on the board, so each game's resolver hands its own attempt to ``resolve_with_repairs``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from pbem.errors import AmbiguousReading, Diagnostic, NotationError, NotesLater, RuleError
from pbem.rules.game import Resolved, new_resolved
from pbem.rules.geometry import PLAIN_SQUARES, is_square_name, parse_square
from pbem.rules.written import (
    ActionText,
    EventText,
    ItemText,
    MoveText,
    PlacementText,
    RearrangementText,
    SacrificeText,
    SquareText,
    format_action,
    new_event_text,
    new_move_text,
    new_square_text,
    squares_of,
)

_OTHER = {"i": "l", "l": "i"}


def square_readings(sq: SquareText) -> list[tuple[str, bool]]:
    """Possible names of a written square, the likeliest first; bool = repaired.

    Files: ``i``/``l`` may stand for each other, ``I``/``L``/``1`` for either, other
    capitals for their small letter. Ranks: ``l`` and ``I`` stand for ``1``.
    """
    text = sq.text
    c, rank = text[0], text[1:]
    fixed_rank = rank.replace("l", "1").replace("I", "1")
    repaired_rank = fixed_rank != rank
    if c in _OTHER:
        files = [(c, repaired_rank), (_OTHER[c], True)]
    elif c == "1" or c.lower() in _OTHER:
        first = "l" if c in "1L" else "i"
        files = [(first, True), (_OTHER[first], True)]
    elif c != c.lower():
        files = [(c.lower(), True)]
    else:
        files = [(c, repaired_rank)]
    readings = [(f + rank, r) for f, r in files if is_square_name(f + (rank := fixed_rank))]
    return readings or [(text, False)]  # no square at all: square_at says so


def square_at(name: str) -> int:
    """The square named ``name``; a NotationError in the players' words if none."""
    try:
        return parse_square(name)
    except KeyError:
        raise NotationError(
            f"{name!r} is not a square: files run from a to l and ranks from 1 to 12",
            code="notation.square",
        ) from None


def respell(text: ActionText, names: Iterator[str]) -> ActionText:
    """``text`` with its squares, in ``squares_of`` order, spelled as ``names``.

    Made with the constructors, not ``dataclasses.replace`` (several times slower, and
    a scanned record repairs a square every few turns); a square spelled as before, and
    an event or item around it, is the very value it was (values are immutable: a
    repair mostly changes one square of several). Its helpers are module functions: a
    function defined inside another is made again at every call."""
    if isinstance(text, MoveText):
        squares = tuple([_square(s, names) for s in text.squares])
        events = None
        if text.events is not None:
            events = tuple([_event(e, names) for e in text.events])
        return new_move_text(MoveText, text.piece, squares, events, text.span, text.off)
    if isinstance(text, PlacementText):
        return PlacementText(text.piece, _square(text.square, names), text.span)
    if isinstance(text, RearrangementText):
        realm = _square(text.realm, names)
        items = tuple([_item(i, names) for i in text.items])
        theirs = tuple([_item(i, names) for i in text.opponent])
        return RearrangementText(realm, items, text.span, theirs)
    if isinstance(text, SacrificeText):
        return SacrificeText(
            _square(text.power, names), _square(text.enforcer, names), text.facing, text.span
        )
    return text


def _square(s: SquareText, names: Iterator[str]) -> SquareText:
    """``s`` spelled as the next of ``names`` (itself where spelled so already)."""
    name = next(names)
    return s if name == s.text else new_square_text(SquareText, name, s.span)


def _event(e: EventText, names: Iterator[str]) -> EventText:
    square = _square(e.square, names)
    if square is e.square:
        return e
    return new_event_text(EventText, e.prefix, e.piece, square, e.facing, e.span)


def _item(i: ItemText, names: Iterator[str]) -> ItemText:
    square = _square(i.square, names)
    return i if square is i.square else ItemText(i.piece, square, i.facing, i.span)


#: the state an attempt leads to (a game's own turn state or position)
S = TypeVar("S")
#: gets the squares' names in ``squares_of`` order; returns (new state, Resolved)
Attempt = Callable[[list[str]], tuple[S, Resolved]]


#: the squares' own names: written so, a square has no other reading
_PLAIN = PLAIN_SQUARES


@functools.lru_cache(maxsize=512)
def _readings(text: str) -> tuple[tuple[str, ...], bool]:
    """The names a square written ``text`` may stand for, the likeliest first, and whether
    that one is a repair."""
    readings = square_readings(SquareText(text))
    return tuple([name for name, _ in readings]), readings[0][1]


class reading_chosen:  # lower case: it reads like a function, ``with reading_chosen(1):``
    """Inside ``with reading_chosen(i):``, an action with several legal readings takes the
    ``i``-th (in the order of ``AmbiguousReading.readings``) instead of being refused:
    for a reader that lets the rest of the record decide (``pbem.records.replay``).

    The choice is the process's while the block runs (validation is one thread per
    process); blocks nest, the innermost wins.
    """

    current: int | None = None

    def __init__(self, index: int):
        self.index = index
        self.outer: int | None = None

    def __enter__(self) -> None:
        self.outer, reading_chosen.current = reading_chosen.current, self.index

    def __exit__(self, *exc: object) -> None:
        reading_chosen.current = self.outer


E = TypeVar("E", bound=BaseException)


def kept_error(exc: E) -> E:
    """``exc``, kept after its ``except`` block (a repair's note, or raised again when no
    reading stands), without its traceback and context: their frames hold the variable
    that keeps it, a cycle that would hold the whole replay until the garbage collector
    runs. Only its words are used again."""
    exc.__traceback__ = None
    exc.__context__ = None
    return exc


def resolve_with_repairs(
    text: ActionText,
    attempt: Attempt[S],
    as_written: RuleError | NotationError | None = None,
    plausible: Callable[[list[str]], bool] | None = None,
) -> tuple[S, Resolved]:
    """Try the written reading, then look-alike readings; exactly one legal reading stands.

    ``attempt`` returns ``(state, resolved)`` where ``resolved`` has a ``warnings``
    tuple (a dataclass): a repair adds its warning in front. ``as_written``: the error
    of the caller's own attempt of the squares as written, all of them squares' names
    (a resolver tries those first itself): not attempted again. ``plausible``: a cheap
    test of a reading, False only where ``attempt`` would raise: the other readings
    that fail it are not attempted (their errors are never shown), and a first reading
    that fails it is attempted only when its error is shown (``_FirstError``).
    """
    squares = squares_of(text)
    written = [s.text for s in squares]
    first_error: _FirstError | None = None
    winners: list[tuple[list[str], tuple[S, Resolved]]] = []
    # squares written plainly, as nearly always, are read as written first (only when
    # that is illegal are look-alikes tried: an 'i' may be a misread 'l'); the readings
    # of a square written otherwise start with its likeliest repair
    plain = _PLAIN.issuperset(written)
    if plain:
        if as_written is not None:
            first_error = _FirstError(as_written)
        else:
            outcome, first_error = _first_reading(written, attempt, plausible)
            if outcome is not None:
                return outcome  # the usual case: no readings looked up
    # each square's readings; the first reading (a plain name's likeliest is itself); how
    # many readings in all (with one, the first reading was the only one). One loop, not
    # a comprehension for each: on Python 3.11 each is a function made and called
    options: list[tuple[str, ...]] = []
    first: list[str] = []
    repaired = False
    combos = 1
    for name in written:
        names_of, likeliest_repaired = _readings(name)
        options.append(names_of)
        first.append(names_of[0])
        repaired = repaired or likeliest_repaired
        combos *= len(names_of)
    if not plain:
        outcome, first_error = _first_reading(first, attempt, plausible)
        if outcome is not None:
            if not repaired:
                return outcome  # read as written
            winners.append((first, outcome))
    if winners and combos == 1:
        return _with_repair_warning(text, squares, *winners[0], first_error)
    if combos > 1:
        for combo in itertools.product(*options):
            names = list(combo)
            if names == first or (plausible is not None and not plausible(names)):
                continue
            try:
                winners.append((names, attempt(names)))
            except (RuleError, NotationError):
                continue
    if len(winners) == 1:
        return _with_repair_warning(text, squares, *winners[0], first_error)
    chosen = reading_chosen.current
    if len(winners) > 1 and chosen is not None and chosen < len(winners):
        return _with_repair_warning(text, squares, *winners[chosen], first_error)
    if len(winners) > 1:
        texts = tuple(format_action(respell(text, iter(n))) for n, _ in winners)
        readings = " or ".join(repr(t) for t in texts)
        raise AmbiguousReading(
            f"{format_action(text)!r} can be read as {readings}, and more than one of these "
            "is legal: write the squares plainly",
            span=text.span,
            readings=texts,
        )
    assert first_error is not None
    raise first_error.error()


def _first_reading(
    names: list[str], attempt: Attempt[S], plausible: Callable[[list[str]], bool] | None
) -> tuple[tuple[S, Resolved] | None, _FirstError | None]:
    """The first reading attempted: its outcome, or None and its error. A reading that
    ``plausible`` refuses is not attempted: its error is worked out when shown."""
    if plausible is not None and not plausible(names):
        return None, _FirstError(None, attempt, names)
    try:
        return attempt(names), None
    except (RuleError, NotationError) as exc:
        return None, _FirstError(kept_error(exc))


class _FirstError:
    """The error of the first reading, the squares as written (or their likeliest
    repair): raised when no reading stands, and a repair's note. Given, or worked out by
    attempting that reading when first asked, where ``plausible`` already said it fails:
    a repaired valid record never asks (``pbem.errors.NotesLater``)."""

    __slots__ = ("_attempt", "_error", "_names")

    def __init__(
        self,
        error: RuleError | NotationError | None,
        attempt: Attempt[Any] | None = None,
        names: list[str] | None = None,
    ):
        self._error = error
        self._attempt = attempt
        self._names = names

    def error(self) -> RuleError | NotationError:
        if self._error is None:
            assert self._attempt is not None and self._names is not None
            try:
                self._attempt(self._names)
            except (RuleError, NotationError) as exc:
                self._error = kept_error(exc)
            else:  # ``plausible`` said it fails: a resolver's bug, not the player's
                raise AssertionError(f"{self._names} was found implausible but is legal")
            self._attempt = self._names = None
        return self._error

    def notes(self) -> tuple[str, ...] | NotesLater:
        if self._error is not None:
            return (self._error.message,)
        return NotesLater(lambda: (self.error().message,), 1)


def _with_repair_warning(
    text: ActionText,
    squares: list[SquareText],
    names: list[str],
    outcome: tuple[S, Resolved],
    literal: _FirstError | None = None,
) -> tuple[S, Resolved]:
    """The repaired outcome with a ``repair.square`` warning; its note is why the squares as
    written fail (the referee quotes it when it refuses a repaired live turn)."""
    for square, name in zip(squares, names, strict=True):
        if square.text != name:
            break
    else:  # read as written
        return outcome
    state, resolved = outcome
    repaired = format_action(respell(text, iter(names)))
    warning = Diagnostic(
        "repair.square", f"read {format_action(text)!r} as {repaired!r}", square.span,
        notes=literal.notes() if literal is not None else (),
    )
    return state, new_resolved(
        Resolved, resolved.action, resolved.events, resolved.board,
        (warning, *resolved.warnings), resolved.writer,
    )
