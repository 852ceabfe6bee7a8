"""``board`` and ``history``: what the game looks like now, and its record so far."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.outgoing.mailer import clock_lines
from pbem.referee.store.games import record_text
from pbem.referee.work.unit import Unit
from pbem.render.text_board import render_text


@command("board", info=True)
def cmd_board(unit: Unit, order: Order) -> None:
    board = render_text(unit.board, flip=unit.player.flip)
    lines = clock_lines(unit.the_game, unit.now, zone=unit.mailer.zone(unit.email))
    unit.news.sections.append(("The board", "\n".join([board, "", *lines]).rstrip()))


@command("history", info=True)
def cmd_history(unit: Unit, order: Order) -> None:
    game = unit.the_game
    unit.news.sections.append((f"The record of game {game.id}",
                          record_text(unit.conn, game, game.result, None, messages=True)))
