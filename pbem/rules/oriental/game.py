"""Oriental Realm behind the one game interface (``pbem.rules.game``).

A thin adapter over this package's engine: written actions are resolved against the
position (look-alike squares repaired with a warning), moves are written back, and
positions go to and from JSON. The JSON carries the Warning Option's threatened
groups (``warning``) when the ruleset has the option.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, cast

from pbem.errors import RuleError
from pbem.rules.game import (
    JSONObject,
    NotationWords,
    Phase,
    PieceMoves,
    PieceStyle,
    PieceTable,
    Resolved,
    counted,
)
from pbem.rules.geometry import SQUARE_NAMES, parse_square, square_name
from pbem.rules.move_turns import MoveTurn, MoveTurnGame, Pass, Placement, engine_of
from pbem.rules.oriental import turns
from pbem.rules.oriental.pieces import EMPEROR, MANDARIN, Board, name_of
from pbem.rules.oriental.position import Position, initial_position
from pbem.rules.oriental.rules import OPTION_HELP, ORIENTAL, OrientalRules, oriental_rules
from pbem.rules.oriental.turns import Move
from pbem.rules.oriental.warning import warnings
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.repairs import resolve_with_repairs, square_at
from pbem.rules.written import (
    SQUARE_TEXTS,
    ActionText,
    MoveText,
    PassText,
    PlacementText,
    format_action,
)

PIECE_BY_CODE: dict[str, Piece] = {
    f"{s.letter}{k}": (EMPEROR if k == "P" else MANDARIN)[s] for s in Side for k in ("E", "P")
}
_END_WORDS = {
    "surrounded": "a group was surrounded",
    "no-legal-turn": "neither side can move",
    "resigned": "resignation",
    "forfeit": "forfeit",
    "draw": "a draw agreed",
    "adjudicated": "adjudication",
}


#: a turn of Oriental Realm under way
OrientalTurn = MoveTurn[Position, turns.TurnState]


def action_text(action: Move | Placement | Pass, board: Board) -> ActionText:
    if isinstance(action, Move):
        p = board[action.frm]
        assert p is not None  # a move's piece is on its first square
        return MoveText(p.kind.value, (SQUARE_TEXTS[action.frm], SQUARE_TEXTS[action.to]))
    if isinstance(action, Placement):
        return PlacementText(action.kind.value, SQUARE_TEXTS[action.square])
    return PassText()


def canonical_of(resolved: Resolved) -> ActionText:
    """``Resolved.writer`` of Oriental Realm (whose Resolved hold its own values)."""
    return action_text(cast("Move | Placement | Pass", resolved.action),
                       cast(Board, resolved.board))


def _name_on(board: Board, square: int) -> str:
    """The name of the piece on ``square`` (there is one)."""
    piece = board[square]
    assert piece is not None
    return name_of(piece)


def group_words(group: Sequence[int]) -> str:
    return ", ".join(square_name(s) for s in group)


def warning_words(position: Position) -> list[str]:
    """The Warning Option's notices for the side to move, in words (empty without it)."""
    side = position.to_move
    return [
        f"Warning: {side.title}'s group on {group_words(g)} can be surrounded on "
        f"{side.other.title}'s next turn"
        if len(g) > 1
        else f"Warning: {side.title}'s {_name_on(position.board, g[0])} on {square_name(g[0])} "
        f"can be surrounded on {side.other.title}'s next turn"
        for g in warnings(position)
    ]


