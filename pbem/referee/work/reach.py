"""Players whose mail bounces: marked unreachable, their clocks waiting, what they missed
sent again when they write.

A bounce is matched to the mail it reports by the return path's token (HMAC under the
referee's secret, ``returns``) or, for a report that reached the plain address, by the
Message-ID of our mail it quotes (random, known only to the recipient's servers): never
by the failed address alone, which anyone could write. A hard bounce (``failed``, 5.x.x,
a full mailbox too) marks its recipient unreachable at once; a soft one (``delayed``,
4.x.x) when it is the second in a row. Then, in each of his games in play, the clock
waits (``clock.hold``: from now to the end of ``bounces.grace_days``, 14 by default), the
opponent is told and so is the operator (``operator_notice``); mail to him is held
(``posting``). When the grace runs out the clock runs again and the operator is told to
decide (``pbem tick``). The next mail from him clears the mark, ends the waits and sends
him what he missed, in one mail. Nothing in a bounce is ever answered.
"""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime, timedelta

from pbem.referee import clock
from pbem.referee.config.home import Config
from pbem.referee.intake.bounces import read_bounce
from pbem.referee.intake.inbox import Incoming
from pbem.referee.intake.returns import bounce_token_in, token_matches
from pbem.referee.outgoing.letters import letter
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.outgoing.operator_notice import notify_operator
from pbem.referee.store import accounts, delivery, games
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, load_game
from pbem.rules.game import counted
from pbem.rules.values import frozen

#: soft bounces in a row that make a player unreachable
SOFT_IN_A_ROW = 2
#: how far back a bounced mail counts as missed when he writes again
MISSED_WINDOW = timedelta(days=7)
#: how much of each missed mail the one mail sends again
MISSED_CHARS = 20_000


def grace_days(config: Config) -> int:
    return int((config.extra.get("bounces") or {}).get("grace_days", 14))


@frozen
class BounceSeen:
    """What became of a mail to a bounce address, or of a bounce: for the message log."""

    outcome: str  # bounce | ignored
    reason: str
    game_id: int | None = None


def take_bounce(conn: Connection, config: Config, mailer: Mailer, inc: Incoming,
                row: int, now: datetime) -> BounceSeen | None:
    """Read ``inc`` as a bounce; None when it is none and came to no bounce address (the
    caller goes on as with any mail)."""
    token = bounce_token_in(inc.recipients)
    if token is None and inc.automatic is None:
        return None
    bounce = read_bounce(inc.message)
    if bounce is None:
        if token is None:
            return None
        return BounceSeen("ignored", "an automatic reply to a return path, not a bounce "
                          f"({inc.automatic or 'no report in it'}): never answered")
    secret = delivery.secret(conn)
    sent = None
    if token is not None:
        found = delivery.mail_by_token(conn, token)
        if found is not None and token_matches(secret, found["message_id"], token):
            sent = found
    if sent is None and bounce.original_id is not None:
        sent = delivery.mail_by_message_id(conn, bounce.original_id)
    if sent is None:
        return BounceSeen("ignored", f"a bounce ({bounce.status}) of no mail the referee "
                          "sent: never answered")
    address = str(sent["recipient"])
    game_id = sent["game_id"]
    kind = "hard" if bounce.hard else "soft"
    said = (f"the {sent['kind']} mail to {address} bounced ({kind}, {bounce.status}"
            + (f": {bounce.diagnostic[:160]}" if bounce.diagnostic else "") + ")")
    if delivery.bounced_before(conn, sent["id"], bounce.hard):
        return BounceSeen("bounce", said + "; counted before", game_id)
    delivery.add_bounce(conn, address, sent["id"], row, bounce.hard, bounce.status)
    if game_id is not None:
        games.log(conn, game_id, "bounce", said)
    soft = 0 if bounce.hard else delivery.count_soft(conn, address)
    if bounce.hard or soft >= SOFT_IN_A_ROW:
        why = f"{kind} bounce {bounce.status}" + ("" if bounce.hard else f", {soft} in a row")
        mark_unreachable(conn, config, mailer, address, now, why)
        said += "; the address is now unreachable"
    return BounceSeen("bounce", said, game_id)


def _games_in_play(conn: Connection, address: str) -> list[Game]:
    return [load_game(conn, g) for g in games.games_of(conn, address, playing=True)]


