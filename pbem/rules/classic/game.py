"""Classic Realm behind the one game interface (``pbem.rules.game``).

A thin adapter over this package's engine: written actions are resolved against the
position (look-alike squares repaired, forced events inferred, both with a warning),
moves are written back with every event, and positions go to and from JSON. Medieval
Realm subclasses it (``pbem.rules.medieval.game``): same adapter, another Variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from pbem.errors import Diagnostic, RuleError
from pbem.rules.classic import legal, turns
from pbem.rules.classic.actions import Dislodged, Move, MovedOff, Refilled
from pbem.rules.classic.movement import has_move
from pbem.rules.classic.pieces import PIECE_BY_CODE
from pbem.rules.classic.position import Board, Position, initial_position
from pbem.rules.classic.ruleset import CLASSIC_RULES, OPTION_HELP, Ruleset
from pbem.rules.game import (
    ALTERNATIVES,
    END_WORDS,
    JSONObject,
    Mark,
    NotationWords,
    Phase,
    PieceMoves,
    PieceStyle,
    PieceTable,
    Resolved,
    SideTable,
    join_words,
    with_article,
)
from pbem.rules.geometry import CENTER, SQUARE_NAMES, parse_square, square_name
from pbem.rules.move_turns import MoveEngine, MoveTurn, MoveTurnGame, Pass, Placement
from pbem.rules.pieces import Kind, Side
from pbem.rules.repairs import resolve_with_repairs, square_at, square_readings
from pbem.rules.written import (
    SQUARE_TEXTS,
    ActionText,
    EventText,
    MoveText,
    PassText,
    PlacementText,
    format_action,
)

_KIND_OF = {"E": Kind.ENFORCER, "P": Kind.POWER, "B": Kind.BASE}


#: a turn of Classic or Medieval Realm under way
CenterTurn = MoveTurn[Position, turns.TurnState]


# -- writing actions back ----------------------------------------------------------------
def move_text(move: Move, board: Board) -> MoveText:
    """A complete Move as written, every event in the order it happens."""
    p = board[move.frm]
    assert p is not None
    events: list[EventText] = []
    if move.refill is not None:
        q = board[move.refill]
        assert q is not None
        events.append(EventText("+", q.kind.value, SQUARE_TEXTS[move.refill]))
    if move.dislodge is not None:
        q = board[move.to]
        assert q is not None
        events.append(EventText("x", q.kind.value, SQUARE_TEXTS[move.dislodge]))
    return MoveText(
        p.kind.value,
        tuple(SQUARE_TEXTS[s] for s in move.path),
        tuple(events) or None,
        off=move.off,
    )


def action_text(action: Move | Placement | Pass, board: Board) -> ActionText:
    if isinstance(action, Move):
        return move_text(action, board)
    if isinstance(action, Placement):
        return PlacementText(action.kind.value, SQUARE_TEXTS[action.square])
    return PassText()


def canonical_of(resolved: Resolved) -> ActionText:
    """``Resolved.writer`` of Classic and Medieval (whose Resolved hold their own values)."""
    return action_text(cast("Move | Placement | Pass", resolved.action),
                       cast(Board, resolved.board))


# -- reading moves ---------------------------------------------------------------------------
def _check_letter(position: Position, letter: str, sq: int, what: str) -> None:
    """The written piece letter must be the piece's on ``sq`` (when there is one)."""
    p = position.board[sq]
    if p is None or p.kind.value == letter:
        return
    variant = position.variant
    kind = _KIND_OF.get(letter)
    wrote = (
        variant.names[kind][0] if kind is not None and kind in variant.names
        else f"piece {letter}"
    )
    raise RuleError(
        "move.letter",
        f"{what} on {square_name(sq)} is {variant.piece_words(p)}, written "
        f"{p.kind.value}, not a {wrote} ({letter})",
    )


