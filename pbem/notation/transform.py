"""Parse tree -> syntax objects. Positions come from the tokens themselves.

``line_offset`` shifts every line, so that a game cut out of a longer file
reports lines of the file, not of the piece.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from lark import Token, Transformer

from pbem.errors import NotationError, RecordError, Span, new_span
from pbem.notation.plain_front_matter import plain_front_matter
from pbem.notation.spans import row, span_on
from pbem.notation.syntax import (
    EntryText,
    EventText,
    GameText,
    ItemText,
    LabelText,
    ListMarkerText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    ResultText,
    SacrificeText,
    SquareText,
    StrayMark,
    TurnText,
)

# the square of grammar/realm.lark's SQUARE terminal
SQUARE_PATTERN = r"(?:[a-lA-L1](?:1[0-2]|[1-9])|[a-lACDF-L1][lI][0-2]?)(?![0-9])"
_SQ = SQUARE_PATTERN
_SQUARE = re.compile(_SQ)
_TWO = re.compile(rf"([PE])({_SQ})({_SQ})")
_AT = re.compile(rf"([BPERS]|x[BE])({_SQ})([NESWU]?)")
_ITEM = re.compile(rf"([PE])({_SQ})([NESWU]?)")
_EVENT = re.compile(rf"([x+]?)([BPE])({_SQ})([NESWU]?)")
# a move of two squares and its first event, if any, and the parenthesis closing it
_MOVE = re.compile(rf"([PE])({_SQ})({_SQ})(?:\(([x+]?)([BPE])({_SQ})([NESWU]?)(\)?))?")
_PLACED_PAIR = re.compile(rf"(\d+)\.([BPE])({_SQ})[ \t]+([BPE])({_SQ}),")

try:  # the C loader is several times faster where libyaml is present
    _YamlLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _YamlLoader = yaml.SafeLoader


class _MarkedNote(str):
    """A note's text, and the stray comma or full stop written right after it."""

    mark: StrayMark | None = None


