"""The club's ratings from the referee's store: ``pbem ratings``, the turn reports and
the live site's ratings page.

Recomputed from the finished games every time, never stored: a game a rollback reopens
loses its ``finished_at`` and drops out, an unrated one is left out, and the table is
always what the games say. A player is his address (the one thing that stays his);
he is shown by the name he chose by mail, else the one he last played under, and on
anything public never by an address.
"""

from __future__ import annotations

import functools
import json

from pbem.errors import PbemError
from pbem.ratings.glicko2 import Settings
from pbem.ratings.table import PROVISIONAL_WORDS, Finished, Standing, fold
from pbem.records.rulesets import load_ruleset, preset_names
from pbem.referee.store import games as store
from pbem.referee.store.engine import Connection, Row
from pbem.rules.pieces import Side
from pbem.rules.registry import game_of
from pbem.rules.values import frozen


@frozen
class ClubRatings:
    table: dict[str, dict[str, Standing]]
    #: address -> the name shown
    names: dict[str, str]

    def standing(self, game: str, email: str) -> Standing | None:
        return self.table.get(game, {}).get(email)


@functools.cache
def _preset_game(name: str, options: str) -> str | None:
    """The game of a preset stored by name with the preset's own options (else None)."""
    if name not in preset_names():
        return None
    try:
        ruleset = load_ruleset(name)
    except PbemError:
        return None
    if json.dumps(ruleset.options(), sort_keys=True) != options:
        return None
    return game_of(ruleset).name


def family(conn: Connection, row: Row) -> str:
    """The game of the family a stored game belongs to: from its preset's name, or
    (a ruleset from a file) from its starting position."""
    known = _preset_game(row["ruleset"], row["ruleset_options"])
    if known is not None:
        return known
    return game_of(store.start_position(conn, int(row["id"]))).name


def finished(conn: Connection) -> list[Finished]:
    """Every finished game of the store as the ratings see it."""
    return [
        Finished(game=family(conn, r), white=r["white"], black=r["black"],
                 result=str(r["result"]), finished_at=float(r["finished_at"]),
                 rated=bool(r["rated"]), number=int(r["id"]))
        for r in store.finished_games(conn)
    ]


def shown_name(name: str | None, email: str) -> str | None:
    """A name fit to publish, or None (no name, or an address)."""
    text = " ".join((name or "").split())
    if not text or "@" in text or text.lower() == email.lower():
        return None
    return text


def club_ratings(conn: Connection, settings: Settings, *,
                 public: bool = True) -> ClubRatings:
    """The table and the players' names; ``public``: no address ever (a player without a
    name is 'Player N', N in the order the players first finished a rated game),
    else (the operator's ``pbem ratings``) the address where there is no name."""
    games = finished(conn)
    table = fold(games, settings)
    known: dict[str, str] = {}
    for email, given in store.player_names(conn):  # the last name fit to show wins
        name = shown_name(given, email)
        if name is not None:
            known[email] = name
    names: dict[str, str] = {}
    unnamed = 0
    for g in sorted(games, key=lambda g: (g.finished_at, g.number)):
        if not g.rated:
            continue
        for email in (g.white, g.black):
            if email in names or not any(email in rows for rows in table.values()):
                continue
            name = known.get(email)
            if name is None and public:
                unnamed += 1
                name = f"Player {unnamed}"
            names[email] = name or email
    return ClubRatings(table, names)


def report_line(conn: Connection, game: store.Game, settings: Settings) -> str:
    """The line of a report that gives both players' ratings in the game's family (as
    the finished games make them now), or says the game is unrated."""
    if not game.rated:
        return "Ratings: this game is unrated."
    played = game_of(game.position)
    # the other games of the family never touch this table: fold this one's games only
    table = fold([g for g in finished(conn) if g.game == played.name], settings).get(
        played.name, {})
    parts = []
    for side in (Side.WHITE, Side.BLACK):
        p = game.players[side]
        s = table.get(p.email)
        shown = s.shown() if s is not None else Standing(p.email, settings.initial(), 0, 0, 0,
                                                         0).shown()
        parts.append(f"{p.title} {shown}")
    line = f"Ratings in {played.title}: {', '.join(parts)}."
    if any(part.endswith("?") for part in parts):  # said where it is shown (issue 23.10)
        line += f" (? provisional: {PROVISIONAL_WORDS}.)"
    return line
