"""A played turn in plain words, for the players' mail.

The notation says *what* was written; these sentences say what it did, in the
game's own vocabulary ("White's Power from i10 to i6 created a Base on h5"), so
that a player who has not learnt the notation can still follow the game. The words
are each game's (``Game.describe_action`` and its siblings); this module finds the
game of a played turn or position and asks it.
"""

from __future__ import annotations

from pbem.records.replay import PlayedTurn
from pbem.rules.game import GamePosition, join_words, result_words
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of

__all__ = [
    "describe_action",
    "describe_end",
    "describe_next",
    "describe_recorded_end",
    "describe_turn",
    "join_words",
    "turn_kind",
]


def describe_action(turn: PlayedTurn, index: int) -> str:
    """The ``index``-th action of the turn as a sentence (no final full stop)."""
    return game_of(turn.before).describe_action(turn.resolved[index], turn.side)


def describe_turn(turn: PlayedTurn) -> list[str]:
    """A sentence per action of the turn, in the order they were played."""
    game = game_of(turn.before)
    return [game.describe_action(r, turn.side) for r in turn.resolved]


def turn_kind(turn: PlayedTurn) -> str:
    """'Set-up', 'Pass', 'Dispersal from the k8 Realm', ...: in the game's words."""
    return game_of(turn.before).turn_kind(turn.resolved, turn.side)


def describe_end(position: GamePosition, last_side: Side | None = None) -> str:
    """Why and how the game ended, e.g. 'The game is over: White created the last of
    its 12 Bases. White wins 1-0, with 8 Realms to Black's 7.'"""
    return game_of(position).describe_end(position, last_side)


def describe_recorded_end(result: str, notes: tuple[str, ...] = ()) -> str:
    """How a game ended off the board, as its record says: 'The game is over: White
    resigned. Black wins, 0-1.' (a resignation, an agreement, a loss on time)."""
    said = (n.strip().removeprefix("{").removesuffix("}").strip().rstrip(".") for n in notes)
    why = "; ".join(w for w in said if w)
    verdict = result_words(result)
    verdict = f"{verdict[0].upper()}{verdict[1:]}, {result}."
    return f"The game is over: {why}. {verdict}" if why else f"The game is over. {verdict}"


def describe_next(position: GamePosition) -> str:
    """Whose turn it is: 'Black to move (#11b)', 'White to place a Power (#4w)'."""
    return game_of(position).describe_next(position)