class ToSyntax(Transformer[Token, Any]):
    def __init__(self, line_offset: int = 0):
        super().__init__()
        self.line_offset = line_offset

    def _span(self, tok: Token) -> Span:
        line = tok.line + self.line_offset  # type: ignore[operator]
        spans = row(line)
        return spans.get(tok.column) or span_on(spans, line, tok.column)  # type: ignore[arg-type]

    # -- actions ---------------------------------------------------------------
    # An action or event is one token; the squares inside are found with the same
    # pattern the grammar uses, so their columns are exact.
    def _split(self, tok: Token, pattern: re.Pattern[str]) -> re.Match[str]:
        m = pattern.fullmatch(tok)
        assert m is not None, tok  # the lexer matched the same pattern
        return m

    def _sq_in(self, tok: Token, m: re.Match[str], group: int) -> SquareText:
        line = tok.line + self.line_offset  # type: ignore[operator]
        spans, at = row(line), tok.column + m.start(group)  # type: ignore[operator]
        return SquareText(m.group(group), spans.get(at) or span_on(spans, line, at))

    def placement(self, c: list[Token]) -> PlacementText:
        tok = c[0]
        m = self._split(tok, _AT)
        return PlacementText(m.group(1), self._sq_in(tok, m, 2), self._span(tok))

    def move(self, c: list[Any]) -> MoveText:
        tok = c[0]
        line = tok.line + self.line_offset
        if len(c) > 1:  # its event list written apart: "Pi10i6 (Bh5)"
            return self._move_at(str(tok), line, tok.column, c[1])
        return self._moves_at(str(tok), 0, len(tok), line, tok.column)[0]

    def move_run(self, c: list[Token]) -> list[MoveText]:
        """``Pi10i6(Bh5),Pc4g4(Ei4W)``: the moves of one token, each at its own column."""
        tok = c[0]
        line = tok.line + self.line_offset  # type: ignore[operator]
        return self._moves_at(str(tok), 0, len(tok), line, tok.column)  # type: ignore[arg-type]

    @staticmethod
    def _moves_at(text: str, start: int, n: int, line: int, column: int,
                  spans: dict[int, Span] | None = None) -> list[MoveText]:
        """The moves packed in ``text[start:n]``, joined by commas, ``text`` at ``column``.

        Nearly every move names two squares and at most its first event before a comma
        or the end: one match reads it, in place; any other is cut out and read apart.
        """
        moves = []
        match = _MOVE.match
        if spans is None:
            spans = row(line)
        get = spans.get
        while start < n:
            m = match(text, start, n)
            after = -1  # where the move ends, if the match read it whole
            if m is not None:
                piece, frm, to, prefix, letter, name, facing, close = m.groups()
                end = m.end()
                if end == n or text[end] == ",":
                    if prefix is None or close:
                        after = end
                    elif end < n:  # more events: the list ends at its parenthesis
                        after = text.index(")", end) + 1
            if after >= 0:
                at = column + start + 1
                to_at = at + len(frm)
                squares = (
                    SquareText(frm, get(at) or span_on(spans, line, at)),
                    SquareText(to, get(to_at) or span_on(spans, line, to_at)),
                )
                events: tuple[EventText, ...] | None = None
                if prefix is not None:  # its first event, and any after it
                    at = to_at + len(to) + 1
                    name_at = at + len(prefix) + 1
                    events = (EventText(
                        prefix, letter,
                        SquareText(name, get(name_at) or span_on(spans, line, name_at)),
                        facing or None, get(at) or span_on(spans, line, at),
                    ),)
                    if not close:
                        events += ToSyntax._events_at(text, end + 1, after, line, column,
                                                      spans)
                at = column + start
                moves.append(MoveText(piece, squares, events, get(at) or span_on(spans, line, at)))
                start = after + 1
                continue
            # the commas between moves are those outside parentheses
            comma = text.find(",", start, n)
            paren = text.find("(", start, n if comma < 0 else comma)
            end = text.index(")", paren) + 1 if paren >= 0 else (n if comma < 0 else comma)
            moves.append(ToSyntax._move_at(text[start:end], line, column + start, None))
            start = end + 1
        return moves

    @staticmethod
    def _move_at(
        text: str, line: int, column: int, events: tuple[EventText, ...] | None
    ) -> MoveText:
        """The move written ``text`` (a MOVE or MOVE_EVENTS token's text) at ``column``."""
        two = _TWO.match(text)  # two squares, maybe events after them
        if two is not None and (two.end() == len(text) or text[two.end()] == "("):
            end = two.end()
            squares: tuple[SquareText, ...] = (
                SquareText(two.group(2), new_span((line, column + 1, None, None))),
                SquareText(two.group(3), new_span((line, column + two.start(3), None, None))),
            )
            off = False
        else:
            end = text.find("(")
            if end < 0:
                end = len(text)
            off = text.endswith("off", 0, end)
            stop = end - 3 if off else end
            found: list[SquareText] = []
            pos = 1
            while pos < stop:
                m = _SQUARE.match(text, pos, stop)
                assert m is not None, text  # the lexer matched the same pattern
                found.append(SquareText(m.group(), new_span((line, column + pos, None, None))))
                pos = m.end()
            squares = tuple(found)
        if end < len(text):  # the event list is in the token
            events = ToSyntax._events_at(text, end + 1, len(text), line, column)
        return MoveText(text[0], squares, events, new_span((line, column, None, None)), off)

    @staticmethod
    def _events_at(
        text: str, start: int, end: int, line: int, column: int,
        spans: dict[int, Span] | None = None,
    ) -> tuple[EventText, ...]:
        """The events written in ``text[start:end]``, ``text`` at ``column``."""
        if spans is None:
            spans = row(line)
        events = []
        for e in _EVENT.finditer(text, start, end):
            at, square_at = column + e.start(), column + e.start(3)
            events.append(EventText(
                e.group(1), e.group(2),
                SquareText(e.group(3), spans.get(square_at) or span_on(spans, line, square_at)),
                e.group(4) or None, spans.get(at) or span_on(spans, line, at),
            ))
        return tuple(events)

    def events(self, c: list[Any]) -> tuple[EventText, ...]:
        return tuple(e for e in c if isinstance(e, EventText))

    def event(self, c: list[Token]) -> EventText:
        """``Bh11``, ``Eg12S``, ``xBb5``, ``+Ea4``: what it means is the game's business."""
        tok = c[0]
        m = self._split(tok, _EVENT)
        return EventText(
            m.group(1), m.group(2), self._sq_in(tok, m, 3), m.group(4) or None, self._span(tok)
        )

    def rearrangement(self, c: list[Any]) -> RearrangementText:
        tok = c[0]
        if tok.type == "REALM_LIST":
            return self._rearrangement_at(tok)
        m = self._split(tok, _AT)
        own: list[ItemText] = []
        theirs: list[ItemText] = []
        into = own
        for x in c[1:]:
            if isinstance(x, ItemText):
                into.append(x)
            elif isinstance(x, Token) and x.type == "SEMICOLON":
                into = theirs
        return RearrangementText(
            self._sq_in(tok, m, 2), tuple(own), self._span(tok), tuple(theirs)
        )

    def _rearrangement_at(self, tok: Token) -> RearrangementText:
        """``Rh5(Pg4,Eg6N;Pi6)`` (one token): as ``rearrangement`` reads the same tokens."""
        text = str(tok)
        line = tok.line + self.line_offset  # type: ignore[operator]
        return self._realm_list_at(text, 0, len(text), line, tok.column)  # type: ignore[arg-type]

    @staticmethod
    def _realm_list_at(text: str, start: int, end: int, line: int, column: int,
                       spans: dict[int, Span] | None = None
                       ) -> RearrangementText:
        """The Rearrangement written ``text[start:end]`` (a REALM_LIST), ``text`` at ``column``."""
        open_at = text.index("(", start, end)
        semicolon = text.find(";", start, end)
        own: list[ItemText] = []
        theirs: list[ItemText] = []
        if spans is None:
            spans = row(line)
        get = spans.get
        for m in _ITEM.finditer(text, open_at + 1, end):
            into = theirs if 0 <= semicolon < m.start() else own
            at, square_at = column + m.start(), column + m.start(2)
            into.append(ItemText(
                m.group(1),
                SquareText(m.group(2), get(square_at) or span_on(spans, line, square_at)),
                m.group(3) or None, get(at) or span_on(spans, line, at),
            ))
        at = column + start
        square = SquareText(text[start + 1 : open_at], get(at + 1) or span_on(spans, line, at + 1))
        return RearrangementText(square, tuple(own), get(at) or span_on(spans, line, at),
                                 tuple(theirs))

    def _white_at(self, text: str, start: int, slash: int, line: int, column: int,
                  spans: dict[int, Span]) -> TurnText:
        """White's turn packed in ``text[start:slash]``: moves, or one Rearrangement."""
        actions: list[Any]
        if text[start] == "R":
            actions = [self._realm_list_at(text, start, slash, line, column, spans)]
        else:
            actions = self._moves_at(text, start, slash, line, column, spans)
        return TurnText(tuple(actions), (), None, actions[0].span, None)

    def sacrifice(self, c: list[Token]) -> SacrificeText:
        tok, ev = c[0], c[2]
        m = self._split(tok, _AT)
        e = self._split(ev, _AT)
        return SacrificeText(
            self._sq_in(tok, m, 2), self._sq_in(ev, e, 2), e.group(3), self._span(tok)
        )

    def item(self, c: list[Token]) -> ItemText:
        tok = c[0]
        m = self._split(tok, _AT)
        piece = m.group(1)
        if piece == "B":
            raise NotationError(
                f"{tok} cannot be rearranged: a Rearrangement puts back Powers and "
                "Enforcers; Bases stay where they are",
                span=self._span(tok),
                code="notation.rearrangement",
            )
        facing = m.group(3) or None
        return ItemText(piece, self._sq_in(tok, m, 2), facing, self._span(tok))

    def moves(self, c: list[Any]) -> list[Any]:
        flat: list[Any] = []
        for x in c:
            flat.extend(x) if isinstance(x, list) else flat.append(x)  # a move_run's moves
        return flat

    # -- turns and entries -----------------------------------------------------
    def turn(self, c: list[Any]) -> TurnText:
        flat: list[Any] = []
        for x in c:
            flat.extend(x) if isinstance(x, list) else flat.append(x)
        actions: list[Any] = []
        notes: list[str] = []
        comma: Span | None = None
        stray: StrayMark | None = None
        for x in flat:
            if isinstance(x, Token):
                if x.type == "PASS":
                    actions.append(PassText(self._span(x)))
                    comma = None
                elif x.type in ("COMMA", "END_COMMA"):
                    comma = self._span(x)
                elif x.type == "END_STOP":
                    stray = StrayMark(".", self._span(x))
            elif isinstance(x, str):
                notes.append(str(x))
                if isinstance(x, _MarkedNote):
                    stray = x.mark
            else:
                actions.append(x)
                comma = None  # a comma between two actions is no separator
        return TurnText(tuple(actions), tuple(notes), comma, actions[0].span, stray)

    def note(self, c: list[Token]) -> str:
        tok = c[0]
        if tok.type == "PAREN_NOTE" and tok[-1] in ",.":  # "(Figure 6),": a scan's stray mark
            text, mark = self._stray_after(tok, len(tok) - 1)
            note = _MarkedNote(text)
            note.mark = mark
            return note
        return str(tok)

    @staticmethod
    def _notes(items: list[Any]) -> tuple[tuple[str, ...], StrayMark | None]:
        """Notes as plain text, and the stray mark the last of them carried, if any."""
        mark = None
        for x in items:
            if isinstance(x, _MarkedNote):
                mark = x.mark
        return tuple(str(x) for x in items), mark

    def entry(self, c: list[Any]) -> EntryText:
        num = c[0]
        turns = [x for x in c[1:] if isinstance(x, TurnText)]
        slash = any(isinstance(x, Token) and x.type == "SLASH" for x in c)
        black = turns[1] if len(turns) > 1 else None
        digits, stray = self._stray_after(num, num.index(".") + 1)
        return EntryText(int(digits[:-1]), turns[0], black, slash, self._span(num), stray)

    def packed_entry(self, c: list[Any]) -> EntryText:
        """``7.Pg5g9(Bh8)/`` (one token) and Black's turn: as ``entry`` reads the same."""
        tok = c[0]
        text = str(tok)
        line = tok.line + self.line_offset
        dot = text.index(".")
        spans = row(line)
        white = self._white_at(text, dot + 1, len(text) - 1, line, tok.column, spans)
        black = c[1] if len(c) > 1 else None
        span = spans.get(tok.column) or span_on(spans, line, tok.column)
        return EntryText(int(text[:dot]), white, black, True, span)

    def full_entry(self, c: list[Any]) -> EntryText:
        """``7.Pg5g9(Bh8)/Pc5c2`` (one token), then what may follow Black's last move."""
        tok = c[0]
        text = str(tok).rstrip(" \t\r\n")  # the end of the line is in the token
        line = tok.line + self.line_offset
        dot, slash = text.index("."), text.index("/")
        spans = row(line)
        white = self._white_at(text, dot + 1, slash, line, tok.column, spans)
        moves = self._moves_at(text, slash + 1, len(text), line, tok.column, spans)
        if len(c) == 1:  # nothing after the token: Black's turn is its moves, as turn() reads it
            black = TurnText(tuple(moves), (), None, moves[0].span, None)
        else:
            black = self.turn([moves, *c[1:]])
        span = spans.get(tok.column) or span_on(spans, line, tok.column)
        return EntryText(int(text[:dot]), white, black, True, span)

    def placed_entry(self, c: list[Any]) -> EntryText:
        """``1.Bh11 Bh2,`` (one token) and any notes: as ``entry`` reads the same."""
        tok = c[0]
        m = self._split(tok, _PLACED_PAIR)
        return self._placed_at(m, tok.line + self.line_offset, tok.column, c[1:])

    def placed_run(self, c: list[Any]) -> list[EntryText]:
        """``1.Bh11 Bh2, 2.Be8 Be5,`` (one token): its pairs' entries, the notes after it
        on the last, as ``placed_entry`` reads each pair."""
        tok = c[0]
        line = tok.line + self.line_offset
        pairs = list(_PLACED_PAIR.finditer(tok))
        return [self._placed_at(m, line, tok.column, c[1:] if i == len(pairs) - 1 else [])
                for i, m in enumerate(pairs)]

    def _placed_at(self, m: re.Match[str], line: int, col: int, after: list[Any]) -> EntryText:
        """The set-up pair matched by ``m`` (``_PLACED_PAIR``) in a token at ``col``."""
        number, piece, square, their_piece, their_square = m.groups()
        start = col + m.start()
        at = start + len(number) + 1  # White's piece, after the number's full stop
        spans = row(line)
        get = spans.get
        black_at = col + m.start(4)
        comma_at = col + m.end() - 1
        white_span = get(at) or span_on(spans, line, at)
        black_span = get(black_at) or span_on(spans, line, black_at)
        at += 1
        white = PlacementText(
            piece, SquareText(square, get(at) or span_on(spans, line, at)), white_span
        )
        black_at += 1
        black = PlacementText(
            their_piece,
            SquareText(their_square, get(black_at) or span_on(spans, line, black_at)),
            black_span,
        )
        comma = get(comma_at) or span_on(spans, line, comma_at)
        notes, mark = self._notes(after) if after else ((), None)
        return EntryText(
            int(number),
            TurnText((white,), (), None, white_span, None),
            TurnText((black,), notes, comma, black_span, mark),
            False,
            get(start) or span_on(spans, line, start),
        )

    def black_entry(self, c: list[Any]) -> EntryText:
        num = c[0]
        digits = str(num).rstrip(".… \t").rstrip(".")
        return EntryText(int(digits.split(".")[0]), None, c[1], False, self._span(num))

    def result(self, c: list[Any]) -> ResultText:
        tok = c[0]
        notes, mark = self._notes(c[1:])
        if tok.type == "WINS":
            return ResultText("wins", notes, self._span(tok), mark)
        text, stray = self._stray_after(tok, len(tok.rstrip(" \t,.")) or 1)
        return ResultText(
            text.replace("½-½", "1/2-1/2"), notes, self._span(tok), stray or mark
        )

    def _stray_after(self, tok: Token, end: int) -> tuple[str, StrayMark | None]:
        """A token's text up to ``end``, and the stray comma or full stop after it, if any."""
        rest = tok[end:]
        if not rest:
            return str(tok), None
        at = end + len(rest) - 1  # the mark is the token's last character
        span = Span(tok.line + self.line_offset, tok.column + at)  # type: ignore[operator]
        return str(tok[:end]), StrayMark(rest[-1], span)

    # -- games -----------------------------------------------------------------
    def movetext(self, c: list[Any]) -> GameText:
        notes = tuple(str(x) for x in c if isinstance(x, str) and not isinstance(x, Token))
        items: list[Any] = []
        for x in c:
            if isinstance(x, Token):
                if x.type == "LABEL":
                    items.append(LabelText(str(x), self._span(x)))
                elif x.type == "LIST_MARKER":
                    items.append(ListMarkerText(str(x).strip(), self._span(x)))
            elif isinstance(x, list):
                items.extend(x)  # the entries of a run of set-up pairs
            elif not isinstance(x, str):
                items.append(x)  # entries and results (notes are plain str)
        span = items[0].span if items else Span(1 + self.line_offset, 1)
        return GameText({}, notes, tuple(items), span)

    def game(self, c: list[Any]) -> GameText:
        headers: dict[str, Any] = {}
        header_span = None
        header_text = ""
        body = GameText()
        for x in c:
            if isinstance(x, Token) and x.type == "FRONT_MATTER":
                header_span = self._span(x)
                header_text = str(x)
                headers = load_front_matter(header_text, header_span)
            elif isinstance(x, GameText):
                body = x
        return GameText(headers, body.notes, body.items, body.span, header_span, header_text)

    framed = game

    def file(self, c: list[Any]) -> list[GameText]:
        return [self.game([x]) if not isinstance(x, GameText) or x.header_span is None else x
                for x in c]


