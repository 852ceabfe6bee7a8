"""Play a parsed game through the rules: the heart of ``validate`` and ``replay``.

Like python-chess's PGN visitor, the walk never raises for a bad game: it stops
at the first illegal turn and records the error with its turn, action, line and
column, keeping every legal turn before it. A wrong turn changes nothing: the
final position is the one after the last legal turn.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pbem.errors import AmbiguousReading, Diagnostic, NotationError, PbemError, RuleError, Span
from pbem.notation.format import format_action
from pbem.notation.syntax import (
    ActionText,
    EntryText,
    GameText,
    LabelText,
    ListMarkerText,
    ResultText,
    StrayMark,
    TurnText,
)
from pbem.records.rulesets import load_ruleset
from pbem.rules.game import (
    OVER,
    ActionRuleError,
    AnyGame,
    GamePosition,
    GameRuleset,
    Phase,
    Resolved,
)
from pbem.rules.pieces import BLACK, WHITE, Side
from pbem.rules.registry import featured, game_of
from pbem.rules.repairs import reading_chosen
from pbem.rules.values import frozen, new_of

KNOWN_HEADERS = (
    "game", "ruleset", "setup", "white", "black", "event", "site", "date", "finished",
    "source", "result", "rated", "messages",
    # a game of an event (issue 26): where in it, and what the archive's crosstable needs
    "round", "board", "division", "format", "white_seed", "black_seed", "bye",
)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@frozen
class PlayedTurn:
    label: str
    side: Side
    text: TurnText
    resolved: tuple[Resolved, ...]
    before: GamePosition
    after: GamePosition


#: made at every turn, by its ``__new__`` alone (``pbem.rules.values.new_of``)
_NEW_PLAYED = new_of(PlayedTurn)


@frozen
class GameError:
    """Where and why a record breaks."""

    message: str
    code: str
    span: Span | None
    turn: str | None = None
    action: str | None = None
    options: tuple[str, ...] = ()


@dataclass(slots=True)
class Replay:
    """The outcome of playing one record through the rules."""

    headers: dict[str, Any]
    ruleset: GameRuleset | None
    turns: list[PlayedTurn] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    error: GameError | None = None
    #: the result the record claims (a result token or the header), if any
    claimed: str | None = None
    #: the comments on the record's result token: how a game off the board ended
    #: (``0-1 {White resigned}``)
    claimed_notes: tuple[str, ...] = ()
    final: GamePosition | None = None
    #: the editor's annotations on the turns played (marks, comments, variations), as
    #: ``validate --json`` reports them; every variation checked from its position
    annotations: list[dict[str, Any]] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def result(self) -> str | None:
        """The rules' result when the game ended by the rules, else what the record claims."""
        if self.final is not None and self.final.result is not None:
            return self.final.result
        return self.claimed if self.claimed in ("1-0", "0-1", "1/2-1/2") else None

    @property
    def game(self) -> AnyGame:
        """The game the record is played in (the Featured Game until its ruleset is known)."""
        return game_of(self.ruleset) if self.ruleset is not None else featured()

    def positions(self) -> list[GamePosition]:
        """Every position from the start, one per turn played."""
        if not self.turns:
            return [self.final] if self.final is not None else []
        return [self.turns[0].before, *(t.after for t in self.turns)]


#: the words of the error where a walk meets an ambiguity its plan has no choice for
Verdict = Callable[[AmbiguousReading], str]
#: a game's ``resolve_action``: the walker hands it the game's turn states unread
Resolve = Callable[[Any, ActionText], tuple[Any, Resolved]]


class _Stop(Exception):
    """Ends the walk at the first error."""


