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


def refuse_many_keys(keys: list[str]) -> None:
    """A mail may carry one key: with two different ones, one of them is a guess."""
    distinct = {k.lower() for k in keys}
    if len(distinct) > 1:
        raise Refusal(
            f"this mail carries {len(distinct)} different keys, and a mail may carry one: "
            "reply to the referee's last mail to you, or write one line 'key <your key>'"
        )
