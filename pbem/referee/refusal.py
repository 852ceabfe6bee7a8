"""The one exception every mail command raises to refuse a whole message."""

from __future__ import annotations

from pbem.records.replay import GameError
from pbem.referee.orders import Order


class Refusal(Exception):
    """An order that cannot be carried out: the whole message is refused."""

    def __init__(self, reason: str, order: Order | None = None, error: GameError | None = None):
        super().__init__(reason)
        self.reason = reason
        self.order = order
        self.error = error
