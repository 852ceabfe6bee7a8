"""Mail about a player rather than one game: vacation, games, digest, observe, challenges.

Such a mail needs no game tag, but it must carry one of the sender's keys (his account
key from any player-level mail of the referee, or the key of any of his games), so a
forged From never books a vacation or starts a game in someone's name. All commands of
the mail are carried out in one savepoint: one refusal and none of them happen.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from pbem.errors import PbemError
from pbem.referee import challenges, digest, observers, profile
from pbem.referee.accounts import (
    PlayerMail,
    ensure_account,
    known_address,
    player_keys,
    save_book,
    vacation_book,
)
from pbem.referee.clock import set_vacations
from pbem.referee.compose import Outgoing, quote
from pbem.referee.games import SIDES, load_game
from pbem.referee.inbox import Incoming
from pbem.referee.letters import Letter, help_text, letter
from pbem.referee.orders import Order
from pbem.referee.play import expected_turn
from pbem.referee.refusal import Refusal, refuse_many_keys
from pbem.referee.secrets_scheme import (
    account_tokens,
    claims_in_addresses,
    claims_in_subject,
    key_in_line,
    same_token,
)
from pbem.referee.vacation import Cancelled, Granted, apply_vacation_command, parse_vacation

if TYPE_CHECKING:
    from pbem.referee.service import Handled, Referee, Work


def handle_player_mail(
    ref: Referee, inc: Incoming, row: int, orders: list[Order], now: datetime
) -> Handled:
    from pbem.referee.service import Handled

    conn = ref.conn
    if not known_address(conn, inc.sender):
        unknown_sender(ref, inc, row)
        return Handled("unknown-sender", f"{inc.sender or 'no sender'} is not known here")
    ctx = PlayerMail(ref, inc, row, inc.sender, ensure_account(conn, inc.sender), now)
    carried = account_tokens(inc.subject, inc.recipients) + [
        c.token for c in claims_in_subject(inc.subject) + claims_in_addresses(inc.recipients)
        if c.token
    ] + [k for bl in inc.body.lines if (k := key_in_line(bl.text))]
    keys = player_keys(conn, inc.sender)
    try:
        refuse_many_keys(carried)
    except Refusal as refusal:
        _refuse(ctx, refusal.reason)
        return Handled("refused", refusal.reason)
    if not any(same_token(c, k) for c in carried for k in keys):
        reason = (
            "this mail does not carry your key, so the referee cannot tell it from a forgery: "
            "reply to any mail of the referee to you (the reply address and the subject tag "
            f"carry your key), or add a line 'key {ctx.token}'"
        )
        _refuse(ctx, reason)
        return Handled("refused", reason)
    ref.proven_key = True
    conn.execute("SAVEPOINT player_mail")
    try:
        for order in orders:
            PLAYER_HANDLERS[order.name](ctx, order)
    except Refusal as refusal:
        conn.execute("ROLLBACK TO player_mail")
        conn.execute("RELEASE player_mail")
        _refuse(ctx, refusal.reason)
        return Handled("refused", refusal.reason)
    conn.execute("RELEASE player_mail")
    if ctx.sections:
        body = letter(
            "reply", player=inc.sender_name or inc.sender,
            sections=[{"title": t, "text": x} for t, x in ctx.sections],
        )
        what = ", ".join(t.lower() for t, _ in ctx.sections)
        reply(ctx, "reply", f"Realm referee: {what}", body)
    return Handled("accepted" if ctx.changed else "info", ", ".join(o.name for o in orders))


def reply(ctx: PlayerMail, kind: str, subject: str, body: Letter) -> None:
    inc = ctx.inc
    ctx.ref._queue(Outgoing(kind, ctx.email, subject, body.text, body.html,
                            in_reply_to=inc.message_id,
                            references=inc.references, auto="auto-replied",
                            account_token=ctx.token), ctx.row)


def _refuse(ctx: PlayerMail, reason: str) -> None:
    body = letter(
        "refusal", player=ctx.inc.sender_name or ctx.email, game_id="-",
        reason=reason, where=None, line=None, caret=None, options=[], next=None, board=None,
        quoted=quote(ctx.inc.body.text, ctx.ref.limits.quote_lines,
                     ctx.ref.limits.quote_width),
    )
    reply(ctx, "refusal", f"Realm referee: not done: {reason.split(':')[0][:60]}", body)


def unknown_sender(ref: Referee, inc: Incoming, row: int) -> None:
    """Issue 5's rule: answered politely, never acted on. With ``open_registration`` the
    answer also carries a new key for the address, so that its owner (and only he, since
    the answer goes to the address) can then send player-level commands such as a
    challenge."""
    if not ref.options.open_registration or not inc.sender or "@" not in inc.sender:
        ref._unknown(inc, row)
        return
    token = ensure_account(ref.conn, inc.sender)
    body = letter("welcome", referee=f"{ref.config.name} <{ref.config.address}>",
                  sender=inc.sender, token=token)
    ref._queue(Outgoing("welcome", inc.sender, "Realm referee: welcome (nothing was done yet)",
                        body.text, body.html, in_reply_to=inc.message_id, references=inc.references,
                        auto="auto-replied", account_token=token), row)


def elsewhere(ref: Referee, work: Work, order: Order) -> None:
    """A player-level command inside a mail with game orders: refused, to keep each mail
    about one thing."""
    raise Refusal(
        f"'{order.text}' is about you, not this game: send it in a mail of its own, without "
        "turns or game commands", order,
    )


# -- the commands --------------------------------------------------------------------------
def cmd_vacation(ctx: PlayerMail, order: Order) -> None:
    conn, ref = ctx.conn, ctx.ref
    try:
        command = parse_vacation(order.text)
        book, outcome = apply_vacation_command(vacation_book(conn, ctx.email),
                                               ref.options.vacation, command, ctx.now)
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    save_book(conn, ctx.email, book)
    if isinstance(outcome, Granted):
        left = ", ".join(f"{n} day(s) of {y} left" for y, n in outcome.left)
        said = f"Vacation booked: {outcome.vacation.describe()} (UTC days); {left}."
        told = f"will be on vacation {outcome.vacation.describe()}"
    else:
        assert isinstance(outcome, Cancelled)
        parts = [f"cancelled {v.describe()}" for v in outcome.removed]
        parts += [f"ended {v.describe()} now" for v in outcome.ended]
        said = f"Vacation {'; '.join(parts)}; {outcome.refunded} day(s) given back."
        told = "has changed his vacation: " + "; ".join(parts)
    from pbem.referee.timed import clock_lines, game_clock, save_clock

    games = []
    for (game_id,) in conn.execute(
        "SELECT DISTINCT p.game_id FROM players p JOIN games g ON g.id = p.game_id "
        "WHERE p.email = ? AND g.status = 'playing' AND g.clock_state IS NOT NULL "
        "ORDER BY p.game_id", (ctx.email,)
    ).fetchall():
        game = load_game(conn, game_id)
        found = game_clock(game)
        assert found is not None
        state = found[1]
        for p in game.players.values():
            if p.email == ctx.email:
                state = set_vacations(state, SIDES[p.side], book.intervals())
        save_clock(conn, game.id, state)
        game = load_game(conn, game_id)
        games.append(str(game.id))
        for p in game.players.values():
            if p.email == ctx.email:
                continue
            me = game.opponent(p.side)
            text = (f"{me.title} ({me.name}) {told}; the clock of this game stops while "
                    f"{me.title} is away.\n\n" + "\n".join(clock_lines(game, ctx.now)))
            body = letter("notice", player=p.name, text=text, next=ref._next_words(game))
            ref._queue(ref._to(game, p, "notice", f"{game.name}: {me.title}'s vacation",
                               body.text, body.html), ctx.row)
        ref._log(game.id, "vacation", f"{ctx.email} {told}")
    clocks = f" The clocks of your games {', '.join(games)} follow it." if games else ""
    ctx.sections.append(("Vacation", said + clocks))
    ctx.changed = True


def cmd_games(ctx: PlayerMail, order: Order) -> None:
    from pbem.referee.timed import clock_lines

    lines = []
    for (game_id,) in ctx.conn.execute(
        "SELECT DISTINCT game_id FROM players WHERE email = ? ORDER BY game_id", (ctx.email,)
    ).fetchall():
        game = load_game(ctx.conn, game_id)
        mine = next(p for p in game.players.values() if p.email == ctx.email)
        other = game.opponent(mine.side)
        if game.status == "over":
            state = f"over, {game.result}"
        else:
            number, side = expected_turn(game.position)
            whose = "your move" if SIDES[mine.side] is side else f"{other.name}'s move"
            state = f"{whose} ({number}{side.letter})"
        lines.append(f"game {game.id} ({game.name}): you play {mine.title} v {other.name}; "
                     f"{state}")
        if game.status == "playing":
            zone = profile.zone_of(ctx.conn, ctx.email)
            lines += [f"    {line}" for line in clock_lines(game, ctx.now, with_settings=False,
                                                            zone=zone)]
    watched = [str(r[0]) for r in ctx.conn.execute(
        "SELECT game_id FROM observers WHERE email = ? ORDER BY game_id", (ctx.email,))]
    if watched:
        lines.append(f"you observe game(s) {', '.join(watched)}")
    lines += challenges.open_lines(ctx)
    ctx.sections.append(("Your games", "\n".join(lines) or "You play no game here yet."))


def cmd_digest(ctx: PlayerMail, order: Order) -> None:
    on = order.name == "digest-on"
    ensure_account(ctx.conn, ctx.email)
    ctx.conn.execute("UPDATE accounts SET digest = ? WHERE email = ?", (int(on), ctx.email))
    sent = 0 if on else digest.send_for(ctx.ref, ctx.email, ctx.now)
    text = ("From now on your turn reports are held and sent as one digest a day "
            f"(after {ctx.ref.options.digest_hour}:00 UTC); refusals, reminders and results "
            "still come at once." if on else
            "From now on every turn report comes at once." +
            (" The reports held so far follow in one digest." if sent else ""))
    ctx.sections.append(("Digest", text))
    ctx.changed = True


def cmd_help(ctx: PlayerMail, order: Order) -> None:
    ctx.sections.append(("Help", help_text(ctx.token)))


PLAYER_HANDLERS: dict[str, Callable[[PlayerMail, Order], None]] = {
    "vacation": cmd_vacation,
    "games": cmd_games,
    "digest-on": cmd_digest,
    "digest-off": cmd_digest,
    "help": cmd_help,
    **challenges.HANDLERS,
    **observers.HANDLERS,
    **profile.HANDLERS,
}
