"""A game's row version and a mail's unique key (issue 28, part 2): what lets several hosts
work on different games at once without losing an update or taking one mail twice. On
both engines (SQLite locks the whole store anyway; the checks hold there too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.referee.store import GAMES, StoreError, games, mail, retried, transaction
from pbem.referee.store.games import load_game
from tests.referee.conftest import open_store
from tests.referee.helpers import new_table


def _log_lines(conn, game_id: int, text: str) -> int:
    return int(conn.execute("SELECT count(*) FROM game_log WHERE game_id = ? AND text = ?",
                            (game_id, text)).fetchone()[0])


def test_a_lost_update_is_found_by_the_row_version_and_the_work_done_again(
        home: Path) -> None:
    table = new_table(home)
    host_a, host_b = table.conn, open_store(home)
    stale = load_game(host_a, table.game_id)  # host A read the game ...
    with transaction(host_b):  # ... host B wrote it meanwhile (and committed)
        games.claim(host_b, load_game(host_b, table.game_id))
        games.log(host_b, table.game_id, "test", "host B wrote")
    # A's write with what it read would lose B's: refused, to be done again
    with pytest.raises(StoreError) as refused, transaction(host_a):
        games.claim(host_a, stale)
        games.log(host_a, table.game_id, "test", "lost")
    assert refused.value.code == "store.retry"
    assert _log_lines(host_a, table.game_id, "lost") == 0
    # done again by ``retried``, it reads the game anew and writes once
    reads = [stale]
    seen: list[int] = []

    def work() -> None:
        game = reads.pop() if reads else load_game(host_a, table.game_id)
        seen.append(game.version)
        games.claim(host_a, game)
        games.log(host_a, table.game_id, "test", "host A wrote")

    retried(host_a, work, GAMES)
    assert seen == [stale.version, stale.version + 1]
    assert load_game(host_a, table.game_id).version == stale.version + 2
    assert _log_lines(host_a, table.game_id, "host A wrote") == 1
    assert _log_lines(host_a, table.game_id, "host B wrote") == 1


def test_every_accepted_turn_moves_the_games_version(home: Path) -> None:
    table = new_table(home)
    before = load_game(table.conn, table.game_id).version
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    after = load_game(table.conn, table.game_id).version
    assert after > before


def test_a_mail_is_kept_once_by_its_unique_key_but_a_refused_one_again(home: Path) -> None:
    conn = open_store(home)

    def keep(digest: str, outcome: str) -> int | None:
        with transaction(conn):
            row = mail.add_message(conn, "<m@players.test>", digest, "a@players.test", "s",
                                   b"raw")
            if row is not None:
                mail.set_outcome(conn, row, outcome, None, None, None)
            return row

    assert keep("d1", "accepted") is not None
    assert keep("d1", "accepted") is None  # the very mail: kept already
    assert keep("d2", "accepted") is not None  # the same Message-ID, another mail
    assert keep("d3", "refused") is not None
    assert keep("d3", "accepted") is not None  # a refused mail is read again
    assert keep("d3", "accepted") is None
    assert conn.execute("SELECT count(*) FROM messages WHERE message_id = ?",
                        ("<m@players.test>",)).fetchone()[0] == 4