def ruleset_of(
    headers: dict[str, Any],
    default: GameRuleset | None = None,
    base: Path | None = None,
    spans: Callable[[], dict[str, Span]] | None = None,
) -> GameRuleset | None:
    """The front matter's ruleset (a preset, a file, or a mapping), else ``default``; a
    ``setup:`` key (a custom opening, square -> piece) is the ruleset's ``setup`` option.

    A file must lie in ``base``, the record's folder; a record that is no file (a
    stored game, a text) may name presets and mappings only. An error in either key
    is placed where ``spans()`` says that key's value is written (asked only then:
    finding each key's line would cost every valid record for nothing).
    """
    spec = headers.get("ruleset")
    key = "ruleset"
    try:
        if spec is None:
            ruleset = default if default is not None else featured().default_ruleset()
        else:
            ruleset = load_ruleset(spec, base=base, files=base is not None)
        key = "setup"
        if "setup" in headers:
            ruleset = game_of(ruleset).ruleset_from({"setup": headers["setup"]}, ruleset)
    except PbemError as exc:
        where = spans() if spans is not None else {}
        if key in where:  # the record's own line, not one of a ruleset file
            exc.span = where[key]
        raise
    return ruleset


def replay_game(
    game: GameText,
    *,
    strict: bool = False,
    default_ruleset: GameRuleset | None = None,
    base: Path | None = None,
    budget: int | None = None,
) -> Replay:
    """Play ``game`` through the rules as far as it is legal.

    Where an action's look-alike letters have more than one legal reading, the rest of
    the record decides (see ``_Readings``); ``budget`` bounds that search (default
    ``READING_BUDGET`` actions played).
    """
    try:
        ruleset = ruleset_of(game.headers, default_ruleset, base, lambda: game.header_spans)
    except PbemError as exc:
        replay = Replay(headers=dict(game.headers), ruleset=None)
        replay.error = GameError(exc.message, exc.code, exc.span or game.header_span)
        return replay
    if strict:  # every repair is an error: nothing to decide
        return annotated(_walk(game, ruleset, strict, None))
    readings = _Readings(game, ruleset, READING_BUDGET if budget is None else budget)
    return annotated(_as_written_first(readings.decide()))


def _case_only(message: str) -> bool:
    """``read 'PL1L6' as 'Pl1l6'``: a slip of letter case, the same squares as written."""
    parts = message.split("'")
    return len(parts) >= 4 and parts[1].lower() == parts[3].lower()


def _as_written_first(replay: Replay) -> Replay:
    """A record that breaks although look-alike letters were read another way: the error
    says where the record as written broke first, and that it was read on only under the
    look-alike reading (an Oriental ``12.Eb2l2`` read as ``Eb2i2``, the error at 13w)."""
    error = replay.error
    if error is None:
        return replay
    first = next((w for w in replay.warnings if w.code == "repair.square" and w.turn
                  and w.turn != error.turn and not _case_only(w.message)), None)
    if first is None:
        return replay
    why = f" ({first.notes[0]})" if first.notes else ""
    replay.error = replace(error, message=(
        f"{error.message}. The record as written breaks earlier, at {first.turn}{why}; "
        f"it was read on only as a look-alike reading ({first.message}), and under that "
        f"reading it breaks at {error.turn or 'the end'}"))
    return replay


def replay_variation(
    line: GameText, ruleset: GameRuleset | None, before: GamePosition
) -> Replay:
    """A variation's line played from ``before``, the position before the turn it
    replaces (its own variations checked too): what validate checks and the viewers
    step into."""
    replay = Replay(headers={}, ruleset=ruleset)
    walker = _Walker(replay, False, None)
    replay.final = before
    with contextlib.suppress(_Stop):
        walker.walk(line)
    return annotated(replay)


def annotated(replay: Replay) -> Replay:
    """``replay`` with the annotations of its turns: each turn's marks and comments, and
    each variation played from the turn's position; a broken variation is a warning
    where it breaks (a mark never is)."""
    for played in replay.turns:
        text = played.text
        if not (text.marks or text.variations or text.notes):
            continue
        comments = [(n[1:-1].strip(), s) for n, s in zip(text.notes, text.note_spans, strict=False)
                    if n.startswith("{")]
        if text.marks or comments:
            first = min([m.span for m in text.marks] + [s for _, s in comments])
            replay.annotations.append({
                "turn": played.label, "line": first.line, "column": first.column,
                "mark": " ".join(m.mark for m in text.marks) or None,
                "comment": " ".join(c for c, _ in comments) or None,
                "variation": None,
            })
        for variation in text.variations:
            line = replay_variation(variation.game, replay.ruleset, played.before)
            error = line.error
            if error is not None:
                replay.warnings.append(Diagnostic(
                    "annotation.variation",
                    f"the variation after {played.label} breaks at "
                    f"{error.turn or 'its start'}: {error.message}",
                    error.span or variation.span, played.label))
            replay.warnings.extend(w for w in line.warnings
                                   if w.code == "annotation.variation")
            replay.annotations.append({
                "turn": played.label, "line": variation.span.line,
                "column": variation.span.column, "mark": None, "comment": None,
                "variation": {
                    "text": variation.text, "valid": error is None,
                    "error": None if error is None else {
                        "line": error.span.line if error.span else None,
                        "column": error.span.column if error.span else None,
                        "turn": error.turn, "message": error.message,
                    },
                },
            })
    return replay


