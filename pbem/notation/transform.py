"""Parse values -> syntax objects. Positions come from the tokens themselves.

``line_offset`` shifts every line, so that a game cut out of a longer file
reports lines of the file, not of the piece.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from lark import Token, Transformer

from pbem.errors import NotationError, RecordError, Span
from pbem.notation.lexer import Reading
from pbem.notation.plain_front_matter import plain_front_matter
from pbem.notation.spans import row, span_on
from pbem.notation.syntax import (
    EntryText,
    EventText,
    GameText,
    ItemText,
    LabelText,
    ListMarkerText,
    MarkText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    ResultText,
    SacrificeText,
    StrayMark,
    TurnText,
    VariationText,
    new_entry_text,
    new_game_text,
    new_list_marker_text,
    new_turn_text,
)
from pbem.rules.written import new_event_text, new_move_text, new_placement_text

try:  # the C loader is several times faster where libyaml is present
    _YamlLoader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _YamlLoader = yaml.SafeLoader


class _MarkedNote(str):
    """A note's text, its span, and the stray comma or full stop written right after it."""

    mark: StrayMark | None = None
    span: Span = Span(0, 0)


class ToSyntax(Transformer[Token, Any]):
    """The parse's values -> syntax objects. Every action token carries the syntax objects
    the lexer read from it (``Syntax.syntax``): nothing is read from a token's text here."""

    def __init__(self, line_offset: int = 0):
        super().__init__()
        self.line_offset = line_offset

    def _span(self, tok: Token) -> Span:
        line = tok.line + self.line_offset  # type: ignore[operator]
        spans = row(line)
        return spans.get(tok.column) or span_on(spans, line, tok.column)  # type: ignore[arg-type]

    # -- actions ---------------------------------------------------------------
    def placement(self, c: list[Any]) -> PlacementText:
        tok = c[0]
        _, piece, square, _ = tok.syntax
        return new_placement_text(PlacementText, piece, square, self._span(tok))

    def move(self, c: list[Any]) -> MoveText:
        move: MoveText = c[0].syntax
        if len(c) > 1:  # its event list written apart: "Pi10i6 (Bh5)"
            return new_move_text(MoveText, move.piece, move.squares, c[1], move.span, move.off)
        return move

    def move_run(self, c: list[Any]) -> list[MoveText]:
        """``Pi10i6(Bh5),Pc4g4(Ei4W)``: the moves of one token, each at its own column."""
        return list(c[0].syntax)

    def events(self, c: list[Any]) -> tuple[EventText, ...]:
        return tuple(e for e in c if isinstance(e, EventText))

    def event(self, c: list[Any]) -> EventText:
        """``Bh11``, ``Eg12S``, ``xBb5``, ``+Ea4``: what it means is the game's business."""
        tok = c[0]
        prefix, piece, square, facing = tok.syntax
        return new_event_text(EventText, prefix, piece, square, facing, self._span(tok))

    def rearrangement(self, c: list[Any]) -> RearrangementText:
        tok = c[0]
        if tok.type == "REALM_LIST":
            return tok.syntax  # type: ignore[no-any-return]
        own: list[ItemText] = []
        theirs: list[ItemText] = []
        into = own
        for x in c[1:]:
            if isinstance(x, ItemText):
                into.append(x)
            elif isinstance(x, Token) and x.type == "SEMICOLON":
                into = theirs
        return RearrangementText(tok.syntax, tuple(own), self._span(tok), tuple(theirs))

    def sacrifice(self, c: list[Any]) -> SacrificeText:
        tok, ev = c[0], c[2]
        _, _, square, facing = ev.syntax
        return SacrificeText(tok.syntax, square, facing, self._span(tok))

    def item(self, c: list[Any]) -> ItemText:
        tok = c[0]
        _, piece, square, facing = tok.syntax
        if piece == "B":
            raise NotationError(
                f"{tok} cannot be rearranged: a Rearrangement puts back Powers and "
                "Enforcers; Bases stay where they are",
                span=self._span(tok),
                code="notation.rearrangement",
            )
        return ItemText(piece, square, facing, self._span(tok))

    def moves(self, c: list[Any]) -> list[Any]:
        flat: list[Any] = []
        for x in c:
            flat.extend(x) if isinstance(x, list) else flat.append(x)  # a move_run's moves
        return flat

    # -- turns and entries -----------------------------------------------------
    def turn(self, c: list[Any]) -> TurnText:
        return self._turn([], c)

    def _turn(self, actions: list[Any], c: list[Any]) -> TurnText:
        """The turn of ``actions`` (read already) and of what ``c`` holds after them:
        actions (a list: the moves of a ``moves`` or a ``move_run``), commas, marks, notes,
        variations."""
        flat: list[Any] = []
        for x in c:
            flat.extend(x) if isinstance(x, list) else flat.append(x)
        notes: list[str] = []
        note_spans: list[Span] = []
        marks: list[MarkText] = []
        variations: list[VariationText] = []
        comma: Span | None = None
        stray: StrayMark | None = None
        for x in flat:
            if isinstance(x, Token):
                kind = x.type
                if kind == "PASS":
                    actions.append(PassText(self._span(x)))
                    comma = None
                elif kind == "COMMA" or kind == "END_COMMA":
                    comma = self._span(x)
                elif kind == "END_STOP":
                    stray = StrayMark(".", self._span(x))
                elif kind == "MARK":
                    marks.append(MarkText(str(x), len(actions) - 1, self._span(x)))
            elif isinstance(x, _MarkedNote):
                notes.append(str(x))
                note_spans.append(x.span)
                if x.mark is not None:
                    stray = x.mark
            elif isinstance(x, VariationText):
                variations.append(x)
            else:
                actions.append(x)
                comma = None  # a comma between two actions is no separator
        return new_turn_text(TurnText, tuple(actions), tuple(notes), comma, actions[0].span,
                             stray, tuple(marks), tuple(variations), tuple(note_spans))

    def note(self, c: list[Token]) -> _MarkedNote:
        tok = c[0]
        if tok.type == "PAREN_NOTE" and tok[-1] in ",.":  # "(Figure 6),": a scan's stray mark
            text, mark = self._stray_after(tok, len(tok) - 1)
            note = _MarkedNote(text)
            note.mark = mark
        else:
            note = _MarkedNote(tok)
        note.span = self._span(tok)
        return note

    def variation(self, c: list[Any]) -> VariationText:
        """``[9...Pa3a12 10.Pf7f12]``: a line instead of the turn before it."""
        opening, game, closing = c
        text = Reading.text[opening.start_pos : closing.start_pos + 1]
        if not isinstance(game, GameText):
            game = GameText()
        return VariationText(game, text, self._span(opening))

    @staticmethod
    def _notes(items: list[Any]) -> tuple[tuple[str, ...], StrayMark | None]:
        """Notes as plain text, and the stray mark the last of them carried, if any."""
        mark = None
        for x in items:
            if isinstance(x, _MarkedNote) and x.mark is not None:
                mark = x.mark
        return tuple(str(x) for x in items), mark

    def entry(self, c: list[Any]) -> EntryText:
        # MOVENUM turn, then SLASH turn, SLASH, turn or nothing (grammar/realm.lark)
        num, white = c[0], c[1]
        slash = len(c) > 2 and isinstance(c[2], Token)
        black = c[-1] if len(c) > 2 and isinstance(c[-1], TurnText) else None
        digits, stray = self._stray_after(num, num.index(".") + 1)
        return new_entry_text(EntryText, int(digits[:-1]), white, black, slash,
                              self._span(num), stray)

    def packed_entry(self, c: list[Any]) -> EntryText:
        """``7.Pg5g9(Bh8)/`` (one token) and Black's turn: as ``entry`` reads the same."""
        return self._white_packed(c[0].syntax, c[1] if len(c) > 1 else None, True)

    def white_entry(self, c: list[Any]) -> EntryText:
        """``16.Pe7e6(Be5)`` (one token) where the entry ends: as ``entry`` reads the same."""
        return self._white_packed(c[0].syntax, None, False)

    def _white_packed(
        self, syntax: tuple[Any, ...], black: TurnText | None, slash: bool
    ) -> EntryText:
        number, white, span = syntax
        white_turn = new_turn_text(TurnText, tuple(white), (), None, white[0].span, None)
        return new_entry_text(EntryText, number, white_turn, black, slash, span)

    def full_entry(self, c: list[Any]) -> EntryText:
        """``7.Pg5g9(Bh8)/Pc5c2`` (one token), then what may follow Black's last move."""
        return self._whole(c[0].syntax, c[1:])

    def entry_run(self, c: list[Any]) -> list[EntryText | ListMarkerText]:
        """Whole entries one after the other (one token), list markers before them kept as
        items: what follows is the last entry's."""
        items = c[0].syntax  # the last is an entry: a list marker stands before its entry
        whole = self._whole
        out = [e if isinstance(e, ListMarkerText) else whole(e, []) for e in items[:-1]]
        out.append(whole(items[-1], c[1:]))
        return out

    def _whole(self, entry: tuple[Any, ...], after: list[Any]) -> EntryText:
        number, white, moves, span, notes = entry
        if notes is not None:  # notes before the next entry of its run: Black's turn's
            after = [self.note([tok]) for tok in notes]
        if after and isinstance(after[0], tuple):  # events written apart (never packed so)
            last = moves[-1]
            moves = [*moves[:-1], MoveText(last.piece, last.squares, after[0], last.span,
                                           last.off)]
            after = after[1:]
        if after:  # Black's packed moves, and what the parser read after them
            black = self._turn(list(moves), after)
        else:
            black = new_turn_text(TurnText, tuple(moves), (), None, moves[0].span, None)
        white_turn = new_turn_text(TurnText, tuple(white), (), None, white[0].span, None)
        return new_entry_text(EntryText, number, white_turn, black, True, span)

    def placed_entry(self, c: list[Any]) -> EntryText:
        """``1.Bh11 Bh2,`` (one token) and any notes: as ``entry`` reads the same."""
        return self._placed(c[0].syntax[0], c[1:])

    def placed_run(self, c: list[Any]) -> list[EntryText | LabelText]:
        """``1.Bh11 Bh2, 2.Be8 Be5,`` (one token): its pairs' entries, the notes after it
        on the last, as ``placed_entry`` reads each pair."""
        pairs = c[0].syntax  # a label may stand first (``Set-up: 1.Bh11 Bh2, ...``)
        placed = self._placed
        out = [placed(pair, []) if isinstance(pair, tuple) else pair for pair in pairs[:-1]]
        out.append(placed(pairs[-1], c[1:]))
        return out

    def _placed(self, pair: tuple[Any, ...], after: list[Any]) -> EntryText:
        number, span, white, black, comma, white_comma = pair
        black_turn = new_turn_text(TurnText, (black,), (), comma, black.span, None)
        if after:
            black_turn = self.turn([black, *after])
            black_turn = new_turn_text(TurnText, black_turn.actions, black_turn.notes, comma,
                                       black.span, black_turn.stray, black_turn.marks,
                                       black_turn.variations, black_turn.note_spans)
        white_turn = new_turn_text(TurnText, (white,), (), white_comma, white.span, None)
        return new_entry_text(EntryText, number, white_turn, black_turn, False, span)

    def black_entry(self, c: list[Any]) -> EntryText:
        num = c[0]
        digits = str(num).rstrip(".… \t").rstrip(".")
        return new_entry_text(EntryText, int(digits.split(".")[0]), None, c[1], False,
                              self._span(num))

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
        notes = tuple([str(x) for x in c if isinstance(x, _MarkedNote)])
        items: list[Any] = []
        for x in c:
            if isinstance(x, Token):
                if x.type == "LABEL":
                    items.append(LabelText(str(x), self._span(x)))
                elif x.type == "LIST_MARKER":
                    items.append(new_list_marker_text(ListMarkerText, str(x).strip(),
                                                      self._span(x)))
            elif isinstance(x, list):
                items.extend(x)  # the entries of a run of set-up pairs
            elif not isinstance(x, str):
                items.append(x)  # entries and results (notes are plain str)
        span = items[0].span if items else Span(1 + self.line_offset, 1)
        return new_game_text(GameText, {}, notes, tuple(items), span)

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
        return new_game_text(GameText, headers, body.notes, body.items, body.span, header_span,
                             header_text)

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
    headers = plain_front_matter(inner, TEXT_KEYS) if inner else None  # keys are text
    if headers is None:
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
