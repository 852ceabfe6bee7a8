"""A refused turn told in the player's words, not the validator's.

The validator speaks of "the record"; a player wrote a turn. A forgotten choice names the
choices and gives a line to copy; a move a piece cannot make lists the moves it can make
when there are few; the grammar's token names ('/', which separates White's and Black's
turns in a record) are left out where a player cannot use them.
"""

from __future__ import annotations

from dataclasses import replace

from pbem.records.replay import GameError
from pbem.referee.turns.play import play_turn
from pbem.render.legal_text import legal_listing
from pbem.render.prose import fill
from pbem.rules.game import GamePosition, Phase
from pbem.rules.geometry import parse_square
from pbem.rules.registry import game_of

#: at most this many legal moves of a piece are listed with a refusal
FEW = 10
WIDTH = 78


def wrap(text: str, indent: str = "    ") -> str:
    """Lines of at most 78 characters, continued lines indented; folded where a clause
    ends first (``pbem.render.prose``)."""
    return "\n".join(fill(line, WIDTH, "", indent) for line in text.split("\n"))


def in_player_words(error: GameError, position: GamePosition, first: bool) -> GameError:
    """``error`` reworded for the player; ``first``: the failing action opens the turn (so
    ``position`` is the board it was played on)."""
    message = error.message
    action = error.action or ""
    if error.code == "event.enforcer-choice" and error.options:
        head = message.split(": the record must say")[0]
        squares = list(dict.fromkeys(o[1:-1] for o in error.options))
        message = (f"{head}: where does the new Enforcer go, and which way does it point? "
                   f"The empty squares of that Realm are {', '.join(squares)}; write for "
                   f"example {action}({error.options[0]}) (pointing N, E, S or W)")
    elif error.code == "event.immobilise-choice" and error.options:
        head = message.split(": the record must say")[0]
        message = (f"{head}: which one is immobilised? It may be "
                   f"{' or '.join(o[2:] for o in error.options)}; write for example "
                   f"{action}({error.options[0]})")
    message = message.replace("the record says (", "you wrote (")
    message = message.replace("the record must say", "your turn must say")
    message = message.replace("the record", "your turn")
    for token in ("'/', ", ", '/'", " or '/'", "'/' or "):
        message = message.replace(token, "")
    if first and error.code.startswith("move.") and position.phase is Phase.PLAY:
        message += _moves_of(position, action)
    return replace(error, message=message)


def _moves_of(position: GamePosition, action: str) -> str:
    """'The Power on g9 can move: ...' when the piece the action names has few moves."""
    square = next((s for s in (action[1:4], action[1:3]) if s[-1:].isdigit()), "")
    moves = legal_listing(position)["moves"].get(square)
    if not moves or len(moves) > FEW:
        return ""
    piece = position.board[parse_square(square)]
    kind = game_of(position).piece_name(piece) if piece is not None else "piece"
    return f". The {kind} on {square} can move: {', '.join(moves)}"


def examples(position: GamePosition) -> list[tuple[str, str]]:
    """A few turns legal now, each with what it shows about the notation."""
    listing = legal_listing(position)
    if position.phase is Phase.SETUP:
        placements = listing["placements"]
        return [x for x in [_explained(position, placements[0], "set-up")] if x] \
            if placements else []
    if position.phase is not Phase.PLAY:
        return []
    # the shortest first (the invitation's example is the shortest too): a six-jump
    # move with a capture shows the notation less plainly than a one-step one
    moves = sorted((m for texts in listing["moves"].values() for m in texts), key=len)
    shown: list[tuple[str, str]] = []
    plain = next((m for m in moves if "(" not in m), None)
    if plain is not None:
        shown.append((plain, "the piece letter, where it starts, where it goes"))
    event = next((m for m in moves if "(" in m), None)
    if event is not None:
        shown.append((event, "what a move makes happen, in brackets"))
    if plain is not None and len(moves) > 1:
        other = next((m for m in moves if m[:3] != plain[:3] and "(" not in m), None)
        if other is not None:
            shown.append((f"{plain},{other}", "two moves in one turn, with a comma"))
    return [explained for text, meaning in shown
            if (explained := _explained(position, text, meaning)) is not None]


def _explained(position: GamePosition, text: str, meaning: str) -> tuple[str, str] | None:
    """``text`` with what it does in the game's own words (each action as the report tells
    it), then what it shows of the notation; None if it is no legal turn now (every
    example the help gives is played against the position first)."""
    outcome = play_turn(position, text)
    if outcome.played is None:
        return None
    rules = game_of(position)
    done = "; ".join(rules.describe_action(r, position.to_move)
                     for r in outcome.played.resolved)
    return text, f"{done} ({meaning})" if done else meaning