#: front matter keys whose value is text: a plain value YAML would read as something
#: else (``white: No`` a boolean, ``site: ~`` nothing) is kept as written
TEXT_KEYS = frozenset(("game", "white", "black", "event", "site", "source"))
# a plain value starting with one of these is no text to YAML (an alias, an anchor,
# reserved, a directive), though a record means the text as written: PGN's unfinished
# result ``result: *``, a handle ``white: @ann``. A tag (``!``) stays YAML's, and an error.
_INDICATORS = frozenset("*&@`%")
_KEY_VALUE = re.compile(r"([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*")


def _plain_text_values(inner: str) -> str:
    """``inner`` with every top-level ``key: value`` that YAML would misread quoted.

    Misread: a value that starts with an indicator, or holds ``": "`` or ends with
    ``":"`` (a mapping inside a mapping: ``event: Abstract Games: issue 9``). Only
    whole lines are rewritten, so lines stay where they were for errors.
    """
    lines = inner.split("\n")
    for i, line in enumerate(lines):
        m = _KEY_VALUE.fullmatch(line.rstrip("\r"))
        if m is None:
            continue
        value = m.group(2)
        if value[0] in _INDICATORS or (
            value[0] not in "'\"[{|>#" and (": " in value or value.endswith(":"))
        ):
            quoted = value.replace("'", "''")
            lines[i] = f"{m.group(1)}: '{quoted}'"
    return "\n".join(lines)