def mark_unreachable(conn: Connection, config: Config, mailer: Mailer, address: str,
                     now: datetime, why: str) -> None:
    """Mark ``address`` unreachable (once): its clocks wait, its opponents and the operator
    are told."""
    if delivery.unreachable_since(conn, address) is not None:
        return
    since = now.timestamp()
    delivery.mark_unreachable(conn, address, since, why)
    grace = grace_days(config)
    until = now + timedelta(days=grace)
    for game in _games_in_play(conn, address):
        side = game.side_of(address)
        if side is None:
            continue
        me = game.players[side]
        found = game.clock()
        if found is not None:
            games.save_clock(conn, game.id, clock.hold(found[1], now, until))
        days = counted(grace, "day", "days")
        waits = (f"; the clock waits until he writes again, at most {days} (to "
                 f"{clock.format_instant(until)})" if found is not None else "")
        games.log(conn, game.id, "unreachable", f"{me.title}'s mail bounces ({why}): "
                  f"unreachable{waits}")
        opponent = game.opponent(side)
        mailer.tell_one(
            game, opponent, f"{me.title}'s mail bounces",
            f"The referee's mail to {me.title} ({me.name}) bounces ({why}): {me.title} may "
            "not have seen the last report. "
            + (f"{me.title}'s clock does not run out meanwhile: it waits until {me.title} "
               f"writes again, at most {days}." if found is not None else "")
            + " You need do nothing; your own turns are played as usual.",
            kind="notice")
        notify_operator(
            conn, config, f"unreachable:{address}:{game.id}:{int(since)}",
            f"game {game.id}: {me.title}'s mail bounces",
            f"The mail to {address} ({me.title} in game {game.id}) bounces ({why}). The "
            f"player is marked unreachable: his mail is held, the clock waits at most "
            f"{days} (bounces.grace_days), and the next mail from him clears the "
            "mark. Tell him another way if you can.", game_id=game.id)


def grace_over(conn: Connection, config: Config, now: datetime) -> int:
    """``pbem tick``: tell the operator (once) of each player still unreachable after the
    grace; the clocks run again by themselves (the wait ended). How many were told."""
    told = 0
    grace = timedelta(days=grace_days(config))
    for r in delivery.unreachable(conn):
        since = datetime.fromtimestamp(r["unreachable_since"], UTC)
        if r["grace_told"] or now < since + grace:
            continue
        delivery.grace_told(conn, r["email"])
        for game in _games_in_play(conn, r["email"]):
            told += notify_operator(
                conn, config, f"grace:{r['email']}:{game.id}:{int(since.timestamp())}",
                f"game {game.id}: the grace for an unreachable player is over",
                f"The mail to {r['email']} has bounced since {clock.format_instant(since)} "
                f"and the grace of {counted(grace.days, 'day', 'days')} is over: the clock "
                "runs again. Decide: "
                f"`pbem set-deadline {game.id} DATE`, `pbem pause {game.id}` or "
                f"`pbem adjudicate {game.id} RESULT`.", game_id=game.id)
    return told


def unreachable_words(conn: Connection, game: Game) -> list[str]:
    """``pbem games`` and ``show``: a line for each player of ``game`` marked unreachable."""
    lines = []
    for p in game.players.values():
        since = delivery.unreachable_since(conn, p.email)
        if since is not None:
            r = delivery.reach_of(conn, p.email)
            when = clock.format_instant(datetime.fromtimestamp(since, UTC))
            lines.append(f"{p.title} is unreachable since {when} ({r['reason'] if r else ''}):"
                         " his mail is held and his clock waits")
    return lines


def _text_of(raw: bytes) -> tuple[str, str]:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    subject = str(msg.get("Subject", ""))
    body = msg.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    return subject, str(text)[:MISSED_CHARS]


def welcome_back(conn: Connection, config: Config, mailer: Mailer, address: str,
                 now: datetime) -> bool:
    """He wrote: the mark goes, the waits end, and what he missed comes in one mail. False
    when he was not marked."""
    since = delivery.unreachable_since(conn, address)
    if since is None:
        delivery.clear_reach(conn, address)  # soft bounces in a row end too
        return False
    delivery.clear_reach(conn, address)
    for game in _games_in_play(conn, address):
        side = game.side_of(address)
        found = game.clock()
        if found is not None:
            games.save_clock(conn, game.id, clock.release(found[1], now))
        if side is not None:
            games.log(conn, game.id, "reachable", f"{side.title} wrote again: reachable; "
                      "the clock runs")
    missed = delivery.missed(conn, address, since - MISSED_WINDOW.total_seconds())
    if missed:
        sections = []
        for r in missed:
            subject, text = _text_of(bytes(r["raw"]))
            sections.append({"title": subject, "text": text})
        these = "this mail" if len(missed) == 1 else f"these {len(missed)} mails"
        body = letter("reply", player=address, sections=[
            {"title": "While your mail bounced",
             "text": f"The referee's mail to you bounced, so {these} may not have reached "
                     "you. Here they are again, oldest first."},
            *sections])
        token = accounts.ensure_account(conn, address)
        missed_count = counted(len(missed), "mail", "mails")
        mailer.queue(mailer.to_address("missed", address,
                                       f"Realm referee: what you missed ({missed_count})",
                                       body, token=token), None)
        delivery.drop_held(conn, [r["id"] for r in missed])
    return True
