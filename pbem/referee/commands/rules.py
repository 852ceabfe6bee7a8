"""``rules``: the rules of the sender's game, mailed in the body (text and HTML): the
project's own rules page for that game, so the mail and the documentation never differ."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.work.unit import Unit
from pbem.render.rules_page import rules_html, rules_text
from pbem.rules.registry import game_of


@command("rules", info=True)
def cmd_rules(unit: Unit, order: Order) -> None:
    game = game_of(unit.board)
    title = f"The rules of {game.title}"
    unit.news.sections.append((title, rules_text(game)))
    unit.news.section_html[title] = rules_html(game)
