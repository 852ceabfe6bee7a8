"""Calling the queued webhooks, after the mail: a hook never delays a mail.

``pbem mail``/``poll``/``tick``/``flush`` deliver the mail first and call the hooks
after, each call limited to ``webhooks.timeout`` seconds and a run to ``MAX_CALLS``
calls, so a hook that hangs costs its timeout once per run and never a mail. A call is
claimed like a mail (no two processes make it), retried with a delay that doubles
(``RETRY_SECONDS``, up to ``ATTEMPTS`` attempts), and a URL that fails for good (a
refused address, a 404, out of attempts) is dropped: its queued calls go, the player's
``notify webhook`` setting is removed and he is told by mail; an organiser's hook is
logged in the game and told to the operator.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, field

from pbem.referee.config.home import Config
from pbem.referee.outgoing.compose import Outgoing
from pbem.referee.outgoing.posting import post
from pbem.referee.outgoing.webhooks import HookFailed, HookSettings, Resolver, call, system_resolver
from pbem.referee.store import accounts, delivery, games, read_transaction, transaction
from pbem.referee.store.engine import Connection, Row

MAX_CALLS = 50
ATTEMPTS = 6
RETRY_SECONDS = 60.0
STALE_CLAIM_SECONDS = 600.0


@dataclass
class HookDelivery:
    sent: int = 0
    failed: int = 0
    dropped: list[str] = field(default_factory=list)


def hook_settings(config: Config) -> HookSettings:
    raw = config.extra.get("webhooks") or {}
    return HookSettings(bool(raw.get("allow_loopback", False)), float(raw.get("timeout", 5.0)))


def deliver_hooks(conn: Connection, config: Config, everything: bool = False,
                  resolver: Resolver = system_resolver) -> HookDelivery:
    result = HookDelivery()
    settings = hook_settings(config)
    me = f"{socket.gethostname()}:{os.getpid()}"
    with read_transaction(conn):  # the rows' own locks on PostgreSQL, as the outbox's
        rows = delivery.claim_hooks(conn, me, time.time(), STALE_CLAIM_SECONDS,
                                    everything)[:MAX_CALLS]
    for row in rows:
        try:
            call(row["url"], row["body"].encode(), settings, resolver)
        except HookFailed as exc:
            _failed(conn, config, row, exc, result)
            continue
        with read_transaction(conn):  # a row this process claimed: no one else writes it
            delivery.hook_sent(conn, row["id"])
        result.sent += 1
    return result


def _failed(conn: Connection, config: Config, row: Row, exc: HookFailed,
            result: HookDelivery) -> None:
    attempts = int(row["attempts"])
    with transaction(conn):
        if not exc.permanent and attempts < ATTEMPTS:
            delivery.hook_requeue(conn, row["id"], exc.words,
                                  time.time() + RETRY_SECONDS * 2 ** (attempts - 1))
            result.failed += 1
            return
        words = exc.words if exc.permanent else f"gave up after {attempts} attempts: {exc.words}"
        delivery.hook_failed(conn, row["id"], words)
        delivery.drop_url_calls(conn, row["url"])
        result.dropped.append(f"{row['url']}: {words}")
        owner = row["owner"]
        if row["game_id"] is not None:
            games.log(conn, row["game_id"], "webhook-dropped",
                      f"a {'player' if owner else 'game'}'s webhook was dropped: {words}")
        if owner is not None and delivery.player_hook(conn, owner) == row["url"]:
            delivery.set_player_hook(conn, owner, None)
            text = (f"The referee could not call your webhook and has dropped it:\n\n  "
                    f"{row['url']}\n\n({words}). Your turn reports still come by mail. To "
                    "set a webhook again, reply with 'notify webhook URL'.\n")
            post(conn, config, Outgoing("notice", owner, "Realm referee: your webhook was "
                                        "dropped", text,
                                        account_token=accounts.ensure_account(conn, owner)),
                 None)
        elif owner is None and row["game_id"] is not None:
            delivery.set_game_hook(conn, row["game_id"], None)
