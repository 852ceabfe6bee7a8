"""List-Unsubscribe, honoured: a mail to the ``mailto:`` of a digest, a reminder or an
observer's copy stops that kind of mail to its recipient, and the game's log says so.

The address names the kind and the game and carries an HMAC of them and the recipient
(``returns``), so it works only from the address it was sent to: a stranger cannot stop
someone else's reminders. A digest stopped turns the digest off (the reports come one
by one again); an observer's copy stops by ending the observation; reminders stop for
that game. Mail programs send these without a person's words, so nothing is answered.
"""

from __future__ import annotations

from pbem.referee.intake.inbox import Incoming
from pbem.referee.intake.returns import unsubscribe_in
from pbem.referee.store import accounts, delivery, games
from pbem.referee.store.engine import Connection
from pbem.referee.work.reach import BounceSeen


def take_unsubscribe(conn: Connection, inc: Incoming) -> BounceSeen | None:
    """None when ``inc`` came to no unsubscribe address."""
    asked = unsubscribe_in(inc.recipients)
    if asked is None:
        return None
    game_id = asked.game_id or None
    if not inc.sender or not asked.made_for(delivery.secret(conn), inc.sender):
        return BounceSeen("ignored", f"an unsubscribe ({asked.kind}) from an address it was "
                          "not made for: nothing stopped")
    where = f" of game {game_id}" if game_id else ""
    if asked.kind == "digest":
        accounts.set_digest(conn, inc.sender, False)
    elif asked.kind == "observer" and game_id is not None:
        accounts.unobserve(conn, inc.sender, game_id)
    new = delivery.unsubscribe(conn, inc.sender, asked.kind, asked.game_id)
    said = f"{inc.sender} unsubscribed from {asked.kind} mail{where} (List-Unsubscribe)"
    logged = [game_id] if game_id is not None else games.games_of(conn, inc.sender,
                                                                  playing=True)
    if new:
        for g in logged:
            games.log(conn, g, "unsubscribed", said)
    return BounceSeen("info", said if new else said + ", again", game_id)
