"""``pbem tick``: reminders, forfeits, claims opened, digests, at the referee's "now".

``pbem.referee.clock`` decides; this loads and stores its state and has the mailer say
what its effects call for. Each game is ticked in its own transaction (SQLite's ``BEGIN
IMMEDIATE``; on PostgreSQL the game's own lock) that re-reads the clock, so ``pbem tick``
run twice, or at once with ``pbem mail``, on one host or two, never sends a notice twice
or forfeits twice: the notice sent is part of the stored state.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime

from pbem.referee import clock
from pbem.referee.entry.service import Referee
from pbem.referee.outgoing.mailer import clock_lines
from pbem.referee.store import GAMES, games, retried, transaction
from pbem.referee.store.games import load_game
from pbem.referee.work.commit import commit
from pbem.referee.work.reach import grace_over
from pbem.rules.registry import game_of


@dataclass
class TickSummary:
    games: int = 0
    reminders: int = 0
    forfeits: int = 0
    claims_opened: int = 0
    digests: int = 0

    def describe(self) -> str:
        return (f"{self.games} game(s) on the clock: {self.reminders} reminder(s), "
                f"{self.forfeits} forfeit(s), {self.claims_opened} claim(s) opened, "
                f"{self.digests} digest(s)")


def run_tick(ref: Referee) -> TickSummary:
    """All timed work at the referee's "now"; safe any number of times, and beside mail."""
    now = ref.now()
    summary = TickSummary()
    for game_id in games.clocked_games(ref.conn):
        summary.games += 1
        # the game's own lock (the store's shared): hosts tick different games at once, and
        # the game is re-read under it; a forfeit that ends a round takes the whole store
        one = retried(ref.conn, functools.partial(_ticked, ref, game_id, now), GAMES)
        summary.reminders += one.reminders
        summary.forfeits += one.forfeits
        summary.claims_opened += one.claims_opened
    summary.digests = ref.mailer.due_digests(now)
    with transaction(ref.conn):
        grace_over(ref.conn, ref.config, now)
    return summary


def _ticked(ref: Referee, game_id: int, now: datetime) -> TickSummary:
    """One game's tick, counted afresh each time its transaction runs."""
    one = TickSummary()
    tick_game(ref, game_id, now, one)
    return one


def tick_game(ref: Referee, game_id: int, now: datetime, summary: TickSummary) -> None:
    game = load_game(ref.conn, game_id)  # re-read under the lock: another process may have won
    found = game.clock()
    if game.status != "playing" or found is None:
        return
    settings, state = found
    new, effects = clock.tick(state, settings, now)
    if new == state:
        return
    games.claim(ref.conn, game)
    games.save_clock(ref.conn, game.id, new)
    game = load_game(ref.conn, game_id)
    for effect in effects:
        if isinstance(effect, clock.SendReminder):
            summary.reminders += 1
            ref.mailer.reminder(game, game.players[effect.side], effect.kind == "first",
                                effect.deadline)
            games.log(ref.conn, game.id, "clock", f"{effect.kind} reminder to "
                      f"{effect.side.title} for {clock.format_instant(effect.deadline)}")
        elif isinstance(effect, clock.ClaimOpened):
            summary.claims_opened += 1
            late = effect.claimant.other
            games.log(ref.conn, game.id, "clock", f"{late.title} missed the deadline; claim "
                      "opened")
            ref.mailer.tell_players(
                game, f"{late.title} missed the deadline",
                f"{late.title}'s deadline {clock.format_instant(effect.deadline)} has passed. "
                f"{effect.claimant.title} may claim the win by replying 'claim'. Until a "
                f"claim arrives, a turn from {late.title} still counts.\n\n"
                + "\n".join(clock_lines(game, now)),
                kind="clock",
            )
        elif isinstance(effect, clock.Forfeit):
            summary.forfeits += 1
            unit = ref.game_unit(game, effect.side, now)
            unit.position = game_of(game.position).forfeit(game.position, effect.side)
            assert unit.clock is not None  # a forfeit comes from the game's clock
            unit.clock.state = new
            unit.ended, unit.loser, unit.changed, unit.offer = "time", effect.side, True, None
            games.log(ref.conn, game.id, "clock", f"{effect.side.title} forfeits on time")
            commit(unit)
