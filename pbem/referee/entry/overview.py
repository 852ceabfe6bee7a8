"""What the operator reads of the referee's games on his terminal: ``pbem games``' lines,
the status under ``pbem show``'s board, and the count a ``pbem poll`` ends with.

The words are the referee's (the end of a game as its players were told, the clock as
the mails put it), so they are made here and the command line only prints them, each
line escaped there for the terminal (names and reasons come from mail).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime

from pbem.referee.outgoing.mailer import END_WORDS, clock_lines
from pbem.referee.store import games
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, load_game
from pbem.referee.store.offers import OfferKind
from pbem.referee.work.reach import unreachable_words
from pbem.rules.game import turn_name
from pbem.rules.pieces import Side

#: what ``pbem games`` says when there is nothing to list
NO_GAMES = "no games yet: start one with `pbem new --white EMAIL --black EMAIL`"
#: an offer on the table, as ``pbem show`` names it
OFFER_WORDS = {OfferKind.END: "to end by agreement", OfferKind.DRAW: "a draw",
               OfferKind.TAKEBACK: "to take back the last turn"}


def game_lines(conn: Connection, now: datetime) -> Iterator[str]:
    """``pbem games``: one line per game (id, title, players, who is to move or the
    result, the last turn, the ruleset), and under a game in play its clock and any
    player who cannot be reached."""
    rows = games.overview(conn)
    if not rows:
        yield NO_GAMES
    for r in rows:
        game = load_game(conn, r["id"])
        white, black = game.players[Side.WHITE], game.players[Side.BLACK]
        if game.status == "over":
            state = f"over {game.result}"
        else:
            pos = game.position
            state = f"{pos.to_move.title} to move ({turn_name(pos.turn_label())})"
        if r["last"] == "end":  # ended off the board: how, not the 'end' entry's label
            loser = {"1-0": "Black", "0-1": "White"}.get(str(game.result), "a side")
            last = END_WORDS.get(str(game.end_reason), "ended off the board").format(
                side=loser)
        else:
            last = "no turn yet" if r["last"] == "start" else f"last {turn_name(r['last'])}"
        yield (f"{game.id:>4}  {game.name}: {white.name} (White) v {black.name} "
               f"(Black); {state}; {last}; ruleset {game.ruleset}")
        if game.status == "playing":
            for line in [*clock_lines(game, now, with_settings=False),
                         *unreachable_words(conn, game)]:
                yield f"      {line}"


def status_lines(conn: Connection, game: Game, now: datetime) -> list[str]:
    """``pbem show``, under the board: the offer pending, the clock, who cannot be reached."""
    lines = []
    if game.offer:
        words = OFFER_WORDS[game.offer.kind]
        lines.append(f"Pending: {game.offer.side.title} offers {words}")
    lines += clock_lines(game, now)
    if game.status == "playing":
        lines += unreachable_words(conn, game)
    return lines


def poll_line(outcomes: Mapping[str, int], not_handled: int) -> str:
    """The count ``pbem poll`` ends with: how many mails, by outcome, and how many were
    not handled (set aside, or left for the next poll)."""
    total = sum(outcomes.values())
    summary = ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
    return (f"{total} message{'s' if total != 1 else ''}" + (f": {summary}" if total else "")
            + (f"; {not_handled} not handled" if not_handled else ""))
