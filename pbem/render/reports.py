"""Turn reports: what the referee mails to both players after each turn.

One context is gathered here from the replay, and two templates lay it out:
``report.txt.j2`` (plain-text mail, ASCII board) and ``report.html.j2``
(self-contained HTML for mail clients: CSS inlined, simple tables, the board as
a ``cid:`` PNG image in mail or inline SVG elsewhere, no scripts and no external
resources). Everything a player typed
(names, comments) reaches the HTML through jinja2's autoescaping.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import field
from typing import Any

from pbem.notation.format import format_entry, format_movetext, format_turn
from pbem.notation.syntax import EntryText, ResultText, TurnText
from pbem.notation.write import entry_of, game_text
from pbem.records.replay import PlayedTurn, Replay
from pbem.render.board_words import board_alt, board_words
from pbem.render.mail_html import render_mail_html
from pbem.render.narrate import (
    describe_end,
    describe_next,
    describe_turn,
    turn_kind,
)
from pbem.render.prose import fill
from pbem.render.templates import render_template
from pbem.render.text_board import last_turn_line, render_board, seen_from, turn_squares
from pbem.rules.game import GamePosition, Phase, SideTable, result_words, turn_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of
from pbem.rules.values import frozen

#: front-matter keys shown at the top of a report, in this order
HEADER_KEYS = (
    ("white", "White"),
    ("black", "Black"),
    ("event", "Event"),
    ("site", "Site"),
    ("date", "Date"),
)
WIDTH = 78


@frozen
class SideRow:
    side: str
    #: the player's name from the front matter, "" when none or the same as the side
    player: str
    #: the game's numbers for the side, in the order of ``ReportContext.table.columns``
    values: tuple[int, ...]


@frozen
class TurnReport:
    label: str
    side: str
    #: the player's name from the front matter, "" when none or the same as the side
    player: str
    kind: str
    #: the numbered turn in canonical notation: ``11.Pj7j10(Bk11),...`` or ``11...Pl1l6,...``
    notation: str
    sentences: tuple[str, ...]
    notes: tuple[str, ...]
    #: how the referee read the turn where it was written with look-alike letters
    repairs: tuple[str, ...]

    @property
    def name(self) -> str:
        """``#11w``: the turn as the players write its number (one form in every report)."""
        return turn_name(self.label)


@frozen
class MoveRow:
    number: int
    white: str
    black: str


@frozen
class ReportContext:
    title: str
    headers: tuple[tuple[str, str], ...]
    turn: TurnReport | None
    position: GamePosition
    #: the per-side numbers' columns and text layout (the game's own)
    table: SideTable
    sides: tuple[SideRow, ...]
    score: str
    over: bool
    #: whose turn is next, or how the game ended
    next: str
    result: str | None
    movetext: str
    moves: tuple[MoveRow, ...]
    result_line: str
    error: str | None
    last: PlayedTurn | None = field(default=None, repr=False)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _player(headers: dict[str, Any], side: Side) -> str:
    name = _text(headers.get(side.key)).strip()
    return "" if name == side.title else name


def _canonical(turn: PlayedTurn) -> TurnText:
    """The turn as it should have been written (comments are shown apart, not here)."""
    return TurnText(tuple(r.canonical() for r in turn.resolved))


def numbered_turn(turn: PlayedTurn) -> str:
    """``11.Pj7j10(Bk11),...`` for White, ``11...Pl1l6,...`` for Black (notation.md)."""
    return format_entry(EntryText(*entry_of(int(turn.label[:-1]), turn.side, _canonical(turn))))


def _result_of(replay: Replay, index: int) -> str | None:
    """The result as of turn ``index``: the rules' own, or what the record claims at its end."""
    turn = replay.turns[index]
    if turn.after.result is not None:
        return turn.after.result
    return replay.result if index == len(replay.turns) - 1 else None


def _comment(note: str) -> str:
    """A note as a reader wants it: a ``{...}`` comment without its braces (a player's
    message is ``{White: ...}`` in the record, "White: ..." in the report)."""
    if note.startswith("{") and note.endswith("}"):
        return note[1:-1].strip()
    return note


