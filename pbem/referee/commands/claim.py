"""``claim``: the win on time, once the opponent's deadline has passed (games in claim
mode)."""

from __future__ import annotations

from pbem.referee import clock
from pbem.referee.clock import ClockError
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.work.unit import Unit
from pbem.rules.registry import game_of


@command("claim")
def cmd_claim(unit: Unit, order: Order) -> None:
    if unit.clock is None:
        raise Refusal(f"game {unit.the_game.id} has no clock: there is no deadline to claim "
                      "on", order)
    if unit.over:
        raise Refusal("the game is over: there is nothing to claim", order)
    try:
        state, _ = clock.claim(unit.clock.state, unit.clock.settings, unit.me, unit.now)
    except ClockError as exc:
        raise Refusal(exc.message, order) from None
    loser = unit.me.other
    unit.clock.state, unit.clock.changed = state, True
    unit.position = game_of(unit.board).forfeit(unit.board, loser)
    unit.ended, unit.loser, unit.changed, unit.offer = "time", loser, True, None
