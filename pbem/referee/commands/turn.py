"""A turn by mail: checked against the latest snapshot, on the clock, never silently
changed (``play.live_turn``)."""

from __future__ import annotations

from pbem.referee import clock
from pbem.referee.clock import ClockError
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.store import games
from pbem.referee.turns.play import live_turn, play_turn
from pbem.referee.turns.wording import in_player_words
from pbem.referee.work.unit import Unit
from pbem.rules.game import Phase, turn_name
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of


@command("turn")
def cmd_turn(unit: Unit, order: Order) -> None:
    revive_if_in_time(unit)
    pos, me = unit.board, unit.me
    if unit.over:
        raise Refusal("the game is over: nothing more may be played", order)
    if pos.to_move is not me:
        raise Refusal(
            f"it is not your turn: {pos.to_move.title} is to move "
            f"({turn_name(pos.turn_label())})", order,
        )
    outcome = live_turn(pos, order.text, dict(unit.the_game.headers()),
                        case_repairs=unit.options.case_repairs)
    if outcome.error is not None:
        written = order.text.lstrip("0123456789. …")
        first = bool(outcome.error.action) and written.startswith(outcome.error.action or "")
        error = in_player_words(outcome.error, pos, first)
        raise Refusal(error.message, order, error)
    assert outcome.played is not None
    unit.turns.append(outcome.played)
    unit.position = outcome.played.after
    unit.changed = True
    forced_passes(unit)
    unit.news.notices += [f"{me.title} wrote {r}." for r in outcome.repaired]
    if outcome.aside:  # the sender's own words: told to him alone
        unit.tell(me, f"ignored: {outcome.aside}  (the text after your turn on its line "
                      "was not read; to write to your opponent, start a line with 'say')")
    turn_on_clock(unit, order)
    if unit.offer is not None and unit.offer_before:
        unit.news.notices.append("The offer that stood lapsed with this turn.")
        unit.offer = None
    unit.offer_before = False
    if unit.board.phase is Phase.OVER:
        unit.ended = unit.board.end or "bases"


def forced_passes(unit: Unit) -> None:
    """A side left with no legal turn passes, and the referee writes the pass by itself
    (the rules force it): the player who just moved is to move again."""
    rules = game_of(unit.board)
    for _ in range(2):  # two passes in a row end the game (neither side can move)
        if unit.board.phase is not Phase.PLAY or rules.pass_text(unit.board) is None:
            return
        forced = play_turn(unit.board, "pass", dict(unit.the_game.headers()))
        if forced.played is None:
            return
        unit.turns.append(forced.played)
        unit.position = forced.played.after
        unit.news.notices.append(
            f"{forced.played.side.title} has no legal move and passes "
            f"({turn_name(forced.played.label)}); the referee wrote the pass."
        )


def revive_if_in_time(unit: Unit) -> None:
    """A turn for a game lost on time: it counts if it arrived by the deadline (the loss
    is then withdrawn); otherwise it is refused with the clock's reason."""
    clocked, game = unit.clock, unit.the_game
    result = clocked.state.result if clocked is not None else None
    if clocked is None or result is None or unit.revived or game.status != "over" or (
            game.end_reason != "time"):
        return
    if result.loser is unit.me and unit.now <= result.deadline:
        unit.position = games.position_at(unit.conn, game.id, game.seq - 1)
        unit.revived = True
        unit.changed = True
        return
    line = clock.describe_clock(clocked.state, clocked.settings, unit.now)[0]
    raise Refusal(f"the game is over: {line} Your mail arrived "
                  f"{clock.format_instant(unit.now)}.")


def turn_on_clock(unit: Unit, order: Order | None, side: Side | None = None) -> None:
    """Put a played turn (by ``side``, the sender by default) on the clock: refused if late
    in forfeit mode; a withdrawn loss on time is told to both players. A turn given in
    advance is played the instant its clock starts, so none of its time is used."""
    clocked = unit.clock
    if clocked is None:
        return
    now = max(unit.now, clocked.state.turn_started)
    try:
        state, effects = clock.turn_played(clocked.state, clocked.settings,
                                           unit.me if side is None else side,
                                           now, next_side=unit.board.to_move)
    except ClockError as exc:
        raise Refusal(exc.message, order) from None
    for effect in effects:
        if isinstance(effect, clock.ResultWithdrawn):
            how = "forfeit" if effect.was == "forfeit" else "claim"
            unit.news.notices.append(
                f"{effect.side.title}'s turn arrived by the deadline, so the loss on time "
                f"({how}) recorded before it was handled is withdrawn: the game goes on."
            )
    clocked.state, clocked.changed = state, True