def _walk(
    game: GameText, ruleset: GameRuleset | None, strict: bool, readings: _Plan | None
) -> Replay:
    """One walk of the whole record; with ``readings``, ambiguities are read as it says."""
    replay = Replay(headers=dict(game.headers), ruleset=ruleset)
    walker = _Walker(replay, strict, readings)
    replay.final = replay.game.initial(ruleset)
    with contextlib.suppress(_Stop):
        for key in game.headers:
            if key not in KNOWN_HEADERS:
                walker.warn(
                    Diagnostic(
                        "record.header",
                        f"unknown front matter key {key!r} (known: {', '.join(KNOWN_HEADERS)})",
                        game.header_span,
                    )
                )
        walker.walk(game)
    return replay


#: at most this many actions are played, over every reading tried, when the rest of a
#: record decides between the legal readings of look-alike letters; past it the record
#: is refused as ambiguous (a record of many ambiguities must not take exponential time)
READING_BUDGET = 20_000
_UNBOUNDED = 1 << 62


class _Branch(Exception):
    """A walk met an ambiguity its plan does not decide."""

    def __init__(self, ambiguity: AmbiguousReading):
        super().__init__()
        self.ambiguity = ambiguity


class _OutOfBudget(Exception):
    """The search for the one legal reading played ``READING_BUDGET`` actions."""


@dataclass(slots=True)
class _Plan:
    """Which reading to take at each ambiguity a walk meets, in the order met.

    Past the end of ``choices`` a walk stops with ``_Branch``, or, when ``verdict`` is
    set, fails there with the error ``verdict`` words.
    """

    choices: tuple[int, ...]
    budget: list[int]
    verdict: Verdict | None = None
    met: int = 0


