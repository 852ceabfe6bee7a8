"""``vacation FROM to TO`` / ``vacation cancel``: the sender's vacation book, and the clocks
of all his games follow it; his opponents are told."""

from __future__ import annotations

from pbem.errors import PbemError
from pbem.referee.clock import set_vacations
from pbem.referee.clock.vacation import Cancelled, Granted, apply_vacation_command, parse_vacation
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.outgoing.mailer import clock_lines
from pbem.referee.store import accounts, games
from pbem.referee.store.games import load_game
from pbem.referee.work.unit import Unit


@command("vacation", scope="player")
def cmd_vacation(unit: Unit, order: Order) -> None:
    conn = unit.conn
    try:
        book, outcome = apply_vacation_command(accounts.vacation_book(conn, unit.email),
                                               unit.options.vacation,
                                               parse_vacation(order.text), unit.now)
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    accounts.save_book(conn, unit.email, book)
    booked = None  # the dates the notice opens with, which its clock lines need not repeat
    if isinstance(outcome, Granted):
        left = ", ".join(f"{n} day(s) of {y} left" for y, n in outcome.left)
        said = f"Vacation booked: {outcome.vacation.describe()} (UTC days); {left}."
        told = f"will be on vacation {outcome.vacation.describe()}"
        v = outcome.vacation
        booked = f"will be on vacation from {v.first.isoformat()} to {v.last_counted.isoformat()};"
    else:
        assert isinstance(outcome, Cancelled)
        parts = [f"cancelled {v.describe()}" for v in outcome.removed]
        parts += [f"ended {v.describe()} now" for v in outcome.ended]
        said = f"Vacation {'; '.join(parts)}; {outcome.refunded} day(s) given back."
        told = "has changed his vacation: " + "; ".join(parts)
    changed = []
    for game_id in games.games_of(conn, unit.email, playing=True, clocked=True):
        game = load_game(conn, game_id)
        found = game.clock()
        assert found is not None
        state = found[1]
        for p in game.players.values():
            if p.email == unit.email:
                state = set_vacations(state, p.side, book.intervals())
        games.save_clock(conn, game.id, state)
        game = load_game(conn, game_id)
        changed.append(str(game.id))
        for p in game.players.values():
            if p.email == unit.email:
                continue
            me = game.opponent(p.side)
            repeat = None if booked is None else f"{me.title} {booked}"
            lines = [ln for ln in clock_lines(game, unit.now)
                     if repeat is None or not ln.startswith(repeat)]
            unit.mailer.tell_one(game, p, f"{me.title}'s vacation",
                                 f"{me.title} ({me.name}) {told}; the clock of this game "
                                 f"stops while {me.title} is away.\n\n"
                                 + "\n".join(lines), row=unit.row)
        games.log(conn, game.id, "vacation", f"{unit.email} {told}")
    clocks = f" The clocks of your games {', '.join(changed)} follow it." if changed else ""
    unit.news.sections.append(("Vacation", said + clocks))
    unit.changed = True
