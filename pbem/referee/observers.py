"""Observers: ``observe GAME`` / ``unobserve [GAME]`` by mail; they get the turn reports
(never refusals or private replies) of the games they observe.

Who may observe: anyone the referee knows (a player of any game, or an address it has
given a key), any game, unless the config says ``observers: false``; the players of a game
already get its reports and cannot observe it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from pbem.records.replay import Replay
from pbem.referee.accounts import PlayerMail, ensure_account
from pbem.referee.compose import Outgoing
from pbem.referee.games import Game, GameNotFound, load_game
from pbem.referee.orders import Order
from pbem.referee.refusal import Refusal
from pbem.referee.report_mail import report_parts

if TYPE_CHECKING:
    from pbem.referee.service import Referee


def _game_number(order: Order) -> int | None:
    found = re.search(r"(\d+)\s*$", order.text)
    return None if found is None else int(found[1])


def cmd_observe(ctx: PlayerMail, order: Order) -> None:
    if not ctx.ref.options.observers:
        raise Refusal("this referee does not allow observers", order)
    game_id = _game_number(order)
    assert game_id is not None
    try:
        game = load_game(ctx.conn, game_id)
    except GameNotFound as exc:
        raise Refusal(exc.message, order) from None
    if game.side_of(ctx.email) is not None:
        raise Refusal(f"you play game {game_id}: you get its reports already", order)
    ctx.conn.execute("INSERT OR IGNORE INTO observers (game_id, email, created_at) "
                     "VALUES (?, ?, ?)", (game_id, ctx.email, time.time()))
    ctx.sections.append(("Observe", f"You observe game {game_id} ({game.name}): you will get "
                         "its turn reports. 'unobserve " f"{game_id}' stops them."))
    ctx.changed = True


def cmd_unobserve(ctx: PlayerMail, order: Order) -> None:
    game_id = _game_number(order)
    if game_id is None:
        gone = ctx.conn.execute("DELETE FROM observers WHERE email = ?", (ctx.email,)).rowcount
    else:
        gone = ctx.conn.execute("DELETE FROM observers WHERE email = ? AND game_id = ?",
                                (ctx.email, game_id)).rowcount
    if not gone:
        raise Refusal("you observe no such game", order)
    ctx.sections.append(("Observe", f"You no longer observe {gone} game(s)."))
    ctx.changed = True


def queue_reports(ref: Referee, game: Game, replay: Replay, top: list[str],
                  links: list[tuple[str, str]], label: str, row: int | None) -> None:
    from pbem.referee import digest

    emails = [r[0] for r in ref.conn.execute(
        "SELECT email FROM observers WHERE game_id = ? ORDER BY email", (game.id,))]
    if not emails:
        return
    text, html, pictures = report_parts(replay, flip=False, top=top, links=links)
    subject = f"{game.name}: {label} played (you observe game {game.id})"
    for email in emails:
        if digest.held(ref, email, game, subject, text):
            continue
        ref._queue(Outgoing("report", email, subject, text, html, game_id=game.id,
                            account_token=ensure_account(ref.conn, email),
                            pictures=pictures), row)


HANDLERS: dict[str, Callable[[PlayerMail, Order], None]] = {
    "observe": cmd_observe,
    "unobserve": cmd_unobserve,
}
