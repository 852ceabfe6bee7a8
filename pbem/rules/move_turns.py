"""Games whose turn is moves, or one placement, or one pass: Classic, Medieval,
Oriental and Modern Realm.

What those adapters did alike lives here once: the turn under way, the refusal of
anything joined to a placement or a pass, resolving a placement or a pass, the
position as the turn stands and at its end, and whether the side to move has a turn.
Each game hands over its engine (``MoveEngine``: how it starts and ends its moves,
places a piece, passes, and whether a side can move) and its default ruleset (which
makes the rulesets), and says how it plays one written move (``resolve_move``); its
moves and its words stay its own.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from pbem.errors import RuleError
from pbem.rules.game import (
    ALTERNATIVES,
    ActionRuleError,
    Game,
    GamePosition,
    GameRuleset,
    Phase,
    PositionT,
    Resolved,
)
from pbem.rules.geometry import SQUARE_NAMES, parse_square
from pbem.rules.pieces import BoardPiece, Kind, PieceT, Side, own_piece
from pbem.rules.repairs import resolve_with_repairs, square_at, square_readings
from pbem.rules.values import frozen
from pbem.rules.written import ActionText, MoveText, PassText, PlacementText, format_action

P = TypeVar("P")
S = TypeVar("S")
P_co = TypeVar("P_co", covariant=True)


class Moves(Protocol[P_co]):
    """A game's state of the moves of a turn under way: the position they have reached."""

    @property
    def position(self) -> P_co: ...


#: a game's own state of the moves of a turn (its ``turns.TurnState``)
MovesT = TypeVar("MovesT", bound=Moves[Any])


class OptionsRuleset(GameRuleset, Protocol):
    """A ruleset that makes its variants: itself with some options changed."""

    def with_options(self, options: Mapping[str, Any], name: str | None = None) -> Self:
        """A copy with ``options`` over it, named ``name`` (or after the options); a
        RulesetError in the game's words for an unknown option or a bad value."""
        ...


#: a move-turn game's own ruleset
OptionsT = TypeVar("OptionsT", bound=OptionsRuleset)


class TurnMoves(Moves[P_co], Protocol[P_co]):
    """A game's state of the moves of a turn, as the engines' shared checks read it."""

    @property
    def over(self) -> bool: ...


class PlyBoard(GamePosition, Protocol):
    """A position of a move-turn game's engine, which makes a copy with some fields
    changed."""

    def replace(self, **changes: object) -> Self: ...


#: an engine's own position
PlyT = TypeVar("PlyT", bound=PlyBoard)

_SINGLE = (
    "a placement or a pass is the whole turn: nothing else may be joined to it with a comma"
)


@frozen
class MoveTurn(Generic[P, S]):
    """A turn under way: ``moves`` (the game's own state of its moves) once a move was
    played, ``done`` once a placement or a pass (each a whole turn) was."""

    start: P
    moves: S | None = None
    done: P | None = None


@frozen
class Placement:
    """Set-up by placement: a piece of ``kind`` put on ``square`` (each game says where
    and in what order)."""

    kind: Kind
    square: int


@frozen
class Pass:
    """Only when the side to move has no legal turn."""


@frozen
class GameEnded:
    """The event that ends the game inside a turn: why (the position's ``end``) and the
    result."""

    reason: str
    result: str


@frozen
class MoveEngine(Generic[P, S]):
    """A game's engine as ``MoveTurnGame`` plays it: the functions of the game's own
    ``turns`` module, and the writer of its actions (``Resolved.writer``)."""

    #: the state of the moves of a turn that begins at a position
    begin: Callable[[P], S]
    #: the position once the moves of the turn are all played
    finish: Callable[[S], P]
    #: a placement (the whole turn): the position after it and its events
    place: Callable[[P, Placement], tuple[P, Sequence[object]]]
    #: a pass (the whole turn): the position after it and its events
    pass_turn: Callable[[P], tuple[P, Sequence[object]]]
    #: whether a side has a move in a position in play
    can_move: Callable[[P, Side], bool]
    #: an action resolved by this engine in canonical text
    writer: Callable[[Resolved], ActionText]


class TurnsModule(Protocol[P, S]):
    """A game's ``turns`` module that names its functions as Oriental's and Modern's
    do (``engine_of`` makes its engine)."""

    def begin_turn(self, position: P, /) -> S: ...

    def finish_turn(self, state: S, /) -> P: ...

    def apply_placement(
        self, position: P, action: Placement, /
    ) -> tuple[P, Sequence[object]]: ...

    def apply_pass(self, position: P, /) -> tuple[P, Sequence[object]]: ...

    def has_legal_turn(self, position: P, side: Side, /) -> bool: ...


def engine_of(
    turns: TurnsModule[P, S], writer: Callable[[Resolved], ActionText]
) -> MoveEngine[P, S]:
    """The engine of a game whose ``turns`` module names its functions the usual way."""
    return MoveEngine(
        turns.begin_turn, turns.finish_turn, turns.apply_placement, turns.apply_pass,
        turns.has_legal_turn, writer,
    )


