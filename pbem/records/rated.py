"""Finished games of record files as the ratings see them (``pbem archive``, ``pbem
ratings PATH``).

A record knows no addresses, so a player is his name in the front matter (``white:``,
``black:``), compared without regard to case or spacing; the spelling of his latest
game is the one shown. A game ended at its ``finished:`` date, or its ``date:`` when
it has none (a year alone is its first day); a game with neither ended before every
dated one. Games that ended on the same day are taken in the order the archive reads
them (files in path order, games in file order). Only valid records with a result,
two named players and no ``rated: false`` count: the result of a record that breaks
is not to be trusted, and a player called by his side ("White" playing White, as
``pbem export`` writes a player without a name) is nobody in particular.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from pbem.ratings.table import SCORES, Finished
from pbem.records.validate import GameReport
from pbem.rules.values import frozen


@frozen
class RatedGames:
    """The games to fold, and the name shown for each player's key."""

    games: list[Finished]
    names: dict[str, str]


def player_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def is_rated(value: object) -> bool:
    """The ``rated:`` header: only an explicit false (or 'no', 'false') makes a game unrated."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() not in ("false", "no", "off", "0")


def finished_at(headers: dict[str, object]) -> float:
    """When the game ended: ``finished:`` or ``date:`` as a UTC timestamp; 0 when neither
    reads as a date (ISO ``2026-11-24``, ``2026-11``, ``2026``)."""
    for key in ("finished", "date"):
        value = headers.get(key)
        if value is None:
            continue
        text = str(value).strip()[:10]
        for fmt in ("%Y-%m-%d", "%Y-%m", "%Y"):
            try:
                return datetime.strptime(text, fmt).replace(tzinfo=UTC).timestamp()
            except ValueError:
                continue
    return 0.0


def rated_games(reports: Iterable[GameReport]) -> RatedGames:
    games: list[Finished] = []
    names: dict[str, str] = {}
    latest: dict[str, tuple[float, int]] = {}
    for number, report in enumerate(reports):
        replay = report.replay
        headers = replay.headers
        white = " ".join(str(headers.get("white") or "").split())
        black = " ".join(str(headers.get("black") or "").split())
        if not (report.valid and replay.result in SCORES and white and black):
            continue
        if white.casefold() == "white" or black.casefold() == "black":
            continue  # a side's title stands for a player without a name (pbem export)
        when = finished_at(headers)
        game = Finished(
            game=replay.game.name, white=player_key(white), black=player_key(black),
            result=str(replay.result), finished_at=when,
            rated=is_rated(headers.get("rated", True)), number=number,
        )
        games.append(game)
        for key, shown in ((game.white, white), (game.black, black)):
            if latest.get(key, (-1.0, -1)) <= (when, number):
                latest[key] = (when, number)
                names[key] = shown
    return RatedGames(games, names)
