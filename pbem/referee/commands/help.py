"""``help``: how to play by mail, with the sender's key, and (in a game mail) the notation
shown in his game's own notation and with turns he could send now in it."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.outgoing.letters import help_text
from pbem.referee.turns.wording import examples
from pbem.referee.work.unit import Unit
from pbem.rules.registry import game_of

#: the help's own heading, the title of its section in the answer
HEADING = "How to play by mail"


@command("help", scope="any", info=True)
def cmd_help(unit: Unit, order: Order) -> None:
    token = unit.player.token if unit.game is not None else unit.token
    if unit.game is None:
        unit.news.sections.append((HEADING, help_text(token)))
        return
    rules = game_of(unit.board)  # each game's own notation, and its own endings
    unit.news.sections.append((HEADING, help_text(
        token, examples(unit.board), rules.notation_key(unit.board.ruleset),
        rules.ends_by_agreement(unit.board.ruleset), rules.title,
    )))