def _attempt_move(
    state: turns.TurnState, text: MoveText, names: list[str]
) -> tuple[turns.TurnState, Resolved]:
    position = state.position
    variant = position.variant
    n = len(text.squares)
    path = tuple(square_at(name) for name in names[:n])
    _check_letter(position, text.piece, path[0], "the piece")
    refill = dislodge = None
    events = text.events or ()
    order: list[str] = []
    for e, name in zip(events, names[n:], strict=True):
        sq = square_at(name)
        if e.prefix == "+" and refill is None and e.facing is None:
            refill = sq
            order.append("+")
            _check_letter(position, e.piece, sq, "the piece rescued" if not
                          variant.refill_from_opponent else "the piece that replaces it")
        elif e.prefix == "x" and dislodge is None and e.facing is None:
            dislodge = sq
            order.append("x")
            _check_letter(position, e.piece, path[-1], "the piece dislodged")
        else:
            raise RuleError(
                "event.unknown",
                f"({e.prefix}{e.piece}{e.square.text}{e.facing or ''}) is not an event of "
                f"{variant.title}: a move writes (+E…) for the piece that "
                f"{'replaces' if variant.refill_from_opponent else 'is rescued onto'} the "
                "Center it left and (xE…) for the enemy piece it dislodges, once each",
            )
    written = Move(path, text.off, refill, dislodge)
    after, happened, done = turns.apply_move(state, written)
    warnings: list[Diagnostic] = []
    board = position.board
    label = format_action(move_text(Move(path, text.off), board))
    inferred = []
    if done.refill is not None and refill is None:
        refilled = move_text(Move(path, text.off, done.refill), board).events
        assert refilled is not None  # a move with a refill writes it
        inferred.append(refilled[0])
    if done.dislodge is not None and dislodge is None:
        q = board[done.to]
        assert q is not None
        inferred.append(EventText("x", q.kind.value, SQUARE_TEXTS[done.dislodge]))
    if inferred:
        words = ",".join(f"{e.prefix}{e.piece}{e.square.text}" for e in inferred)
        warnings.append(Diagnostic(
            "infer.event",
            f"the record leaves out ({words}), which the rules force after {label} "
            "(there is no other choice); inferred",
            text.span,
        ))
    elif order == ["x", "+"]:
        warnings.append(Diagnostic(
            "repair.event-order",
            f"the events after {label} happen in the order "
            f"{format_action(move_text(done, board))[len(label):]}",
            text.span,
        ))
    resolved = Resolved(done, tuple(happened), board, tuple(warnings), writer=canonical_of)
    return after, resolved


