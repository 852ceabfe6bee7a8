"""Play a parsed game through the rules: the heart of ``validate`` and ``replay``.

Like python-chess's PGN visitor, the walk never raises for a bad game: it stops
at the first illegal turn and records the error with its turn, action, line and
column, keeping every legal turn before it. A wrong turn changes nothing: the
final position is the one after the last legal turn.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import Diagnostic, PbemError, RuleError, Span
from pbem.notation.format import format_action
from pbem.notation.syntax import (
    ActionText,
    EntryText,
    GameText,
    LabelText,
    ListMarkerText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    ResultText,
    SacrificeText,
    TurnText,
)
from pbem.records.rulesets import load_ruleset
from pbem.rules.game import Resolved
from pbem.rules.geometry import is_square_name, parse_square
from pbem.rules.pieces import Side
from pbem.rules.realm.canonical import action_text
from pbem.rules.realm.legal import legal_moves_for
from pbem.rules.realm.position import Phase, Position, initial_position
from pbem.rules.realm.resolve import (
    resolve_move,
    resolve_pass,
    resolve_placement,
    resolve_rearrangement,
    resolve_sacrifice,
)
from pbem.rules.realm.ruleset import FEATURED, Ruleset
from pbem.rules.realm.turns import TurnState, apply_move, begin_turn, finish_turn
from pbem.rules.repairs import square_readings

KNOWN_HEADERS = (
    "game", "ruleset", "white", "black", "event", "site", "date", "finished", "source", "result",
)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    label: str
    side: Side
    text: TurnText
    resolved: tuple[Resolved, ...]
    before: Position
    after: Position


@dataclass(frozen=True, slots=True)
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
    ruleset: Ruleset | None
    turns: list[PlayedTurn] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    error: GameError | None = None
    #: the result the record claims (a result token or the header), if any
    claimed: str | None = None
    #: the comments on the record's result token: how a game off the board ended
    #: (``0-1 {White resigned}``)
    claimed_notes: tuple[str, ...] = ()
    final: Position | None = None

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def result(self) -> str | None:
        """The rules' result when the game ended by the rules, else what the record claims."""
        if self.final is not None and self.final.result is not None:
            return self.final.result
        return self.claimed if self.claimed in ("1-0", "0-1", "1/2-1/2") else None

    def positions(self) -> list[Position]:
        """Every position from the start, one per turn played."""
        if not self.turns:
            return [self.final] if self.final is not None else []
        return [self.turns[0].before, *(t.after for t in self.turns)]


#: an error names the legal moves of the refused piece when there are at most this many
ALTERNATIVES = 12


def _with_alternatives(
    state: TurnState, text: MoveText, exc: RuleError
) -> tuple[str, tuple[str, ...]]:
    """The error's message and options; where the rules refused a move of the mover's own
    movable piece and name no choices themselves, the options are that piece's legal
    moves (when there are few), or the message says it has none."""
    if exc.options or exc.code in ("turn.moved-once", "turn.game-over"):
        return exc.message, exc.options
    name = square_readings(text.frm)[0][0]
    if not is_square_name(name):
        return exc.message, ()
    frm = parse_square(name)
    position = state.position
    piece = position.board[frm]
    if piece is None or piece.side is not position.to_move or not piece.mobile:
        return exc.message, ()
    moves = legal_moves_for(state, frm)
    if not moves:
        return f"{exc.message}; the {piece.kind.title} on {name} has no legal move now", ()
    if len(moves) > ALTERNATIVES:
        return exc.message, ()
    board = position.board
    return exc.message, tuple(
        format_action(action_text(m, apply_move(state, m)[1], board)) for m in moves
    )


class _Stop(Exception):
    """Ends the walk at the first error."""


def ruleset_of(
    headers: dict[str, Any], default: Ruleset | None = None, base: Path | None = None
) -> Ruleset:
    """The front matter's ruleset (a preset, a file, or a mapping), else ``default``."""
    spec = headers.get("ruleset")
    if spec is None:
        return default or FEATURED
    return load_ruleset(spec, base=base)


def replay_game(
    game: GameText,
    *,
    strict: bool = False,
    default_ruleset: Ruleset | None = None,
    base: Path | None = None,
) -> Replay:
    """Play ``game`` through the rules as far as it is legal."""
    replay = Replay(headers=dict(game.headers), ruleset=None)
    try:
        replay.ruleset = ruleset_of(game.headers, default_ruleset, base)
    except PbemError as exc:
        replay.error = GameError(exc.message, exc.code, game.header_span)
        return replay
    walker = _Walker(replay, strict)
    replay.final = initial_position(replay.ruleset)
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


def replay_turn(
    position: Position, turn: TurnText, headers: dict[str, Any] | None = None
) -> Replay:
    """Play one turn from ``position`` exactly as a record's turn is played.

    The referee checks a mailed turn with this against its latest snapshot, so the
    referee and ``pbem validate`` can never disagree and nothing is replayed from the
    start. The result holds the played turn, or the error, as for a whole record.
    """
    replay = Replay(headers=dict(headers or {}), ruleset=position.ruleset, final=position)
    with contextlib.suppress(_Stop):
        _Walker(replay, False).turn(turn, position.to_move, position.turn_number())
    return replay


