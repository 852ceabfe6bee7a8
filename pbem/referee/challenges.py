"""Challenges by mail: ``challenge OTHER@ADDRESS [ruleset NAME] [clock]``, then the other
side's ``accept challenge N`` or ``decline challenge N`` (or the challenger's ``withdraw
challenge N``). Accepting starts the game in the same transaction: the challenger plays
White. The challenged address gets its own key in the challenge mail, so only the real
owner of that address can accept.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable

from pbem.errors import PbemError
from pbem.records.rulesets import describe_ruleset, load_ruleset
from pbem.referee.accounts import PlayerMail, ensure_account
from pbem.referee.clock import describe_settings, format_settings, parse_settings
from pbem.referee.compose import Outgoing
from pbem.referee.letters import letter
from pbem.referee.orders import Order
from pbem.referee.refusal import Refusal

_CHALLENGE = re.compile(r"challenge <?([^\s<>@]+@[^\s<>@]+)>?(?: ruleset (\S+))?(?: (.+))?")


def _games_in_play(conn: sqlite3.Connection, email: str) -> int:
    return int(conn.execute(
        "SELECT COUNT(DISTINCT p.game_id) FROM players p JOIN games g ON g.id = p.game_id "
        "WHERE p.email = ? AND g.status = 'playing'", (email,)).fetchone()[0])


def cmd_challenge(ctx: PlayerMail, order: Order) -> None:
    ref, conn = ctx.ref, ctx.conn
    m = _CHALLENGE.fullmatch(order.text)
    if m is None:
        raise Refusal("write 'challenge ADDRESS [ruleset NAME] [days N | bank R+I ...]'", order)
    other, ruleset_name = m[1].lower(), m[2] or ref.config.ruleset
    if other == ctx.email:
        raise Refusal("you cannot challenge yourself", order)
    if other.split("@")[0].split("+")[0] == ref.config.local_part and (
            other.split("@")[1] == ref.config.domain):
        raise Refusal("the referee does not play", order)
    try:
        # a stranger's mail may name a preset, never a file on the referee's machine
        ruleset = load_ruleset(ruleset_name, files=m[2] is None)
        settings = parse_settings(m[3]) if m[3] else ref.options.clock
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    limit = ref.options.max_open_challenges
    mine = conn.execute("SELECT COUNT(*) FROM challenges WHERE challenger = ? AND "
                        "status = 'open'", (ctx.email,)).fetchone()[0]
    if mine >= limit:
        raise Refusal(f"you have {mine} open challenge(s), the most this referee allows "
                      f"({limit}): withdraw one ('withdraw challenge N') first", order)
    if _games_in_play(conn, ctx.email) >= ref.options.max_games:
        raise Refusal(f"you play {ref.options.max_games} games already, the most this "
                      "referee allows at once", order)
    if conn.execute(
        "SELECT 1 FROM challenges WHERE status = 'open' AND ((challenger = ? AND challenged = ?)"
        " OR (challenger = ? AND challenged = ?))", (ctx.email, other, other, ctx.email)
    ).fetchone():
        raise Refusal(f"there is already an open challenge between you and {other}", order)
    clock_text = format_settings(settings) if settings is not None else None
    cur = conn.execute(
        "INSERT INTO challenges (challenger, challenged, ruleset, clock, created_at) "
        "VALUES (?, ?, ?, ?, ?)", (ctx.email, other, ruleset.name, clock_text, time.time()))
    number = int(cur.lastrowid or 0)
    token = ensure_account(conn, other)
    clock_words = describe_settings(settings) if settings else "No time control."
    body = letter(
        "challenge", referee=f"{ref.config.name} <{ref.config.address}>",
        challenger=ctx.email, number=number, rules=describe_ruleset(ruleset),
        clock=clock_words, token=token,
    )
    ref._queue(Outgoing("challenge", other, f"Realm: {ctx.email} challenges you (challenge "
                        f"{number})", body.text, body.html, account_token=token), ctx.row)
    ctx.sections.append(("Challenge", f"Challenge {number} sent to {other} ({ruleset.name}; "
                         f"{clock_words}) You play White if it is accepted."))
    ctx.changed = True


def _which(ctx: PlayerMail, order: Order, column: str) -> sqlite3.Row:
    found = re.search(r"(\d+)", order.text)
    rows = ctx.conn.execute(
        f"SELECT * FROM challenges WHERE status = 'open' AND {column} = ? ORDER BY id",
        (ctx.email,)).fetchall()
    if found is not None:
        rows = [r for r in rows if r["id"] == int(found[1])]
        if not rows:
            raise Refusal(f"there is no open challenge {found[1]} for you to "
                          f"{order.name.split('-')[0]}", order)
    if len(rows) != 1:
        numbers = ", ".join(str(r["id"]) for r in rows) or "none"
        raise Refusal(f"say which challenge: '{order.name.replace('-', ' ')} N' (open: "
                      f"{numbers})", order)
    return rows[0]


def cmd_answer(ctx: PlayerMail, order: Order) -> None:
    ref, conn = ctx.ref, ctx.conn
    verb = order.name.split("-")[0]
    row = _which(ctx, order, "challenger" if verb == "withdraw" else "challenged")
    status = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[verb]
    game_id = None
    if verb == "accept":
        for who in (row["challenger"], row["challenged"]):
            if _games_in_play(conn, who) >= ref.options.max_games:
                raise Refusal(f"{who} plays {ref.options.max_games} games already, the most "
                              "this referee allows at once", order)
        try:
            ruleset = load_ruleset(row["ruleset"])
            settings = parse_settings(row["clock"]) if row["clock"] else None
        except PbemError as exc:
            raise Refusal(exc.message, order) from None
        game_id = ref.create_game(row["challenger"], row["challenged"], ruleset,
                                  name=f"Challenge {row['id']}", clock=settings)
    conn.execute("UPDATE challenges SET status = ?, game_id = ?, decided_at = ? WHERE id = ?",
                 (status, game_id, time.time(), row["id"]))
    other = row["challenged"] if verb == "withdraw" else row["challenger"]
    said = f"Challenge {row['id']} {status} by {ctx.email}."
    if game_id is not None:
        said += f" Game {game_id} has started: the invitations follow."
    token = ensure_account(conn, other)
    body = letter("notice", player=other, text=said, next="")
    ref._queue(Outgoing("notice", other, f"Realm: challenge {row['id']} {status}", body.text,
                        body.html, account_token=token), ctx.row)
    ctx.sections.append(("Challenge", said))
    ctx.changed = True


def open_lines(ctx: PlayerMail) -> list[str]:
    """The player's open challenges, for ``games``."""
    lines = []
    for r in ctx.conn.execute(
        "SELECT * FROM challenges WHERE status = 'open' AND (challenger = ? OR challenged = ?)"
        " ORDER BY id", (ctx.email, ctx.email)
    ):
        if r["challenger"] == ctx.email:
            lines.append(f"challenge {r['id']}: you challenged {r['challenged']} (open)")
        else:
            lines.append(f"challenge {r['id']}: {r['challenger']} challenges you: reply "
                         f"'accept challenge {r['id']}' or 'decline challenge {r['id']}'")
    return lines


HANDLERS: dict[str, Callable[[PlayerMail, Order], None]] = {
    "challenge": cmd_challenge,
    "accept-challenge": cmd_answer,
    "decline-challenge": cmd_answer,
    "withdraw-challenge": cmd_answer,
}
