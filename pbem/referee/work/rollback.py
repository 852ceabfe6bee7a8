"""Taking a game back to an earlier turn: the takeback by mail and ``pbem rollback`` share
it. Removing turns is the one change that deletes stored rows, so what goes is kept
(``rollbacks``) and ``pbem rollback --undo`` can put it back.

The turns after the kept one (records and snapshots) go, the record is rewritten from what
is left, a result is cleared, and the clock restarts for the side to move, all in the
caller's transaction.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pbem.referee import clock
from pbem.referee.store import games
from pbem.referee.store import standing_conditions as conditions
from pbem.referee.store import undo_log as rollbacks
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, load_game, record_text


def rollback_to(conn: Connection, game: Game, keep_seq: int, now: datetime,
                why: str) -> Game:
    """Remove every turn after ``keep_seq``, keeping them for an undo; the game plays on."""
    removed = [dict(r) for r in games.turn_rows(conn, game.id) if r["seq"] > keep_seq]
    rollbacks.keep(conn, game, removed, why)
    games.remove_turns_after(conn, game.id, keep_seq)
    conditions.drop_all(conn, game.id)  # made for turns that are gone: cleared, not kept
    game = load_game(conn, game.id)
    games.save_game(conn, game.id, record=record_text(conn, game, None, None), offer=None,
                    status="playing", result=None, end_reason=None)
    found = game.clock()
    if found is not None:
        state = found[1]
        restarted = replace(state, to_move=game.position.to_move,
                            turn_started=clock.as_utc(now), override=None, notice=None,
                            result=None)
        games.save_clock(conn, game.id, restarted)
    return load_game(conn, game.id)


def undo_last(conn: Connection, game_id: int) -> tuple[Game, str] | None:
    """Put back what the game's last rollback removed, if nothing was played since; the
    game as it is then and what the rollback was."""
    kept = rollbacks.last(conn, game_id)
    if kept is None or games.turn_rows(conn, game_id)[-1]["seq"] != kept.seq:
        return None  # none, or the game went on from where it was rolled back to
    games.remove_turns_after(conn, game_id, kept.seq)
    conditions.drop_all(conn, game_id)
    games.restore_turns(conn, game_id, kept.turns)
    games.save_game(conn, game_id, record=kept.record, offer=kept.offer, status=kept.status,
                    result=kept.result, end_reason=kept.end_reason)
    rollbacks.undone(conn, kept)
    return load_game(conn, game_id), kept.why