def build_context(replay: Replay, turn_index: int = -1) -> ReportContext:
    """Everything a report shows, as of the end of turn ``turn_index`` (-1: the last)."""
    headers = replay.headers
    if replay.turns:
        index = range(len(replay.turns))[turn_index]  # IndexError names a bad index
        played: PlayedTurn | None = replay.turns[index]
        turns = replay.turns[: index + 1]
        result = _result_of(replay, index)
    else:
        if turn_index not in (-1, 0):
            raise IndexError(f"turn index {turn_index} out of range: no turn has been played")
        index, played, turns, result = -1, None, [], replay.result
    position = played.after if played is not None else replay.final
    if position is None:
        raise ValueError("the record has no position to report (its ruleset did not load)")

    ruleset = replay.ruleset.name if replay.ruleset is not None else headers.get("ruleset")
    shown = [(label, _text(headers[key])) for key, label in HEADER_KEYS if key in headers]
    shown.append(("Ruleset", _text(ruleset) or "featured"))

    turn = None
    if played is not None:
        turn = TurnReport(
            label=played.label,
            side=played.side.title,
            player=_player(headers, played.side),
            kind=turn_kind(played),
            notation=numbered_turn(played),
            sentences=tuple(describe_turn(played)),
            notes=tuple(_comment(n) for n in played.text.notes),
            repairs=tuple(w.message for w in replay.warnings if w.turn == played.label),
        )

    game_rules = game_of(position)
    table = game_rules.side_table(position)
    sides = tuple(
        SideRow(side.title, _player(headers, side), values) for side, values in table.rows
    )
    over = position.phase is Phase.OVER
    if over:
        next_words = describe_end(position, played.side if played is not None else None)
    elif result is not None:
        next_words = f"The game is over: {result}, {result_words(result)} (as the record says)."
    else:
        next_words = describe_next(position) + "."

    game = game_text([(t.side, _canonical(t)) for t in turns], result=result)
    moves = tuple(
        MoveRow(
            e.number,
            format_turn(e.white) if e.white is not None else "...",
            format_turn(e.black) if e.black is not None else "",
        )
        for e in game.items
        if isinstance(e, EntryText)
    )
    result_line = " ".join(i.text for i in game.items if isinstance(i, ResultText))

    error = None
    if replay.error is not None and index == len(replay.turns) - 1:
        e = replay.error
        where = f" ({e.turn})" if e.turn else ""
        error = f"The record goes on with a turn that cannot be played{where}: {e.message}"

    return ReportContext(
        title=_text(headers.get("game")) or "Realm",
        headers=tuple(shown),
        turn=turn,
        position=position,
        table=table,
        sides=sides,
        score=game_rules.score_line(position, over),
        over=over or result is not None,
        next=next_words,
        result=result,
        movetext=format_movetext(game),
        moves=moves,
        result_line=result_line,
        error=error,
        last=played,
    )


def _wrap(text: str, first: str = "", rest: str | None = None) -> str:
    """Wrap a line of prose for plain-text mail; squares and notation never break."""
    return textwrap.fill(
        text,
        WIDTH,
        initial_indent=first,
        subsequent_indent=rest if rest is not None else " " * len(first),
        break_long_words=False,
        break_on_hyphens=False,
    )


def render_report_text(replay: Replay, *, turn_index: int = -1, flip: bool = False) -> str:
    """The plain-text report (ASCII board with the last turn marked)."""
    ctx = build_context(replay, turn_index)
    marks = turn_squares(ctx.last) if ctx.last is not None else ()
    legend = [seen_from(game_of(ctx.position).legend(), flip)]
    if ctx.last is not None:
        legend.append(last_turn_line(ctx.last))
    return render_template(
        "report.txt.j2",
        r=ctx,
        board=render_board(ctx.position, flip=flip, marks=marks),
        legend=legend,
        wrap=_wrap,
        clauses=lambda text, first="", rest="": fill(text, WIDTH, first, rest),
        board_words=board_words(ctx.position).lines(),
    )


def _board_svg(position: GamePosition, last: PlayedTurn | None, flip: bool) -> str | None:
    """The SVG board, when the SVG renderer is there (without it: the text board)."""
    try:
        from pbem.render.board_svg import render_svg
    except ModuleNotFoundError as exc:
        if exc.name != "pbem.render.board_svg":
            raise
        return None
    return render_svg(position, last=last, flip=flip)


def render_report_html(
    replay: Replay,
    *,
    turn_index: int = -1,
    board_svg: str | None = None,
    board_image: str | None = None,
    flip: bool = False,
    notices: Sequence[str] = (),
    links: Sequence[tuple[str, str]] = (),
    after: Sequence[str] = (),
) -> str:
    """The HTML report, its CSS inlined. ``board_image`` (a ``cid:`` URL of the PNG
    board, for mail) is shown as an image; else ``board_svg`` is inlined as given
    (trusted markup, made by ``render_svg``; "" for the text board); else the board is
    drawn here, or as text.
    ``notices`` (the referee's clock lines, say) go on top, escaped like all text;
    ``links`` are (label, URL) lines (the game's live page); ``after`` (the clock's lines)
    follow the board, as in the text report."""
    ctx = build_context(replay, turn_index)
    svg = None
    if board_image is None:
        svg = board_svg if board_svg is not None else _board_svg(ctx.position, ctx.last, flip)
    text_board = None
    if not svg and board_image is None:  # "" asks for the text board
        marks = turn_squares(ctx.last) if ctx.last is not None else ()
        text_board = render_board(ctx.position, flip=flip, marks=marks)
    last_line = None
    if ctx.last is not None and text_board is not None:
        last_line = last_turn_line(ctx.last)
    elif ctx.last is not None:
        played = format_turn(_canonical(ctx.last))
        last_line = f"Drawn on the board: the last turn, {turn_name(ctx.last.label)}: {played}"
    return render_mail_html(
        "report.html.j2",
        r=ctx,
        board_image=board_image,
        board_alt=board_alt(ctx.position, ctx.last, flip=flip, result=ctx.result),
        board_words=board_words(ctx.position).lines() if board_image is not None else [],
        svg=svg,
        text_board=text_board,
        legend=seen_from(game_of(ctx.position).legend(), flip),
        last_line=last_line,
        notices=notices,
        links=links,
        after=after,
    )
