"""``games``: the sender's games, whose move, deadlines, observed games, challenges."""

from __future__ import annotations

from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.outgoing.mailer import clock_lines
from pbem.referee.store import accounts
from pbem.referee.store import games as stored
from pbem.referee.store.games import load_game
from pbem.referee.work.unit import Unit
from pbem.rules.game import turn_name


@command("games", scope="player", info=True)
def cmd_games(unit: Unit, order: Order) -> None:
    lines = []
    for game_id in stored.games_of(unit.conn, unit.email):
        game = load_game(unit.conn, game_id)
        mine = next(p for p in game.players.values() if p.email == unit.email)
        other = game.opponent(mine.side)
        if game.status == "over":
            state = f"over, {game.result}"
        else:
            pos = game.position
            whose = "your move" if mine.side is pos.to_move else f"{other.name}'s move"
            state = f"{whose} ({turn_name(pos.turn_label())})"
        lines.append(f"game {game.id} ({game.name}): you play {mine.title} v {other.name}; "
                     f"{state}")
        if game.status == "playing":
            zone = accounts.zone_of(unit.conn, unit.email)
            lines += [f"    {line}" for line in clock_lines(game, unit.now, with_settings=False,
                                                            zone=zone)]
    watched = [str(g) for g in accounts.observed(unit.conn, unit.email)]
    if watched:
        lines.append(f"you observe game(s) {', '.join(watched)}")
    for r in accounts.open_challenges(unit.conn, unit.email):
        if r["challenger"] == unit.email:
            lines.append(f"challenge {r['id']}: you challenged {r['challenged']} (open)")
        else:
            lines.append(f"challenge {r['id']}: {r['challenger']} challenges you: reply "
                         f"'accept challenge {r['id']}' or 'decline challenge {r['id']}'")
    unit.news.sections.append(("Your games", "\n".join(lines) or "You play no game here yet."))