#: the result when ``side`` wins, and a draw's
WIN = {Side.WHITE: "1-0", Side.BLACK: "0-1"}
DRAW = "1/2-1/2"


def check_playing(position: GamePosition) -> None:
    """Moves are played only once the set-up is done and while the game goes on."""
    if position.phase is Phase.SETUP:
        raise RuleError("turn.setup", "set-up is not finished: pieces are placed, not moved")
    if position.phase is Phase.OVER:
        raise RuleError("turn.game-over", "the game is over: nothing more may be played")


def check_pass(position: GamePosition, can_move: Callable[[Any, Side], bool], why: str) -> None:
    """A pass is played in play, and only by a side that cannot move: ``why`` says in the
    game's words, after the side's name, why this side may not."""
    check_playing(position)
    side = position.to_move
    if can_move(position, side):
        raise RuleError("turn.pass", f"{side.title} {why}")


def mover(
    state: TurnMoves[Any], frm: int, describe_at: Callable[[PieceT, int], str]
) -> PieceT:
    """The piece on ``frm`` that the side to move moves next in the turn under way: not
    once the game ended inside the turn, nor from an empty square or the other side's."""
    if state.over:
        raise RuleError(
            "turn.game-over", "the game ended earlier in this turn: nothing more may be played"
        )
    position = state.position  # the engine's own, its board of its own pieces
    board = position.board
    piece: PieceT | None = board[frm]
    if piece is None or piece.side is not position.to_move:  # own_piece says why not
        checked: PieceT = own_piece(board, position.to_move, frm, describe_at)
        return checked
    return piece


def next_turn(position: PlyT, can_move: Callable[[PlyT, Side], bool]) -> PlyT:
    """The other side to move; a draw when neither side can move any more."""
    side = position.to_move
    after = position.replace(ply=position.ply + 1, to_move=side.other)
    if after.phase is Phase.PLAY and not can_move(after, side.other) and not (
        can_move(after, side)
    ):
        return after.replace(phase=Phase.OVER, result=DRAW, end="no-legal-turn")
    return after


def passed(position: PlyT, can_move: Callable[[PlyT, Side], bool], why: str) -> PlyT:
    """The side to move passes (``check_pass``: ``why`` in the game's words); the
    other side moves next."""
    check_pass(position, can_move, why)
    return next_turn(position, can_move)


def check_placing(position: GamePosition) -> None:
    """Pieces are placed only while the set-up by placement lasts."""
    if position.phase is not Phase.SETUP:
        raise RuleError(
            "setup.over", "the pieces are all placed: play has begun, and a turn moves pieces"
        )


def placed(position: PlyT, square: int, piece: BoardPiece, pieces: int) -> PlyT:
    """``piece`` placed on ``square``: the other side places next, or once all
    ``pieces`` stand on the board play begins with White."""
    board = list(position.board)
    board[square] = piece
    after = position.replace(
        board=tuple(board), ply=position.ply + 1, to_move=position.to_move.other
    )
    if sum(p is not None for p in board) == pieces:
        after = after.replace(phase=Phase.PLAY, to_move=Side.WHITE)
    return after


class PlyPosition:
    """Entry numbers of a position that counts its turns in ``ply`` (set-up
    placements and passes included, White first)."""

    __slots__ = ()
    ply: int
    to_move: Side

    def turn_label(self) -> str:
        """``11w``: the entry number and side of the turn to play now."""
        return f"{self.turn_number()}{self.to_move.letter}"

    def turn_number(self) -> int:
        """The record's entry number of the turn to play now."""
        return self.ply // 2 + 1


