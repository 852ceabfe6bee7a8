"""Starting a game: its names checked, its players and their keys stored, its clock
started (with both players' vacations booked already), both players invited. ``pbem new``
and an accepted challenge share it, inside the caller's transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.errors import PbemError
from pbem.referee import clock
from pbem.referee.clock import ClockSettings
from pbem.referee.outgoing.labels import label_problem
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.store import accounts, games
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Player, load_game
from pbem.referee.store.secrets_scheme import new_token
from pbem.rules.pieces import Side


def start_game(
    conn: Connection, mailer: Mailer, now: datetime, white: str, black: str,
    ruleset: Any, name: str | None = None, white_name: str | None = None,
    black_name: str | None = None, settings: ClockSettings | None = None, *,
    rated: bool = True,
) -> int:
    for what, label in (("the game's name", name), ("White's name", white_name),
                        ("Black's name", black_name)):
        problem = None if label is None else label_problem(label)
        if problem is not None:
            raise PbemError(f"{what} {label!r} {problem}", code="game.name")
    w, b = white.strip().lower(), black.strip().lower()
    players = [  # the name given, else the one the player chose by mail, else the address
        Player(Side.WHITE, w, white_name or accounts.display_name_of(conn, w) or white.strip(),
               new_token()),
        Player(Side.BLACK, b, black_name or accounts.display_name_of(conn, b) or black.strip(),
               new_token()),
    ]
    game_id = games.insert_game(conn, name or "Realm by mail", ruleset, players, rated=rated)
    if settings is not None:
        game = load_game(conn, game_id)
        state = clock.start(settings, now, game.position.to_move)
        for p in players:
            state = clock.set_vacations(state, p.side,
                                        accounts.vacation_book(conn, p.email).intervals())
        games.start_clock(conn, game_id, settings, state)
    game = load_game(conn, game_id)
    games.log(conn, game_id, "created", f"{white} (White) v {black} (Black), {ruleset.name}"
              + ("" if rated else ", unrated"))
    for p in players:
        mailer.invitation(game, p)
    return game_id
