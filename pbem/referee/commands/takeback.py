"""``takeback`` by mail: either player may ask to take back the last turn played; the
opponent must ``accept takeback``. The turn taken back is kept (``pbem rollback --undo``)."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store import games
from pbem.referee.store.offers import Offer, OfferKind
from pbem.referee.work.rollback import rollback_to
from pbem.referee.work.unit import Unit
from pbem.rules.game import turn_name


@command("takeback")
def cmd_takeback(unit: Unit, order: Order) -> None:
    """Ask to take back the last turn played."""
    me = unit.me
    if unit.over:
        raise Refusal("the game is over: no turn can be taken back", order)
    last = games.last_turn(unit.conn, unit.the_game.id)
    if last is None or unit.turns:
        raise Refusal("there is no turn to take back", order)
    if unit.offer == Offer(OfferKind.TAKEBACK, me):
        raise Refusal("you have already asked to take back the last turn", order)
    if unit.offer == Offer(OfferKind.TAKEBACK, me.other):
        raise Refusal("your opponent has already asked for that: reply 'accept takeback'",
                      order)
    unit.offer, unit.offer_before, unit.changed = Offer(OfferKind.TAKEBACK, me), False, True
    unit.news.notices.append(
        f"{me.title} asks to take back the last turn played ({turn_name(last[1])}). "
        f"{me.other.title} may reply 'accept takeback' or 'decline takeback'; the request "
        "lapses with the next turn played."
    )


@command("accept-takeback", "decline-takeback")
def cmd_answer(unit: Unit, order: Order) -> None:
    verb = order.name.split("-")[0]
    me = unit.me
    if unit.offer != Offer(OfferKind.TAKEBACK, me.other) or unit.turns or unit.ended:
        raise Refusal(f"there is no request from your opponent to take back a turn to {verb}",
                      order)
    unit.offer, unit.changed = None, True
    if verb == "decline":
        unit.news.notices.append(f"{me.title} declines to take back the last turn.")
        unit.declined = True
        return
    game = unit.the_game
    last = games.last_turn(unit.conn, game.id)
    assert last is not None
    game = rollback_to(unit.conn, game, last[0] - 1, unit.now, f"takeback of {last[1]}")
    unit.attach(game)
    pos = game.position
    unit.news.notices.append(
        f"{me.title} accepts: turn {turn_name(last[1])} is taken back. {pos.to_move.title} to "
        f"move again ({turn_name(pos.turn_label())})."
    )
    unit.news.notice_board = game.position
    unit.note("takeback", f"{last[1]} taken back")
