"""The Featured Game behind the one game interface (``pbem.rules.game``).

A thin adapter: the rules stay in this package's modules; this says how the
layers above reach them. A turn of the Featured Game is a set-up placement, a
Rearrangement, a pass, or a Dispersal/Concentration of one or more Moves (a Power
sacrifice first, where the ruleset has it): ``FeaturedTurn`` holds either.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from typing import cast

from pbem.errors import RuleError
from pbem.rules.game import (
    ALTERNATIVES,
    END_WORDS,
    OVER,
    ActionRuleError,
    Game,
    JSONObject,
    Mark,
    Phase,
    PieceMoves,
    PieceStyle,
    PieceTable,
    Resolved,
    SideTable,
    counted,
    result_words,
)
from pbem.rules.geometry import CENTER, SQUARE_NAMES, SQUARES, parse_square
from pbem.rules.pieces import ALL_PIECES, PIECE_BY_CODE, BoardPiece, Kind, Piece, Side
from pbem.rules.realm import endings, legal, listing, turns, words
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Move,
    Placement,
    Rearrangement,
)
from pbem.rules.realm.canonical import action_text
from pbem.rules.realm.position import Position, initial_position
from pbem.rules.realm.resolve import (
    resolve_move,
    resolve_pass,
    resolve_placement,
    resolve_rearrangement,
    resolve_sacrifice,
)
from pbem.rules.realm.ruleset import FEATURED, OPTION_HELP, Ruleset, option_range
from pbem.rules.realm.scoring import score
from pbem.rules.realm.snapshot import position_from_snapshot, snapshot_data
from pbem.rules.repairs import square_readings
from pbem.rules.values import frozen, new_of
from pbem.rules.written import (
    ActionText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    SacrificeText,
    format_action,
)

_MOVING = (MoveText, SacrificeText)
_MOVING_TYPES = frozenset(_MOVING)  # the usual test first: ``type(x) in`` beats isinstance
_TurnState = turns.TurnState
#: each side with its key in the JSON, White first (an Enum's iteration costs a generator)
_SIDE_KEYS = tuple((s, s.key) for s in Side)
#: the code of each interned piece, by its id (a board holds those; any other piece is
#: asked for its ``code``)
_CODES = {id(p): p.code for p in ALL_PIECES}



@frozen
class FeaturedTurn:
    """A turn after a whole-turn action (placement, Rearrangement, pass): ``done`` is the
    position it led to. Before its first action a turn's state is the position itself,
    and once a Move or Sacrifice is played the rules' own ``TurnState``: no wrapper is
    made per action (validation runs through here thousands of times a second)."""

    start: Position
    done: Position


#: made at every whole-turn action, by its ``__new__`` alone (``pbem.rules.values.new_of``)
_NEW_FEATURED_TURN = new_of(FeaturedTurn)

#: the turn state: the position before the first action, the rules' own TurnState
#: once Moves are under way, a FeaturedTurn after a whole-turn action
FeaturedState = Position | turns.TurnState | FeaturedTurn

#: the refusal of a Move after the one that created a side's last Base in the same turn
_OVER_IN_TURN = (
    "the game ended the moment {} created its last Base: nothing more is played, not even "
    "the rest of the turn"
)
_SINGLE = (
    "a set-up placement, a Rearrangement or a pass is the whole turn: "
    "nothing else may be joined to it with a comma"
)


class FeaturedGame(Game[Ruleset, Position, FeaturedState]):
    name = "featured"
    title = "the Featured Game"
    aliases = ("realm",)
    json_name = "realm"
    facing = True
    option_help = OPTION_HELP
    pieces = PieceTable(
        (
            PieceStyle("B", "Base", "Bases", "square", "B"),
            PieceStyle("P", "Power", "Powers", "disc", "P"),
            PieceStyle("E", "Enforcer", "Enforcers", "triangle", "E"),
        )
    )

    # -- rulesets -----------------------------------------------------------------
    def default_ruleset(self) -> Ruleset:
        return FEATURED

    def ruleset_from(
        self, options: Mapping[str, object], parent: Ruleset | None = None,
        name: str | None = None,
    ) -> Ruleset:
        return (parent or FEATURED).with_options(options, name)

    def option_range(self, option: str) -> str:
        return option_range(option)

    # -- play -----------------------------------------------------------------------
    def initial(self, ruleset: Ruleset) -> Position:
        return initial_position(ruleset)

    def begin_turn(
        self, position: Position, actions: Sequence[ActionText] = ()
    ) -> FeaturedState:
        if len(actions) > 1 and not _MOVING_TYPES.issuperset(map(type, actions)):
            for i, a in enumerate(actions):
                if i and type(a) not in _MOVING_TYPES and not isinstance(a, _MOVING):
                    raise ActionRuleError("turn.single", _SINGLE, index=i)
        return position

    def resolve_action(
        self, state: FeaturedState, text: ActionText
    ) -> tuple[FeaturedState, Resolved]:
        """``state``: the position before the first action, the rules' own TurnState once
        Moves are under way, a FeaturedTurn after a whole-turn action. Each is told by its
        exact type before ``isinstance`` is asked (a call, and dearer), the usual first."""
        if type(state) is _TurnState and type(text) is MoveText:  # a turn's next Move
            if state.position.phase is OVER:
                raise RuleError("turn.game-over", _OVER_IN_TURN.format(state.start.to_move.title))
            return resolve_move(state, text)
        moving = type(text) in _MOVING_TYPES or isinstance(text, _MOVING)
        if type(state) is Position or not isinstance(state, (turns.TurnState, FeaturedTurn)):
            # before the turn's first action
            if not moving:
                if type(text) is PlacementText or isinstance(text, PlacementText):
                    after, r = resolve_placement(state, text)
                elif isinstance(text, RearrangementText):
                    after, r = resolve_rearrangement(state, text)
                else:
                    assert isinstance(text, PassText)
                    after, r = resolve_pass(state, text)
                return _NEW_FEATURED_TURN(FeaturedTurn, state, after), r
            moves = turns.begin_turn(state)
        elif isinstance(state, FeaturedTurn) or not moving:
            raise RuleError("turn.single", _SINGLE)
        else:
            moves = state
        if moves.position.phase is OVER:
            raise RuleError("turn.game-over", _OVER_IN_TURN.format(moves.start.to_move.title))
        if type(text) is MoveText or isinstance(text, MoveText):
            return resolve_move(moves, text)
        assert isinstance(text, SacrificeText)  # the other moving action
        return resolve_sacrifice(moves, text)

    def state_position(self, state: FeaturedState) -> Position:
        if isinstance(state, turns.TurnState):
            return state.position
        return state.done if isinstance(state, FeaturedTurn) else state

    def finish_turn(self, state: FeaturedState) -> Position:
        if type(state) is _TurnState or isinstance(state, turns.TurnState):
            return turns.finish_turn(state)
        if type(state) is FeaturedTurn or isinstance(state, FeaturedTurn):
            return state.done
        return turns.finish_turn(turns.begin_turn(state))

    def can_continue(self, state: FeaturedState) -> bool:
        if isinstance(state, turns.TurnState):
            return not state.over
        return not isinstance(state, FeaturedTurn)

    def explain_refusal(
        self, state: FeaturedState, text: ActionText, error: RuleError
    ) -> tuple[str, tuple[str, ...]]:
        """Where the rules refused a move of the mover's own movable piece and name no
        choices themselves, the options are that piece's legal moves (when there are
        few), or the message says it has none."""
        moves = state if isinstance(state, turns.TurnState) else None
        if (
            not isinstance(text, MoveText)
            or moves is None
            or error.options
            or error.code in ("turn.moved-once", "turn.game-over")
        ):
            return error.message, error.options
        name = square_readings(text.frm)[0][0]
        if name not in SQUARE_NAMES:
            return error.message, ()
        frm = parse_square(name)
        position = moves.position
        piece = position.board[frm]
        if piece is None or piece.side is not position.to_move or not piece.mobile:
            return error.message, ()
        found = legal.legal_moves_for(moves, frm)
        if not found:
            return f"{error.message}; the {piece.kind.title} on {name} has no legal move now", ()
        if len(found) > ALTERNATIVES:
            return error.message, ()
        board = position.board
        return error.message, tuple(
            format_action(action_text(m, turns.apply_move(moves, m)[1], board)) for m in found
        )

    def legal_actions(self, state: FeaturedState) -> list[ActionText]:
        if not isinstance(state, turns.TurnState):
            if isinstance(state, FeaturedTurn):
                return []
            position = state
            board = position.board
            out: list[ActionText] = []
            for a in legal.legal_actions(position):
                if isinstance(a, Move):
                    events = turns.apply_move(turns.begin_turn(position), a)[1]
                    out.append(action_text(a, events, board))
                else:
                    out.append(action_text(a, (), board))
            return out
        moves = state
        if moves.over:
            return []
        board = moves.position.board
        return [
            action_text(m, turns.apply_move(moves, m)[1], board) for m in legal.legal_moves(moves)
        ]

    def has_legal_turn(self, position: Position) -> bool:
        if position.phase is Phase.SETUP:
            return True
        return position.phase is Phase.PLAY and turns.has_legal_turn(position, position.to_move)

    def pass_text(self, position: Position) -> ActionText | None:
        if position.phase is not Phase.PLAY or turns.has_legal_turn(position, position.to_move):
            return None
        return PassText()

    def legal_by_piece(self, position: Position) -> list[PieceMoves]:
        if position.phase is not Phase.PLAY:
            return []
        state = turns.begin_turn(position)
        board = position.board
        found: dict[int, list[str]] = {}
        for m in legal.legal_moves(state):
            text = format_action(action_text(m, turns.apply_move(state, m)[1], board))
            found.setdefault(m.frm, []).append(text)
        return [
            PieceMoves(sq, piece, tuple(texts), len(texts))
            for sq, texts in found.items()
            if (piece := board[sq]) is not None  # always: a move's piece is on its square
        ]

    def legal_listing(self, position: Position, *, every: bool = False) -> JSONObject:
        return listing.legal_listing(position, every=every)

    def format_listing(self, data: JSONObject) -> str:
        return listing.format_listing(data)

    # -- the end ----------------------------------------------------------------------
    def score(self, position: Position) -> str:
        return score(position).describe()

    def end_words(self, position: Position) -> str:
        return self.end_words_after(position, None)

    def end_words_after(self, position: Position, last_label: str | None) -> str:
        if position.end == "bases":
            if last_label is None:
                return "a side created all its Bases"
            side = Side.WHITE if last_label.endswith("w") else Side.BLACK
            return f"{side.title} created its last Base in turn {last_label}"
        if position.end == "no-legal-turn":
            return "neither side has a legal turn"
        return END_WORDS.get(position.end or "", "the game is not over")

    def ends_by_agreement(self, ruleset: Ruleset) -> bool:
        return ruleset.end_by_agreement

    def end_by_agreement(self, position: Position) -> Position:
        return endings.end_by_agreement(position)

    # -- interchange --------------------------------------------------------------------
    def position_to_json(self, pos: Position) -> JSONObject:
        """notation.md's position; ``sacrificed`` only where Powers were sacrificed (a
        variation), so the Featured Game's JSON is exactly the documented one."""
        board = pos.board
        codes = _CODES  # the interned pieces' codes: ``Piece.code`` is three properties
        (white, wkey), (black, bkey) = _SIDE_KEYS
        controllers = pos.controllers()
        data: JSONObject = {
            "game": self.json_name,
            "phase": pos.phase.value,
            "to_move": None if pos.phase is Phase.OVER else pos.to_move.key,
            "board": {
                SQUARE_NAMES[s]: codes.get(id(p)) or p.code
                for s in compress(SQUARES, board)
                if (p := board[s]) is not None  # always: compress() kept the occupied squares
            },
            "supply": {
                key: {
                    "B": pos.bases_in_supply(s),
                    "P": pos.powers_in_supply(s),
                    "E": pos.enforcers_in_supply(s),
                }
                for s, key in _SIDE_KEYS
            },
            "captured": {wkey: pos.captured[white], bkey: pos.captured[black]},
            "realms": {wkey: controllers.count(white), bkey: controllers.count(black)},
            "result": pos.result,
        }
        if any(pos.sacrificed):
            data["sacrificed"] = {s.key: pos.sacrificed[s] for s in Side}
        return data

    def position_from_json(self, data: JSONObject) -> Position:
        """The board, the side to move, the phase and the counts back from the JSON (the
        ruleset is the Featured Game's; streaks of Rearrangements are not in the JSON)."""
        board: list[Piece | None] = [None] * len(SQUARE_NAMES)
        for name, code in data["board"].items():
            board[parse_square(name)] = PIECE_BY_CODE[code]
        supply = data["supply"]
        ruleset = FEATURED

        def pair(f: Callable[[Side], int]) -> tuple[int, int]:
            return (f(Side.WHITE), f(Side.BLACK))

        phase = Phase(data["phase"])
        to_move = Side.BLACK if data.get("to_move") == "black" else Side.WHITE
        sacrificed = data.get("sacrificed", {"white": 0, "black": 0})
        return Position(
            ruleset,
            tuple(board),
            phase,
            to_move,
            bases_created=pair(lambda s: ruleset.bases - supply[s.key]["B"]),
            powers_placed=pair(lambda s: ruleset.powers - supply[s.key]["P"]),
            enforcers_created=pair(lambda s: ruleset.enforcers - supply[s.key]["E"]),
            captured=pair(lambda s: data["captured"][s.key]),
            sacrificed=pair(lambda s: sacrificed[s.key]),
            result=data.get("result"),
        )

    def snapshot_data(self, position: Position) -> JSONObject:
        return snapshot_data(position)

    def position_from_snapshot(self, data: JSONObject) -> Position:
        return position_from_snapshot(dict(data))

    # -- words and pictures ---------------------------------------------------------------
    def describe_action(self, resolved: Resolved, side: Side) -> str:
        return words.describe_action(resolved, side)

    def turn_kind(self, resolved: Sequence[Resolved], side: Side) -> str:
        return words.turn_kind(resolved)

    def describe_result(self, position: Position) -> str:
        return words.describe_result(position)

    def describe_end(self, position: Position, last_side: Side | None = None) -> str:
        return words.describe_end(position, last_side)

    def describe_next(self, position: Position) -> str:
        return words.describe_next(position)

    def score_line(self, position: Position, over: bool) -> str:
        s = score(position)
        return s.describe() if over else f"{s.describe()} ({_AHEAD[s.result]})"

    def short_score(self, position: Position) -> str:
        w, b = score(position).realms
        return f"Realms: White {w}, Black {b}."

    def side_table(self, position: Position) -> SideTable:
        return SideTable(
            (
                "Bases in supply",
                "Powers in supply",
                "Enforcers in supply",
                "Bases captured",
                "Realms controlled",
            ),
            tuple(
                (
                    side,
                    (
                        position.bases_in_supply(side),
                        position.powers_in_supply(side),
                        position.enforcers_in_supply(side),
                        position.captured[side],
                        position.realms_controlled(side),
                    ),
                )
                for side in Side
            ),
            (
                "         Supply                     Bases      Realms",
                "         Bases  Powers  Enforcers   captured   controlled",
            ),
            "%-6s   %5d  %6d  %9d   %8d   %10d",
        )

    def status_lines(self, position: Position) -> list[str]:
        out = []
        for side in Side:
            enemy = side.other.title
            out.append(
                f"{side.title:<6} supply: "
                f"{counted(position.bases_in_supply(side), 'Base', 'Bases')}, "
                f"{counted(position.powers_in_supply(side), 'Power', 'Powers')}, "
                f"{counted(position.enforcers_in_supply(side), 'Enforcer', 'Enforcers')}; "
                f"captured {counted(position.captured[side], enemy + ' Base', enemy + ' Bases')}; "
                f"controls {counted(position.realms_controlled(side), 'Realm', 'Realms')}"
            )
        out.append(f"Score: {score(position).describe()}")
        if position.phase is Phase.OVER:
            reason = {
                "bases": "a side created all its Bases",
                "no-legal-turn": "neither side has a legal turn",
            }.get(position.end or "", position.end or "")
            out.append(
                f"Game over ({reason}): {position.result}, {result_words(position.result)}"
            )
        elif position.phase is Phase.SETUP:
            out.append(f"Set-up: {position.to_move.title} to place")
        else:
            out.append(f"{position.to_move.title} to move")
        return out

    def legend(self) -> str:
        return (
            "w = White, b = Black; B Base, P Power, E Enforcer pointing ^ > v < "
            "(N E S W), E# immobilised; o empty Center"
        )

    def text_cell(self, piece: BoardPiece) -> str:
        text = piece.side.letter + piece.kind.value
        if piece.kind is Kind.ENFORCER:
            facing = _own(piece).facing
            text += "#" if facing is None else _ARROW[facing]
        return text.ljust(3)

    def frame_char(self, piece: BoardPiece) -> str:
        if piece.kind is Kind.BASE:
            c = "B"
        elif piece.kind is Kind.POWER:
            c = "P"
        else:
            facing = _own(piece).facing
            c = "U" if facing is None else "NESW"[facing]
        return c if piece.side is Side.WHITE else c.lower()

    def frame_legend(self) -> dict[str, tuple[str, str, str, str | None]]:
        out: dict[str, tuple[str, str, str, str | None]] = {}
        for side, case in (("white", str.upper), ("black", str.lower)):
            out[case("B")] = (side, "square", "Base", None)
            out[case("P")] = (side, "disc", "Power", None)
            for f in "NESWU":
                out[case(f)] = (side, "triangle", "Enforcer", f)
        return out

    def facing_of(self, piece: BoardPiece) -> str | None:
        if piece.kind is not Kind.ENFORCER:
            return None
        facing = _own(piece).facing
        return "U" if facing is None else facing.letter

    def realm_owner(self, board: tuple[BoardPiece | None, ...], realm: int) -> Side | None:
        p = board[CENTER[realm]]
        return p.side if p is not None and p.kind is Kind.BASE else None

    def turn_marks(self, resolved: Resolved) -> tuple[Mark, ...]:
        action = resolved.action
        marks: list[Mark] = []
        if isinstance(action, Placement):
            marks.append(Mark("outline", (action.square,), "placed"))
        elif isinstance(action, Rearrangement):
            marks.append(Mark("realm", (CENTER[action.realm],), "rearranged"))
        elif isinstance(action, Move):
            marks.append(Mark("path", (action.frm, action.to)))
        for ev in resolved.events:
            if isinstance(ev, BaseCaptured):
                marks.append(Mark("cross", (ev.square,), "captured"))
            elif isinstance(ev, EnforcerImmobilised):
                marks.append(Mark("badge", (ev.square,), "immobilised", "-"))
            elif isinstance(ev, BaseCreated | EnforcerCreated):
                kind = "base" if isinstance(ev, BaseCreated) else "enforcer"
                marks.append(Mark("badge", (ev.square,), f"created {kind}", "+"))
        return tuple(marks)

    def piece_words(self, piece: BoardPiece, square: int) -> str:
        return words.piece_on(_own(piece), square)

    def position_words(self, position: Position) -> list[str]:
        return [
            words.pieces_words(position, Side.WHITE),
            words.pieces_words(position, Side.BLACK),
            f"Realms controlled: White {position.realms_controlled(Side.WHITE)}, "
            f"Black {position.realms_controlled(Side.BLACK)}.",
        ]


def _own(piece: BoardPiece) -> Piece:
    """A piece the Featured Game was handed back: always one of its own (with a facing)."""
    return cast(Piece, piece)


_AHEAD = {"1-0": "White ahead", "0-1": "Black ahead", "1/2-1/2": "level"}
_ARROW = {0: "^", 1: ">", 2: "v", 3: "<"}
