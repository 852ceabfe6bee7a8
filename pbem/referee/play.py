"""A mailed turn checked against the latest snapshot by the same code ``pbem validate`` runs.

``pbem.records.replay.replay_turn`` plays one turn from a given position exactly as
a record's turn is played, so the referee and the validator can never disagree about
a turn; nothing is replayed from the start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.errors import PbemError, Span
from pbem.notation.parse import parse_movetext
from pbem.notation.syntax import EntryText, TurnText
from pbem.records.replay import GameError, PlayedTurn, replay_turn
from pbem.rules.game import GamePosition
from pbem.rules.pieces import Side


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    played: PlayedTurn | None
    error: GameError | None
    #: repairs the resolver made (look-alike letters), in words
    warnings: tuple[str, ...] = ()


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
        prefix = f"{number}." if side is Side.WHITE else f"{number}..."
    try:
        game = parse_movetext(prefix + stripped)
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
                "write only your own turn, not a whole entry with both sides' turns",
                "mail.one-turn",
                Span(1, 1),
            ),
        )
    turn: TurnText = turns[0]
    if entry.number != number:
        return TurnOutcome(
            None,
            GameError(
                f"this turn is numbered {entry.number}, but the game is at turn {number} "
                f"({side.title} to move): an old or repeated order is never played",
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
    return TurnOutcome(replay.turns[-1], None, tuple(w.message for w in replay.warnings))
