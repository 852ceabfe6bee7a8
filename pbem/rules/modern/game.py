"""Modern Realm behind the one game interface (``pbem.rules.game``).

A thin adapter over this package's engine. A written move names its start, every
square it turns on, and its stop (``Pc4d4d6``); a capture writes the HQ first and
then the dislodge (``Eb5b7(Bb8,xEa9)``). The HQ is forced, so a record may leave it
out (inferred with a warning); the dislodge square is a choice, inferred only where
there is one vacant square. One opening piece has thousands of lines, so the
listings here are capped (``LINES_PER_PIECE``): captures first, then an even sample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.errors import Diagnostic, RuleError
from pbem.rules.game import (
    JSONObject,
    Mark,
    NotationWords,
    Phase,
    PieceMoves,
    PieceStyle,
    PieceTable,
    Resolved,
    counted,
    listing_head,
)
from pbem.rules.geometry import (
    BORDER_SQUARES,
    CENTER,
    REALM_OF,
    SQUARE_NAMES,
    parse_square,
    square_name,
)
from pbem.rules.modern import turns
from pbem.rules.modern.lines import Line, Realms, lines_by_realm, lines_from
from pbem.rules.modern.pieces import AGENT, COUNTER_AGENT, HQ, TARGETS, name_of
from pbem.rules.modern.position import Position, initial_position
from pbem.rules.modern.rules import MODERN, OPTION_HELP, ModernRules, modern_rules
from pbem.rules.modern.turns import Dislodged, HQPlaced, Move
from pbem.rules.move_turns import MoveTurn, MoveTurnGame, Placement, engine_of
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.repairs import resolve_with_repairs, square_at
from pbem.rules.written import (
    SQUARE_TEXTS,
    ActionText,
    EventText,
    MoveText,
    PassText,
    PlacementText,
    format_action,
)

#: legal_actions lists at most this many lines of one piece (captures first)
LINES_PER_PIECE = 60
#: ``pbem moves --every`` shows at most this many lines per piece and Realm
LISTING_CAP = 50
PIECE_BY_CODE: dict[str, Piece] = {
    f"{s.letter}{k}": {"E": AGENT, "P": COUNTER_AGENT, "B": HQ}[k][s]
    for s in Side
    for k in ("E", "P", "B")
}
_END_WORDS = {
    "targets": "a side's HQs stand on all eight Centers of its Target Realms",
    "no-legal-turn": "neither side can move",
    "resigned": "resignation",
    "forfeit": "forfeit",
    "draw": "a draw agreed",
    "adjudicated": "adjudication",
}


#: a turn of Modern Realm under way
ModernTurn = MoveTurn[Position, turns.TurnState]


def move_text(move: Move, board: Any, events: Sequence[Any] = ()) -> MoveText:
    """A Move as written, with the events that happened (HQ first, then the dislodge)."""
    p = board[move.frm]
    written = []
    for ev in events:
        if isinstance(ev, HQPlaced):
            written.append(EventText("", "B", SQUARE_TEXTS[ev.square]))
        elif isinstance(ev, Dislodged):
            q = board[ev.square]
            written.append(EventText("x", q.kind.value, SQUARE_TEXTS[ev.to]))
    return MoveText(
        p.kind.value, tuple(SQUARE_TEXTS[s] for s in move.squares), tuple(written) or None
    )


def canonical_of(resolved: Resolved) -> ActionText:
    action = resolved.action
    if isinstance(action, Move):
        return move_text(action, resolved.board, resolved.events)
    if isinstance(action, Placement):
        return PlacementText(action.kind.value, SQUARE_TEXTS[action.square])
    return PassText()


def line_moves(board: Any, line: Line) -> list[Move]:
    """Every complete Move of a line: one per dislodge square where a piece is dislodged."""
    if not line.capture:
        return [Move(line.frm, line.to, line.via)]
    center = CENTER[REALM_OF[line.to]]
    if board[center] is None:
        return [Move(line.frm, line.to, line.via, hq=center)]
    return [
        Move(line.frm, line.to, line.via, hq=center, dislodge=s)
        for s in BORDER_SQUARES[REALM_OF[line.to]]
        if board[s] is None
    ]


def _sample(lines: list[Line], cap: int) -> list[Line]:
    """Captures first, then the other lines evenly spaced: at most ``cap``."""
    captures = [line for line in lines if line.capture][:cap]
    others = [line for line in lines if not line.capture]
    room = cap - len(captures)
    if len(others) > room > 0:
        step = len(others) / room
        others = [others[int(i * step)] for i in range(room)]
    return captures + others[: max(room, 0)]


class ModernGame(MoveTurnGame[ModernRules, Position, turns.TurnState]):
    name: ClassVar[str] = "modern"
    title: ClassVar[str] = "Modern Realm"
    json_name: ClassVar[str] = "modern"
    facing: ClassVar[bool] = False
    option_help: ClassVar[Mapping[str, str]] = OPTION_HELP
    turn_words: ClassVar[str] = (
        "a turn moves pieces out of one Realm, or places a piece during set-up, or passes"
    )
    pieces: ClassVar[PieceTable] = PieceTable(
        (
            PieceStyle("B", "HQ", "HQs", "square", "B"),
            PieceStyle("P", "Counter-Agent", "Counter-Agents", "diamond", "P"),
            PieceStyle("E", "Agent", "Agents", "disc", "E"),
        )
    )
    notation_words: ClassVar[NotationWords] = NotationWords(
        move="Ed4d9", placement="Eb5", taken="xEa9", brought="", facing="",
        rearrangement="", fixed="B",
    )
    notation_key_lines: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("Ed4d9", "the Agent on d4 moves straight to d9", ""),
        ("Pc4d4d6", "the Counter-Agent moves from c4 to d4, turns there and goes on to d6 "
                    "(every turning square written)", ""),
        ("…(Bb8)", "in brackets after a move: the Agent captured the b8 Realm, an HQ goes "
                   "on b8", ""),
        ("…(Bb8,xEa9)", "the same, the enemy Agent on b8 dislodged to a9", ""),
        ("Eb5", "a placement on b5", "placement"),
    )
    rules_page: ClassVar[str] = "games/modern.md"
    rules = MODERN
    engine = engine_of(turns, canonical_of)
    about: ClassVar[tuple[str, str]] = (
        "Modern Realm: a game of infiltration; Agents and a Counter-Agent a side capture "
        "Realms of the other half, and a side wins with its HQs on all eight Centers of its "
        "Target Realms.",
        "A turn moves pieces out of one Realm, each with every square it turns on, events "
        "in brackets: Eb5b7(Bb8) captures the b8 Realm with an HQ.",
    )

    # -- play ------------------------------------------------------------------------------
    def initial(self, ruleset: ModernRules) -> Position:
        return initial_position(ruleset)

    def resolve_move(
        self, moves: turns.TurnState, text: MoveText
    ) -> tuple[turns.TurnState, Resolved]:
        if text.off or len(text.squares) < 2:
            raise RuleError(
                "move.squares",
                "a Modern move names the square it starts on, every square it turns on, "
                "and the square it stops on, like Ed4d9 or Pc4d4d6; nothing leaves the "
                "board",
            )
        return resolve_with_repairs(text, lambda names: _attempt_move(moves, text, names))

    def _movers(self, state: ModernTurn) -> list[int]:
        """The pieces that may move next in the turn under way."""
        if state.moves is None:
            return turns.movable(state.start, state.start.to_move)
        moves = state.moves
        if moves.over:
            return []
        realms = Realms(moves.position.board, moves.position.to_move)
        return [s for s in sorted(moves.pending) if next(lines_from(realms, s), None)]

    def can_continue(self, state: ModernTurn) -> bool:
        if state.done is not None:
            return False
        if state.moves is None:
            return True
        return bool(self._movers(state))

    def must_continue(self, state: ModernTurn) -> bool:
        """A Modern turn moves out every mobile piece of its Realm that can leave."""
        return state.done is None and state.moves is not None and bool(self._movers(state))

    def legal_actions(self, state: ModernTurn) -> list[ActionText]:
        if state.done is not None:
            return []
        position = self.state_position(state)
        if state.moves is None:
            if position.phase is Phase.SETUP:
                side = position.to_move
                own = [p for p in position.board if p is not None and p.side is side]
                kinds = [Kind.ENFORCER] if sum(p.kind is Kind.ENFORCER for p in own) < 7 else []
                if not any(p.kind is Kind.POWER for p in own):
                    kinds.append(Kind.POWER)
                return [
                    PlacementText(k.value, SQUARE_TEXTS[s])
                    for k in kinds
                    for s in turns.placeable_squares(position, side)
                ]
            if position.phase is not Phase.PLAY:
                return []
            if not turns.has_legal_turn(position, position.to_move):
                return [PassText()]
        board = position.board
        realms = Realms(board, position.to_move)
        out: list[ActionText] = []
        for s in self._movers(state):
            for line in _sample(list(lines_from(realms, s)), LINES_PER_PIECE):
                for m in line_moves(board, line):
                    out.append(_with_events(m, board))
        return out

    def legal_by_piece(self, position: Position) -> list[PieceMoves]:
        """Per movable piece: one example line per Realm it can end in (captures first
        where there are), and the count of all its lines."""
        if position.phase is not Phase.PLAY:
            return []
        board = position.board
        realms = Realms(board, position.to_move)
        out = []
        for s in turns.movable(position, position.to_move):
            groups = lines_by_realm(realms, s, cap=3)
            examples = []
            for g in groups:
                line = next((x for x in g.examples if x.capture), g.examples[0])
                examples.append(format_action(_with_events(line_moves(board, line)[0], board)))
            piece = board[s]
            assert piece is not None  # a movable piece is on its square
            out.append(PieceMoves(s, piece, tuple(examples), sum(g.count for g in groups)))
        return out

    def legal_listing(self, position: Position, *, every: bool = False) -> JSONObject:
        """``pbem moves`` for Modern Realm: per movable piece, its lines grouped by the
        Realm they end in, each group with its count, how many capture, and examples
        (all of them with ``every``, up to ``LISTING_CAP`` lines a group)."""
        listing = listing_head(position, realms={})
        if position.phase is Phase.SETUP:
            listing["placements"] = self.placement_texts(position)
            return listing
        if position.phase is not Phase.PLAY:
            return listing
        board = position.board
        realms = Realms(board, position.to_move)
        cap = LISTING_CAP if every else 2
        for s in turns.movable(position, position.to_move):
            groups = lines_by_realm(realms, s, cap=cap)
            name = SQUARE_NAMES[s]
            listing["moves"][name] = [
                format_action(_with_events(line_moves(board, line)[0], board))
                for g in groups
                for line in g.examples
            ]
            listing["realms"][name] = [
                {"realm": SQUARE_NAMES[CENTER[g.realm]], "lines": g.count, "captures": g.captures}
                for g in groups
            ]
        listing["pass"] = not listing["moves"]
        return listing

    def format_listing(self, listing: JSONObject) -> str:
        if listing["phase"] != "play" or listing["pass"]:
            return super().format_listing(listing)
        side = listing["to_move"].capitalize()
        lines = [f"{side} to move, turn {listing['turn']}: lines by the Realm they end in"]
        for square, groups in listing["realms"].items():
            total = sum(g["lines"] for g in groups)
            example = " ".join(listing["moves"][square])
            lines.append(f"{square}: {counted(total, 'line', 'lines')}; e.g. {example}")
            for g in groups:
                took = f", {g['captures']} capture it" if g["captures"] else ""
                lines.append(f"  to the {g['realm']} Realm: {g['lines']}{took}")
        return "\n".join(lines) + "\n"

    # -- words ------------------------------------------------------------------------------
    def describe_action(self, resolved: Resolved, side: Side) -> str:
        """One action in the game's own words."""
        action = resolved.action
        board = resolved.board
        if isinstance(action, Move):
            piece = board[action.frm]
            assert piece is not None
            who = name_of(piece)
            text = f"{side.title}'s {who} from {square_name(action.frm)}"
            if action.via:
                text += " turning on " + ", ".join(square_name(s) for s in action.via) + ","
            text += f" to {square_name(action.to)}"
            for ev in resolved.events:
                if isinstance(ev, HQPlaced):
                    text += (
                        f", captured the {square_name(ev.square)} Realm: an HQ on "
                        f"{square_name(ev.square)}, the {who} leaves the game"
                    )
                elif isinstance(ev, Dislodged):
                    held = board[ev.square]
                    name = name_of(held) if held is not None else "piece"
                    text += f"; {ev.side.title}'s {name} dislodged to {square_name(ev.to)}"
            return text
        if isinstance(action, Placement):
            what = "his Counter-Agent" if action.kind is Kind.POWER else "an Agent"
            return f"{side.title} placed {what} on {square_name(action.square)}"
        return f"{side.title} passed: no mobile piece of his can move"

    def turn_marks(self, resolved: Resolved) -> tuple[Mark, ...]:
        """The line's arrow, and its capture: the HQ placed on the Center (+) and the
        enemy piece dislodged from it where it went (-)."""
        marks = list(super().turn_marks(resolved))
        for ev in resolved.events:
            if isinstance(ev, HQPlaced):
                marks.append(Mark("badge", (ev.square,), "hq placed", "+"))
            elif isinstance(ev, Dislodged):
                marks.append(Mark("badge", (ev.to,), "dislodged", "-"))
        return tuple(marks)

    # -- the end --------------------------------------------------------------------------
    def score(self, position: Position) -> str:
        w, b = (
            sum(position.board[CENTER[r]] == HQ[s] for r in TARGETS[s]) for s in Side
        )
        return f"HQs on Target Centers: White {w} of 8, Black {b} of 8"

    def end_words(self, position: Position, last_label: str | None = None) -> str:
        words = _END_WORDS.get(position.end or "", position.end or "unfinished")
        if position.end == "targets" and last_label:
            return f"{words} (turn {last_label})"
        return words

    # -- interchange ----------------------------------------------------------------------
    def position_to_json(self, pos: Position) -> JSONObject:
        return {
            "game": self.json_name,
            "phase": pos.phase.value,
            "to_move": None if pos.phase is Phase.OVER else pos.to_move.key,
            "board": {
                SQUARE_NAMES[s]: p.side.letter + p.kind.value
                for s, p in enumerate(pos.board)
                if p is not None
            },
            "supply": {s.key: {"B": pos.supply[s]} for s in Side},
            "result": pos.result,
        }

    def snapshot_data(self, pos: Position) -> JSONObject:
        """Everything in the position, as plain JSON values (the referee keeps one a turn)."""
        return {
            "ruleset": pos.ruleset.options(),
            "board": {
                SQUARE_NAMES[s]: p.side.letter + p.kind.value
                for s, p in enumerate(pos.board)
                if p is not None
            },
            "phase": pos.phase.value,
            "to_move": pos.to_move.key,
            "supply": list(pos.supply),
            "ply": pos.ply,
            "result": pos.result,
            "end": pos.end,
        }

    def position_from_snapshot(self, data: JSONObject) -> Position:
        board: list[Piece | None] = [None] * len(SQUARE_NAMES)
        for name, code in data["board"].items():
            board[parse_square(name)] = PIECE_BY_CODE[code]
        white, black = data["supply"]
        return Position(
            modern_rules(data["ruleset"]),
            tuple(board),
            Phase(data["phase"]),
            Side.BLACK if data["to_move"] == "black" else Side.WHITE,
            (int(white), int(black)),
            int(data["ply"]),
            data["result"],
            data["end"],
        )

    def position_from_json(self, data: JSONObject) -> Position:
        board: list[Piece | None] = [None] * len(SQUARE_NAMES)
        for name, code in data["board"].items():
            board[parse_square(name)] = PIECE_BY_CODE[code]
        phase = Phase(data["phase"])
        supply = data["supply"]
        return Position(
            ModernRules(setup="placement" if phase is Phase.SETUP else "standard"),
            tuple(board),
            phase,
            Side.BLACK if data.get("to_move") == "black" else Side.WHITE,
            supply=(supply["white"]["B"], supply["black"]["B"]),
            result=data.get("result"),
        )


