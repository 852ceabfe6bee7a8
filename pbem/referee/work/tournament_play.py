"""What ends games of an event from outside them: a player's withdrawal (his games in play
are forfeited, as FIDE's rules have it; whether they count is the standings' withdrawal
rule) and the organiser's adjudication after the event's end date. Both end games the way
every game ends (``commit``): result mail with the crosstable, ratings, the next round."""

from __future__ import annotations

from datetime import datetime

from pbem.referee.config.home import Config
from pbem.referee.config.options import Options
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.public.event_pages import display_name
from pbem.referee.store import games
from pbem.referee.store import tournaments as store
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import load_game
from pbem.referee.store.tournaments import Event
from pbem.referee.work.commit import commit
from pbem.referee.work.tournament import TournamentError, advance, entry_of
from pbem.referee.work.unit import Unit
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of


def withdraw(conn: Connection, config: Config, options: Options, mailer: Mailer,
             now: datetime, event: Event, email: str) -> str:
    """Take ``email`` out of the event: before the start his entry goes; after it, his
    games in play are lost by forfeit and he is paired no more. What was done, in words."""
    entry = entry_of(conn, event, email)
    if event.status == "entries":
        store.remove_entry(conn, event.id, entry.number)
        return f"your entry to {event.name} is withdrawn"
    if event.status == "finished":
        raise TournamentError(f"{event.name} is over: there is nothing to withdraw from")
    if entry.withdrawn_at is not None:
        raise TournamentError(f"{display_name(entry)} has withdrawn from {event.name} already")
    store.withdraw(conn, event.id, entry.number, now.timestamp())
    lost = []
    for b in store.boards(conn, event.id):
        if (b.division != entry.division or entry.seed not in (b.white, b.black)
                or b.game_id is None or b.status != "playing"):
            continue
        game = load_game(conn, b.game_id)
        side = game.side_of(entry.email)
        assert side is not None
        unit = Unit.for_game(conn, config, options, mailer, now, game, side)
        result = "0-1" if side is Side.WHITE else "1-0"
        unit.position = game_of(game.position).adjudicate(game.position, result)
        unit.ended, unit.changed, unit.loser = "withdrew", True, side
        games.log(conn, game.id, "tournament", f"{side.title} withdrew from {event.name}")
        commit(unit)
        lost.append(str(game.id))
    advance(conn, mailer, now, event.id)  # his last game may have closed a round
    forfeited = f"; game(s) {', '.join(lost)} lost by forfeit" if lost else ""
    return f"{display_name(entry)} withdrew from {event.name}{forfeited}"
