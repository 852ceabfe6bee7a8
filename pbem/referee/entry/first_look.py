"""What the referee does with a mail before reading it for orders: a bounce is counted, an
unsubscribe honoured, a machine's mail and the referee's own left alone (never answered),
and a player whose mail bounced, writing again, is reachable again."""

from __future__ import annotations

from datetime import datetime

from pbem.referee.config.home import Config
from pbem.referee.intake.inbox import Incoming
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.store.engine import Connection
from pbem.referee.work.reach import BounceSeen, take_bounce, welcome_back
from pbem.referee.work.unsubscribe import take_unsubscribe


def first_look(conn: Connection, config: Config, mailer: Mailer, inc: Incoming,
               row: int, now: datetime) -> BounceSeen | None:
    """The outcome of a mail that is no player's orders, or None to read it for orders."""
    seen = take_bounce(conn, config, mailer, inc, row, now) or take_unsubscribe(conn, inc)
    if seen is not None:
        return seen
    if inc.automatic:
        return BounceSeen("ignored", f"never answered: {inc.automatic}")
    if config.is_own(inc.sender):
        return BounceSeen("ignored", "mail from the referee's own address")
    if inc.sender:  # he writes: he is reachable again, and gets what he missed
        welcome_back(conn, config, mailer, inc.sender, now)
    return None
