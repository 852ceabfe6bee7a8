"""``observe GAME`` / ``unobserve [GAME]``: observers get a game's turn reports (never
refusals or private replies). Anyone the referee knows may observe any game, unless the
config says ``observers: false``; a game's players get its reports already."""

from __future__ import annotations

import re

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store import accounts
from pbem.referee.store.games import GameNotFound, load_game
from pbem.referee.work.unit import Unit


def game_number(order: Order) -> int | None:
    found = re.search(r"(\d+)\s*$", order.text)
    return None if found is None else int(found[1])


@command("observe", scope="player")
def cmd_observe(unit: Unit, order: Order) -> None:
    if not unit.options.observers:
        raise Refusal("this referee does not allow observers", order)
    game_id = game_number(order)
    assert game_id is not None
    try:
        game = load_game(unit.conn, game_id)
    except GameNotFound as exc:
        raise Refusal(exc.message, order) from None
    if game.side_of(unit.email) is not None:
        raise Refusal(f"you play game {game_id}: you get its reports already", order)
    accounts.observe(unit.conn, game_id, unit.email)
    unit.news.sections.append(("Observe", f"You observe game {game_id} ({game.name}): you will "
                          f"get its turn reports. 'unobserve {game_id}' stops them."))
    unit.changed = True


@command("unobserve", scope="player")
def cmd_unobserve(unit: Unit, order: Order) -> None:
    gone = accounts.unobserve(unit.conn, unit.email, game_number(order))
    if not gone:
        raise Refusal("you observe no such game", order)
    unit.news.sections.append(("Observe", f"You no longer observe {gone} game(s)."))
    unit.changed = True
