"""Which webhooks hear of what: queued in the transaction of the change, called after it.

- ``turn``: once when it becomes a player's turn, to that player's own hook (``notify
  webhook URL``): a unit that played a turn and the answer sent in advance (a
  conditional turn) calls once, for the player who must move now; the player whose
  answer played at once hears nothing, as he is not to move.
- ``end``: both players' hooks. ``offer``: the hook of the player offered to.
- The organiser's hook (``--webhook`` on ``pbem new``, else ``webhooks.url`` in the
  config) hears every event of the game.
"""

from __future__ import annotations

from pbem.errors import PbemError
from pbem.referee import clock
from pbem.referee.config.home import Config
from pbem.referee.outgoing.hook_outbox import hook_settings
from pbem.referee.outgoing.webhooks import check_url, hook_body
from pbem.referee.public.publish import page_links
from pbem.referee.store import delivery
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, Player
from pbem.referee.store.offers import Offer, OfferKind
from pbem.rules.game import turn_name
from pbem.rules.pieces import Side


class WebhookRefused(PbemError):
    """An organiser's webhook URL that may not be called (usage: exit 2)."""

    code = "webhook"


def check_organiser_hook(config: Config, url: str) -> None:
    """Refuse a URL the referee would not call (before the game is made)."""
    why = check_url(url, hook_settings(config))
    if why is not None:
        raise WebhookRefused(f"--webhook {url[:80]!r}: {why}")


def set_organiser_hook(conn: Connection, config: Config, game_id: int,
                       url: str | None) -> None:
    """The organiser's webhook of one game (``pbem new --webhook``, ``pbem tournament new
    --webhook`` for each game of the event), in the caller's transaction; None: the
    config's ``webhooks.url`` again."""
    if url is not None:
        check_organiser_hook(config, url)
    delivery.set_game_hook(conn, game_id, url)


def organiser_hook(conn: Connection, config: Config, game_id: int) -> str | None:
    return delivery.game_hook(conn, game_id) or (config.extra.get("webhooks") or {}).get("url")


def _called(p: Player) -> str:
    return p.title if "@" in p.name or p.name == p.email else f"{p.title} ({p.name})"


def queue_event(conn: Connection, config: Config, game: Game, event: str,
                players: list[Side], text: str) -> int:
    """Queue ``event`` of ``game`` for the hooks of ``players`` and the organiser's; how
    many calls were queued."""
    pos = game.position
    over = game.status == "over"
    turn = None if over else f"{pos.turn_number()}{pos.to_move.letter}"
    to_move = None if over else _called(game.players[pos.to_move])
    found = game.clock()
    due = clock.deadline(found[1], found[0]) if found is not None and not over else None
    links = page_links(config, game.id)
    body = hook_body(event, game.id, game.name, turn, to_move,
                     None if due is None else due.isoformat(), links[0][1] if links else None,
                     text).decode()
    urls: dict[str, str | None] = {}
    for side in players:
        email = game.players[side].email
        url = delivery.player_hook(conn, email)
        if url is not None:
            urls.setdefault(url, email)
    organiser = organiser_hook(conn, config, game.id)
    if organiser is not None:
        urls.setdefault(organiser, None)
    for url, owner in urls.items():
        delivery.queue_hook(conn, url, owner, game.id, event, body)
    return len(urls)


def after_commit(conn: Connection, config: Config, game: Game, *, played: bool,
                 ended: bool, new_offer: Offer | None) -> None:
    """The events of one unit (``commit``): its end, or whose turn it became; an offer."""
    if ended:
        queue_event(conn, config, game, "end", list(Side),
                    f"{game.name}: the game is over, {game.result}.")
    elif played:
        pos = game.position
        mover = game.players[pos.to_move]
        queue_event(conn, config, game, "turn", [pos.to_move],
                    f"{game.name}: {_called(mover)} to move ({turn_name(pos.turn_label())}).")
    if new_offer is not None and not ended:
        offerer = new_offer.side
        words = {OfferKind.END: "to end the game by agreement", OfferKind.DRAW: "a draw",
                 OfferKind.TAKEBACK: "to take back the last turn"}[new_offer.kind]
        queue_event(conn, config, game, "offer", [offerer.other],
                    f"{game.name}: {offerer.title} offers {words}.")