def _load_yaml(text: str) -> Any:
    """The document in ``text``; text keys whose plain value YAML reads as a boolean or
    nothing keep the text as written."""
    loader = _YamlLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    if isinstance(data, dict) and isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if (
                isinstance(value, yaml.ScalarNode)
                and not value.style  # plain (no quotes, no block)
                and value.value
                and key.value in TEXT_KEYS
                and (data.get(key.value) is None or isinstance(data.get(key.value), bool))
            ):
                data[key.value] = value.value
    return data


def yaml_front_matter(inner: str, span: Span) -> Any:
    """The front matter lines ``inner`` read by YAML (as ``load_front_matter`` does where
    they are not all plain ``key: value`` lines); RecordError where YAML fails."""
    try:  # rewriting keeps every line where it was, so an error's line and column stand
        return _load_yaml(_plain_text_values(inner)) if inner.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = Span(span.line + 1 + mark.line, mark.column + 1) if mark is not None else span
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RecordError(
            f"the front matter is not valid YAML: {problem}", span=where, code="record.yaml"
        ) from None


def load_front_matter(block: str, span: Span) -> dict[str, Any]:
    """The YAML between the ``---`` lines, as a mapping."""
    lines = block.splitlines()
    inner = "\n".join(lines[1:-1])
    data = plain_front_matter(inner, TEXT_KEYS) if inner else None
    if data is None:
        data = yaml_front_matter(inner, span)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RecordError(
            "the front matter must be a mapping of keys to values (game, white, black, ...)",
            span=span,
            code="record.front-matter",
        )
    headers = {str(k): v for k, v in data.items()}
    if headers.get("result") == "½-½":
        headers["result"] = "1/2-1/2"
    return headers
