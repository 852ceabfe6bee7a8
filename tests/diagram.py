"""Board diagrams for tests: build a Realm Position from text, and print one back.

A diagram is up to 12 lines, the top line the highest rank, files left to right,
one token per square separated by spaces:

    .        empty
    B  b     White / Black Base
    P  p     White / Black Power
    N E S W  White Enforcer pointing North, East, South, West
    n e s w  Black Enforcer pointing that way
    U  u     White / Black immobilised Enforcer

A diagram may show only a window of the board: its bottom-left token stands on
``origin`` (``"a1"`` by default) and every square outside the window is empty.
Blank lines and anything after ``#`` on a line are ignored, so rows may carry
comments such as rank numbers.
"""

from __future__ import annotations

from pbem.rules.geometry import Direction, parse_square
from pbem.rules.pieces import Kind, Piece, Side, base, enforcer, power
from pbem.rules.realm.actions import Event, Move
from pbem.rules.realm.position import Board, Pair, Phase, Position
from pbem.rules.realm.ruleset import FEATURED, Ruleset
from pbem.rules.realm.turns import TurnState, apply_move, begin_turn
from tests.board_text import board_from_tokens, board_text

W, B = Side.WHITE, Side.BLACK

TOKENS: dict[str, Piece | None] = {
    ".": None,
    "B": base(W),
    "b": base(B),
    "P": power(W),
    "p": power(B),
    "N": enforcer(W, Direction.N),
    "E": enforcer(W, Direction.E),
    "S": enforcer(W, Direction.S),
    "W": enforcer(W, Direction.W),
    "n": enforcer(B, Direction.N),
    "e": enforcer(B, Direction.E),
    "s": enforcer(B, Direction.S),
    "w": enforcer(B, Direction.W),
    "U": enforcer(W, None),
    "u": enforcer(B, None),
}
TOKEN_OF: dict[Piece, str] = {p: t for t, p in TOKENS.items() if p is not None}


def sq(name: str) -> int:
    """The square named ``name``, e.g. ``sq("h11")``."""
    return parse_square(name)


def board_from(diagram: str, origin: str = "a1") -> Board:
    """The board a diagram shows; squares outside its window are empty."""
    return board_from_tokens(diagram, origin, TOKENS)


def _count(board: Board, side: Side, kind: Kind) -> int:
    return sum(1 for p in board if p is not None and p.side is side and p.kind is kind)


def position_from(
    diagram: str,
    *,
    to_move: Side = Side.WHITE,
    origin: str = "a1",
    ruleset: Ruleset = FEATURED,
    phase: Phase = Phase.PLAY,
    bases_created: Pair | None = None,
    enforcers_created: Pair | None = None,
    captured: Pair = (0, 0),
    powers_placed: Pair | None = None,
    rearranged: tuple[Pair, Pair] = ((-1, 0), (-1, 0)),
    ply: int = 0,
) -> Position:
    """A Position with the diagram's board and counters consistent with it.

    By default the set-up is done (``phase=PLAY``, every Power placed), Bases created
    are the Bases on the board plus those the other side captured, and Enforcers
    created are the Enforcers on the board; pass any counter to override it.
    """
    board = board_from(diagram, origin)
    if bases_created is None:
        bases_created = (
            _count(board, W, Kind.BASE) + captured[B],
            _count(board, B, Kind.BASE) + captured[W],
        )
    if enforcers_created is None:
        enforcers_created = (_count(board, W, Kind.ENFORCER), _count(board, B, Kind.ENFORCER))
    if powers_placed is None:
        powers_placed = (ruleset.powers, ruleset.powers)
    return Position(
        ruleset=ruleset,
        board=board,
        phase=phase,
        to_move=to_move,
        bases_created=bases_created,
        powers_placed=powers_placed,
        enforcers_created=enforcers_created,
        captured=captured,
        rearranged=rearranged,
        ply=ply,
    )


def render_board(board: Board) -> str:
    return board_text(board, TOKEN_OF)


def render(position: Position) -> str:
    """The position as a full-board diagram, with its counters, for assertion messages."""
    p = position
    head = (
        f"{p.phase.value}, {p.to_move.title} to move, ply {p.ply}; "
        f"supply W B{p.bases_in_supply(W)} P{p.powers_in_supply(W)} E{p.enforcers_in_supply(W)}, "
        f"B B{p.bases_in_supply(B)} P{p.powers_in_supply(B)} E{p.enforcers_in_supply(B)}; "
        f"captured {p.captured}; result {p.result}"
    )
    return head + "\n" + render_board(p.board)


def assert_board(position: Position, diagram: str, origin: str = "a1") -> None:
    """The whole board of ``position`` is what the diagram (window) shows."""
    expected = board_from(diagram, origin)
    assert position.board == expected, (
        "board differs\nexpected:\n" + render_board(expected) + "\ngot:\n" + render(position)
    )


# -- building and playing moves ------------------------------------------------------
def mv(frm: str, to: str, create: str | None = None, immobilise: str | None = None) -> Move:
    """A Move from square names; ``create`` is a created Enforcer as ``"g12S"``."""
    create_at = create_facing = None
    if create is not None:
        create_at, create_facing = parse_square(create[:-1]), Direction[create[-1]]
    return Move(
        parse_square(frm),
        parse_square(to),
        create_at,
        create_facing,
        None if immobilise is None else parse_square(immobilise),
    )


def play(position: Position, *moves: Move) -> tuple[TurnState, list[Event]]:
    """Begin a turn and apply ``moves`` in order; the state and every event, in order."""
    state = begin_turn(position)
    events: list[Event] = []
    for m in moves:
        state, more = apply_move(state, m)
        events.extend(more)
    return state, events
