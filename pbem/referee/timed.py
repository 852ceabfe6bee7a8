"""The clock wired into the referee: game clocks in the store, turns on the clock,
claims, and ``pbem tick`` (reminders, forfeits, claims opened, digests).

``pbem.referee.clock`` decides; this module loads and stores its state in the same
transaction as the game and queues the mails its effects call for. Each game is ticked
in its own ``BEGIN IMMEDIATE`` transaction that re-reads the clock, so ``pbem tick`` run
twice, or at once with ``pbem mail``, never sends a notice twice or forfeits twice: the
notice sent is part of the stored state.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from pbem.records.snapshot import load_snapshot
from pbem.referee import clock
from pbem.referee.accounts import vacation_book
from pbem.referee.clock import ClockError, ClockSettings, ClockState
from pbem.referee.games import SIDES, Game, load_game
from pbem.referee.letters import letter
from pbem.referee.orders import Order
from pbem.referee.play import expected_turn
from pbem.referee.profile import zone_of
from pbem.referee.refusal import Refusal
from pbem.referee.store import transaction
from pbem.render.text_board import render_text
from pbem.rules.game import Phase
from pbem.rules.registry import game_of

if TYPE_CHECKING:
    from pbem.referee.service import Referee, Work

#: Side -> the store's side key
KEYS = {side: key for key, side in SIDES.items()}


def game_clock(game: Game) -> tuple[ClockSettings, ClockState] | None:
    if not game.clock_settings or not game.clock_state:
        return None
    return (ClockSettings.from_dict(json.loads(game.clock_settings)),
            ClockState.from_dict(json.loads(game.clock_state)))


def save_clock(conn: sqlite3.Connection, game_id: int, state: ClockState) -> None:
    conn.execute("UPDATE games SET clock_state = ? WHERE id = ?",
                 (json.dumps(state.to_dict(), sort_keys=True), game_id))


def start_game_clock(ref: Referee, game_id: int, settings: ClockSettings, now: datetime) -> None:
    """A new game's clock, with both players' vacations already booked."""
    game = load_game(ref.conn, game_id)
    state = clock.start(settings, now, expected_turn(game.position)[1])
    for p in game.players.values():
        state = clock.set_vacations(state, SIDES[p.side],
                                    vacation_book(ref.conn, p.email).intervals())
    ref.conn.execute(
        "UPDATE games SET clock_settings = ?, clock_state = ? WHERE id = ?",
        (json.dumps(settings.to_dict(), sort_keys=True),
         json.dumps(state.to_dict(), sort_keys=True), game_id),
    )


def clock_lines(game: Game, now: datetime, *, with_settings: bool = True,
                zone: tzinfo | None = None) -> list[str]:
    """The clock for a report: the time control, then who must move by when (in ``zone``,
    the reader's time zone; UTC when None)."""
    found = game_clock(game)
    if found is None:
        return ["Time control: none (no deadlines)."] if with_settings else []
    settings, state = found
    lines = [clock.describe_settings(settings)] if with_settings else []
    if game.status == "over" and state.result is None:
        return lines
    return lines + clock.describe_clock(state, settings, now, zone=zone)


# -- turns and claims by mail ----------------------------------------------------------------
def attach_clock(work: Work) -> None:
    found = game_clock(work.game)
    if found is not None:
        work.clock_settings, work.clock = found


def revive_if_in_time(ref: Referee, work: Work) -> None:
    """A turn for a game lost on time: it counts if it arrived by the deadline (the loss
    is then withdrawn); otherwise it is refused with the clock's reason."""
    state, game = work.clock, work.game
    if (state is None or state.result is None or work.revived or game.status != "over"
            or game.end_reason != "time"):
        return
    assert work.now is not None
    result = state.result
    if result.loser is SIDES[work.side] and work.now <= result.deadline:
        before = ref.conn.execute(
            "SELECT snapshot FROM turns WHERE game_id = ? AND seq = ?", (game.id, game.seq - 1)
        ).fetchone()
        work.position = load_snapshot(before[0])
        work.revived = True
        work.changed = True
        return
    line = clock.describe_clock(state, work.clock_settings or ClockSettings(), work.now)[0]
    raise Refusal(f"the game is over: {line} Your mail arrived "
                  f"{clock.format_instant(work.now)}.")


def turn_on_clock(work: Work, order: Order) -> None:
    """Put a played turn on the clock: refused if late in forfeit mode; a withdrawn loss
    on time is told to both players."""
    if work.clock is None or work.clock_settings is None:
        return
    assert work.now is not None
    now = max(work.now, work.clock.turn_started)
    try:
        state, effects = clock.turn_played(work.clock, work.clock_settings, SIDES[work.side],
                                           now, next_side=work.position.to_move)
    except ClockError as exc:
        raise Refusal(exc.message, order) from None
    for effect in effects:
        if isinstance(effect, clock.ResultWithdrawn):
            how = "forfeit" if effect.was == "forfeit" else "claim"
            work.notices.append(
                f"{effect.side.title}'s turn arrived by the deadline, so the loss on time "
                f"({how}) recorded before it was handled is withdrawn: the game goes on."
            )
    work.clock = state
    work.clock_changed = True


def cmd_claim(ref: Referee, work: Work, order: Order) -> None:
    if work.clock is None or work.clock_settings is None:
        raise Refusal(f"game {work.game.id} has no clock: there is no deadline to claim on",
                      order)
    if work.position.phase is Phase.OVER or work.ended:
        raise Refusal("the game is over: there is nothing to claim", order)
    assert work.now is not None
    try:
        state, _ = clock.claim(work.clock, work.clock_settings, SIDES[work.side], work.now)
    except ClockError as exc:
        raise Refusal(exc.message, order) from None
    loser = SIDES[work.side].other
    work.clock, work.clock_changed = state, True
    work.position = game_of(work.position).forfeit(work.position, loser)
    work.ended, work.loser, work.changed, work.offer = "time", KEYS[loser], True, None


MAIL_COMMANDS = {"claim": cmd_claim}


# -- pbem tick -------------------------------------------------------------------------------
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
    from pbem.referee import digest

    now = ref.now()
    summary = TickSummary()
    ids = [r[0] for r in ref.conn.execute(
        "SELECT id FROM games WHERE status = 'playing' AND clock_state IS NOT NULL ORDER BY id")]
    for game_id in ids:
        summary.games += 1
        with transaction(ref.conn):
            _tick_game(ref, game_id, now, summary)
    summary.digests = digest.send_due(ref, now)
    return summary


def _tick_game(ref: Referee, game_id: int, now: datetime, summary: TickSummary) -> None:
    from pbem.referee.service import Work

    game = load_game(ref.conn, game_id)  # re-read under the lock: another process may have won
    found = game_clock(game)
    if game.status != "playing" or found is None:
        return
    settings, state = found
    new, effects = clock.tick(state, settings, now)
    if new == state:
        return
    save_clock(ref.conn, game.id, new)
    game = load_game(ref.conn, game_id)
    for effect in effects:
        if isinstance(effect, clock.SendReminder):
            summary.reminders += 1
            _remind(ref, game, effect, now)
        elif isinstance(effect, clock.ClaimOpened):
            summary.claims_opened += 1
            late = effect.claimant.other
            ref._log(game.id, "clock", f"{late.title} missed the deadline; claim opened")
            ref.tell_players(
                game, f"{late.title} missed the deadline",
                f"{late.title}'s deadline {clock.format_instant(effect.deadline)} has passed. "
                f"{effect.claimant.title} may claim the win by replying 'claim'. Until a "
                f"claim arrives, a turn from {late.title} still counts.\n\n"
                + "\n".join(clock_lines(game, now)),
                kind="clock",
            )
        elif isinstance(effect, clock.Forfeit):
            summary.forfeits += 1
            key = KEYS[effect.side]
            lost = game_of(game.position).forfeit(game.position, effect.side)
            work = Work(game, key, lost, None, now=now,
                        clock_settings=settings, clock=new, ended="time", loser=key,
                        changed=True)
            ref._log(game.id, "clock", f"{effect.side.title} forfeits on time")
            ref._commit(work, None, None)


def _remind(ref: Referee, game: Game, effect: clock.SendReminder, now: datetime) -> None:
    player = game.players[KEYS[effect.side]]
    number, side = expected_turn(game.position)
    zone = zone_of(ref.conn, player.email)
    when = clock.format_instant(effect.deadline, zone)
    first = "Reminder" if effect.kind == "first" else "Last reminder: today is the day"
    text = (f"{first}: your move in game {game.id} ({number}{side.letter}) is due by {when}.\n"
            + "\n".join(clock_lines(game, now, with_settings=False, zone=zone)) + "\n\n"
            + render_text(game.position, flip=player.side == "b"))
    body = letter("notice", player=player.name, text=text,
                  next="Reply to this mail with your turn.")
    subject = f"{game.name}: reminder, your move by {when}"
    ref._queue(ref._to(game, player, "reminder", subject, body.text, body.html), None)
    ref._log(game.id, "clock", f"{effect.kind} reminder to {player.title} for {when}")

