"""A plain-text board for terminals and plain-text email: ASCII only, Realms boxed.

Cells: ``wB``/``bB`` Base, ``wP``/``bP`` Power, ``wE^ wE> wEv wE<`` Enforcer
pointing N/E/S/W, ``wE#`` immobilised; ``o`` an empty Center, ``.`` an empty square.
Given the last turn, a ``*`` in the space before a cell marks a square that turn
changed (moved from or to, placed, created, captured, immobilised), so a player
reading plain-text mail sees at once what the opponent did.
"""

from __future__ import annotations

from collections.abc import Collection

from pbem.notation.format import format_action
from pbem.records.replay import PlayedTurn
from pbem.rules.geometry import FILES, IS_CENTER, REALM_SQUARES, SIZE, square
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.realm.actions import GameEnded, Move, Placement, Rearrangement, Sacrifice
from pbem.rules.realm.position import Phase, Position
from pbem.rules.realm.scoring import result_words, score

_ARROW = {0: "^", 1: ">", 2: "v", 3: "<"}
LEGEND = (
    "w = White, b = Black; B Base, P Power, E Enforcer pointing ^ > v < "
    "(N E S W), E# immobilised; o empty Center"
)


def cell(piece: Piece | None, center: bool) -> str:
    if piece is None:
        return " o " if center else " . "
    text = piece.side.letter + piece.kind.value
    if piece.kind is Kind.ENFORCER:
        text += "#" if piece.facing is None else _ARROW[piece.facing]
    return text.ljust(3)


MARK = "*"


def turn_squares(turn: PlayedTurn) -> frozenset[int]:
    """The squares a played turn changed: where pieces left and arrived, where
    set-up put a piece, where events happened, and what a Rearrangement moved."""
    marked: set[int] = set()
    for r in turn.resolved:
        action = r.action
        if isinstance(action, Placement):
            marked.add(action.square)
        elif isinstance(action, Move):
            marked.update((action.frm, action.to))
        elif isinstance(action, Rearrangement):
            after = turn.after.board
            marked.update(s for s in REALM_SQUARES[action.realm] if r.board[s] != after[s])
        if isinstance(action, Sacrifice):
            marked.update((action.power, action.enforcer))
        for event in r.events:
            if not isinstance(event, GameEnded):
                marked.add(event.square)
    return frozenset(marked)


def last_turn_line(turn: PlayedTurn) -> str:
    """The legend line for the marks: '* = squares changed by the last turn, 11w: ...'."""
    played = ",".join(format_action(r.canonical()) for r in turn.resolved)
    return f"{MARK} = squares changed by the last turn, {turn.label}: {played}"


def render_board(position: Position, *, flip: bool = False, marks: Collection[int] = ()) -> str:
    """The board alone, rank 12 at the top (or rank 1 when ``flip``: Black's view).

    ``marks``: squares to flag with ``*`` in the space before their cell, which
    keeps every column where it is.
    """
    files = list(range(SIZE))
    ranks = list(range(SIZE - 1, -1, -1))
    if flip:
        files.reverse()
        ranks.reverse()
    header = "    "  # laid out exactly like a row, so the letters sit over the cells
    for i, f in enumerate(files):
        header += f"  {FILES[f]} "
        if i % 3 == 2:
            header += "  "
    rule = "   +" + "+".join(["-" * 13] * 4) + "+"
    lines = [header.rstrip(), rule]
    for n, r in enumerate(ranks):
        row = f"{r + 1:>2} |"
        for i, f in enumerate(files):
            sq = square(f, r)
            row += (MARK if sq in marks else " ") + cell(position.board[sq], IS_CENTER[sq])
            if i % 3 == 2:
                row += " |"
        lines.append(row)
        if n % 3 == 2:
            lines.append(rule)
    return "\n".join(lines)


def render_status(position: Position) -> str:
    """Supplies, captures, Realms, score, and whose turn it is."""
    out = []
    for side in Side:
        out.append(
            f"{side.title:<6} supply: {position.bases_in_supply(side)} Bases, "
            f"{position.powers_in_supply(side)} Powers, "
            f"{position.enforcers_in_supply(side)} Enforcers; "
            f"captured {position.captured[side]} {side.other.title} Bases; "
            f"controls {position.realms_controlled(side)} Realms"
        )
    s = score(position)
    out.append(f"Score: {s.describe()}")
    if position.phase is Phase.OVER:
        reason = {
            "bases": "a side created all its Bases",
            "no-legal-turn": "neither side has a legal turn",
        }.get(position.end or "", position.end or "")
        out.append(f"Game over ({reason}): {position.result}, {result_words(position.result)}")
    elif position.phase is Phase.SETUP:
        out.append(f"Set-up: {position.to_move.title} to place")
    else:
        out.append(f"{position.to_move.title} to move")
    return "\n".join(out)


def render_text(
    position: Position,
    *,
    flip: bool = False,
    legend: bool = True,
    title: str | None = None,
    last: PlayedTurn | None = None,
) -> str:
    """Board, legend and status through ``templates/replay.txt.j2``.

    ``last``: the turn that led to ``position``; its squares are marked and it is
    written out under the board.
    """
    from pbem.render.templates import render_template

    lines = [LEGEND] if legend else []
    if last is not None:
        lines.append(last_turn_line(last))
    return render_template(
        "replay.txt.j2",
        title=title,
        board=render_board(position, flip=flip, marks=turn_squares(last) if last else ()),
        legend="\n".join(lines),
        status=render_status(position),
    ).rstrip("\n")
