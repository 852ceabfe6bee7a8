"""Telling the referee's operator something once: by mail to the ``operator:`` address, or,
without one, as a line in the game's log (``pbem show GAME --log``).

Some news needs a person (a player unreachable, a grace run out, a privacy matter) but is
noise the second time: each notice has a key (``unreachable:bob@example.org:1795846361``),
and a key already noticed is never noticed again, however often the referee meets the
same state (every ``pbem tick``, every bounce of the same mailbox). The notice is queued
in the caller's transaction, so a notice and the change it reports commit together.
"""

from __future__ import annotations

from pbem.referee.config.home import Config
from pbem.referee.outgoing.compose import Outgoing
from pbem.referee.outgoing.limits import load_limits
from pbem.referee.outgoing.posting import post
from pbem.referee.store import delivery, games
from pbem.referee.store.engine import Connection


def notify_operator(conn: Connection, config: Config, key: str, subject: str,
                    text: str, game_id: int | None = None) -> bool:
    """Tell the operator once per ``key``: a mail when ``operator:`` is set, and a line in
    the log of ``game_id`` when one is given. True when told now, False when told before
    (or when there is neither an operator nor a game to log it in)."""
    if not delivery.first_notice(conn, key, game_id):
        return False
    operator = load_limits(config).operator
    if game_id is not None:
        games.log(conn, game_id, "operator-notice", f"{subject}: {' '.join(text.split())}")
    if operator:
        post(conn, config, Outgoing("operator", operator, f"Realm referee: {subject}", text,
                                    game_id=game_id), None)
    return bool(operator) or game_id is not None
