"""The mail commands: each command module registers its handlers here under the command's
name (the names ``orders`` reads from a mail line), with what kind of mail it belongs in.

``game`` commands work on one game (a turn, an offer, ``board``); ``player`` commands are
about the sender (``vacation``, ``games``) and come in a mail of their own; ``any`` may be
either (``help``). ``info`` commands only read, so no move number is checked for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store import savepoint
from pbem.referee.work.unit import Unit
from pbem.rules.values import frozen

Scope = Literal["game", "player", "any"]
Handler = Callable[[Unit, Order], None]


@frozen
class Command:
    name: str
    run: Handler
    scope: Scope
    info: bool


COMMANDS: dict[str, Command] = {}


def command(*names: str, scope: Scope = "game", info: bool = False
            ) -> Callable[[Handler], Handler]:
    """Register the decorated handler for every name in ``names``."""

    def register(run: Handler) -> Handler:
        for name in names:
            if name in COMMANDS and COMMANDS[name].scope in (scope, "any"):
                raise ValueError(f"mail command {name!r} is registered twice")
            COMMANDS[name] = Command(name, run, scope, info)
        return run

    return register


#: run once a game's mail has had all its orders run (in the order registered), to act
#: on the mail as a whole: a set of conditional turns is read and checked, a standing
#: set of the opponent's is matched against the turn played
FINISHERS: list[Callable[[Unit], None]] = []


def finisher(run: Callable[[Unit], None]) -> Callable[[Unit], None]:
    FINISHERS.append(run)
    return run


def finish(unit: Unit) -> None:
    """Every finisher on a game's unit; one may refuse the mail (``Refusal``)."""
    for run in FINISHERS:
        run(unit)


def find(name: str) -> Command:
    return COMMANDS[name]


def player_level(name: str) -> bool:
    """Whether the command is about the sender rather than a game."""
    return COMMANDS[name].scope == "player"


def about_sender(orders: list[Order]) -> bool:
    """Whether a mail is about its sender rather than a game: a player command in it, and
    no game command (``help`` may go with either)."""
    return any(player_level(o.name) for o in orders) and all(
        find(o.name).scope != "game" for o in orders)


def run_mail(unit: Unit, orders: list[Order]) -> None:
    """Every command of a mail, then a game's finishers, in one savepoint: when one refuses
    (``Refusal``, raised on), none of them happened."""
    with savepoint(unit.conn, "orders"):
        for order in orders:
            run(unit, order)
        if unit.game is not None:
            finish(unit)


def run(unit: Unit, order: Order) -> None:
    """One command on its unit: refused when it is in the wrong kind of mail or marked for
    another move."""
    command = find(order.name)
    if unit.game is not None and command.scope == "player":
        raise Refusal(f"'{order.text}' is about you, not this game: send it in a mail of its "
                      "own, without turns or game commands", order)
    if unit.game is not None and not command.info and order.number is not None:
        pos = unit.board
        now = f"{pos.turn_number()}{pos.to_move.letter}"
        wrong_side = order.side is not None and order.side != pos.to_move.letter
        if (order.number != pos.turn_number() or wrong_side) and not unit.over:
            raise Refusal(
                f"this order is marked #{order.number}{order.side or ''}, but the game is at "
                f"#{now} ({pos.to_move.title} to move): an old or repeated order is never "
                f"carried out. To play now, write #{now} (or no number at all)", order,
            )
    command.run(unit, order)
