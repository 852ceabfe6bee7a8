"""A game in the store: its players, its latest snapshot, its canonical record.

The record (canonical notation, front matter included) is the source of truth
and is rewritten from the stored turns after each accepted one; the snapshot
per turn lets a new turn be checked without replaying the game.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from pbem.errors import PbemError
from pbem.notation.format import format_front_matter
from pbem.notation.parse import parse_game
from pbem.records.replay import Replay, replay_game
from pbem.records.rulesets import load_ruleset, preset_names
from pbem.records.snapshot import dump_snapshot, load_snapshot
from pbem.rules.game import GamePosition
from pbem.rules.pieces import Side
from pbem.rules.registry import featured, game_of

SIDES = {"w": Side.WHITE, "b": Side.BLACK}
_PLACEMENT = re.compile(r"^[BP][a-l]\d+$")


class GameNotFound(PbemError):
    code = "game.unknown"


@dataclass(frozen=True, slots=True)
class Player:
    side: str  # "w" or "b"
    email: str
    name: str
    token: str

    @property
    def title(self) -> str:
        return SIDES[self.side].title


@dataclass(frozen=True, slots=True)
class Game:
    id: int
    name: str
    ruleset: str
    status: str  # playing | over
    result: str | None
    end_reason: str | None
    record: str
    offer: str | None
    players: dict[str, Player]
    seq: int
    position: GamePosition
    #: the clock (``pbem.referee.clock`` JSON); None for a game without one
    clock_settings: str | None = None
    clock_state: str | None = None

    def headers(self, result: str | None = None) -> dict[str, object]:
        h: dict[str, object] = {
            "game": self.name,
            "white": self.players["w"].name,
            "black": self.players["b"].name,
            "ruleset": ruleset_header(self.position.ruleset),
        }
        if result:
            h["result"] = result
        return h

    def side_of(self, email: str) -> str | None:
        sides = [p.side for p in self.players.values() if p.email == email]
        return sides[0] if len(sides) == 1 else (sides[0] if sides else None)

    def opponent(self, side: str) -> Player:
        return self.players["b" if side == "w" else "w"]


def ruleset_header(ruleset: Any) -> str | dict[str, object]:
    """How the record names its ruleset: the preset's name, or every option (and the
    game, where it is not the Featured Game)."""
    if ruleset.name in preset_names() and load_ruleset(ruleset.name) == ruleset:
        return ruleset.name
    game = game_of(ruleset)
    if game is featured():
        return dict(ruleset.options())
    return {"game": game.name, "name": ruleset.name, **ruleset.options()}


def load_game(conn: sqlite3.Connection, game_id: int) -> Game:
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    players = {
        r["side"]: Player(r["side"], r["email"], r["name"], r["token"])
        for r in conn.execute("SELECT * FROM players WHERE game_id = ?", (game_id,))
    }
    last = conn.execute(
        "SELECT seq, snapshot FROM turns WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
    ).fetchone()
    return Game(
        id=row["id"],
        name=row["name"],
        ruleset=row["ruleset"],
        status=row["status"],
        result=row["result"],
        end_reason=row["end_reason"],
        record=row["record"],
        offer=row["offer"],
        players=players,
        seq=last["seq"],
        position=load_snapshot(last["snapshot"]),
        clock_settings=row["clock_settings"],
        clock_state=row["clock_state"],
    )


def insert_game(
    conn: sqlite3.Connection,
    name: str,
    ruleset: Any,
    players: list[Player],
) -> int:
    now = time.time()
    cur = conn.execute(
        "INSERT INTO games (name, ruleset, ruleset_options, record, created_at, updated_at) "
        "VALUES (?, ?, ?, '', ?, ?)",
        (name, ruleset.name, json.dumps(ruleset.options(), sort_keys=True), now, now),
    )
    game_id = int(cur.lastrowid or 0)
    for p in players:
        conn.execute(
            "INSERT INTO players (game_id, side, email, name, token) VALUES (?, ?, ?, ?, ?)",
            (game_id, p.side, p.email, p.name, p.token),
        )
    start = game_of(ruleset).initial(ruleset)
    conn.execute(
        "INSERT INTO turns (game_id, seq, label, notation, snapshot, created_at) "
        "VALUES (?, 0, 'start', '', ?, ?)",
        (game_id, dump_snapshot(start), now),
    )
    game = load_game(conn, game_id)
    conn.execute(
        "UPDATE games SET record = ? WHERE id = ?", (record_text(conn, game, None, None), game_id)
    )
    return game_id


def stored_turns(conn: sqlite3.Connection, game_id: int) -> list[tuple[str, str]]:
    """(label, canonical turn) of every turn played, in order."""
    return [
        (r["label"], r["notation"])
        for r in conn.execute(
            "SELECT label, notation FROM turns WHERE game_id = ? AND seq > 0 AND label != 'end' "
            "ORDER BY seq",
            (game_id,),
        )
    ]


def movetext(turns: list[tuple[str, str]]) -> str:
    """``7.W/B`` per line; set-up entries as ``1.Bh11 Bh2``; a lone Black turn as ``7...B``."""
    lines: list[str] = []
    pending: tuple[int, str] | None = None
    for label, text in turns:
        number, side = int(label[:-1]), label[-1]
        if side == "w":
            if pending is not None:
                lines.append(f"{pending[0]}.{pending[1]}")
            pending = (number, text)
            continue
        if pending is not None and pending[0] == number:
            sep = " " if _PLACEMENT.match(pending[1]) and _PLACEMENT.match(text) else "/"
            lines.append(f"{number}.{pending[1]}{sep}{text}")
        else:
            if pending is not None:
                lines.append(f"{pending[0]}.{pending[1]}")
            lines.append(f"{number}...{text}")
        pending = None
    if pending is not None:
        lines.append(f"{pending[0]}.{pending[1]}")
    return "\n".join(lines)


def record_text(
    conn: sqlite3.Connection, game: Game, result: str | None, note: str | None
) -> str:
    text = format_front_matter(game.headers(result)) + movetext(stored_turns(conn, game.id))
    if result:
        text += f"\n{result}" + (f" {{{note}}}" if note else "")
    return text.rstrip("\n") + "\n"


def replay_record(record: str) -> Replay:
    """The stored record played through the rules (for reports and the record's checks)."""
    return replay_game(parse_game(record))