class MoveTurnGame(
    Game[OptionsT, PositionT, MoveTurn[PositionT, MovesT]], Generic[OptionsT, PositionT, MovesT]
):
    """A game whose turn is one or more moves, or a single placement, or a pass: its turn
    state is a ``MoveTurn`` of its position and its own state of the moves (``MovesT``).
    The game gives its ``engine`` and its default ``rules``, and plays a written move
    (``resolve_move``); the rest of the interface is played here from those."""

    #: what a turn of the game is, after "... is not a turn of <title>: "
    turn_words: ClassVar[str]
    #: the piece letters a placement may name, and the kind each places
    placed_kinds: ClassVar[dict[str, Kind]] = {
        "E": Kind.ENFORCER, "P": Kind.POWER, "B": Kind.BASE,
    }
    #: the game's rules with every option at its default (set on the class)
    rules: OptionsT
    #: the game's own engine (set on the class)
    engine: MoveEngine[PositionT, MovesT]

    # -- the game's hook ----------------------------------------------------------
    @abstractmethod
    def resolve_move(self, moves: MovesT, text: MoveText) -> tuple[MovesT, Resolved]:
        """One written move played onto the moves so far."""

    # -- played by the engine -----------------------------------------------------
    def start_moves(self, position: PositionT) -> MovesT:
        """The state of the moves of a turn that begins at ``position``."""
        return self.engine.begin(position)

    def end_moves(self, moves: MovesT) -> PositionT:
        """The position once the moves of the turn are all played."""
        return self.engine.finish(moves)

    def place(self, position: PositionT, kind: Kind, square: int) -> tuple[PositionT, Resolved]:
        """A piece of ``kind`` placed on ``square`` during set-up: the whole turn."""
        action = Placement(kind, square)
        after, events = self.engine.place(position, action)
        return after, Resolved(action, tuple(events), position.board, writer=self.engine.writer)

    def pass_turn(self, position: PositionT) -> tuple[PositionT, Resolved]:
        """The side to move passes: the whole turn."""
        after, events = self.engine.pass_turn(position)
        return after, Resolved(Pass(), tuple(events), position.board, writer=self.engine.writer)

    def side_can_move(self, position: PositionT) -> bool:
        """Whether the side to move has a move (in play)."""
        return self.engine.can_move(position, position.to_move)

    # -- rulesets -------------------------------------------------------------------
    def default_ruleset(self) -> OptionsT:
        return self.rules

    def ruleset_from(
        self, options: Mapping[str, object], parent: OptionsT | None = None,
        name: str | None = None,
    ) -> OptionsT:
        return (parent or self.rules).with_options(options, name)

    def option_range(self, option: str) -> str:
        """``setup`` is a named set-up or a map; every other option is on or off."""
        if option == "setup":
            return "standard, placement, or a map from square to piece"
        return "true or false"

    def placement_kind(self, text: PlacementText) -> Kind:
        """The kind a placement's letter names (by default a Base for a letter the game
        does not know: the placement's own rules then refuse it)."""
        return self.placed_kinds.get(text.piece, Kind.BASE)

    # -- the interface --------------------------------------------------------------
    def begin_turn(
        self, position: PositionT, actions: Sequence[ActionText] = ()
    ) -> MoveTurn[PositionT, MovesT]:
        if position.phase is Phase.OVER:
            check_playing(position)
        if len(actions) > 1:
            for i, a in enumerate(actions):
                if not isinstance(a, MoveText):
                    raise ActionRuleError("turn.single", _SINGLE, index=i)
        return MoveTurn(position)

    def resolve_action(
        self, state: MoveTurn[PositionT, MovesT], text: ActionText
    ) -> tuple[MoveTurn[PositionT, MovesT], Resolved]:
        position = state.start
        if state.done is not None or (state.moves is not None and not isinstance(text, MoveText)):
            raise RuleError("turn.single", _SINGLE)
        if isinstance(text, MoveText):
            moves = state.moves if state.moves is not None else self.start_moves(position)
            after, resolved = self.resolve_move(moves, text)
            return replace(state, moves=after), resolved
        if isinstance(text, PlacementText):
            kind = self.placement_kind(text)
            done, resolved = resolve_with_repairs(
                text, lambda names: self.place(position, kind, square_at(names[0]))
            )
            return replace(state, done=done), resolved
        if isinstance(text, PassText):
            done, resolved = self.pass_turn(position)
            return replace(state, done=done), resolved
        raise RuleError(
            "turn.kind", f"{format_action(text)} is not a turn of {self.title}: {self.turn_words}"
        )

    def state_position(self, state: MoveTurn[PositionT, MovesT]) -> PositionT:
        if state.done is not None:
            return state.done
        if state.moves is None:
            return state.start
        position: PositionT = state.moves.position  # the game's own TurnState's
        return position

    def finish_turn(self, state: MoveTurn[PositionT, MovesT]) -> PositionT:
        if state.done is not None:
            return state.done
        moves = state.moves if state.moves is not None else self.start_moves(state.start)
        return self.end_moves(moves)

    def explain_refusal(
        self, state: MoveTurn[PositionT, MovesT], text: ActionText, error: RuleError
    ) -> tuple[str, tuple[str, ...]]:
        """A refused move of a piece of the side to move names that piece's legal moves
        now (when there are at most ``ALTERNATIVES``), or says it has none."""
        if not isinstance(text, MoveText) or error.options or error.code.startswith("turn."):
            return error.message, error.options
        name = square_readings(text.frm)[0][0]
        if name not in SQUARE_NAMES:
            return error.message, ()
        position = self.state_position(state)
        piece = position.board[parse_square(name)]
        if piece is None or piece.side is not position.to_move:
            return error.message, ()
        found = [
            format_action(a) for a in self.legal_actions(state)
            if isinstance(a, MoveText) and a.frm.text == name
        ]
        if not found:
            return f"{error.message}; the piece on {name} has no legal move now", ()
        if len(found) > ALTERNATIVES:
            return error.message, ()
        return error.message, tuple(found)

    def has_legal_turn(self, position: PositionT) -> bool:
        if position.phase is Phase.SETUP:
            return True
        return position.phase is Phase.PLAY and self.side_can_move(position)

    def pass_text(self, position: PositionT) -> ActionText | None:
        if position.phase is not Phase.PLAY or self.side_can_move(position):
            return None
        return PassText()
