"""The Featured Game in plain words, for the players' mail and the boards' captions.

The notation says *what* was written; these sentences say what it did, in the
vocabulary of the rulings ("White's Power from i10 to i6 created a Base on h5"),
so that a player who has not learnt the notation can still follow the game.
Everything here is a pure function of the played values; the layers above reach it
through the game interface (``FeaturedGame.describe_action`` and its siblings).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pbem.rules.game import (
    Phase,
    Resolved,
    counted,
    join_words,
    result_words,
    turn_name,
    with_article,
)
from pbem.rules.geometry import REALM_OF, realm_name, square_name
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    EnforcerRemobilised,
    Event,
    GameEnded,
    Move,
    Pass,
    Placement,
    PowerSacrificed,
    Rearrangement,
    Sacrifice,
    direction_word,
)
from pbem.rules.realm.position import Position
from pbem.rules.realm.scoring import score
from pbem.rules.realm.setup import expected_kind


def piece_on(piece: Piece, sq: int) -> str:
    """'a Power on g4', 'an Enforcer on g6 pointing North', 'an immobilised Enforcer on i4'."""
    name = square_name(sq)
    if piece.kind is Kind.ENFORCER:
        if piece.facing is None:
            return f"an immobilised Enforcer on {name}"
        return f"an Enforcer on {name} pointing {direction_word(piece.facing)}"
    return f"{with_article(piece.kind.title)} on {name}"


def describe_event(event: Event, *, others: Sequence[Event] = ()) -> str:
    """One special event as a verb phrase whose subject is the piece that stopped.

    ``others`` are the other events of the same stop: a moving Enforcer that also
    immobilised an enemy one "was immobilised itself", to tell the two apart.
    """
    if isinstance(event, BaseCreated):
        return f"created a Base on {square_name(event.square)}"
    if isinstance(event, EnforcerCreated):
        return (
            f"created an Enforcer on {square_name(event.square)} "
            f"pointing {direction_word(event.facing)}"
        )
    if isinstance(event, BaseCaptured):
        return f"captured {event.side.other.title}'s Base on {square_name(event.square)}"
    if isinstance(event, EnforcerImmobilised):
        if event.own:
            enemy = any(isinstance(e, EnforcerImmobilised) and not e.own for e in others)
            return "was immobilised itself" if enemy else "was immobilised"
        return f"immobilised {event.side.title}'s Enforcer on {square_name(event.square)}"
    if isinstance(event, PowerSacrificed):
        return f"sacrificed the Power on {square_name(event.square)}"
    if isinstance(event, EnforcerRemobilised):
        return (
            f"remobilised the Enforcer on {square_name(event.square)} "
            f"pointing {direction_word(event.facing)}"
        )
    assert isinstance(event, GameEnded)
    return f"ended the game ({event.result})"


def describe_action(resolved: Resolved, side: Side) -> str:
    """One action and its special events as a sentence (no final full stop)."""
    action = resolved.action
    who = side.title
    if isinstance(action, Placement):
        return f"{who} placed {with_article(action.kind.title)} on {square_name(action.square)}"
    if isinstance(action, Move):
        piece = resolved.board[action.frm]
        kind = piece.kind.title if piece is not None else "piece"
        events = [
            e for e in cast("tuple[Event, ...]", resolved.events) if not isinstance(e, GameEnded)
        ]
        frm, to = square_name(action.frm), square_name(action.to)
        if not events:
            return f"{who}'s {kind} moved from {frm} to {to}"
        words = [describe_event(e, others=events) for e in events]
        return f"{who}'s {kind} from {frm} to {to} {join_words(words)}"
    if isinstance(action, Rearrangement):
        own = [piece_on(p, s) for s, p in action.placements if p.side is side]
        theirs = [piece_on(p, s) for s, p in action.placements if p.side is not side]
        text = f"{who} rearranged the {realm_name(action.realm)} Realm"
        text += ": " + join_words(own) if own else ""
        if theirs:
            text += f"; and {side.other.title}'s pieces: " + join_words(theirs)
        return text
    if isinstance(action, Sacrifice):
        return (
            f"{who} sacrificed the Power on {square_name(action.power)} and remobilised the "
            f"Enforcer on {square_name(action.enforcer)} pointing {direction_word(action.facing)}"
        )
    assert isinstance(action, Pass)
    return f"{who} passed (no legal turn)"


def turn_kind(resolved: Sequence[Resolved]) -> str:
    """'Set-up', 'Pass', 'Rearrangement of the h5 Realm', 'Dispersal from the k8 Realm',
    'Concentration into the h5 Realm'.

    Two or more pieces that all leave one Realm and all enter another make both a
    Dispersal and a Concentration; the words say so rather than pick one.
    """
    actions = [r.action for r in resolved]
    first = actions[0]
    if isinstance(first, Placement):
        return "Set-up"
    if isinstance(first, Pass):
        return "Pass"
    if isinstance(first, Rearrangement):
        return f"Rearrangement of the {realm_name(first.realm)} Realm"
    if isinstance(first, Sacrifice):
        return (
            f"Power sacrifice, then a Dispersal from the {realm_name(REALM_OF[first.power])} Realm"
        )
    moves = [a for a in actions if isinstance(a, Move)]
    starts = sorted({REALM_OF[m.frm] for m in moves})
    ends = sorted({REALM_OF[m.to] for m in moves})
    if len(moves) == 1 or len(ends) > 1:
        return f"Dispersal from the {realm_name(starts[0])} Realm"
    into = f"Concentration into the {realm_name(ends[0])} Realm"
    if len(starts) == 1:
        return f"{into} (also a Dispersal from the {realm_name(starts[0])} Realm)"
    return into


def _realms(n: int) -> str:
    return counted(n, "Realm", "Realms")


def describe_result(position: Position) -> str:
    """The verdict of a finished game with the numbers that decided it; where the Realms
    are level, the tie-break is a clause of its own (after '; '), so that a folded line
    never parts it from its numbers."""
    s = score(position)
    result = position.result or s.result
    (w, b), (ew, eb) = s.realms, s.enforcers
    by = "mobile + in supply" + (" + Bases captured" if s.captures_count else "")
    if result == "1/2-1/2":
        enforcers = counted(ew, "Enforcer", "Enforcers")
        return f"a draw, 1/2-1/2: {_realms(w)} each; on the tie-break, {enforcers} ({by}) each"
    winner = Side.WHITE if result == "1-0" else Side.BLACK
    mine, theirs = (w, b) if winner is Side.WHITE else (b, w)
    if mine != theirs:
        return (
            f"{result_words(result)} {result}, with {_realms(mine)} "
            f"to {winner.other.title}'s {theirs}"
        )
    e_mine, e_theirs = (ew, eb) if winner is Side.WHITE else (eb, ew)
    return (
        f"{result_words(result)} {result}: {_realms(mine)} each; on the tie-break, "
        f"Enforcers ({by}) {e_mine} to {winner.other.title}'s {e_theirs}"
    )


def describe_end(position: Position, last_side: Side | None = None) -> str:
    """Why and how the game ended, e.g. 'The game is over: White created the last of
    its 12 Bases. White wins 1-0, with 8 Realms to Black's 7.'"""
    if position.end == "bases":
        who = last_side.title if last_side is not None else "a side"
        why = f"{who} created the last of its {position.ruleset.bases} Bases"
    elif position.end == "no-legal-turn":
        why = "neither side has a legal turn"
    else:
        why = position.end or "the game ended"
    verdict = describe_result(position)
    return f"The game is over: {why}. {verdict[0].upper()}{verdict[1:]}."


def describe_next(position: Position) -> str:
    """Whose turn it is: 'Black to move (#11b)', 'White to place a Power (#4w)'."""
    if position.phase is Phase.OVER:
        return describe_end(position)
    side = position.to_move
    label = position.turn_label()
    if position.phase is Phase.SETUP:
        kind = expected_kind(position)
        return f"{side.title} to place {with_article(kind.title)} ({turn_name(label)})"
    return f"{side.title} to move ({turn_name(label)})"


def pieces_words(position: Position, side: Side) -> str:
    """'White: Bases h11, b5; Powers i10; Enforcers g6 pointing North.' (screen readers)"""
    bases, powers, enforcers = [], [], []
    for sq, p in enumerate(position.board):
        if p is None or p.side is not side:
            continue
        name = square_name(sq)
        if p.kind is Kind.BASE:
            bases.append(name)
        elif p.kind is Kind.POWER:
            powers.append(name)
        elif p.facing is None:
            enforcers.append(f"{name} immobilised")
        else:
            enforcers.append(f"{name} pointing {direction_word(p.facing)}")
    parts = [
        f"{label} {', '.join(names)}"
        for label, names in (("Bases", bases), ("Powers", powers), ("Enforcers", enforcers))
        if names
    ]
    return f"{side.title}: {'; '.join(parts) if parts else 'no pieces'}."
