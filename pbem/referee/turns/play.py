"""A mailed turn checked against the latest snapshot by the same code ``pbem validate`` runs.

``pbem.records.replay.replay_turn`` plays one turn from a given position exactly as
a record's turn is played, so the referee and the validator can never disagree about
a turn; nothing is replayed from the start.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.errors import Diagnostic, PbemError, Span
from pbem.notation.format import entry_line, format_turn
from pbem.notation.parse import parse_movetext
from pbem.notation.syntax import EntryText, TurnText
from pbem.notation.write import entry_of
from pbem.records.replay import GameError, PlayedTurn, replay_turn
from pbem.referee.turns.turn_line import read_turn_line
from pbem.rules.game import GamePosition, turn_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of
from pbem.rules.values import frozen


@frozen
class TurnOutcome:
    played: PlayedTurn | None
    error: GameError | None
    #: what the resolver repaired or inferred
    warnings: tuple[Diagnostic, ...] = ()
    #: slips of letter case let through by the config, in words for the turn report
    repaired: tuple[str, ...] = ()
    #: the prose after the turn on its line, left aside (``turn_line``): quoted back
    aside: str = ""


def expected_turn(position: GamePosition) -> tuple[int, Side]:
    """The entry number and side of the next turn, as records number them."""
    return position.turn_number(), position.to_move


def _shift(span: Span | None, columns: int) -> Span | None:
    if span is None:
        return None
    return Span(span.line, max(1, span.column - columns))


def play_turn(
    position: GamePosition, text: str, headers: dict[str, Any] | None = None
) -> TurnOutcome:
    """Check and play the turn written in ``text`` (one line, numbered or not).

    Spans in the error are columns of ``text`` (line 1).
    """
    number, side = expected_turn(position)
    stripped = text.strip()
    prefix = ""
    if not stripped[:1].isdigit():
        prefix = entry_line(*entry_of(number, side, ""))  # "7." or "7..."
    try:
        game = parse_movetext(prefix + stripped, game=game_of(position))
    except PbemError as exc:
        return TurnOutcome(None, GameError(exc.message, exc.code, _shift(exc.span, len(prefix))))
    entries = [i for i in game.items if isinstance(i, EntryText)]
    if len(entries) != 1 or len(game.items) != 1:
        return TurnOutcome(
            None,
            GameError(
                "write one turn per message (the turn you play now, nothing else)",
                "mail.one-turn",
                Span(1, 1),
            ),
        )
    entry = entries[0]
    turns = [t for t in (entry.white, entry.black) if t is not None]
    if len(turns) != 1:
        return TurnOutcome(
            None,
            GameError(
                "write only your own turn, its actions separated by commas (not by spaces or "
                "slashes), like Pa1a2,Pb1b2",
                "mail.one-turn",
                Span(1, 1),
            ),
        )
    turn: TurnText = turns[0]
    if entry.number != number:
        return TurnOutcome(
            None,
            GameError(
                f"this turn is numbered {entry.number}, but the game is at "
                f"{turn_name(f'{number}{side.letter}')} ({side.title} to move): an old or "
                f"repeated order is never played. To play now, write "
                f"{turn_name(f'{number}{side.letter}')} (or no number at all)",
                "mail.stale",
                _shift(entry.span, len(prefix)),
                f"{number}{side.letter}",
            ),
        )
    replay = replay_turn(position, turn, headers)
    if replay.error is not None:
        e = replay.error
        return TurnOutcome(
            None,
            GameError(e.message, e.code, _shift(e.span, len(prefix)), e.turn, e.action, e.options),
        )
    warnings = tuple(replace(w, span=_shift(w.span, len(prefix))) for w in replay.warnings)
    return TurnOutcome(replay.turns[-1], None, warnings)


#: where an action or an event starts: a piece letter may follow
_ACTION_START = frozenset(" \t,;(/.x+…")


def case_fixed(text: str) -> str:
    """``text`` with piece letters as capitals, file letters small and facings capitals:
    the turn a player who only slipped on the shift key (or wrote all in small letters,
    ``eb2e2e5b5b8(xea9)``) meant.

    One pass, each letter judged by its neighbours: a letter followed by a digit is a file
    (small); one followed by a file and a digit where an action or event starts is a piece
    (a capital, like ``x`` and ``+`` before it stay small); one right after a square's
    digits and before the end of an event is a facing (a capital); ``off`` and ``pass``
    stay as they are."""
    out = list(text)
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if not c.isalpha():
            i += 1
            continue
        low = text[i : i + 4].lower()
        if low.startswith("off") and i > 0 and text[i - 1].isdigit():
            out[i : i + 3] = "off"
            i += 3
            continue
        if low == "pass" and (i == 0 or not text[i - 1].isalnum()):
            i += 4
            continue
        nxt = text[i + 1] if i + 1 < n else ""
        after = text[i + 2] if i + 2 < n else ""
        start = i == 0 or text[i - 1] in _ACTION_START
        if nxt.isdigit():
            out[i] = c.lower()  # a file
        elif c in "xX" and start and nxt.isalpha() and after.isalpha():
            out[i] = "x"  # a piece taken: x, its letter, its square
        elif start and nxt.isalpha() and after.isdigit():
            out[i] = c.upper()  # a piece letter (or R, S) before its square
        elif i > 0 and text[i - 1].isdigit() and not nxt.isalnum():
            out[i] = c.upper()  # a facing after the square
        i += 1
    return "".join(out)


def _repairs(outcome: TurnOutcome) -> list[Diagnostic]:
    return [w for w in outcome.warnings if w.code == "repair.square"]


def canonical_text(played: PlayedTurn) -> str:
    """A played turn as the record writes it (every special event spelt out)."""
    return format_turn(TurnText(tuple(r.canonical() for r in played.resolved)))


def live_turn(
    position: GamePosition, text: str, headers: dict[str, Any] | None = None, *,
    case_repairs: bool = False,
) -> TurnOutcome:
    """``play_turn`` for a turn mailed in a live game: never a silent change.

    The look-alike repairs (``i`` for ``l``) are for old scanned transcripts; in live mail
    a turn that needs one is refused, naming what is wrong with it as written and offering
    the reading that would be legal. A slip of letter case only (``bh2``, ``PL1L6``) is
    refused the same way, unless ``case_repairs`` (config) lets it through; then
    ``repaired`` says so, for the turn report.
    """
    line = read_turn_line(position, text)
    if line.error is not None:
        return TurnOutcome(None, line.error)
    if line.aside:
        return replace(_live_turn(position, line.turn, headers, case_repairs), aside=line.aside)
    return _live_turn(position, line.turn, headers, case_repairs)


def _live_turn(
    position: GamePosition, text: str, headers: dict[str, Any] | None, case_repairs: bool
) -> TurnOutcome:
    outcome = play_turn(position, text, headers)
    repairs = _repairs(outcome)
    if outcome.error is None and not repairs:
        return outcome
    fixed = case_fixed(text)
    if fixed != text:
        slip = play_turn(position, fixed, headers)
        if slip.played is not None and not _repairs(slip):
            meant = canonical_text(slip.played)
            if case_repairs:
                note = f"{text.strip()!r}, read as {meant!r} (letter case only)"
                return TurnOutcome(slip.played, None, slip.warnings, (note,))
            return TurnOutcome(None, _offer(_case_words(position), meant, outcome, repairs))
        if (slip.error is not None and outcome.error is not None
                and outcome.error.code.startswith("notation.")
                and not slip.error.code.startswith("notation.")):
            # unreadable as written, readable with capitals: say so, and why even that
            # turn cannot be played, rather than what the grammar expected
            e = slip.error
            return TurnOutcome(None, GameError(
                f"{_case_words(position)}. Did you mean {fixed.strip()}? Written so, it "
                f"cannot be played either: {e.message}",
                e.code, outcome.error.span, e.turn, e.action, e.options))
    if outcome.error is not None:
        return outcome
    assert outcome.played is not None
    first = repairs[0]
    why = first.notes[0] if first.notes else f"{first.message}, which is only a guess"
    return TurnOutcome(None, _offer(why, canonical_text(outcome.played), outcome, repairs))


def _case_words(position: GamePosition) -> str:
    return (f"pieces are written as capitals ({game_of(position).letters_words()}) "
            "and files as small letters (a to l)")


def _offer(why: str, meant: str, outcome: TurnOutcome, repairs: list[Diagnostic]) -> GameError:
    span = repairs[0].span if repairs else (outcome.error.span if outcome.error else None)
    return GameError(f"{why}. Did you mean {meant}? Reply with it to play it.",
                     "mail.repaired", span)
