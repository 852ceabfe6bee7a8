"""The notation's tokenizer: the one definition of every form a record or a mail writes.

``grammar/realm.lark`` says how the forms combine; this says what each form is: a
square, a piece letter, a move, an event, a Rearrangement, a number, a result, a
note. lark is handed it through its public custom-lexer interface (``lexer=``), and
everything else that must recognise a form (the transformer, the error words) uses
what this module found: the syntax objects it builds for each action token, or its
``square_end``.

Linear by construction. Every token is read left to right, each character a bounded
number of times: a scan either becomes tokens (the moves of a packed turn read while
looking for the turn's end are handed out, never read again), or stops the text (an
unreadable character becomes a ``BAD`` token, on which the parser stops). The only
look-aheads run over white space, or to the next parenthesis or brace, and each
stretch of text is looked over by one of them at most. ``Work`` counts what was
done, so that tests can prove this without a clock.

The notation packs an entry without spaces (``7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2)``);
such an entry is handed to lark as one token (``FULL_ENTRY``), because lark's time goes
by the token. A packed token always reads as the smaller tokens it holds would: where
it could not, the smaller tokens are handed out instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, TypeVar

from lark import Token
from lark.lexer import Lexer

from pbem.errors import Span
from pbem.notation.spans import row, span_on
from pbem.notation.syntax import LabelText, ListMarkerText, new_list_marker_text
from pbem.rules.written import (
    EventText,
    ItemText,
    MoveText,
    PlacementText,
    RearrangementText,
    SquareText,
    new_event_text,
    new_move_text,
    new_placement_text,
    new_square_text,
)

#: a square's file: ``a``-``l`` in either case, or ``1`` for ``l`` (a scan's misreading)
FILES = frozenset("abcdefghijklABCDEFGHIJKL1")
#: a file that may stand before ``l``/``I`` read for the rank's ``1`` (``cl0``); not ``B``
#: or ``E``, so that ``Pa1 Bl1`` stays two placements
FILES_BEFORE_L = frozenset("abcdefghijklACDFGHIJKL1")
FACINGS = frozenset("NESWU")
PIECES = frozenset("BPE")
DIGITS = frozenset("0123456789")
#: what may follow a bare result "*" (white space, a comment, the end of the text)
_RESULT_END = frozenset(" \t\r\n{\0")
#: white space between tokens
BLANKS = frozenset(" \t\f\r\n\u00a0\u200b\ufeff")
#: what may follow a comma that ends a turn: not the start of another action
_ACTION_STARTS = frozenset("PEBRSp")
MARKS = ("!!", "??", "!?", "?!", "!", "?")
#: variations may nest this deep, no deeper: every level is a turn's position kept
MAX_DEPTH = 32
#: the sentinel after the text: no digit, no letter, no space, so that a scan needs no
#: bounds check
_END = "\x00\x00\x00\x00\x00\x00"


#: the tokenizer's work: [tokens handed out, characters looked at by scans that may fail]
_WORK = [0, 0]


class Work:
    """What the tokenizer did, for tests that prove linear time without a clock."""

    @staticmethod
    def reset() -> None:
        _WORK[0] = _WORK[1] = 0

    @staticmethod
    def total() -> int:
        return _WORK[0] + _WORK[1]


class Reading:
    """The text being read, and its line offset in its file (for every span): the parse
    sets them, the transformer reads them (a variation's text as written)."""

    line_offset = 0
    text = ""


_L = TypeVar("_L", bound="Lexed")


class Lexed(Token):
    """A token as the tokenizer makes it: ``Token``'s public attributes, set directly
    (``Token()`` checks arguments a token made here never needs checked)."""

    __slots__ = ()

    def __new__(cls: type[_L], type: str, value: str, start_pos: int, line: int,
                column: int) -> _L:
        tok = str.__new__(cls, value)
        tok.type = type
        tok.value = value
        tok.start_pos = start_pos
        tok.line = line
        tok.column = column
        tok.end_line = tok.end_column = tok.end_pos = None
        return tok


class Syntax(Lexed):
    """A token that carries the syntax objects read from it."""

    __slots__ = ("syntax",)
    #: what the tokenizer read (a square, a move, a piece and its square...): the
    #: transformer's rule for the token's terminal knows which
    syntax: Any


#: a token made by ``Lexed.__new__`` alone, without the class call (``type.__call__``
#: costs some 1,000 machine instructions more; the tokenizer makes every token so):
#: ``new_token(Lexed, kind, value, start_pos, line, column)``, ``new_token(Syntax, ...)``
new_token = Lexed.__new__


#: THE square: a file and a rank 1..12, never followed by another digit (``a13`` is no
#: square, not ``a1`` and a ``3``). Read leniently, as scanned transcripts need: the file
#: in either case or ``1`` for ``l`` (``FILES``), the rank's ``1`` as ``l`` or ``I``
#: (``cl0``, after ``FILES_BEFORE_L``); the resolver repairs these and warns. Bounded: a
#: match looks at four characters at most.
SQUARE = r"(?:[a-lA-L1](?:1[0-2]|[1-9])|[a-lACDF-L1][lI][0-2]?)(?![0-9])"
_SQUARE = re.compile(SQUARE)
_DIGITS = re.compile(r"\d+")
#: the text of a parenthesised note, up to its ``)``
_NOTE_RUN = re.compile(r"[^()\n]*")
#: the letters of a label (``Set-up:``, a scan's ``Set?up:``), up to its colon
_LABEL_RUN = re.compile(r"[A-Za-z?\-]*")
#: the move nearly every record writes, read in one bounded match: a piece, two squares,
#: and the first event of a list written right after it, with the comma or parenthesis
#: after it; each further event of the list is one match of ``_NEXT_EVENT``. Everything
#: else is read square by square (``Scanner._move``).
_MOVE = re.compile(rf"([PE])({SQUARE})({SQUARE})(?:\(([x+]?)([BPE])({SQUARE})([NESWU]?)([,)]))?")
_NEXT_EVENT = re.compile(rf"([x+]?)([BPE])({SQUARE})([NESWU]?)([,)])")
#: a set-up pair, ``1.Bh11 Bh2,``, in one match; a scan's comma may stand after White's
#: placement (``6.Pc4, Pc9,``)
_PLACED_PAIR = re.compile(
    rf"(\d++)\.([BPE])({SQUARE})(?:(,)[ \t]*+|[ \t]++)([BPE])({SQUARE}),")


#: a chain of moves as read (``Scanner._chain``): the moves, where each ends, and the end
#: of a placement's square where the chain is one (``-1`` otherwise)
Chain = tuple[list[MoveText], list[int], int]


def square_end(text: str, p: int) -> int:
    """Where the square written at ``text[p]`` ends, or -1 (see ``SQUARE``)."""
    m = _SQUARE.match(text, p)
    return -1 if m is None else m.end()


def is_square(text: str) -> bool:
    """``text`` is exactly one square as the notation reads it."""
    return bool(text) and square_end(text + _END, 0) == len(text)


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


class Scanner:
    """One text's tokens, read left to right (see the module's docstring)."""

    def __init__(self, data: str, line_offset: int = 0):
        self.text = data + _END
        self.n = len(data)
        self.offset = line_offset
        self.line = 1
        self.line_start = 0
        self.pos = 0
        #: open parentheses of an event list, a Rearrangement or a sacrifice: in them a
        #: comma is always a separator, and ``Pa1a2`` no move
        self.parens = 0
        self.brackets = 0
        self.last = ""  # the type of the token handed out last
        self.front_matter_fails = -1  # no closing '---' after this offset
        self.label_fails = 0  # no label starts before this offset
        #: whether the last whole entry read has Black's turn apart from its slash
        self.apart = False
        #: the last chain of moves read, by where it starts
        self.chain_at = -1
        self.chain: Chain = ([], [], -1)
        #: the spans kept for the line ``row_line`` (``spans.row``)
        self.row_line = -1
        self.row: dict[int, Span] = {}

    # -- spans ----------------------------------------------------------------------
    def _row_of(self, line: int) -> dict[int, Span]:
        """The spans of ``line``, looked up once a line (callers test ``row_line`` first)."""
        self.row_line = line
        self.row = row(line)
        return self.row

    def _span(self, p: int) -> Span:
        line = self.line + self.offset
        spans = self.row if line == self.row_line else self._row_of(line)
        col = p - self.line_start + 1
        return spans.get(col) or span_on(spans, line, col)

    def _square_text(self, p: int, end: int) -> SquareText:
        return new_square_text(SquareText, self.text[p:end], self._span(p))

    def _token(self, kind: str, start: int, end: int) -> Token:
        _WORK[0] += 1
        return new_token(Lexed, kind, self.text[start:end], start, self.line,
                         start - self.line_start + 1)

    def _syntax(self, kind: str, start: int, end: int, syntax: Any) -> Token:
        _WORK[0] += 1
        tok = new_token(Syntax, kind, self.text[start:end], start, self.line,
                        start - self.line_start + 1)
        tok.syntax = syntax
        return tok

    def _lines_in(self, start: int, end: int) -> None:
        """Count the lines ``text[start:end]`` ends, after its token was made."""
        count = self.text.count("\n", start, end)
        if count:
            self.line += count
            self.line_start = self.text.rindex("\n", start, end) + 1

    # -- the forms ------------------------------------------------------------------
    def _squares(self, p: int) -> tuple[list[int], int]:
        """The squares written one after the other from ``p``: their starts, and the end."""
        starts: list[int] = []
        text = self.text
        while True:
            end = square_end(text, p)
            if end < 0:
                return starts, p
            starts.append(p)
            p = end

    def _move(self, p: int) -> tuple[MoveText | None, int, int]:
        """A piece letter and its squares at ``p``: (the move, its end, 0), or (None, the
        end of a placement's square, 1) when it names one square, or (None, -1, 0)."""
        _WORK[1] += 1
        text = self.text
        starts, end = self._squares(p + 1)
        off = False
        if starts and text.startswith("off", end):
            off, end = True, end + 3
        if not starts:
            return None, -1, 0
        if len(starts) == 1 and not off:
            return None, end, 1
        _WORK[1] += len(starts)
        squares = []
        for i, s in enumerate(starts):
            e = starts[i + 1] if i + 1 < len(starts) else (end - 3 if off else end)
            squares.append(self._square_text(s, e))
        return new_move_text(MoveText, text[p], tuple(squares), None, self._span(p), off), end, 0

    def _event(self, p: int) -> tuple[EventText | None, int]:
        """One event of a packed list at ``p``: ``Eg12S``, ``Bh11``, ``xBb5``, ``+Ea4``,
        followed by ``,`` or ``)``; else (None, -1)."""
        text = self.text
        prefix = text[p] if text[p] in "x+" else ""
        q = p + len(prefix)
        piece = text[q]
        if piece not in PIECES:
            return None, -1
        end = square_end(text, q + 1)
        if end < 0:
            return None, -1
        facing = None
        if not prefix and piece == "E" and text[end] in FACINGS and text[end + 1] in ",)":
            facing = text[end]
            stop = end + 1
        elif text[end] in ",)":
            stop = end
        else:
            return None, -1
        square = self._square_text(q + 1, end)
        return new_event_text(EventText, prefix, piece, square, facing, self._span(p)), stop

    def _event_list(self, p: int) -> tuple[tuple[EventText, ...] | None, int]:
        """A whole event list at ``p`` (``(Bh5)``, ``(xBb8,xEa7)``), or (None, -1)."""
        _WORK[1] += 1
        events = []
        q = p + 1
        text = self.text
        while True:
            event, q = self._event(q)
            if event is None:
                return None, -1
            events.append(event)
            if text[q] == ")":
                return tuple(events), q + 1
            if text[q + 1] not in "x+BPE":  # a comma, then no event
                return None, -1
            q += 1

    def _chain(self, p: int) -> Chain:
        """The moves packed from ``p``, joined by commas without spaces, each with its
        event list where written right after it: (the moves, their ends, and the end of
        a placement's square if ``p`` is one: ``-1`` otherwise). A chain read once
        (while looking for a packed entry that was not there) is not read again."""
        if p == self.chain_at:
            return self.chain
        self.chain_at = p
        text = self.text
        moves: list[MoveText] = []
        ends: list[int] = []
        fast = _MOVE.match
        new_square = new_square_text
        line = self.line + self.offset
        spans = self.row if line == self.row_line else self._row_of(line)
        get = spans.get
        base = 1 - self.line_start  # a column is base + an offset
        read = 0  # the moves and further events read here (``Work``), added as it returns
        while True:
            m = fast(text, p)
            if m is not None:  # the usual move, read in place if nothing more is written
                piece, frm, to, prefix, letter, name, facing, close = m.groups()
                end = m.end()
                after = text[end]
                if prefix is None:
                    usual = after != "(" and after != "o" and (
                        after not in FILES or _SQUARE.match(text, end) is None)
                else:
                    usual = not facing or (not prefix and letter == "E")
                if usual:
                    read += 1
                    at = base + p + 1
                    to_at = at + len(frm)
                    squares = (
                        new_square(SquareText, frm, get(at) or span_on(spans, line, at)),
                        new_square(SquareText, to, get(to_at) or span_on(spans, line, to_at)))
                    events: Any = None
                    if prefix is not None:  # its events, one by one up to the ')'
                        at = to_at + len(to) + 1
                        found: list[EventText] | None = None  # those before the last
                        while True:
                            name_at = at + len(prefix) + 1
                            event = new_event_text(
                                EventText, prefix, letter,
                                new_square(SquareText, name,
                                           get(name_at) or span_on(spans, line, name_at)),
                                facing or None, get(at) or span_on(spans, line, at))
                            if close == ")":
                                if found is None:  # one event, as nearly always
                                    events = (event,)
                                else:
                                    found.append(event)
                                    events = tuple(found)
                                    after = text[end]
                                break
                            if found is None:
                                found = [event]
                            else:
                                found.append(event)
                            read += 1
                            n = _NEXT_EVENT.match(text, end)
                            if n is None:
                                usual = False
                                break
                            prefix, letter, name, facing, close = n.groups()
                            if facing and (prefix or letter != "E"):
                                usual = False
                                break
                            at = base + end
                            end = n.end()
                if usual:
                    at = base + p
                    moves.append(new_move_text(MoveText, piece, squares, events,
                                               get(at) or span_on(spans, line, at)))
                    ends.append(end)
                    if after == "," and text[end + 1] in "PE":
                        p = end + 1
                        continue
                    _WORK[1] += read
                    self.chain = chain = (moves, ends, -1)
                    return chain
            move, end, placed = self._move(p)
            if move is None:
                _WORK[1] += read
                self.chain = chain = (moves, ends, (end if placed and not moves else -1))
                return chain
            if text[end] == "(":
                listed, list_end = self._event_list(end)
                if listed is not None:
                    move = new_move_text(MoveText, move.piece, move.squares, listed, move.span,
                                         move.off)
                    end = list_end
            moves.append(move)
            ends.append(end)
            if text[end] == "," and text[end + 1] in "PE":
                p = end + 1
                continue
            _WORK[1] += read
            self.chain = chain = (moves, ends, -1)
            return chain

    def _blanks_end(self, p: int) -> int:
        """Past the white space at ``p``, at most the text's end (lines not counted: a
        look-ahead)."""
        text = self.text
        while text[p].isspace() or text[p] in "\u200b\ufeff":  # the sentinel is neither
            p += 1
        return p

    def _blanks_then(self, p: int) -> str:
        """The first character after the white space at ``p``, at most the text's end ('' at
        the end)."""
        text, n = self.text, self.n
        start = p
        while text[p].isspace() or text[p] in "\u200b\ufeff":  # the sentinel is neither
            p += 1
        _WORK[1] += p - start
        return text[p] if p < n else ""

    def _ends_turn(self, p: int) -> bool:
        """A comma at ``p`` that ends a turn: no action follows it (``6.Pc4, Pc9,``)."""
        c = self._blanks_then(p + 1)
        return c == "" or c not in _ACTION_STARTS

    def _realm_list(self, p: int) -> tuple[RearrangementText | None, int]:
        """``Rh5(Pg4,Eg6N;Pi6)`` with no space and no Base at ``p``, or (None, -1)."""
        _WORK[1] += 1
        text = self.text
        end = square_end(text, p + 1)
        if end < 0 or text[end] != "(":
            return None, -1
        own: list[ItemText] = []
        theirs: list[ItemText] = []
        into = own
        q = end + 1
        while True:
            piece = text[q]
            if piece not in "PE":
                return None, -1
            s_end = square_end(text, q + 1)
            if s_end < 0:
                return None, -1
            facing = None
            stop = s_end
            if piece == "E" and text[s_end] in FACINGS:
                facing, stop = text[s_end], s_end + 1
            if text[stop] not in ",;)":
                return None, -1
            into.append(ItemText(piece, self._square_text(q + 1, s_end), facing, self._span(q)))
            if text[stop] == ")":
                break
            if text[stop] == ";":
                if into is theirs:
                    return None, -1
                into = theirs
            q = stop + 1
        realm = RearrangementText(self._square_text(p + 1, end), tuple(own), self._span(p),
                                  tuple(theirs))
        return realm, stop + 1

    # -- tokens ---------------------------------------------------------------------
    def tokens(self) -> Iterator[Token]:
        text, n = self.text, self.n
        while True:
            p = self.pos
            while text[p] in BLANKS:  # the sentinel after the text is none
                if text[p] == "\n":
                    self.line += 1
                    self.line_start = p + 1
                p += 1
            self.pos = p
            if p >= n:
                return
            c = text[p]
            if self.parens and c in "PEBx+,;)":
                yield self._in_parens(p, c)
            elif c in "PE":
                yield from self._actions(p)
            elif c in DIGITS or c.isdecimal():
                yield self._numbered(p)
            else:
                yield self._other(p, c)
            if self.last == "BAD":
                return

    def _out(self, kind: str, start: int, end: int) -> Token:
        """The token ``text[start:end]``, handed out: as ``_emit(_token(...), end)``, in one
        call (most tokens are made so)."""
        _WORK[0] += 1
        tok = new_token(Lexed, kind, self.text[start:end], start, self.line,
                        start - self.line_start + 1)
        self.last = kind
        self.pos = end
        return tok

    def _out_syntax(self, kind: str, start: int, end: int, syntax: Any) -> Token:
        """As ``_out``, the token carrying ``syntax`` (``_emit(_syntax(...), end)``)."""
        _WORK[0] += 1
        tok = new_token(Syntax, kind, self.text[start:end], start, self.line,
                        start - self.line_start + 1)
        tok.syntax = syntax
        self.last = kind
        self.pos = end
        return tok

    def _emit(self, tok: Token, end: int) -> Token:
        self.last = tok.type
        self.pos = end
        return tok

    def _bad(self, p: int) -> Token:
        return self._out("BAD", p, p + 1)

    def _in_parens(self, p: int, c: str) -> Token:
        """Inside an event list, a Rearrangement or a sacrifice: pieces at squares only."""
        text = self.text
        if c == ",":
            return self._out("COMMA", p, p + 1)
        if c == ";":
            return self._out("SEMICOLON", p, p + 1)
        if c == ")":
            self.parens -= 1
            return self._out("RPAR", p, p + 1)
        prefix = c if c in "x+" else ""
        q = p + len(prefix)
        if text[q] not in PIECES:
            return self._bad(p)
        end = square_end(text, q + 1)
        if end < 0:
            return self._bad(p)
        square = self._square_text(q + 1, end)
        if prefix:
            kind = "TAKEN_AT" if prefix == "x" else "BROUGHT_AT"
            return self._out_syntax(kind, p, end, (prefix, text[q], square, None))
        elif c == "E" and text[end] in FACINGS:
            return self._out_syntax("ENFORCER_AT", p, end + 1, ("", c, square, text[end]))
        else:
            return self._out_syntax("PIECE_AT", p, end, ("", c, square, None))

    def _actions(self, p: int) -> list[Token]:
        """Moves from ``p``: one token for those packed, as the smaller tokens would read."""
        moves, ends, placed = self._chain(p)
        if not moves:
            return [self._word(p, self.text[p]) if placed < 0 else self._placement(p, placed)]
        return self._moves_out(moves, ends, p)

    def _placement(self, p: int, end: int) -> Token:
        square = self._square_text(p + 1, end)
        piece, facing = self.text[p], self.text[end]
        if piece == "E" and facing in FACINGS:  # "Eg12S" outside an event list: misplaced
            return self._out_syntax("ENFORCER_AT", p, end + 1, ("", piece, square, facing))
        return self._out_syntax("PIECE_AT", p, end, ("", piece, square, None))

    def _moves_out(self, moves: list[MoveText], ends: list[int], p: int) -> list[Token]:
        """Hand out the moves of a chain from ``p``: one ``MOVE_RUN`` for them all, but a last
        move without events is a ``MOVE`` of its own, as it would be token by token (an
        event list may follow it written apart, ``Pa1a2,Pb1b2 (Bh5)``, and the parser's
        state after it, and so any error's words, are those of a ``MOVE``)."""
        out = []
        run = len(moves)
        if moves[-1].events is None:
            run -= 1
        start = p
        if run > 1:
            end = ends[run - 1]
            out.append(self._out_syntax("MOVE_RUN", p, end, moves[:run]))
            start = end + 1
        else:
            run = 0
        for i in range(run, len(moves)):
            if i:
                out.append(self._out("COMMA", start - 1, start))
            move, end = moves[i], ends[i]
            kind = "MOVE" if move.events is None else "MOVE_EVENTS"
            out.append(self._out_syntax(kind, start, end, move))
            start = end + 1
        return out

    def _numbered(self, p: int) -> Token:
        """A move number (and the entry packed after it), a Black move number, a result."""
        text = self.text
        digits = _DIGITS.match(text, p)
        assert digits is not None  # the caller saw a digit at p
        q = digits.end()
        _WORK[1] += q - p
        dot = q + 1
        c = text[dot] if text[q] == "." else ""
        if c and c in "PER":  # the usual entry: "7.Pi10i6(Bh5)..." (never a Black number)
            packed = self._packed_entry(p, dot)
            if packed is not None:
                return packed
        if c and c in PIECES:
            pairs = self._placed_pairs(p)
            if pairs is not None:
                return pairs
        # "7...", "7…", "7. ...": Black's turn opens the entry
        r = q
        if text[r] == ".":
            r += 1
            while text[r] in " \t":
                r += 1
        if text.startswith("...", r) or text[r] == "…":
            end = r + (1 if text[r] == "…" else 3)
            return self._out("BLACKNUM", p, end)
        if text.startswith("...", q) or text[q] == "…":
            end = q + (1 if text[q] == "…" else 3)
            return self._out("BLACKNUM", p, end)
        result = self._result(p)
        if result > 0:
            return self._out("RESULT", p, result)
        if text[q] != ".":
            return self._bad(p)
        # "7.", or with a stray comma or full stop a scan left ("7.,", "7..")
        end = dot
        r = dot
        while text[r] in " \t":
            r += 1
        if text[r] in ",." and r < self.n:
            end = r + 1
        return self._out("MOVENUM", p, end)

    def _result(self, p: int) -> int:
        """The end of a result at ``p`` with any stray comma or full stop after it, or -1."""
        text = self.text
        for written in ("1-0", "0-1", "1/2-1/2", "½-½", "*"):
            if text.startswith(written, p):
                end = p + len(written)
                if text[end] in ",.":
                    return end + 1
                if text[end] in " \t" and text[end + 1] in ",.":
                    return end + 2
                return end
        return -1

    def _turn_packed(self, p: int) -> tuple[list[Any] | None, int]:
        """White's turn packed from ``p``, and its end: the moves of a chain (the chain's own
        list: no one changes it), or a Rearrangement alone in a list."""
        if self.text[p] == "R":
            realm, end = self._realm_list(p)
            return (None, -1) if realm is None else ([realm], end)
        moves, ends, _ = self._chain(p)
        if not moves:
            return None, -1
        return moves, ends[-1]

    def _packed_entry(self, p: int, dot: int, marker: int = -1) -> Token | None:
        """``7.Pg5g9(Bh8)/`` (``WHITE_HALF``) or ``7.Pg5g9(Bh8)/Pc5c2`` (``FULL_ENTRY``; white
        space, even a line's end, may stand after the slash), with the syntax of its turns;
        several whole entries one after the other, white space between them, are one
        ``ENTRY_RUN``. None where the entry is not packed so."""
        line, line_start = self.line, self.line_start
        first = self._marker_text(marker, p) if marker >= 0 else None  # before lines move on
        whole = self._whole_entry(p, dot)
        if whole is None and marker >= 0:  # the marker is a token of its own, then the entry
            self.line, self.line_start = line, line_start
            return None
        if whole is None:
            self.line, self.line_start = line, line_start
            white, slash = self._turn_packed(dot)
            if white is None:
                return None
            half = self.text[slash] == "/"
            # "16.Pe7e6(Be5) wins.": White's turn is the entry where nothing more may follow
            if not half and not self._entry_ends(slash):
                return None
            syntax = (int(self.text[p:dot - 1]), white, self._span(p))
            if half:
                tok = self._syntax("WHITE_HALF", p, slash + 1, syntax)
                return self._emit(tok, slash + 1)
            return self._out_syntax("WHITE_ONLY", p, slash, syntax)
        entries: list[Any] = []
        start = p
        if first is not None:
            entries.append(first)
            start = marker
        entries.append(whole[0])
        end = whole[1]
        text = self.text
        while text[end].isspace():  # more whole entries after white space?
            at_line, at_start = self.line, self.line_start
            q = self._skip_blanks(end)
            notes = None  # the notes written between an entry and the next (``_run_notes``)
            apart = self.apart
            if text[q] == "(":
                notes, q = self._run_notes(q)
            mark = self._list_marker_end(q) if text[q] in "-*•" else -1
            r = mark if mark > 0 else q
            d = _DIGITS.match(text, r)
            nxt = None
            listed = self._marker_text(q, r) if mark > 0 else None  # before lines move on
            if d is not None:
                e = d.end()
                if text[e] == "." and text[e + 1] in "PER":
                    nxt = self._whole_entry(r, e + 1)
            if nxt is None:
                self.line, self.line_start = at_line, at_start
                if notes is not None:  # the run ends before its notes, as it did before them
                    self.apart = apart
                break
            if notes is not None:  # Black's turn of the entry before them reads them
                entries[-1] = (*entries[-1][:4], notes)
            if listed is not None:
                entries.append(listed)
            entries.append(nxt[0])
            end = nxt[1]
        kind = "FULL_ENTRY" if len(entries) == 1 else "ENTRY_RUN"
        if self.apart:  # the last Black turn stands apart from its slash
            kind = "ENTRY_APART" if len(entries) == 1 else "RUN_APART"
        _WORK[0] += 1
        tok = new_token(Syntax, kind, self.text[start:end], start, line, start - line_start + 1)
        tok.syntax = entries[0] if len(entries) == 1 else entries
        return self._emit(tok, end)

    def _run_notes(self, q: int) -> tuple[list[Token] | None, int]:
        """The parenthesised notes at ``q`` (``(Figure 6)``), one after the other with white
        space between, as the ``PAREN_NOTE`` tokens they are, and where what follows them
        starts; (None, q) where no note stands there.

        A run of whole entries goes on over them where another whole entry follows: the
        parser reads a note after Black's packed turn as a note of that turn, and the entry
        after it just as it reads one after the run's token, so the run reads as its
        tokens would. Where no whole entry follows, the caller leaves the notes to be read
        again as tokens of their own (and the lines counted here to be counted again)."""
        text = self.text
        notes: list[Token] | None = None
        while text[q] == "(":
            end = self._note_end(q)
            if end < 0:
                break
            note = new_token(Lexed, "PAREN_NOTE", text[q:end], q, self.line,
                             q - self.line_start + 1)
            if notes is None:
                notes = [note]
            else:
                notes.append(note)
            q = self._skip_blanks(end)
        return notes, q

    def _marker_text(self, p: int, end: int) -> ListMarkerText:
        return new_list_marker_text(ListMarkerText, self.text[p:end].strip(), self._span(p))

    def _skip_blanks(self, q: int) -> int:
        """Past the white space at ``q``, counting the lines it ends."""
        text = self.text
        start = q
        while text[q] in BLANKS:  # the sentinel after the text is none
            if text[q] == "\n":
                self.line += 1
                self.line_start = q + 1
            q += 1
        _WORK[1] += q - start
        return q

    def _whole_entry(self, p: int, dot: int) -> tuple[Any, int] | None:
        """The entry packed from ``p`` (its number) with both turns, and its end; None where
        it is not (then the lines counted are the caller's to restore)."""
        text = self.text
        white, slash = self._turn_packed(dot)
        if white is None or text[slash] != "/":
            return None
        span = self._span(p)
        after = self._skip_blanks(slash + 1)
        self.apart = after > slash + 1
        if text[after] not in "PE":
            return None
        moves, ends, _ = self._chain(after)
        if not moves:
            return None
        end = ends[-1]
        c = text[end]
        if not (end >= self.n or c.isspace() or c == ","):
            return None
        if self._blanks_then(end) == "(" and self._note_end(self._blanks_end(end)) < 0:
            return None  # an event list written apart: Black's last move reads it
        number = int(text[p:dot - 1])
        return (number, white, moves, span, None), end  # None: no notes after it (yet)

    def _placed_pairs(self, p: int, label: LabelText | None = None,
                      label_at: int = -1) -> Token | None:
        """``1.Bh11 Bh2,`` (``PLACED_PAIR``) and several such pairs on a line, spaces
        between (``PLACED_RUN``): their entries' token; None where there is none. With
        ``label`` (read from ``label_at`` up to the white space before ``p``), the token
        starts with it: ``Set-up: 1.Bh11 Bh2, ...`` (``_label``)."""
        pairs: list[Any] = []
        end = p
        q = p
        text = self.text
        while True:
            pair, stop = self._placed_pair(q)
            if pair is None:
                break
            pairs.append(pair)
            end = stop
            q = stop
            while text[q] in " \t":
                q += 1
            _WORK[1] += q - stop
            if q == stop or not text[q].isdecimal():
                break
        if not pairs:
            return None
        if label is not None:
            return self._out_syntax("PLACED_RUN", label_at, end, [label, *pairs])
        kind = "PLACED_PAIR" if len(pairs) == 1 else "PLACED_RUN"
        return self._out_syntax(kind, p, end, pairs)

    def _placed_pair(self, p: int) -> tuple[tuple[Any, ...] | None, int]:
        """A set-up pair at ``p`` and its end: (its number, the number's span, White's and
        Black's placements, the span of Black's comma, that of White's comma or None).

        With White's comma (``6.Pc4, Pc9,``) the pair is the tokens ``6.``, ``Pc4``, ``,``,
        ``Pc9``, ``,`` written apart, after which the parser's state, and so the words of
        an error on what follows, are those of Black's turn: the pair is packed only where
        the entry surely ends (``_entry_ends``)."""
        _WORK[1] += 1
        m = _PLACED_PAIR.match(self.text, p)
        if m is None or not self._ends_turn(m.end() - 1):
            return None, -1
        end = m.end()
        number, white, white_square, comma, black, black_square = m.groups()
        if comma is not None and not self._entry_ends(end):
            return None, -1
        line = self.line + self.offset  # the line's kept spans, looked up once (``_span``)
        spans = self.row if line == self.row_line else self._row_of(line)
        get = spans.get
        base = 1 - self.line_start  # a column is base + an offset
        at, comma_at = base + p, base + end - 1
        white_at, black_at = base + m.start(2), base + m.start(5)
        if comma is not None:
            white_comma_at = base + m.start(4)
            white_comma = get(white_comma_at) or span_on(spans, line, white_comma_at)
        else:
            white_comma = None
        pair = (
            int(number), get(at) or span_on(spans, line, at),
            new_placement_text(
                PlacementText, white,
                new_square_text(SquareText, white_square,
                                get(white_at + 1) or span_on(spans, line, white_at + 1)),
                get(white_at) or span_on(spans, line, white_at)),
            new_placement_text(
                PlacementText, black,
                new_square_text(SquareText, black_square,
                                get(black_at + 1) or span_on(spans, line, black_at + 1)),
                get(black_at) or span_on(spans, line, black_at)),
            get(comma_at) or span_on(spans, line, comma_at),
            white_comma,
        )
        return pair, end

    def _entry_ends(self, p: int) -> bool:
        """Nothing more of an entry may stand after the white space at ``p``: the text ends
        there, or the next entry's number (``7.``), a result written with digits (``1-0``)
        or ``wins`` stands (a look-ahead: lines not counted); and no list is open.

        The parser reads each of these the same after any entry, whatever the tokens it
        was written as, so an entry packed up to ``p`` where its tokens written apart would
        leave the parser in a turn (``6.Pc4, Pc9,``, ``16.Pe7e6(Be5)``) reads as they do."""
        if self.parens:  # in an open list "Pe7" is a piece at its square, "," a separator
            return False
        text = self.text
        q = self._blanks_end(p)
        if q >= self.n:
            return True
        if text[q] == "w":
            return self._wins_end(q) > 0
        d = _DIGITS.match(text, q)
        if d is None:
            return False
        _WORK[1] += d.end() - q
        return text[d.end()] == "." or self._result(q) > 0

    def _other(self, p: int, c: str) -> Token:
        text = self.text
        if c == "(":
            return self._paren(p)
        elif c == ")":
            return self._out("RPAR", p, p + 1)
        elif c == ",":
            kind = "END_COMMA" if self._ends_turn(p) else "COMMA"
            return self._out(kind, p, p + 1)
        elif c == "/":
            return self._out("SLASH", p, p + 1)
        elif c == ";":
            return self._out("SEMICOLON", p, p + 1)
        elif c == "{":
            end = text.find("}", p, self.n)
            _WORK[1] += (end if end >= 0 else self.n) - p
            if end < 0:
                return self._bad(p)
            tok = self._token("COMMENT", p, end + 1)
            self._lines_in(p, end + 1)
            return self._emit(tok, end + 1)
        elif c == "[":
            self.brackets += 1
            if self.brackets > MAX_DEPTH:
                return self._out("DEEP", p, p + 1)
            return self._out("LSQB", p, p + 1)
        elif c == "]":
            self.brackets -= 1
            return self._out("RSQB", p, p + 1)
        elif c in "!?":
            for mark in MARKS:
                if text.startswith(mark, p):
                    return self._out("MARK", p, p + len(mark))
            return self._bad(p)  # not reached: "!" and "?" are marks themselves
        elif c == ".":
            r = p + 1
            while text[r] in " \t":
                r += 1
            _WORK[1] += r - p
            if r >= self.n or text[r] == "\n" or (text[r] == "\r" and text[r + 1] == "\n"):
                return self._out("END_STOP", p, p + 1)
            else:
                return self._bad(p)
        elif c in "-*•½":
            return self._dash(p, c)
        elif c == "+":
            return self._outside(p, c)
        elif c.isalpha():
            return self._word(p, c)
        else:
            return self._bad(p)

    def _paren(self, p: int) -> Token:
        """``(`` opening a list, or a parenthesised note like the article's ``(Figure 6)``."""
        if self.last not in ("REALM", "SACRIFICE"):
            end = self._note_end(p)
            if end > 0:
                return self._out("PAREN_NOTE", p, end)
        self.parens += 1
        return self._out("LPAR", p, p + 1)

    def _note_end(self, p: int) -> int:
        """The end of a parenthesised note at ``p`` (with a stray comma or full stop a scan
        left after it); -1 where the ``(`` opens a list (``(Bh5)``) or closes on no line."""
        text = self.text
        q = p + 1
        while text[q] in " \t":
            q += 1
        if text[q] in "x+":
            q += 1
        if text[q] in PIECES and text[q + 1].isascii() and text[q + 1].isalpha() \
                and text[q + 2] in DIGITS:
            return -1
        end = min(_NOTE_RUN.match(text, p + 1).end(), self.n)  # type: ignore[union-attr]
        _WORK[1] += end - p
        if text[end] != ")" or end >= self.n:
            return -1
        end += 1
        stray = text[end] == "," and self._ends_turn(end)
        if stray or (text[end] == "." and (end + 1 >= self.n or text[end + 1].isspace())):
            end += 1
        return end

    def _list_marker_end(self, p: int) -> int:
        """The end of a list marker at ``p`` (``- `` before an entry's number), or -1."""
        text = self.text
        if text[p] not in "-*•":
            return -1
        q = p + 1
        while text[q] in " \t":
            q += 1
        _WORK[1] += q - p
        if q > p + 1 and text[q] == "*" and text[q + 1] in _RESULT_END:
            return q  # "- *": a bare result listed like the entries before it
        return q if q > p + 1 and text[q] in DIGITS else -1

    def _dash(self, p: int, c: str) -> Token:
        text = self.text
        q = self._list_marker_end(p)  # "- 10." in a transcript pasted from a list
        if q > 0:
            d = _DIGITS.match(text, q)
            if d is not None and text[d.end()] == "." and text[d.end() + 1] in "PER":
                run = self._packed_entry(q, d.end() + 1, p)  # the marker and whole entries
                if run is not None:
                    return run
            return self._out("LIST_MARKER", p, q)
        if c == "-" and text.startswith("---", p):
            end = self._front_matter(p)
            if end > 0:
                tok = self._token("FRONT_MATTER", p, end)
                self._lines_in(p, end)
                return self._emit(tok, end)
        end = self._result(p)
        if end > 0:
            return self._out("RESULT", p, end)
        return self._bad(p)

    def _front_matter(self, p: int) -> int:
        """The end of a front matter opening at ``p`` (``---`` lines around YAML), or -1."""
        text, n = self.text, self.n
        q = p + 3
        while text[q] in " \t":
            q += 1
        if text[q] == "\r":
            q += 1
        if text[q] != "\n" or p <= self.front_matter_fails:
            return -1
        q += 1
        while q < n:
            eol = text.find("\n", q, n)
            stop = n if eol < 0 else eol
            _WORK[1] += stop - q + 1
            if text.startswith("---", q) and not text[q + 3 : stop].removesuffix("\r").strip(" \t"):
                return n if eol < 0 else eol + 1
            q = stop + 1
        self.front_matter_fails = n
        return -1

    def _word(self, p: int, c: str) -> Token:
        """A letter that starts no move: a placement, a Rearrangement, a sacrifice, an
        event outside its list, ``pass``, ``wins``, a label like ``Set-up:``."""
        text = self.text
        if p >= self.label_fails and c.isascii():
            q = _LABEL_RUN.match(text, p + 1).end()  # type: ignore[union-attr]
            _WORK[1] += q - p
            if text[q] == ":":
                return self._label(p, q + 1)
            # no label starts before q either: the same run of letters ends there
            self.label_fails = q
        if c == "B":
            end = square_end(text, p + 1)
            if end > 0:
                return self._placement(p, end)
        elif c == "R":
            realm, end = self._realm_list(p)
            if realm is not None:
                return self._out_syntax("REALM_LIST", p, end, realm)
            end = square_end(text, p + 1)
            if end > 0:
                square = self._square_text(p + 1, end)
                return self._out_syntax("REALM", p, end, square)
        elif c == "S":
            end = square_end(text, p + 1)
            if end > 0:
                square = self._square_text(p + 1, end)
                return self._out_syntax("SACRIFICE", p, end, square)
        elif c == "x":
            return self._outside(p, c)
        elif text.startswith("pass", p) and not _is_word(text[p + 4]):
            return self._out("PASS", p, p + 4)
        elif (end := self._wins_end(p)) > 0:
            return self._out("WINS", p, end)
        return self._bad(p)

    def _label(self, p: int, end: int) -> Token:
        """A label (``Set-up:``) at ``p``: the token of the set-up pairs after it on its line
        where they follow (``PLACED_RUN``, the label its first item), else a ``LABEL``.

        A label and an entry are items of a movetext alike: wherever the parser may read
        one it may read the other, and after a label an entry, so the pairs' token with the
        label in it reads as the two tokens would (and is quoted as the label)."""
        text = self.text
        q = end
        while text[q] in " \t":
            q += 1
        _WORK[1] += q - end
        if q > end and text[q].isdecimal():
            label = LabelText(text[p:end], self._span(p))
            pairs = self._placed_pairs(q, label, p)
            if pairs is not None:
                return pairs
        return self._out("LABEL", p, end)

    def _wins_end(self, p: int) -> int:
        """The end of ``wins`` at ``p`` (``wins.``: with its full stop), or -1."""
        text = self.text
        if not text.startswith("wins", p) or _is_word(text[p + 4]):
            return -1
        return p + 5 if text[p + 4] == "." else p + 4

    def _outside(self, p: int, c: str) -> Token:
        """``xBb5`` or ``+Ea4`` outside an event list: a token, so that the parser says
        it does not belong there."""
        text = self.text
        if text[p + 1] in PIECES:
            end = square_end(text, p + 2)
            if end > 0:
                kind = "TAKEN_AT" if c == "x" else "BROUGHT_AT"
                square = self._square_text(p + 2, end)
                return self._out_syntax(kind, p, end, (c, text[p + 1], square, None))
        return self._bad(p)


class RealmLexer(Lexer):
    """The tokenizer, handed to lark through its public ``lexer=`` option."""

    def __init__(self, lexer_conf: Any):
        pass

    def lex(self, data: str) -> Iterator[Token]:  # type: ignore[override]
        Reading.text = data
        return Scanner(data, Reading.line_offset).tokens()


def lex(text: str, line_offset: int = 0) -> Iterator[Token]:
    """The tokens of ``text``, one by one as the parser pulls them (for tests and tools)."""
    return Scanner(text, line_offset).tokens()
