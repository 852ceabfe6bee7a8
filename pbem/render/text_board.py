"""A plain-text board for terminals and plain-text email: ASCII only, Realms boxed.

Cells: ``wB``/``bB`` Base, ``wP``/``bP`` Power, ``wE^ wE> wEv wE<`` Enforcer
pointing N/E/S/W (turned half round on Black's view, where rank 1 is on top, as the
SVG board turns them), ``wE#`` immobilised; ``o`` an empty Center, ``.`` an empty square.
Given the last turn, a ``*`` in the space before a cell marks a square that turn
changed (moved from or to, placed, created, captured, immobilised), so a player
reading plain-text mail sees at once what the opponent did.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection

from pbem.notation.format import format_action
from pbem.records.replay import PlayedTurn
from pbem.rules.game import AnyGame, GamePosition, turn_name
from pbem.rules.geometry import FILES, IS_CENTER, SIZE, square
from pbem.rules.pieces import BoardPiece
from pbem.rules.registry import game_of

#: an arrow as seen from the other side of the board
_TURNED = {"^": "v", ">": "<", "v": "^", "<": ">"}


def seen_from(legend: str, flip: bool) -> str:
    """A game's legend as it reads on Black's view (``flip``): the arrows turned."""
    return legend.replace("^ > v <", "v < ^ >") if flip else legend


def cell(piece: BoardPiece | None, center: bool, game: AnyGame, flip: bool = False) -> str:
    if piece is None:
        return " o " if center else " . "
    text = game.text_cell(piece)
    body = text.rstrip()
    if flip and len(body) > 2 and body[-1] in _TURNED:  # an Enforcer's arrow turns too
        text = (body[:-1] + _TURNED[body[-1]]).ljust(len(text))
    return text


MARK = "*"


def turn_squares(turn: PlayedTurn) -> frozenset[int]:
    """The squares a played turn changed: where pieces left and arrived, where pieces
    were placed, created, taken or turned, in any game: every square whose piece
    differs before and after one of the turn's actions."""
    marked: set[int] = set()
    boards = [r.board for r in turn.resolved] + [turn.after.board]
    for before, after in itertools.pairwise(boards):
        marked.update(s for s, (p, q) in enumerate(zip(before, after, strict=True)) if p != q)
    return frozenset(marked)


def last_turn_line(turn: PlayedTurn) -> str:
    """The legend line for the marks: '* = squares changed by the last turn, #11w: ...'."""
    played = ",".join(format_action(r.canonical()) for r in turn.resolved)
    return f"{MARK} = squares changed by the last turn, {turn_name(turn.label)}: {played}"


def render_board(
    position: GamePosition, *, flip: bool = False, marks: Collection[int] = ()
) -> str:
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
    game = game_of(position)
    for n, r in enumerate(ranks):
        row = f"{r + 1:>2} |"
        for i, f in enumerate(files):
            sq = square(f, r)
            row += (MARK if sq in marks else " ") + cell(position.board[sq], IS_CENTER[sq], game,
                                                         flip)
            if i % 3 == 2:
                row += " |"
        lines.append(row)
        if n % 3 == 2:
            lines.append(rule)
    return "\n".join(lines)


def render_status(position: GamePosition) -> str:
    """Supplies, captures, the score, and whose turn it is, in the game's words."""
    return "\n".join(game_of(position).status_lines(position))


def render_text(
    position: GamePosition,
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

    lines = [seen_from(game_of(position).legend(), flip)] if legend else []
    if last is not None:
        lines.append(last_turn_line(last))
    return render_template(
        "replay.txt.j2",
        title=title,
        board=render_board(position, flip=flip, marks=turn_squares(last) if last else ()),
        legend="\n".join(lines),
        status=render_status(position),
    ).rstrip("\n")
