"""Taking turns back: ``takeback`` by mail (the opponent must ``accept takeback``), and
``rollback_to``, which the operator's ``pbem rollback GAME TURN`` shares.

Removing turns is the one change that deletes stored rows: the turns after the kept one
(records and snapshots) go, the record is rewritten from what is left, a result is
cleared, and the clock restarts for the side to move, all in the caller's transaction.
"""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.referee import clock
from pbem.referee.games import SIDES, Game, load_game, record_text
from pbem.referee.orders import Order
from pbem.referee.play import expected_turn
from pbem.referee.refusal import Refusal
from pbem.rules.game import Phase

if TYPE_CHECKING:
    from pbem.referee.service import Referee, Work


def rollback_to(ref: Referee, game: Game, keep_seq: int, now: datetime) -> Game:
    """Remove every turn after ``keep_seq``; the game plays on from there."""
    conn = ref.conn
    conn.execute("DELETE FROM turns WHERE game_id = ? AND seq > ?", (game.id, keep_seq))
    game = load_game(conn, game.id)
    conn.execute(
        "UPDATE games SET record = ?, offer = NULL, status = 'playing', result = NULL, "
        "end_reason = NULL, updated_at = ? WHERE id = ?",
        (record_text(conn, game, None, None), time.time(), game.id),
    )
    if game.clock_state:
        from pbem.referee.timed import game_clock, save_clock

        found = game_clock(game)
        assert found is not None
        state = found[1]
        side = expected_turn(game.position)[1]
        restarted = replace(state, to_move=side, turn_started=clock.as_utc(now),
                            override=None, notice=None, result=None)
        save_clock(conn, game.id, restarted)
    return load_game(conn, game.id)


def last_turn(ref: Referee, game: Game) -> tuple[int, str] | None:
    row = ref.conn.execute(
        "SELECT seq, label FROM turns WHERE game_id = ? AND seq > 0 AND label != 'end' "
        "ORDER BY seq DESC LIMIT 1", (game.id,)).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def cmd_takeback(ref: Referee, work: Work, order: Order) -> None:
    """Ask to take back the last turn played (either player may ask)."""
    me, other = SIDES[work.side], SIDES[work.side].other
    if work.position.phase is Phase.OVER or work.ended:
        raise Refusal("the game is over: no turn can be taken back", order)
    last = last_turn(ref, work.game)
    if last is None or work.turns:
        raise Refusal("there is no turn to take back", order)
    if work.offer == f"takeback:{work.side}":
        raise Refusal("you have already asked to take back the last turn", order)
    if work.offer == f"takeback:{'b' if work.side == 'w' else 'w'}":
        raise Refusal("your opponent has already asked for that: reply 'accept takeback'",
                      order)
    work.offer = f"takeback:{work.side}"
    work.changed = True
    work.notices.append(
        f"{me.title} asks to take back the last turn played ({last[1]}). {other.title} may "
        "reply 'accept takeback' or 'decline takeback'; the request lapses with the next "
        "turn played."
    )


def cmd_answer(ref: Referee, work: Work, order: Order) -> None:
    verb = order.name.split("-")[0]
    theirs = f"takeback:{'b' if work.side == 'w' else 'w'}"
    me = SIDES[work.side]
    if work.offer != theirs or work.turns or work.ended:
        raise Refusal(f"there is no request from your opponent to take back a turn to {verb}",
                      order)
    work.offer = None
    work.changed = True
    if verb == "decline":
        work.notices.append(f"{me.title} declines to take back the last turn.")
        return
    last = last_turn(ref, work.game)
    assert last is not None
    assert work.now is not None
    game = rollback_to(ref, work.game, last[0] - 1, work.now)
    from pbem.referee.timed import attach_clock

    work.game, work.position, work.clock_changed = game, game.position, False
    attach_clock(work)
    number, side = expected_turn(game.position)
    work.notices.append(
        f"{me.title} accepts: turn {last[1]} is taken back. {side.title} to move again "
        f"(turn {number}{side.letter})."
    )
    work.notice_board = game.position
    ref._log(game.id, "takeback", f"{last[1]} taken back")


MAIL_COMMANDS = {
    "takeback": cmd_takeback,
    "accept-takeback": cmd_answer,
    "decline-takeback": cmd_answer,
}


