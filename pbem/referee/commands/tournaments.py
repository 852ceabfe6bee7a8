"""``join EVENT``, ``withdraw EVENT`` and ``standings EVENT``: a player's part in an event,
by mail (the organiser's side is ``pbem tournament``)."""

from __future__ import annotations

import re

from pbem.errors import PbemError
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.public.event_pages import display_name
from pbem.referee.store import games
from pbem.referee.work.tournament import (
    enter,
    entry_of,
    event_lines,
    find,
    table,
)
from pbem.referee.work.tournament_play import withdraw
from pbem.referee.work.unit import Unit

_ARGUMENT = re.compile(r"(?i)^\s*(?:join|withdraw|standings)\s+(.*)$")


def _event_name(order: Order) -> str:
    m = _ARGUMENT.match(order.original.strip())
    return " ".join((m.group(1) if m else order.text.split(" ", 1)[-1]).split()).rstrip(".!")


@command("join", scope="player")
def cmd_join(unit: Unit, order: Order) -> None:
    try:
        event = find(unit.conn, _event_name(order))
        if unit.options.tournament_entries == "known" and not games.plays_any(unit.conn,
                                                                              unit.email):
            raise Refusal(f"the entries of {event.name} are open to the referee's players "
                          "only: ask its organiser to enter you")
        enter(unit.conn, event, unit.email)
        shown = display_name(entry_of(unit.conn, event, unit.email))
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    unit.news.sections.append((
        "Entered", f"You have entered {event.name}; the crosstable shows you as {shown} "
        "(never by your address; 'name Alice Archer' sets the name shown). Your games come "
        f"as invitations when the event starts. 'withdraw {event.name}' takes you out."))
    unit.changed = True


@command("withdraw", scope="player")
def cmd_withdraw(unit: Unit, order: Order) -> None:
    try:
        event = find(unit.conn, _event_name(order))
        done = withdraw(unit.conn, unit.config, unit.options, unit.mailer, unit.now, event,
                        unit.email)
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    unit.news.sections.append(("Withdrawn", done + "."))
    unit.changed = True


@command("standings", scope="player", info=True)
def cmd_standings(unit: Unit, order: Order) -> None:
    try:
        t = table(unit.conn, find(unit.conn, _event_name(order)))
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    unit.news.sections.append(("Standings", "\n".join(event_lines(t))))
