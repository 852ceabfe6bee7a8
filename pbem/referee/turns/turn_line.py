"""A mailed turn's line cut into the turn and the prose around it.

Players write a remark after their turn on the same line ("14.Pj10j9(Bk8) -- let's see
what you do!", "Eb5b8(xEa7) (hope that works)"). The turn is what the notation reads
from the line's start; what follows it is left aside and quoted back to the sender, so
nothing he wrote vanishes unseen. Marks and comments after a turn (``!``, ``?!``,
``{...}``) are notation, the editor's annotations, never prose. Text left aside that
looks like notation (a piece letter with a square, a move number) is never ignored: it
may be a second half of the turn, so the mail is refused, naming what was read as the
turn and what was not.

The cut is found by the parser itself (the one definition of the notation): the line is
parsed once; where the reading stops, the text before it is parsed once more as the whole
turn. Two parses of the line, whatever it holds.
"""

from __future__ import annotations

import re

from pbem.errors import PbemError, Span
from pbem.notation.format import entry_line
from pbem.notation.parse import parse_movetext
from pbem.notation.syntax import EntryText
from pbem.notation.write import entry_of
from pbem.records.replay import GameError
from pbem.rules.game import GamePosition
from pbem.rules.registry import game_of
from pbem.rules.values import frozen

#: a mark after a turn: good, bad, interesting, dubious (``!``, ``??``, ``!?``, ...)
_MARK = re.compile(r"[!?]")
#: prose that looks like notation: a piece letter with a square, or a move number
_LIKE_NOTATION = re.compile(
    r"(?<![A-Za-z])[BPERSbpers][a-lA-L](?:1[0-2]|[1-9])(?![0-9])"  # a piece and a square
    r"|[A-Za-z]\d{1,2}[A-Za-z]\d"  # two squares in a row, even off the board: a move
    r"|(?<![0-9])\d{1,4}\s*(?:\.{1,3}|…)\s*[A-Za-z]{1,2}\d"  # a move number and a turn
)
#: the longest remark quoted back whole; a longer one is cut, with "..."
QUOTED = 200


@frozen
class TurnLine:
    """The turn read from a line, and the prose after it ("" when none)."""

    turn: str
    aside: str = ""
    error: GameError | None = None


def _prefix(position: GamePosition, text: str) -> str:
    if text[:1].isdigit():
        return ""
    number, side = position.turn_number(), position.to_move
    return entry_line(*entry_of(number, side, ""))


def _one_turn(position: GamePosition, text: str) -> EntryText | None:
    """The one entry of one turn that ``text`` is, or None."""
    try:
        game = parse_movetext(_prefix(position, text) + text, game=game_of(position))
    except PbemError:
        return None
    if len(game.items) != 1 or not isinstance(game.items[0], EntryText):
        return None
    entry = game.items[0]
    if (entry.white is None) == (entry.black is None):
        return None
    return entry


def _without_marks(text: str) -> str:
    """``text`` without the marks and ``{comments}`` at its start: they are notation.
    One pass by index (no copy per mark: a line of ten thousand marks stays linear)."""
    at, n = 0, len(text)
    while at < n:
        if text[at].isspace() or text[at] in "!?":
            at += 1
        elif text[at] == "{":
            close = text.find("}", at)
            if close < 0:
                break
            at = close + 1
        else:
            break
    return text[at:]


def _quoted(text: str) -> str:
    return text if len(text) <= QUOTED else text[:QUOTED].rstrip() + "..."


def read_turn_line(position: GamePosition, text: str) -> TurnLine:
    """The turn on ``text`` and the prose after it; an ``error`` when the prose looks like
    notation (columns of ``text`` stripped, as ``play_turn`` counts them)."""
    stripped = text.strip()
    entry = _one_turn(position, stripped)
    if entry is not None:
        turn = entry.white or entry.black
        assert turn is not None
        notes = [n for n in turn.notes if not n.startswith("{")]
        if not notes:
            return TurnLine(stripped)
        # "(hope that works)": a note in brackets after the turn is the player's prose
        first = stripped.find(notes[0])
        return _aside(position, stripped, first) if first > 0 else TurnLine(stripped)
    prefix = _prefix(position, stripped)
    try:
        parse_movetext(prefix + stripped, game=game_of(position))
    except PbemError as exc:
        if exc.span is None or exc.span.line != 1:
            return TurnLine(stripped)
        stop = exc.span.column - 1 - len(prefix)
        if stop <= 0:
            return TurnLine(stripped)
        return _aside(position, stripped, stop)
    return TurnLine(stripped)  # read, but not as one turn: play_turn says why


def _aside(position: GamePosition, stripped: str, stop: int) -> TurnLine:
    """``stripped`` cut at ``stop``: the turn before, the prose after, if what stands
    before is a whole turn; else the line as it is (its error says what is wrong)."""
    head, tail = stripped[:stop].rstrip(), stripped[stop:]
    # the reading may stop inside a word: the cut is at the white space before it
    if stop < len(stripped) and not stripped[stop - 1].isspace() and not _MARK.match(tail):
        space = head.rfind(" ")
        if space < 0:
            return TurnLine(stripped)
        head, tail = stripped[:space].rstrip(), stripped[space:]
    if not head or _one_turn(position, head) is None:
        return TurnLine(stripped)
    prose = _without_marks(tail).strip()
    like = _LIKE_NOTATION.search(prose)
    if like is not None:
        start = prose.rfind(" ", 0, like.start()) + 1
        end = prose.find(" ", like.end())
        word = prose[start:] if end < 0 else prose[start:end]
        return TurnLine(stripped, prose, GameError(
            f"only {head!r} was read as your turn: the rest of the line, "
            f"{_quoted(prose)!r}, has {word!r} in it, which looks like part "
            "of a turn, so nothing was played. Write the whole turn with its actions joined "
            "by commas, and anything else on a line of its own",
            "mail.aside", Span(1, len(stripped) - len(tail.lstrip()) + 1),
        ))
    return TurnLine(head, _quoted(prose))