class _Walker:
    def __init__(self, replay: Replay, strict: bool):
        self.replay = replay
        self.strict = strict
        self.result_seen: ResultText | None = None

    @property
    def position(self) -> Position:
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
        for item in game.items:
            if self.result_seen is not None and isinstance(item, EntryText):
                self.fail(
                    f"entry {item.number} follows the result {self.result_seen.text!r}: "
                    "nothing may follow the result",
                    "record.after-result",
                    item.span,
                )
            if isinstance(item, EntryText):
                self.entry(item)
            elif isinstance(item, ResultText):
                self.result_seen = item
            elif isinstance(item, LabelText):
                if "?" in item.text:
                    fixed = item.text.replace("?", "-")
                    self.warn(
                        Diagnostic("repair.label", f"read {item.text!r} as {fixed!r}", item.span)
                    )
            elif isinstance(item, ListMarkerText):
                self.warn(
                    Diagnostic(
                        "repair.list-marker",
                        f"ignored the list marker {item.text!r} before the entry",
                        item.span,
                    )
                )
        self.check_result(game, header_result)

    def expected(self) -> tuple[int, Side]:
        pos = self.position
        return pos.turn_number(), pos.to_move

    def entry(self, entry: EntryText) -> None:
        number, side = self.expected()
        first = Side.WHITE if entry.white is not None else Side.BLACK
        label = f"{entry.number}{first.letter}"
        if self.position.phase is Phase.OVER:
            self.fail(
                f"the game is over ({self.over_words()}): nothing more may be played",
                "turn.game-over",
                entry.span,
                label,
            )
        if first is not side:
            missing = f"{side.title}'s turn {number}"
            self.fail(
                f"{missing} is missing: entry {entry.number} begins with {first.title}'s turn",
                "record.turn-order",
                entry.span,
                label,
            )
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
            self.turn(entry.white, Side.WHITE, number)
        if entry.black is not None:
            if self.position.phase is Phase.OVER:
                self.fail(
                    f"the game is over ({self.over_words()}): Black's turn is never played",
                    "turn.game-over",
                    entry.black.span,
                    f"{number}b",
                    format_action(entry.black.actions[0]),
                )
            self.turn(entry.black, Side.BLACK, number)

    def turn(self, turn: TurnText, side: Side, number: int) -> None:
        label = f"{number}{side.letter}"
        before = self.position
        resolved: list[Resolved] = []
        current: ActionText | None = None
        try:
            actions = turn.actions
            moving = (MoveText, SacrificeText)
            if len(actions) > 1 and not all(isinstance(a, moving) for a in actions):
                current = next(a for a in actions[1:] if not isinstance(a, moving))
                raise RuleError(
                    "turn.single",
                    "a set-up placement, a Rearrangement or a pass is the whole turn: "
                    "nothing else may be joined to it with a comma",
                )
            first = turn.actions[0]
            if isinstance(first, moving):
                state = begin_turn(before)
                for action in turn.actions:
                    current = action
                    if state.over:
                        raise RuleError(
                            "turn.game-over",
                            f"the game ended the moment {side.title} created its last Base: "
                            "nothing more is played, not even the rest of the turn",
                        )
                    if isinstance(action, SacrificeText):
                        state, r = resolve_sacrifice(state, action)
                    else:
                        assert isinstance(action, MoveText)
                        state, r = resolve_move(state, action)
                    resolved.append(r)
                after = finish_turn(state)
            else:
                current = first
                if isinstance(first, PlacementText):
                    after, r = resolve_placement(before, first)
                elif isinstance(first, RearrangementText):
                    after, r = resolve_rearrangement(before, first)
                else:
                    assert isinstance(first, PassText)
                    after, r = resolve_pass(before, first)
                resolved.append(r)
        except PbemError as exc:
            where = current if current is not None else turn.actions[0]
            message, options = exc.message, getattr(exc, "options", ())
            if isinstance(exc, RuleError) and isinstance(current, MoveText):
                # a Move is only tried inside the loop, so ``state`` is the state it met
                message, options = _with_alternatives(state, current, exc)
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
                    self.warn(Diagnostic(w.code, w.message, w.span, label))
        self.replay.turns.append(PlayedTurn(label, side, turn, tuple(resolved), before, after))
        self.replay.final = after

    def over_words(self) -> str:
        pos = self.position
        if pos.end == "bases":
            last = self.replay.turns[-1]
            return f"{last.side.title} created its last Base in turn {last.label}"
        return "neither side has a legal turn"

    def check_result(self, game: GameText, header_result: Any) -> None:
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
            from pbem.rules.realm.scoring import score

            self.fail(
                f"the record gives {claimed}, but the game ended with {pos.result} "
                f"({score(pos).describe()})",
                "record.result",
                span,
            )
