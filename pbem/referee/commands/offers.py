"""``offer draw`` / ``offer end`` and their answers. An offer made with a turn stands (the
opponent reads it in the turn report); the next turn played lets an offer lapse."""

from __future__ import annotations

from pbem.errors import RuleError
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store.offers import Offer, OfferKind
from pbem.referee.work.unit import Unit
from pbem.rules.registry import game_of

#: what is offered, as the offer's sentence says it and as a noun
WORDS = {"end": ("to end the game by agreement (it is then scored)", "an end by agreement"),
         "draw": ("a draw", "a draw")}


@command("offer-end", "accept-end", "decline-end", "offer-draw", "accept-draw",
         "decline-draw")
def cmd_offer(unit: Unit, order: Order) -> None:
    verb, what = order.name.split("-")
    me = unit.me
    if unit.over:
        raise Refusal("the game is over: there is nothing to offer or answer", order)
    rules = game_of(unit.board)
    if what == "end" and not rules.ends_by_agreement(unit.board.ruleset):
        raise Refusal(f"the rules in force ({unit.the_game.ruleset}) do not let a game end "
                      "by agreement: it ends by its own rule, by resignation or by an agreed "
                      "draw", order)
    words, noun = WORDS[what]
    kind = OfferKind(what)
    mine, theirs = Offer(kind, me), Offer(kind, me.other)
    if verb == "offer":
        if unit.offer == mine:
            raise Refusal(f"you have already offered {words}", order)
        if unit.offer == theirs:
            raise Refusal(f"your opponent has already offered {words}: reply 'accept {what}'",
                          order)
        unit.offer, unit.offer_before, unit.changed = mine, False, True
        unit.news.notices.append(
            f"{me.title} offers {words}. {me.other.title} may reply 'accept {what}' or "
            f"'decline {what}'; the offer lapses with the next turn played."
        )
        return
    if unit.offer != theirs:
        raise Refusal(f"there is no offer of {noun} from your opponent to {verb}", order)
    unit.offer, unit.changed = None, True
    if verb == "decline":
        unit.news.notices.append(f"{me.title} declines the offer of {noun}.")
        unit.declined = True
        return
    try:
        if what == "end":
            unit.position, unit.ended = rules.end_by_agreement(unit.board), "agreement"
        else:
            unit.position, unit.ended = rules.agree_draw(unit.board), "draw"
    except RuleError as exc:
        raise Refusal(exc.message, order) from None


@command("resign")
def cmd_resign(unit: Unit, order: Order) -> None:
    if unit.over:
        raise Refusal("the game is over already", order)
    unit.position = game_of(unit.board).resign(unit.board, unit.me)
    unit.ended, unit.changed, unit.offer = "resigned", True, None
