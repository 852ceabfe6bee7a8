"""Text -> syntax objects; every lark exception becomes one NotationError.

The error says what was found and, in words, what could have stood there, with
the line and column of the offending text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import fields
from typing import Any

from lark import Token
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from pbem.errors import NotationError, PbemError, Span
from pbem.notation.grammar import parser, transformer
from pbem.notation.lexer import MAX_DEPTH, Reading, Scanner, Syntax, is_square, square_end
from pbem.notation.syntax import GameText
from pbem.rules.game import AnyGame, NotationWords, with_article

#: what each terminal is, in words; ``{move}`` and the like: the game's own examples
#: (``Game.notation_words``), a form the game has not got (empty) is left out
_WORDS = {
    "MOVENUM": "a move number like '7.'",
    "WHITE_HALF": "a move number like '7.'",
    "WHITE_ONLY": "a move number like '7.'",
    "FULL_ENTRY": "a move number like '7.'",
    "ENTRY_RUN": "a move number like '7.'",
    "ENTRY_APART": "a move number like '7.'",
    "RUN_APART": "a move number like '7.'",
    "PLACED_PAIR": "a move number like '7.'",
    "PLACED_RUN": "a move number like '7.'",
    "BLACKNUM": "a move number like '7...'",
    "MOVE": "a move like '{move}'",
    "MOVE_EVENTS": "a move like '{move}'",
    "MOVE_RUN": "a move like '{move}'",
    "PIECE_AT": "a piece and its square like '{placement}'",
    "ENFORCER_AT": "an Enforcer, its square and its facing like '{facing}'",
    "TAKEN_AT": "a piece taken like '{taken}'",
    "BROUGHT_AT": "a piece brought onto a Center like '{brought}'",
    "REALM": "a Rearrangement like '{rearrangement}'",
    "REALM_LIST": "a Rearrangement like '{rearrangement}'",
    "PASS": "'pass'",
    "SLASH": "'/'",
    "COMMA": "','",
    "END_COMMA": "','",
    "LPAR": "'('",
    "RPAR": "')'",
    "RESULT": "a result (1-0, 0-1, 1/2-1/2, *)",
    "WINS": "'wins'",
    "COMMENT": "a {{comment}}",
    "PAREN_NOTE": "a (note)",
    "LABEL": "a label like 'Set-up:'",
    "LIST_MARKER": "'-'",
    "FRONT_MATTER": "front matter between '---' lines",
    "MARK": "a mark (! ? !! ?? !? ?!)",
    "LSQB": "a variation in square brackets",
    "RSQB": "']' closing the variation",
    "$END": "the end of the text",
}


@functools.cache
def _game_words(game: AnyGame | None) -> dict[str, str]:
    """``_WORDS`` with ``game``'s own examples (None: the Featured Game's); a form the
    game has not got is left out."""
    words = game.notation_words if game is not None else NotationWords()
    examples = {f.name: getattr(words, f.name) for f in fields(words)}
    out = {}
    for name, text in _WORDS.items():
        needs = [k for k in examples if "{" + k + "}" in text]
        if any(not examples[k] for k in needs):
            continue
        out[name] = text.format(**examples)
    return out


# the order in which expected things are listed: the most helpful first
_ORDER = list(_WORDS)
# listed only when nothing else could stand there
_QUIET = {"COMMENT", "PAREN_NOTE", "LABEL", "LIST_MARKER", "FRONT_MATTER", "BLACKNUM", "WINS",
          "MARK", "LSQB", "RSQB"}
_SQUARE_LIKE = re.compile(r"[A-Za-z]\d+")


def _square_at(word: str, at: int) -> int:
    """The end of the square written at ``word[at]`` (the lexer's reading), or -1."""
    return square_end(word + "\x00\x00\x00", at) if 0 <= at < len(word) else -1


def _after_enforcer(text: str, pos: int) -> bool:
    """An Enforcer event just before ``pos``, where the reading stopped: "(Ed2" in "(Ed2Z)"."""
    for start in range(max(0, pos - 6), pos - 2):
        if text[start] in "(," and text[start + 1] == "E" \
                and _square_at(text[:pos], start + 2) == pos:
            return True
    return False


_SQUARE_WORDS = "a square (a1 to l12)"
_FACING_WORDS = "a direction (N, E, S or W; U for an immobilised Enforcer)"


def _explain(word: str, allowed: set[str], game: AnyGame | None) -> tuple[int, str] | None:
    """Where inside a half-written action the reading stopped, and what was expected there.

    An action is one token, so the lexer only knows that the whole word failed;
    this walks the word with the grammar's own square pattern to point at the
    very character.
    """
    if not word:
        return None
    if word[0] == "x" and "TAKEN_AT" in allowed:
        if len(word) < 2 or word[1] not in "BPE":
            taken = (game.notation_words if game is not None else NotationWords()).taken
            return 1, f"{_letters(game)} after 'x' (the piece taken, like {taken})"
        if _square_at(word, 2) >= 0 or _bad_square(word[2:]):
            return None
        return 2, _SQUARE_WORDS
    if word[0] not in "PEBR":
        return None
    end = _square_at(word, 1)
    if end < 0:
        return None if _bad_square(word) else (1, _SQUARE_WORDS)
    if word[0] == "E" and "ENFORCER_AT" in allowed and "MOVE" not in allowed:
        return end, _FACING_WORDS
    if word[0] in "PE" and "MOVE" in allowed and _square_at(word, end) < 0:
        if _bad_square(word[end:]):
            return None
        return end, f"{_SQUARE_WORDS}: a move names the square it goes to"
    return None


def _bad_square(word: str) -> re.Match[str] | None:
    """The first letter-and-digits run in ``word`` that is no square (``a13``, ``z5``)."""
    for m in _SQUARE_LIKE.finditer(word):
        if not is_square(m.group()):
            return m
    return None


def _letters(game: AnyGame | None) -> str:
    """"'B', 'P' or 'E'": the game's piece letters, quoted."""
    letters = [s.letter for s in game.pieces.styles] if game is not None else ["B", "P", "E"]
    quoted = [f"'{x}'" for x in letters]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def expected_words(expected: set[str] | frozenset[str], game: AnyGame | None = None) -> str:
    """What could have stood where the reading stopped, in words, with ``game``'s own
    examples (None: the Featured Game's)."""
    table = _game_words(game)
    names = set(expected)
    if names - _QUIET:
        names -= _QUIET
    words: list[str] = []
    for name in sorted(names, key=lambda n: _ORDER.index(n) if n in _ORDER else 99):
        w = table.get(name)
        if w and w not in words:
            words.append(w)
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _piece_before(text: str, pos: int) -> str:
    """A piece letter and its square written just before ``pos`` (``Be5`` before ``e6``),
    the letter not after another letter; '' where there is none."""
    for start in range(max(0, pos - 4), pos - 2):
        if text[start].isascii() and text[start].isupper() \
                and (start == 0 or not text[start - 1].isalpha()) \
                and _square_at(text[:pos], start + 1) == pos:
            return text[start:pos]
    return ""


def _fixed_piece(text: str, pos: int, game: AnyGame | None) -> str | None:
    """The rule, where the reading stopped at a square written right after a piece that
    never moves ("Be5e6": an HQ, a Base): the player meant to move it."""
    if _square_at(text, pos) < 0:
        return None
    before = _piece_before(text, pos)
    if not before:
        return None
    letter = before[0]
    if game is not None and letter not in {s.letter for s in game.pieces.styles}:
        return f"{game.title} has no piece {letter!r}: its pieces are {game.letters_words()}"
    fixed = game.notation_words.fixed if game is not None else NotationWords().fixed
    if letter not in fixed:
        return None
    name = game.pieces.style(letter).name if game is not None else "Base"
    return (f"{with_article(name)} never moves: {before!r} places one, and "
            f"nothing may follow its square")


def _shown(text: str) -> str:
    return repr(text) if text else "the end of the text"


def notation_error(
    exc: UnexpectedInput, text: str, line_offset: int, game: AnyGame | None = None
) -> NotationError:
    """``exc`` as one NotationError in ``game``'s words (None: the Featured Game's)."""
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0  # lark always sets it for this error
        found = text[pos : pos + 1]
        # show the whole word that starts here, which reads better than one letter
        end = pos
        while end < len(text) and not text[end].isspace() and end - pos < 12:
            end += 1
        word = text[pos : end] or found
        allowed = exc.allowed or set()
        msg = f"cannot read {word!r} here: expected {expected_words(allowed, game)}"
        fixed = _fixed_piece(text, pos, game)
        if fixed is not None:
            return NotationError(
                fixed, span=Span(exc.line + line_offset, exc.column), code="notation.fixed-piece"
            )
        explained = _explain(word, allowed, game)
        if explained is None and found.isalpha() and _after_enforcer(text, pos):
            explained = 0, _FACING_WORDS  # "(Ed2Z)": a facing that is no direction
        if explained is not None:
            offset, what = explained
            col = exc.column + offset
            if not text[pos + offset :].strip():
                return NotationError(
                    f"the text ends too soon: expected {what}",
                    span=Span(exc.line + line_offset, col),
                    code="notation.end",
                )
            return NotationError(
                f"expected {what}, not {word[offset:offset + 6]!r}",
                span=Span(exc.line + line_offset, col),
                code="notation.syntax",
            )
        bad = _bad_square(word)
        if bad is not None:
            return NotationError(
                f"{bad.group()!r} is not a square: files run from a to l and ranks from 1 to 12",
                span=Span(exc.line + line_offset, exc.column + bad.start()),
                code="notation.syntax",
            )
        if word.startswith("{"):
            msg = "this comment is never closed: a '{' needs its '}'"
        else:
            opening = _unclosed_paren(text, pos)
            if opening is not None:
                line = text.count("\n", 0, opening) + 1
                col = opening - (text.rfind("\n", 0, opening) + 1) + 1
                return NotationError(
                    "this '(' is never closed: a note or an event list needs its ')'",
                    span=Span(line + line_offset, col),
                    code="notation.syntax",
                )
        return NotationError(
            msg, span=Span(exc.line + line_offset, exc.column), code="notation.syntax"
        )
    if isinstance(exc, UnexpectedEOF):
        line, col = _end_of(text)
        return NotationError(
            f"the text ends too soon: expected {expected_words(set(exc.expected), game)}",
            span=Span(line + line_offset, col),
            code="notation.end",
        )
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    if tok.type == "$END":
        line, col = _end_of(text)
        return NotationError(
            f"the text ends too soon: expected {expected_words(exc.expected, game)}",
            span=Span(line + line_offset, col),
            code="notation.end",
        )
    if tok.type == "RSQB":
        return NotationError(
            "this ']' closes no variation: a variation is written in square brackets "
            "after the turn it replaces, like '[9...Pa3a12]'",
            span=Span(tok.line + line_offset, tok.column),
            code="notation.syntax",
        )
    if str(tok) == "(" and tok.start_pos is not None:
        opening = _unclosed_paren(text, tok.start_pos)
        if opening is not None:
            return NotationError(
                "this '(' is never closed: a note or an event list needs its ')'",
                span=Span(tok.line + line_offset, tok.column),
                code="notation.syntax",
            )
    return NotationError(
        f"unexpected {_shown(_quoted(tok))}: expected {expected_words(exc.expected, game)}",
        span=Span(tok.line + line_offset, tok.column),
        code="notation.syntax",
    )


def _quoted(tok: Token) -> str:
    """What an error quotes of an unexpected token: an entry packed with a Rearrangement
    for White (``19.Rb11(Pc11)/Pf3j3``) is quoted as its number, a run of set-up pairs as
    its first pair, as they were before they became one token, so that the error stays
    word for word the same."""
    text = str(tok)
    if tok.type == "MOVE_RUN":  # up to its last move with events, the token it was before
        moves = tok.syntax  # type: ignore[attr-defined]
        last = max((i for i, m in enumerate(moves) if m.events is not None and i), default=0)
        if last + 1 < len(moves):
            return text[: moves[last + 1].span.column - moves[0].span.column - 1]
        return text
    if tok.type == "WHITE_ONLY":  # "16.Pe7e6(Be5)": its number, the token it is written apart
        return text[: text.index(".") + 1]
    if tok.type in ("PLACED_PAIR", "PLACED_RUN"):
        if tok.syntax[0][5] is not None:  # type: ignore[attr-defined]
            # White's comma ("6.Pc4, Pc9,"): its number, the token it is written apart
            return text[: text.index(".") + 1]
        if tok.type == "PLACED_RUN":  # its first pair, the token it was before runs were one
            return text[: text.index(",") + 1]
    if tok.type in ("ENTRY_RUN", "RUN_APART") and text[0] in "-*•":  # its list marker
        return text[: len(text) - len(text[1:].lstrip(" \t"))]
    if tok.type in ("FULL_ENTRY", "ENTRY_RUN", "ENTRY_APART", "RUN_APART"):  # up to the
        text = text.split()[0]  # first white space: the first entry, or its White half
    if tok.type in ("WHITE_HALF", "FULL_ENTRY", "ENTRY_RUN", "ENTRY_APART", "RUN_APART"):
        dot = text.index(".") + 1
        if text[dot] == "R":
            return text[:dot]
    return text


def _unclosed_paren(text: str, pos: int) -> int | None:
    """The offset of a '(' before ``pos`` on the same line that no ')' closes, if any."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start : len(text) if end < 0 else end]
    opening = line.rfind("(", 0, pos - start + 1)
    if opening >= 0 and ")" not in line[opening:]:
        return start + opening
    return None


def _end_of(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    col = len(stripped) - (stripped.rfind("\n") + 1) + 1
    return line, col


def parse_game(text: str, line_offset: int = 0, game: AnyGame | None = None) -> GameText:
    """One game: optional front matter, then movetext. ``game``: whose words an error
    speaks (None: the Featured Game's, before a record has said its game)."""
    return _parse(text, "game", line_offset, game)


def parse_movetext(text: str, line_offset: int = 0, game: AnyGame | None = None) -> GameText:
    """Movetext alone (no front matter), e.g. the turns in a player's email; an error
    speaks ``game``'s words."""
    return _parse(text, "movetext", line_offset, game)


def _replayed(text: str, start: str) -> Any:
    """``text`` parsed again token by token, where the parse failed, reading each token as
    it reads in the parser's state there; the error that results says what could have
    stood where the reading stopped, as it would before any reduction.

    The tokenizer reads a few forms one way whatever the parser's state: a comma before
    no other action ends a turn (``END_COMMA``), though after a sacrifice only a separating
    comma may follow (``Sg4(Eh4E),i6k6`` breaks at ``i6k6``, not at the comma); an Enforcer
    with a facing outside an event list is read whole, though where a placement may stand
    ``Ei1W)`` breaks at its ``W``. Here they are read as the state allows, which may also
    carry the text to its end: then its value is returned.
    """
    ip = parser().parse_interactive(None, start=start)
    scanner = Scanner(text, Reading.line_offset)
    fed: list[Token] = []
    for tok in scanner.tokens():
        choices = {name for name in ip.choices() if name.isupper()}
        if tok.type not in choices:
            read = _in_context(tok, choices, scanner)
            if read is None:
                allowed = (choices - {"$END"}) or {"<END-OF-FILE>"}
                if tok.type == "BAD":  # a character that starts no form
                    raise UnexpectedCharacters(text, tok.start_pos, tok.line, tok.column,
                                               allowed=allowed)
                raise UnexpectedToken(tok, allowed)
            tok = read
        try:
            ip.feed_token(tok)  # may raise, after reductions: the parser's own error
        except UnexpectedToken as exc:
            raise _comma_kept(exc, fed, start) from None
        fed.append(tok)
    return ip.feed_eof()


def _comma_kept(exc: UnexpectedToken, fed: list[Token], start: str) -> UnexpectedToken:
    """lark's error after reductions, with ``','`` among what was expected where the token
    that broke the turn follows its second or later move (``15.Pj2f2/Pl4h4(Bh5),Pl5l12Bk11``).

    There a comma could still have gone on with the turn, and the error said so before
    the tokenizer was rebuilt. Now the parser's states after such a move are shared by
    White's and Black's turns (LALR), so a token that could begin Black's turn after
    White's moves (``Bk11``) is first reduced after Black's moves too, and lark raises its
    error in a later state, where no comma is expected. The state before the token,
    rebuilt from the tokens fed (on an error's path only), says whether a comma could
    have followed there.
    """
    if "COMMA" in exc.expected or not _after_later_move(fed):
        return exc
    ip = parser().parse_interactive(None, start=start)
    for tok in fed:
        ip.feed_token(tok)
    if "COMMA" in ip.accepts():
        exc.expected = {*exc.expected, "COMMA"}
    return exc


def _after_later_move(fed: list[Token]) -> bool:
    """The last tokens fed are a comma and a move (its event list written apart after it,
    ``Pc1c2 (Bc3)``, or not): a turn's second or later move."""
    i = len(fed) - 1
    if i >= 0 and fed[i].type == "RPAR":
        while i >= 0 and fed[i].type != "LPAR":
            i -= 1
        i -= 1
    return i >= 1 and fed[i].type in ("MOVE", "MOVE_EVENTS", "MOVE_RUN") \
        and fed[i - 1].type == "COMMA"


def _in_context(tok: Token, choices: set[str], scanner: Scanner) -> Token | None:
    """``tok`` read as the parser's state allows, if it can be (see ``_replayed``)."""
    if tok.type == "END_COMMA" and "COMMA" in choices:
        return Token("COMMA", str(tok), tok.start_pos, tok.line, tok.column)
    if (tok.type == "ENFORCER_AT" and "PIECE_AT" in choices and not scanner.parens
            and isinstance(tok, Syntax)):  # the scanner's token: line and column are set
        assert tok.start_pos is not None and tok.line is not None and tok.column is not None
        placed = Syntax("PIECE_AT", str(tok)[:-1], tok.start_pos, tok.line, tok.column)
        prefix, piece, square, _ = tok.syntax
        placed.syntax = (prefix, piece, square, None)
        scanner.pos = tok.start_pos + len(tok) - 1
        return placed
    return None


def _parse(text: str, start: str, line_offset: int, game: AnyGame | None = None) -> GameText:
    transformer().line_offset = line_offset
    Reading.line_offset = line_offset
    try:
        result = parser().parse(text, start=start)
    except UnexpectedToken as exc:
        if exc.token.type == "DEEP":
            raise NotationError(
                f"variations are nested more than {MAX_DEPTH} deep here",
                span=Span(exc.token.line + line_offset, exc.token.column),
                code="notation.syntax",
            ) from None
        try:
            result = _replayed(text, start)
        except UnexpectedInput as error:
            raise notation_error(error, text, line_offset, game) from None
    except UnexpectedInput as exc:
        raise notation_error(exc, text, line_offset, game) from None
    except PbemError:
        raise
    except VisitError as exc:  # pragma: no cover - callbacks raise PbemError only
        if isinstance(exc.orig_exc, PbemError):
            raise exc.orig_exc from None
        raise
    if not isinstance(result, GameText):  # an empty movetext
        return GameText()
    return result