class ClassicGame(MoveTurnGame[Ruleset, Position, turns.TurnState]):
    name: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic Realm"
    json_name: ClassVar[str] = "classic"
    facing: ClassVar[bool] = False
    option_help: ClassVar[Mapping[str, str]] = {
        k: v for k, v in OPTION_HELP.items() if k in CLASSIC_RULES.variant.options
    }
    pieces: ClassVar[PieceTable] = PieceTable(
        (PieceStyle("E", "Enforcer", "Enforcers", "disc", "E"),)
    )
    rules = CLASSIC_RULES
    engine = MoveEngine(
        turns.begin_turn, lambda moves: turns.finish_turn(moves)[0], turns.apply_placement,
        turns.apply_pass, has_move, canonical_of,
    )
    turn_words: ClassVar[str] = (
        "a turn is a move (two with a double move), a placement during set-up, or a pass"
    )
    mail_examples: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Eb5b8(+Ea4,xEc7)", "your move: each Center it lands on, then"),
        ("", "its events (a rescue, a dislodging)"),
        ("Eb2b5e5", "a move that goes on over a friend on b5"),
        ("12.Eb5b8", "a number in front is checked (12. White, 12... Black)"),
        ("Eb5b8,Ee5e8", "a double move (option double_moves)"),
        ("Eb5", "a placement (option setup: placement)"),
    )
    notation_words: ClassVar[NotationWords] = NotationWords(
        move="Eb5b8", placement="Eb5", taken="xEc7", brought="+Ea4", facing="",
        rearrangement="", fixed="",
    )
    notation_key_lines: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("Eb5b8", "a move from b5 to the adjacent Center b8: the letter, then every Center "
                  "it lands on", ""),
        ("Eb2b5e5", "a continuing move: it lands on a friend on b5 and goes on to e5", ""),
        ("…(+Ea4)", "in brackets after a move, what it made happen: your piece on the "
                    "Border square a4 rescued onto the Center the mover left", ""),
        ("…(xEc7)", "the enemy piece on the Center it lands on dislodged onto c7", ""),
        ("Eb5", "a placement on b5", "placement"),
        ("Eb5b8,Ee5e8", "a double move", "double_moves"),
    )
    rules_page: ClassVar[str] = "games/classic.md"
    about: ClassVar[tuple[str, str]] = (
        "Classic Realm: eight pieces a side move from Center to adjacent Center, "
        "dislodging enemy pieces onto the Border squares (the water); the side that dunks "
        "all eight enemy pieces wins.",
        "A turn is the piece letter and every Center it lands on, with what happened in "
        "brackets: Eb5b8(xEc7) moves b5 to b8 and dislodges the enemy piece there to c7.",
    )

    # -- play ----------------------------------------------------------------------------
    def initial(self, ruleset: Ruleset) -> Position:
        return initial_position(ruleset)

    def resolve_move(
        self, moves: turns.TurnState, text: MoveText
    ) -> tuple[turns.TurnState, Resolved]:
        return resolve_with_repairs(text, lambda names: _attempt_move(moves, text, names))

    def can_continue(self, state: CenterTurn) -> bool:
        if state.done is not None:
            return False
        if state.moves is None:
            return True
        return (
            not state.moves.over
            and state.moves.moves < 2
            and turns.may_double(state.start)
        )

    def explain_refusal(
        self, state: CenterTurn, text: ActionText, error: RuleError
    ) -> tuple[str, tuple[str, ...]]:
        """A refused move of the mover's own piece on a Center names that piece's legal
        moves (when there are few), or says it has none."""
        if not isinstance(text, MoveText) or error.options or error.code.startswith(
            ("turn.", "double.")
        ):
            return error.message, error.options
        name = square_readings(text.frm)[0][0]
        if name not in SQUARE_NAMES:
            return error.message, ()
        position = self.state_position(state)
        frm = parse_square(name)
        p = position.board[frm]
        if p is None or p.side is not position.to_move or frm not in CENTER:
            return error.message, ()
        found = legal.legal_moves_from(position, frm)
        if not found:
            return f"{error.message}; the piece on {name} has no legal move now", ()
        if len(found) > ALTERNATIVES:
            return error.message, ()
        return error.message, tuple(
            format_action(move_text(m, position.board)) for m in found
        )

    def legal_actions(self, state: CenterTurn) -> list[ActionText]:
        if state.done is not None:
            return []
        if state.moves is None:
            position = state.start
            if position.phase is Phase.SETUP:
                return [action_text(p, position.board) for p in legal.legal_placements(position)]
            if position.phase is not Phase.PLAY:
                return []
            moves = legal.legal_moves(position)
            if not moves:
                return [PassText()]
            return [move_text(m, position.board) for m in moves]
        board = state.moves.position.board
        return [move_text(m, board) for m in legal.second_moves(state.moves)]

    def legal_by_piece(self, position: Position) -> list[PieceMoves]:
        if position.phase is not Phase.PLAY:
            return []
        board = position.board
        found: dict[int, list[str]] = {}
        for m in legal.legal_moves(position):
            found.setdefault(m.frm, []).append(format_action(move_text(m, board)))
        return [
            PieceMoves(sq, piece, tuple(texts), len(texts))
            for sq, texts in found.items()
            if (piece := board[sq]) is not None  # always: a move's piece is on its square
        ]

    # -- the end -----------------------------------------------------------------------------
    def score(self, position: Position) -> str:
        w, b = (len(position.on_centers(s)) for s in Side)
        return f"pieces on Centers: White {w}, Black {b}"

    def end_words(self, position: Position, last_label: str | None = None) -> str:
        end = position.end or ""
        if end in ("dunked", "off") and last_label is not None and position.result in (
            "1-0", "0-1"
        ):
            winner = Side.WHITE if position.result == "1-0" else Side.BLACK
            if end == "dunked":
                return (
                    f"{winner.title} dunked the last of {winner.other.title}'s pieces on a "
                    f"Center in turn {last_label}"
                )
            return f"{winner.title} moved its last piece off the board in turn {last_label}"
        return _END_WORDS.get(end) or END_WORDS.get(end, "the game is not over")

    # -- interchange ---------------------------------------------------------------------------
    def position_to_json(self, pos: Position) -> JSONObject:
        data: dict[str, Any] = {
            "game": self.json_name,
            "phase": pos.phase.value,
            "to_move": None if pos.phase is Phase.OVER else pos.to_move.key,
            "board": {SQUARE_NAMES[s]: p.code for s, p in enumerate(pos.board) if p is not None},
        }
        data.update(self.json_extras(pos))
        data["result"] = pos.result
        return data

    def json_extras(self, pos: Position) -> JSONObject:
        """The game's own keys of the JSON besides the board (Medieval: ``off``)."""
        return {}

    def position_from_json(self, data: JSONObject) -> Position:
        """The board, phase, side to move, pieces moved off and result back from the JSON
        (with the game's standard rules; the placement rules while in set-up)."""
        board: list[Any] = [None] * len(SQUARE_NAMES)
        for name, code in data["board"].items():
            board[parse_square(name)] = PIECE_BY_CODE[code]
        phase = Phase(data["phase"])
        ruleset = self.rules.with_options({"setup": "placement"}) if (
            phase is Phase.SETUP
        ) else self.rules
        off = data.get("off", {"white": 0, "black": 0})
        return Position(
            ruleset,
            tuple(board),
            phase,
            Side.BLACK if data.get("to_move") == "black" else Side.WHITE,
            off=(off["white"], off["black"]),
            result=data.get("result"),
        )


    def snapshot_data(self, position: Position) -> JSONObject:
        """Every field of the position as plain JSON values (the referee's snapshot)."""
        return {
            "ruleset": position.ruleset.options(),
            "board": [p.code if p is not None else None for p in position.board],
            "phase": position.phase.value,
            "to_move": position.to_move.value,
            "ply": position.ply,
            "off": list(position.off),
            "run": position.run,
            "double": [position.double[0].value, position.double[1]],
            "result": position.result,
            "end": position.end,
        }

    def position_from_snapshot(self, data: JSONObject) -> Position:
        """KeyError, TypeError or ValueError for data that is no snapshot of this game."""
        options = dict(data["ruleset"])
        name = options.pop("name")
        try:
            ruleset = self.rules.with_options(options, name=name)
        except RuleError as exc:
            raise ValueError(str(exc)) from None
        board = tuple(None if c is None else PIECE_BY_CODE[c] for c in data["board"])
        if len(board) != len(SQUARE_NAMES):
            raise ValueError("a snapshot's board has 144 squares")
        off = data["off"]
        double = data["double"]
        return Position(
            ruleset,
            board,
            Phase(data["phase"]),
            Side(data["to_move"]),
            int(data["ply"]),
            (int(off[0]), int(off[1])),
            int(data["run"]),
            (Side(double[0]), int(double[1])),
            data["result"],
            data["end"],
        )

    # -- words and pictures ------------------------------------------------------------------
    def describe_action(self, resolved: Resolved, side: Side) -> str:
        """'White's Enforcer moved from b5 over b8 to e8; the White Enforcer on a4 was
        rescued onto b5; the Black Enforcer on e8 was dislodged onto d7'."""
        action = resolved.action
        board = resolved.board
        if isinstance(action, Placement):
            name = self.pieces.style(action.kind.value).name
            return f"{side.title} placed {with_article(name)} on {square_name(action.square)}"
        if isinstance(action, Pass):
            return f"{side.title} passed: none of its pieces can move"
        assert isinstance(action, Move)
        p = board[action.frm]
        assert p is not None
        name = self.piece_name(p)
        path = action.path
        text = f"{side.title}'s {name} moved from {square_name(path[0])}"
        if action.off:
            if len(path) > 1:
                text += f" over {join_words([square_name(s) for s in path[1:]])}"
            text += " off the board"
        else:
            if len(path) > 2:
                text += f" over {join_words([square_name(s) for s in path[1:-1]])}"
            text += f" to {square_name(path[-1])}"
        parts = [text]
        for ev in resolved.events:
            if isinstance(ev, Refilled):
                verb = "was rescued onto" if ev.rescue else "replaced it on"
                parts.append(
                    f"the {ev.side.title} {self.pieces.style(ev.kind.value).name} on "
                    f"{square_name(ev.frm)} {verb} {square_name(ev.to)}"
                )
            elif isinstance(ev, Dislodged):
                parts.append(
                    f"the {ev.side.title} {self.pieces.style(ev.kind.value).name} on "
                    f"{square_name(ev.frm)} was dislodged onto {square_name(ev.to)}"
                )
        return "; ".join(parts)

    def turn_marks(self, resolved: Resolved) -> tuple[Mark, ...]:
        action = resolved.action
        if isinstance(action, Placement):
            return (Mark("outline", (action.square,), "placed"),)
        if not isinstance(action, Move):
            return ()
        marks = []
        if len(action.path) > 1:
            marks.append(Mark("path", action.path))
        for ev in resolved.events:
            if isinstance(ev, Refilled):
                marks.append(Mark("badge", (ev.to,), "rescued" if ev.rescue else "replaced", "+"))
            elif isinstance(ev, Dislodged):
                marks.append(Mark("badge", (ev.to,), "dislodged", "-"))
            elif isinstance(ev, MovedOff):
                marks.append(Mark("outline", (ev.square,), "off"))
        return tuple(marks)

    def short_score(self, position: Position) -> str:
        return f"{self.score(position)[0].upper()}{self.score(position)[1:]}."

    def side_table(self, position: Position) -> SideTable:
        rows = tuple(
            (side, (len(position.on_centers(side)), position.on_borders(side)))
            for side in Side
        )
        return SideTable(
            ("On Centers", "On Border squares"),
            rows,
            ("", "          On Centers  On Border squares"),
            "%-6s    %10d  %17d",
        )


_END_WORDS = {
    "dunked": "all of a side's pieces stand on Border squares",
    "off": "a side moved all its pieces off the board",
    "dukes": "each side moved a Duke on each of its last three turns",
    "no-move": "neither side can move",
}

