"""The one exception every mail command raises to refuse a whole message."""

from __future__ import annotations

from pbem.records.replay import GameError
from pbem.referee.intake.orders import Order


class Refusal(Exception):
    """An order that cannot be carried out: the whole message is refused."""

    def __init__(self, reason: str, order: Order | None = None, error: GameError | None = None,
                 *, logged: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.order = order
        self.error = error
        #: what the game's log and ``pbem show --log`` keep instead of ``reason``, when the
        #: reason quotes something secret (a conditional turn)
        self.logged = reason if logged is None else logged


def refuse_many_keys(keys: list[str]) -> None:
    """A mail may carry one key: with two different ones, one of them is a guess."""
    distinct = {k.lower() for k in keys}
    if len(distinct) > 1:
        raise Refusal(
            f"this mail carries {len(distinct)} different keys, and a mail may carry one: "
            "reply to the referee's last mail to you, or write one line 'key <your key>'"
        )