class _Readings:
    """The rest of a record decides between the legal readings of look-alike letters.

    A depth-first search over every combination of readings: each walk replays the
    record from the start with a plan of readings and stops at the first ambiguity the
    plan leaves open, which then branches. Most wrong readings break the record within
    a turn or two, so a record with k ambiguities takes about 2k+1 walks. The search
    stops as soon as two combinations carry the record to its end, and after
    ``budget`` actions played in all by the walks after the first (so the bound costs a
    record without ambiguities nothing, however long).
    """

    def __init__(self, game: GameText, ruleset: GameRuleset | None, budget: int):
        self.game = game
        self.ruleset = ruleset
        self.budget = [budget]
        self.limit = budget

    def walk(
        self, choices: tuple[int, ...], verdict: Verdict | None = None,
        budget: list[int] | None = None,
    ) -> Replay | _Branch:
        """One walk under ``choices``; ``budget`` (a shared counter) bounds the actions."""
        plan = _Plan(choices, [_UNBOUNDED] if budget is None else budget, verdict)
        try:
            return _walk(self.game, self.ruleset, False, plan)
        except _Branch as branch:
            return branch

    def decide(self) -> Replay:
        good: list[tuple[tuple[int, ...], Replay]] = []
        broken: list[tuple[tuple[int, ...], Replay]] = []
        stack: list[tuple[int, ...]] = [()]
        try:
            while stack and len(good) < 2:
                plan = stack.pop()
                # the first walk is the plain one, bounded by nothing but the record
                out = self.walk(plan, budget=self.budget if plan else None)
                if isinstance(out, _Branch):
                    n = len(out.ambiguity.readings)
                    stack.extend((*plan, i) for i in reversed(range(n)))
                elif not plan:
                    return out  # no ambiguity: the usual case, one walk
                elif out.valid:
                    good.append((plan, out))
                else:
                    broken.append((plan, out))
        except _OutOfBudget:
            return self._fail_at((), self._out_of_budget)
        if len(good) == 1:
            return good[0][1]
        if good:  # two readings carry the record to its end: the first ambiguity they differ at
            (a, _), (b, _) = good
            common = 0
            while a[common] == b[common]:
                common += 1
            return self._fail_at(a[:common], self._two_carry)
        return self._fail_at((), lambda amb: self._none_carry(amb, broken))

    def _fail_at(self, choices: tuple[int, ...], verdict: Verdict) -> Replay:
        out = self.walk(choices, verdict)
        assert isinstance(out, Replay)
        return out

    def _out_of_budget(self, amb: AmbiguousReading) -> str:
        return (
            f"{_readings_words(amb)}, and trying which one the rest of the record allows "
            f"took more than {self.limit:,} actions: write the squares plainly"
        )

    @staticmethod
    def _two_carry(amb: AmbiguousReading) -> str:
        return (
            f"{_readings_words(amb)}, and more than one of these carries the record to its "
            "end: write the squares plainly"
        )

    @staticmethod
    def _none_carry(
        amb: AmbiguousReading, broken: list[tuple[tuple[int, ...], Replay]]
    ) -> str:
        # for each reading, where the record breaks furthest under it
        where: list[str] = []
        for i, reading in enumerate(amb.readings):
            under = [r for plan, r in broken if plan[0] == i]
            if not under:
                continue
            furthest = max(under, key=lambda r: len(r.turns))
            error = furthest.error
            assert error is not None
            at = f" at {error.turn}" if error.turn else ""
            where.append(f"under {reading!r} it breaks{at} ({error.message})")
        return (
            f"{_readings_words(amb)}, and under none of them is the rest of the record legal: "
            + "; ".join(where)
        )


def _readings_words(amb: AmbiguousReading) -> str:
    written = amb.args[0].split(" can be read as ")[0]
    return f"{written} can be read as " + " or ".join(repr(r) for r in amb.readings)


def replay_turn(
    position: GamePosition, turn: TurnText, headers: dict[str, Any] | None = None
) -> Replay:
    """Play one turn from ``position`` exactly as a record's turn is played.

    The referee checks a mailed turn with this against its latest snapshot, so the
    referee and ``pbem validate`` can never disagree and nothing is replayed from the
    start. The result holds the played turn, or the error, as for a whole record.
    """
    replay = Replay(headers=dict(headers or {}), ruleset=position.ruleset, final=position)
    with contextlib.suppress(_Stop):
        _Walker(replay, False, None).turn(turn, position.to_move, position.turn_number())
    return replay


#: Side.letter, by side: the walker labels every entry and turn
_LETTER = ("w", "b")
# module names: on Python 3.11 ``Side.WHITE`` costs a call of EnumType's __getattr__ hook


def _label(number: int, side: Side) -> str:
    """``11w``: a turn's label, as messages name it (an entry's made only where shown).
    Every played turn has one: those of the usual entry numbers are made once (writing a
    number into an f-string costs a turn about 1,000 machine instructions)."""
    if 0 < number < _LABELED:
        return _LABELS[number][side]
    return f"{number}{_LETTER[side]}"


_LABELED = 256
_LABELS = tuple((f"{n}w", f"{n}b") for n in range(_LABELED))


