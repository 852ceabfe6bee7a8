"""A game's verdict as ``pbem validate`` prints it: one line for a valid game, and for an
invalid one where it breaks (file:line:column, turn, action), what the rules allow there,
the line with a caret under the action and the board before the failing turn.

The verdict itself is ``pbem.records.validate.GameReport``; its JSON form is
``pbem.records.batch.format_json_line``. The text is here, in the layer that draws
boards, so that the command line only chooses between the two. ``describe_report`` runs in
the validation workers too: each piece comes back already formatted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.render.text_board import render_text

if TYPE_CHECKING:
    from pbem.records.validate import GameReport


def describe_report(report: GameReport, *, verbose: bool = False) -> str:
    """The verdict of one game as text; ``verbose``: every warning and annotation under it."""
    replay = report.replay
    where = f"{report.path}#{report.index + 1}"
    turns = len(replay.turns)
    nwarn = len(replay.warnings)
    warn = f", {nwarn} warning{'s' if nwarn != 1 else ''}" if nwarn else ""
    if report.valid:
        result = replay.result or "unfinished"
        line = f"{where}: valid, {result} after {turns} turns{warn} ({report.title()})\n"
        if verbose:
            line += "".join(f"  {_warning_line(report, w)}\n" for w in replay.warnings)
            line += "".join(f"  {_annotation_line(report, a)}\n" for a in replay.annotations)
        return line
    e = replay.error
    assert e is not None
    loc = f"{report.path}:{e.span.line}:{e.span.column}" if e.span else report.path
    head = f"{where}: INVALID ({report.title()})\n"
    what = " ".join(x for x in (e.turn, repr(e.action) if e.action else None) if x)
    text = head + f"{loc}: {what + ': ' if what else ''}{e.message}\n"
    if e.options and len(e.options) <= 16:
        text += f"  the rules allow: {', '.join(e.options)}\n"
    elif e.options:
        text += f"  the rules allow {len(e.options)} choices, e.g. {', '.join(e.options[:8])}\n"
    text += _caret(report, e.span.line, e.span.column, e.action) if e.span else ""
    if verbose:
        text += "".join(f"  {_warning_line(report, w)}\n" for w in replay.warnings)
    if replay.final is not None:
        board = render_text(replay.final, legend=False)
        text += "  position before the failing turn:\n"
        text += "".join(f"    {ln}\n" for ln in board.splitlines())
    return text


def _annotation_line(report: GameReport, a: dict[str, Any]) -> str:
    """An editor's annotation, as ``-v`` lists it: its place, its turn, what it says."""
    loc = f"{report.path}:{a['line']}:{a['column']}"
    variation = a["variation"]
    if variation is not None:
        state = "plays" if variation["valid"] else "breaks"
        return f"{loc}: annotation: {a['turn']}: variation {variation['text']} ({state})"
    said = " ".join(x for x in (a["mark"], a["comment"] and f"{{{a['comment']}}}") if x)
    return f"{loc}: annotation: {a['turn']}: {said}"


def _warning_line(report: GameReport, w: object) -> str:
    span = getattr(w, "span", None)
    loc = f"{report.path}:{span.line}:{span.column}" if span else report.path
    turn = getattr(w, "turn", None)
    return f"{loc}: warning: {turn + ': ' if turn else ''}{getattr(w, 'message', w)}"


#: the most of a record's line shown above the caret
CARET_LINE = 100


def _caret(report: GameReport, line: int, column: int, action: str | None) -> str:
    lines = report.source.text.splitlines()
    index = line - report.source.first_line
    if not 0 <= index < len(lines):
        return ""
    text = lines[index].expandtabs(1)
    width = max(1, min(len(action or "x"), len(text) - column + 1))
    offset = column - 1
    if len(text) > CARET_LINE:  # a window around the error, not a megabyte of line
        start = max(0, min(offset - CARET_LINE // 3, len(text) - CARET_LINE))
        end = start + CARET_LINE
        head = "..." if start else ""
        text = head + text[start:end] + ("..." if end < len(text) else "")
        offset += len(head) - start
        width = min(width, CARET_LINE)
    return f"  {text}\n  {' ' * offset}{'^' * width}\n"


def broken_line(report: GameReport, what_is_shown: str) -> str | None:
    """Why a record breaks, in one line, and what a command shows instead (``replay``,
    ``board``, ``moves`` print it on stderr); None for a valid record."""
    e = report.error
    if e is None:
        return None
    loc = f"{report.path}:{e.span.line}:{e.span.column}" if e.span else report.path
    return f"{loc}: {e.turn + ': ' if e.turn else ''}{e.message} ({what_is_shown})"
