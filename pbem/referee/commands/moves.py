"""``moves`` by mail: the legal moves now as a player thinks of them (per piece, its
destinations as ranges, what each creates or captures, "any facing" once), and ``moves
after Pi10i6(Bh5)``: what may follow within the turn after the actions written.

``pbem moves`` keeps the archivist's full listing (``pbem.render.legal_text``); the mail
answers with ``pbem.render.moves_words``, from the same game interface."""

from __future__ import annotations

from pbem.errors import PbemError
from pbem.notation.format import entry_line
from pbem.notation.parse import parse_movetext
from pbem.notation.syntax import EntryText
from pbem.notation.write import entry_of
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.turns.wording import wrap
from pbem.referee.work.unit import Unit
from pbem.render.legal_text import format_listing, legal_listing
from pbem.render.moves_words import describe_moves
from pbem.rules.game import GamePosition, Phase
from pbem.rules.registry import game_of


def format_moves(position: GamePosition) -> str:
    """The legal actions of the side to move, in a player's words."""
    if position.phase is not Phase.PLAY:
        return wrap(format_listing(position, legal_listing(position)).rstrip("\n"))
    return wrap(describe_moves(position) + "\n\nEach move above is a whole turn on its own (copy "
                "it into your reply); to see what may follow it within the turn, write "
                "'moves after' and the move.")


@command("moves", info=True)
def cmd_moves(unit: Unit, order: Order) -> None:
    unit.news.sections.append(("Legal moves", format_moves(unit.board)))


@command("moves-after", info=True)
def cmd_moves_after(unit: Unit, order: Order) -> None:
    line = order.original
    written = line[line.lower().index("after") + len("after"):].strip()
    position = unit.board
    rules = game_of(position)
    prefix = "" if written[:1].isdigit() else entry_line(
        *entry_of(position.turn_number(), position.to_move, ""))
    try:
        game = parse_movetext(prefix + written, game=rules)
        entries = [i for i in game.items if isinstance(i, EntryText)]
        turn = (entries[0].white or entries[0].black) if len(entries) == 1 else None
        if turn is None:
            raise Refusal(f"'moves after' needs the start of your turn, like "
                          f"{rules.notation_words.move}", order)
        text = describe_moves(position, turn.actions)
    except PbemError as exc:
        raise Refusal(f"{written!r} cannot begin your turn now: {exc.message}", order) from None
    unit.news.sections.append((f"Legal moves after {written}", wrap(text)))