class _Walker:
    def __init__(self, replay: Replay, strict: bool, plan: _Plan | None):
        self.replay = replay
        self.game = replay.game
        self.strict = strict
        self.plan = plan
        self.result_seen: ResultText | None = None

    def ambiguous(
        self, fn: Resolve, state: object, action: ActionText, amb: AmbiguousReading
    ) -> tuple[object, Resolved]:
        """``fn(state, action)`` raised ``amb``: the action is read as the plan says (the
        walker calls ``fn`` itself, spending the plan's budget, for every action)."""
        plan = self.plan
        if plan is None:
            raise amb
        n = plan.met
        plan.met += 1
        if n < len(plan.choices):
            return self.chosen(fn, state, action, amb, plan.choices[n])
        if plan.verdict is None:
            raise _Branch(amb) from None
        raise NotationError(plan.verdict(amb), span=amb.span, code=amb.code) from None

    @staticmethod
    def chosen(
        fn: Resolve, state: object, action: ActionText, amb: AmbiguousReading, index: int
    ) -> tuple[object, Resolved]:
        """``action`` read the ``index``-th way, its warning naming the other readings."""
        with reading_chosen(index):
            state, resolved = fn(state, action)
        others = " or ".join(repr(r) for i, r in enumerate(amb.readings) if i != index)
        words = (
            f"; {others} would be legal here too, but the rest of the record is legal "
            "only under this reading"
        )
        warnings = list(resolved.warnings)
        first = next((i for i, w in enumerate(warnings) if w.code == "repair.square"), None)
        if first is None:  # pragma: no cover - an ambiguity always comes from a repair
            return state, resolved
        w = warnings[first]
        warnings[first] = Diagnostic(w.code, w.message + words, w.span, w.turn, w.notes)
        return state, replace(resolved, warnings=tuple(warnings))

    @property
    def position(self) -> GamePosition:
        """The position the walk has reached (the start is set before the first entry)."""
        assert self.replay.final is not None
        return self.replay.final

    def warn(self, d: Diagnostic) -> None:
        if self.strict:
            self.fail(d.message, d.code, d.span, d.turn)
        self.replay.warnings.append(d)

    def fail(
        self,
        message: str,
        code: str,
        span: Span | None,
        turn: str | None = None,
        action: str | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.replay.error = GameError(message, code, span, turn, action, options)
        raise _Stop

    # -- the walk -------------------------------------------------------------------
    def walk(self, game: GameText) -> None:
        header_result = game.headers.get("result")
        if header_result is not None and str(header_result) not in RESULTS:
            self.fail(
                f"the front matter's result {header_result!r} is not one of {', '.join(RESULTS)}",
                "record.result",
                game.header_span,
            )
        items = game.items
        for n, item in enumerate(items):
            if type(item) is EntryText or isinstance(item, EntryText):  # the usual item first
                if self.result_seen is not None:
                    self.fail(
                        f"entry {item.number} follows the result {self.result_seen.text!r}: "
                        "nothing may follow the result",
                        "record.after-result",
                        item.span,
                    )
                self.entry(item)
            elif isinstance(item, ResultText):
                self.result_seen = item
                self.stray(item.stray, "after the result")
            elif isinstance(item, LabelText):
                if "?" in item.text:
                    fixed = item.text.replace("?", "-")
                    self.warn(
                        Diagnostic("repair.label", f"read {item.text!r} as {fixed!r}", item.span)
                    )
            elif isinstance(item, ListMarkerText):
                after = items[n + 1] if n + 1 < len(items) else None
                what = "the result" if isinstance(after, ResultText) else "the entry"
                self.warn(
                    Diagnostic(
                        "repair.list-marker",
                        f"ignored the list marker {item.text!r} before {what}",
                        item.span,
                    )
                )
        self.check_result(game, header_result)

    def entry(self, entry: EntryText) -> None:
        position = self.replay.final  # self.position, without the property's call
        assert position is not None
        number, side = position.turn_number(), position.to_move  # what the walk expects
        first = WHITE if entry.white is not None else BLACK
        if position.phase is OVER:
            self.fail(
                f"the game is over ({self.over_words()}): nothing more may be played",
                "turn.game-over",
                entry.span,
                _label(entry.number, first),
            )
        if first is not side:
            missing = f"{side.title}'s turn {number}"
            self.fail(
                f"{missing} is missing: entry {entry.number} begins with {first.title}'s turn",
                "record.turn-order",
                entry.span,
                _label(entry.number, first),
            )
        if entry.stray is not None:
            self.stray(entry.stray, "after the move number", _label(entry.number, first))
        if entry.number != number:
            self.warn(
                Diagnostic(
                    "repair.number",
                    f"entry {entry.number} should be numbered {number}; read as {number}",
                    entry.span,
                    f"{number}{side.letter}",
                )
            )
        if entry.white is not None and entry.black is not None and entry.white.comma is not None:
            self.warn(
                Diagnostic(
                    "repair.comma",
                    "ignored the stray comma between White's and Black's turns",
                    entry.white.comma,
                    f"{number}w",
                )
            )
        if entry.white is not None:
            self.turn(entry.white, WHITE, number)
        if entry.black is not None:
            after = self.replay.final  # self.position, without the property's call
            assert after is not None
            if after.phase is OVER:
                self.fail(
                    f"the game is over ({self.over_words()}): Black's turn is never played",
                    "turn.game-over",
                    entry.black.span,
                    f"{number}b",
                    format_action(entry.black.actions[0]),
                )
            self.turn(entry.black, BLACK, number)

    def turn(self, turn: TurnText, side: Side, number: int) -> None:
        label = _label(number, side)
        before = self.replay.final  # self.position, without the property's call
        assert before is not None
        game = self.game
        resolved: list[Resolved] = []
        current: ActionText | None = None
        state: object = None
        try:
            state = game.begin_turn(before, turn.actions)
            resolve = game.resolve_action
            budget = self.plan.budget if self.plan is not None else [_UNBOUNDED]
            for action in turn.actions:
                current = action
                budget[0] -= 1  # the plan's budget bounds the search for readings
                if budget[0] < 0:
                    raise _OutOfBudget
                try:
                    state, r = resolve(state, action)
                except AmbiguousReading as amb:  # read as the plan says, if there is one
                    state, r = self.ambiguous(resolve, state, action, amb)
                resolved.append(r)
            after = game.finish_turn(state)
        except PbemError as exc:
            if isinstance(exc, ActionRuleError):
                current = turn.actions[exc.index]
            where = current if current is not None else turn.actions[0]
            message, options = exc.message, getattr(exc, "options", ())
            if isinstance(exc, RuleError) and current is not None and state is not None:
                message, options = game.explain_refusal(state, current, exc)
            self.fail(
                message,
                exc.code,
                exc.span or where.span,
                label,
                format_action(where),
                options,
            )
        for r in resolved:
            if r.warnings:
                for w in r.warnings:
                    self.warn(Diagnostic(w.code, w.message, w.span, label, w.notes))
        if turn.stray is not None:
            self.stray(turn.stray, "at the end of the line", label)
        self.replay.turns.append(
            _NEW_PLAYED(PlayedTurn, label, side, turn, tuple(resolved), before, after)
        )
        self.replay.final = after

    def stray(self, mark: StrayMark | None, where: str, label: str | None = None) -> None:
        """Warn of a scan's stray comma or full stop (``0-1,``, ``7.,``, ``Be5.``)."""
        if mark is not None:
            comma = mark.char == ","
            code, word = ("repair.comma", "comma") if comma else ("repair.stop", "full stop")
            self.warn(Diagnostic(code, f"ignored the stray {word} {where}", mark.span, label))

    def over_words(self) -> str:
        last = self.replay.turns[-1].label if self.replay.turns else None
        return self.replay.game.end_words_after(self.position, last)

    def check_result(self, game: GameText, header_result: object) -> None:
        pos = self.position
        claimed = None
        span = game.header_span
        if header_result is not None and str(header_result) != "*":
            claimed = str(header_result)
        token = self.result_seen
        if token is not None:
            span = token.span
            self.replay.claimed_notes = token.notes
            if token.text == "wins":
                if not self.replay.turns:
                    self.fail("'wins' needs a turn before it", "record.result", span)
                wins = "1-0" if self.replay.turns[-1].side is Side.WHITE else "0-1"
                if claimed is not None and claimed != wins:
                    self.fail(
                        f"'wins' after {self.replay.turns[-1].side.title}'s turn means {wins}, "
                        f"but the front matter says {claimed!r}",
                        "record.result",
                        span,
                    )
                claimed = wins
            elif token.text != "*":
                if claimed is not None and claimed != token.text:
                    self.fail(
                        f"the result {token.text!r} differs from the front matter's {claimed!r}",
                        "record.result",
                        span,
                    )
                claimed = token.text
        self.replay.claimed = claimed
        if pos.phase is Phase.OVER and claimed is not None and claimed != pos.result:
            self.fail(
                f"the record gives {claimed}, but the game ended with {pos.result} "
                f"({self.replay.game.score(pos)})",
                "record.result",
                span,
            )