def _with_events(move: Move, board: Any) -> MoveText:
    """A complete Move (its capture's events known) written with them."""
    events: list[Any] = []
    if move.hq is not None:
        events.append(HQPlaced(board[move.frm].side, move.hq))
        if move.dislodge is not None:
            events.append(Dislodged(board[move.hq].side, move.hq, move.dislodge))
    return move_text(move, board, events)


def _attempt_move(
    state: turns.TurnState, text: MoveText, names: list[str]
) -> tuple[turns.TurnState, Resolved]:
    position = state.position
    board = position.board
    n = len(text.squares)
    squares = tuple(square_at(name) for name in names[:n])
    p = board[squares[0]]
    if p is not None and p.kind.value != text.piece:
        wrote = {"E": "an Agent", "P": "a Counter-Agent", "B": "an HQ"}.get(
            text.piece, f"piece {text.piece}"
        )
        raise RuleError(
            "move.letter",
            f"the piece on {square_name(squares[0])} is the {name_of(p)}, written "
            f"{p.kind.value}, not {wrote} ({text.piece})",
        )
    hq = dislodge = None
    order = []
    for e, name in zip(text.events or (), names[n:], strict=True):
        sq = square_at(name)
        if e.prefix == "" and e.piece == "B" and e.facing is None and hq is None:
            hq = sq
            order.append("B")
        elif e.prefix == "x" and e.piece in ("E", "P") and e.facing is None and dislodge is None:
            dislodge = sq
            order.append("x")
        else:
            raise RuleError(
                "event.unknown",
                f"({e.prefix}{e.piece}{e.square.text}{e.facing or ''}) is not an event of "
                "Modern Realm: a capture writes the HQ put on the Center, like (Bb8), and "
                "then where the dislodged piece goes, like (xEa9)",
            )
    move = Move(squares[0], squares[-1], squares[1:-1], hq, dislodge)
    after, events = turns.apply_move(state, move)
    done = Move(
        move.frm, move.to, move.via,
        next((e.square for e in events if isinstance(e, HQPlaced)), None),
        next((e.to for e in events if isinstance(e, Dislodged)), None),
    )
    warnings: list[Diagnostic] = []
    label = format_action(move_text(Move(move.frm, move.to, move.via), board))
    missing = []
    if done.hq is not None and hq is None:
        missing.append(f"B{square_name(done.hq)}")
    if done.dislodge is not None and dislodge is None:
        missing.append(f"xE{square_name(done.dislodge)}")
    if missing:
        warnings.append(Diagnostic(
            "infer.event",
            f"the record leaves out ({','.join(missing)}), which the rules force after "
            f"{label} (there is no other choice); inferred",
            text.span,
        ))
    elif order == ["x", "B"]:
        warnings.append(Diagnostic(
            "repair.event-order",
            f"the events after {label} happen in the order (HQ first, then the dislodge): "
            f"{format_action(move_text(done, board, events))[len(label):]}",
            text.span,
        ))
    return after, Resolved(done, tuple(events), board, tuple(warnings), writer=canonical_of)

