"""Challenges by mail: ``challenge OTHER@ADDRESS [ruleset NAME] [clock] [unrated]``, then
the other side's ``accept challenge N`` or ``decline challenge N`` (or the challenger's
``withdraw challenge N``). Accepting starts the game in the same transaction: the
challenger plays White. The challenged address gets its own key in the challenge mail,
so only the real owner of that address can accept.
"""

from __future__ import annotations

import re

from pbem.errors import PbemError
from pbem.records.rulesets import describe_ruleset, load_ruleset
from pbem.referee.clock import describe_settings, format_settings, parse_settings
from pbem.referee.commands.registry import command
from pbem.referee.intake.orders import Order
from pbem.referee.intake.refusal import Refusal
from pbem.referee.outgoing.letters import letter
from pbem.referee.store import accounts, games
from pbem.referee.store.engine import Row
from pbem.referee.work.starting import start_game
from pbem.referee.work.unit import Unit
from pbem.rules.game import counted

_CHALLENGE = re.compile(r"challenge <?([^\s<>@]+@[^\s<>@]+)>?(?: ruleset (\S+))?(?: (.+))?")
#: the words that make a challenged game rated or not, anywhere after the address
_RATED = {"rated": True, "unrated": False}


def rated_word(order: Order, default: bool) -> tuple[str, bool]:
    """The challenge without its word ``rated``/``unrated``, and whether the game is rated
    (``default``, the config's ``rated``, when neither is said)."""
    words = order.text.split(" ")
    said = [w for w in words[2:] if w in _RATED]
    if len(said) > 1:
        raise Refusal("say 'unrated' (or 'rated') once at most", order)
    kept = words[:2] + [w for w in words[2:] if w not in _RATED]
    return " ".join(kept), _RATED[said[0]] if said else default


@command("challenge", scope="player")
def cmd_challenge(unit: Unit, order: Order) -> None:
    conn, config, options = unit.conn, unit.config, unit.options
    text, rated = rated_word(order, options.rated)
    m = _CHALLENGE.fullmatch(text)
    if m is None:
        raise Refusal("write 'challenge ADDRESS [ruleset NAME] [days N | bank R+I ...] "
                      "[unrated]'", order)
    other, ruleset_name = m[1].lower(), m[2] or config.ruleset
    if other == unit.email:
        raise Refusal("you cannot challenge yourself", order)
    if config.is_own(other):
        raise Refusal("the referee does not play", order)
    try:
        # a stranger's mail may name a preset, never a file on the referee's machine
        ruleset = load_ruleset(ruleset_name, files=m[2] is None)
        settings = parse_settings(m[3]) if m[3] else options.clock
    except PbemError as exc:
        raise Refusal(exc.message, order) from None
    limit = options.max_open_challenges
    mine = len(accounts.open_challenges(conn, unit.email, "challenger"))
    if mine >= limit:
        raise Refusal(f"you have {counted(mine, 'open challenge', 'open challenges')}, the "
                      f"most this referee allows ({limit}): withdraw one ('withdraw challenge N') "
                      "first", order)
    if len(games.games_of(conn, unit.email, playing=True)) >= options.max_games:
        raise Refusal(f"you play {counted(options.max_games, 'game', 'games')} already, the "
                      "most this referee allows at once", order)
    if accounts.open_between(conn, unit.email, other):
        raise Refusal(f"there is already an open challenge between you and {other}", order)
    clock_text = format_settings(settings) if settings is not None else None
    number = accounts.add_challenge(conn, unit.email, other, ruleset.name, clock_text,
                                    rated=rated)
    token = accounts.ensure_account(conn, other)
    clock_words = describe_settings(settings) if settings else "No time control."
    clock_words += " Rated." if rated else " Unrated: the game does not count for the ratings."
    body = letter(
        "challenge", referee=unit.mailer.referee, challenger=unit.email,
        number=number, rules=describe_ruleset(ruleset), clock=clock_words, token=token,
    )
    unit.mailer.queue(unit.mailer.to_address(
        "challenge", other, f"Realm: {unit.email} challenges you (challenge {number})", body,
        token=token), unit.row)
    unit.news.sections.append(("Challenge", f"Challenge {number} sent to {other}: {ruleset.name}. "
                          f"{clock_words} You play White if it is accepted."))
    unit.changed = True


def _which(unit: Unit, order: Order, role: str) -> Row:
    found = re.search(r"(\d+)", order.text)
    rows = accounts.open_challenges(unit.conn, unit.email, role)
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


@command("accept-challenge", "decline-challenge", "withdraw-challenge", scope="player")
def cmd_answer(unit: Unit, order: Order) -> None:
    conn, options = unit.conn, unit.options
    verb = order.name.split("-")[0]
    row = _which(unit, order, "challenger" if verb == "withdraw" else "challenged")
    status = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}[verb]
    game_id = None
    if verb == "accept":
        for who in (row["challenger"], row["challenged"]):
            if len(games.games_of(conn, who, playing=True)) >= options.max_games:
                raise Refusal(f"{who} plays {counted(options.max_games, 'game', 'games')} "
                              "already, the most this referee allows at once", order)
        try:
            ruleset = load_ruleset(row["ruleset"])
            settings = parse_settings(row["clock"]) if row["clock"] else None
        except PbemError as exc:
            raise Refusal(exc.message, order) from None
        game_id = start_game(conn, unit.mailer, unit.now, row["challenger"],
                             row["challenged"], ruleset, name=f"Challenge {row['id']}",
                             settings=settings, rated=bool(row["rated"]))
    accounts.decide_challenge(conn, row["id"], status, game_id)
    other = row["challenged"] if verb == "withdraw" else row["challenger"]
    said = f"Challenge {row['id']} {status} by {unit.email}."
    if game_id is not None:
        said += f" Game {game_id} has started: the invitations follow."
    token = accounts.ensure_account(conn, other)
    unit.mailer.queue(unit.mailer.to_address(
        "notice", other, f"Realm: challenge {row['id']} {status}",
        letter("notice", player=other, text=said, next=""),
        token=token), unit.row)
    unit.news.sections.append(("Challenge", said))
    unit.changed = True
