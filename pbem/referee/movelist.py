"""``moves`` by mail: the legal actions now, from the move generator, grouped by piece.

A small text rendering of ``pbem.rules.realm.legal`` for the referee's replies
(``pbem moves`` has a fuller one in the command layer, which the referee may not import).
Rearrangements are counted per Realm, not listed: there can be thousands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.notation.format import format_action
from pbem.notation.write import action_text
from pbem.referee.orders import Order
from pbem.referee.play import expected_turn
from pbem.rules.geometry import REALMS, realm_name, square_name
from pbem.rules.realm import legal
from pbem.rules.realm.position import Phase, Position
from pbem.rules.realm.turns import apply_move, begin_turn

if TYPE_CHECKING:
    from pbem.referee.service import Referee, Work


def format_moves(position: Position) -> str:
    """The legal actions of the side to move, one group per line."""
    if position.phase is Phase.OVER:
        return f"The game is over ({position.result or 'no result'}): there are no moves."
    number, side = expected_turn(position)
    board = position.board
    lines = [f"{side.title} to move (turn {number}{side.letter}):"]
    if position.phase is Phase.SETUP:
        texts = [format_action(action_text(p, (), board))
                 for p in legal.legal_placements(position)]
        lines.append(f"  set-up placements: {' '.join(texts)} ({len(texts)})")
        return "\n".join(lines)
    state = begin_turn(position)
    groups: dict[str, list[str]] = {}
    for move in legal.legal_moves(state):
        _, events = apply_move(state, move)
        groups.setdefault(square_name(move.frm), []).append(
            format_action(action_text(move, events, board)))
    for square, texts in groups.items():
        kind = "Power" if texts[0].startswith("P") else "Enforcer"
        lines.append(f"  {kind} on {square}: {' '.join(texts)} ({len(texts)})")
    sacrifices = [format_action(action_text(s, (), board))
                  for s in legal.legal_sacrifices(position)]
    if sacrifices:
        lines.append(f"  Power sacrifices: {' '.join(sacrifices)} ({len(sacrifices)})")
    counts = {realm_name(r): n for r in REALMS if (n := legal.count_rearrangements(position, r))}
    if counts:
        per_realm = ", ".join(f"{realm} {n}" for realm, n in counts.items())
        lines.append(f"  Rearrangements: {sum(counts.values())} ({per_realm})")
    if len(lines) == 1:
        lines.append("  pass (no legal action)")
    lines.append("A turn may go on with further moves after the first; these are its first "
                 "actions.")
    return "\n".join(lines)


def cmd_moves(ref: Referee, work: Work, order: Order) -> None:
    work.sections.append(("Legal moves", format_moves(work.position)))


MAIL_COMMANDS = {"moves": cmd_moves}