class OrientalGame(MoveTurnGame[OrientalRules, Position, turns.TurnState]):
    name: ClassVar[str] = "oriental"
    title: ClassVar[str] = "Oriental Realm"
    json_name: ClassVar[str] = "oriental"
    facing: ClassVar[bool] = False
    option_help: ClassVar[Mapping[str, str]] = OPTION_HELP
    turn_words: ClassVar[str] = (
        "a turn is one or more moves from one Realm, a placement during set-up, or a pass"
    )
    placed_kinds: ClassVar[dict[str, Kind]] = {"E": Kind.ENFORCER, "P": Kind.POWER}
    pieces: ClassVar[PieceTable] = PieceTable(
        (
            PieceStyle("P", "Emperor", "Emperors", "crown", "P"),
            PieceStyle("E", "Mandarin", "Mandarins", "disc", "E"),
        )
    )
    notation_words: ClassVar[NotationWords] = NotationWords(
        move="Ed4d9", placement="Eb5", taken="", brought="", facing="", rearrangement="",
        fixed="",
    )
    notation_key_lines: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("Ed4d9", "the Mandarin on d4 moves to d9", ""),
        ("Ed5d7,Ef4f6", "one turn: two pieces of the e5 Realm move, in this order", ""),
        ("Eb5", "a placement on b5", "placement"),
    )
    rules_page: ClassVar[str] = "games/oriental.md"
    rules = ORIENTAL
    engine = engine_of(turns, canonical_of)
    about: ClassVar[tuple[str, str]] = (
        "Oriental Realm: a game of surrounding; seven Mandarins and an Emperor a side, and "
        "a side wins by leaving an enemy piece or group no empty square beside it.",
        "A turn moves pieces of one Realm, each written as its letter, its square and where "
        "it goes, joined by commas: Ed5d7,Ef4f6.",
    )

    # -- play ------------------------------------------------------------------------------
    def initial(self, ruleset: OrientalRules) -> Position:
        return initial_position(ruleset)

    def placement_kind(self, text: PlacementText) -> Kind:
        kind = self.placed_kinds.get(text.piece)
        if kind is None:
            raise RuleError(
                "setup.piece",
                f"{text.piece}{text.square.text}: Oriental Realm has Mandarins (E) and an "
                "Emperor (P) only",
            )
        return kind

    def resolve_move(
        self, moves: turns.TurnState, text: MoveText
    ) -> tuple[turns.TurnState, Resolved]:
        if text.off or len(text.squares) != 2:
            raise RuleError(
                "move.squares",
                "an Oriental move goes in one straight line: it names the square it "
                "starts on and the square it stops on, like Ed4d9",
            )
        if text.events:
            raise RuleError(
                "event.none",
                "nothing is captured, created or dislodged in Oriental Realm: a move is "
                "written without events in parentheses, like Ed4d9",
            )

        def attempt_move(names: list[str]) -> tuple[turns.TurnState, Resolved]:
            frm, to = square_at(names[0]), square_at(names[1])
            board = moves.position.board
            _check_letter(board, text.piece, frm)
            after, events = turns.apply_move(moves, Move(frm, to))
            return after, Resolved(Move(frm, to), tuple(events), board, writer=canonical_of)

        return resolve_with_repairs(text, attempt_move)

    def can_continue(self, state: OrientalTurn) -> bool:
        if state.done is not None:
            return False
        if state.moves is None:
            return True
        return not state.moves.over and bool(self._next_moves(state.moves))

    def _next_moves(self, moves: turns.TurnState) -> list[Move]:
        board = moves.position.board
        pending = moves.pending if moves.realm is not None else None
        out: list[Move] = []
        for s, p in enumerate(board):
            if p is None or p.side is not moves.position.to_move:
                continue
            if pending is not None and s not in pending:
                continue
            out.extend(Move(s, t) for t in turns.destinations(board, s))
        return out

    def legal_actions(self, state: OrientalTurn) -> list[ActionText]:
        if state.done is not None:
            return []
        position = state.start
        if state.moves is None:
            if position.phase is Phase.SETUP:
                side = position.to_move
                return [
                    PlacementText(k.value, SQUARE_TEXTS[s])
                    for k in turns.placeable_kinds(position, side)
                    for s in turns.placeable_squares(position)
                ]
            if position.phase is not Phase.PLAY:
                return []
            found = self._next_moves(turns.begin_turn(position))
            if not found:
                return [PassText()]
            return [action_text(m, position.board) for m in found]
        if state.moves.over:
            return []
        board = state.moves.position.board
        return [action_text(m, board) for m in self._next_moves(state.moves)]

    def legal_by_piece(self, position: Position) -> list[PieceMoves]:
        if position.phase is not Phase.PLAY:
            return []
        board = position.board
        out: list[PieceMoves] = []
        for s, p in enumerate(board):
            if p is None or p.side is not position.to_move:
                continue
            texts = tuple(
                format_action(action_text(Move(s, t), board)) for t in turns.destinations(board, s)
            )
            if texts:
                out.append(PieceMoves(s, p, texts, len(texts)))
        return out

    # -- words ------------------------------------------------------------------------------
    def describe_action(self, resolved: Resolved, side: Side) -> str:
        """One action in the game's own words."""
        action = resolved.action
        if isinstance(action, Move):
            piece = resolved.board[action.frm]
            assert piece is not None
            text = (
                f"{side.title}'s {name_of(piece)} from {square_name(action.frm)} to "
                f"{square_name(action.to)}"
            )
            for ev in resolved.events:
                if isinstance(ev, turns.Surrounded):
                    text += ", surrounding " + _group_phrase(resolved, ev.group, side.other)
            return text
        if isinstance(action, Placement):
            what = "his Emperor" if action.kind is Kind.POWER else "a Mandarin"
            return f"{side.title} placed {what} on {square_name(action.square)}"
        return f"{side.title} passed: none of his pieces can move"

    def describe_next(self, position: Position) -> str:
        """Who moves next, and the Warning Option's notices (when the ruleset has it)."""
        text = super().describe_next(position)
        notes = warning_words(position) if position.phase is Phase.PLAY else []
        return ". ".join([text, *notes])

    # -- the end --------------------------------------------------------------------------
    def score(self, position: Position) -> str:
        if position.end == "surrounded" and position.surrounded:
            loser = position.board[position.surrounded[0]]
            assert loser is not None
            return f"{loser.side.other.title} surrounded {loser.side.title}'s " + (
                f"group on {group_words(position.surrounded)}"
                if len(position.surrounded) > 1
                else f"{name_of(loser)} on {square_name(position.surrounded[0])}"
            )
        w, b = (len(position.pieces_of(s)) for s in Side)
        return f"nobody surrounded: White {counted(w, 'piece', 'pieces')}, Black {b}"

    def end_words(self, position: Position, last_label: str | None = None) -> str:
        if position.end == "surrounded" and position.surrounded:
            words = self.score(position)
            return f"{words} in turn {last_label}" if last_label else words
        return _END_WORDS.get(position.end or "", position.end or "unfinished")

    # -- interchange ----------------------------------------------------------------------
    def position_to_json(self, pos: Position) -> JSONObject:
        data: JSONObject = {
            "game": self.json_name,
            "phase": pos.phase.value,
            "to_move": None if pos.phase is Phase.OVER else pos.to_move.key,
            "board": {
                SQUARE_NAMES[s]: p.side.letter + p.kind.value
                for s, p in enumerate(pos.board)
                if p is not None
            },
        }
        if pos.ruleset.warning:
            data["warning"] = [[square_name(s) for s in g] for g in warnings(pos)]
        if pos.surrounded:
            data["surrounded"] = [square_name(s) for s in pos.surrounded]
        data["result"] = pos.result
        return data

    def snapshot_data(self, pos: Position) -> JSONObject:
        """Everything in the position, as plain JSON values (the referee keeps one a turn)."""
        return {
            "ruleset": pos.ruleset.options(),
            "board": _codes(pos.board),
            "phase": pos.phase.value,
            "to_move": pos.to_move.key,
            "ply": pos.ply,
            "result": pos.result,
            "end": pos.end,
            "surrounded": [SQUARE_NAMES[s] for s in pos.surrounded],
        }

    def position_from_snapshot(self, data: JSONObject) -> Position:
        return Position(
            oriental_rules(data["ruleset"]),
            _board(data["board"]),
            Phase(data["phase"]),
            Side.BLACK if data["to_move"] == "black" else Side.WHITE,
            int(data["ply"]),
            data["result"],
            data["end"],
            tuple(parse_square(s) for s in data["surrounded"]),
        )

    def position_from_json(self, data: JSONObject) -> Position:
        board: list[Piece | None] = [None] * len(SQUARE_NAMES)
        for name, code in data["board"].items():
            board[parse_square(name)] = PIECE_BY_CODE[code]
        phase = Phase(data["phase"])
        rules = OrientalRules(
            setup="placement" if phase is Phase.SETUP else "standard",
            warning="warning" in data,
        )
        return Position(
            rules,
            tuple(board),
            phase,
            Side.BLACK if data.get("to_move") == "black" else Side.WHITE,
            result=data.get("result"),
            end=data.get("end"),
            surrounded=tuple(parse_square(s) for s in data.get("surrounded", ())),
        )


def _group_phrase(resolved: Resolved, group: Sequence[int], owner: Side) -> str:
    if len(group) == 1:
        board = resolved.board
        piece = board[group[0]]
        name = name_of(piece) if piece is not None else "piece"
        return f"{owner.title}'s {name} on {square_name(group[0])}"
    return f"{owner.title}'s group on {group_words(group)}"


def _codes(board: Board) -> dict[str, str]:
    return {SQUARE_NAMES[s]: p.side.letter + p.kind.value for s, p in enumerate(board) if p}


def _board(codes: Mapping[str, str]) -> tuple[Piece | None, ...]:
    board: list[Piece | None] = [None] * len(SQUARE_NAMES)
    for name, code in codes.items():
        board[parse_square(name)] = PIECE_BY_CODE[code]
    return tuple(board)


def _check_letter(board: Board, letter: str, sq: int) -> None:
    p = board[sq]
    if p is None or p.kind.value == letter:
        return
    wrote = {"E": "a Mandarin", "P": "an Emperor"}.get(letter, f"a piece {letter}")
    raise RuleError(
        "move.letter",
        f"the piece on {square_name(sq)} is the {name_of(p)}, written {p.kind.value}, "
        f"not {wrote} ({letter})",
    )

