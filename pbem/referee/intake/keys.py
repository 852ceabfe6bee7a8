"""Whether a mail may act for its sender: it must carry his key (in the reply address, the
subject tag, or a ``key`` line), and one key only: with two different ones, one of them
is a guess. A forged From never plays a turn, books a vacation or starts a game in
someone's name. Which game a mail is about is found here too (``addressed_game``): by
what the mail names, whose key is then checked."""

from __future__ import annotations

from pbem.referee.intake.inbox import Incoming
from pbem.referee.intake.refusal import Refusal, refuse_many_keys
from pbem.referee.store import accounts, games
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, GameNotFound, Player, load_game
from pbem.referee.store.secrets_scheme import (
    account_tokens,
    claims_in_addresses,
    claims_in_subject,
    key_in_line,
    same_token,
)


def _written_keys(inc: Incoming) -> list[str]:
    return [k for bl in inc.body.lines if (k := key_in_line(bl.text))]


def check_game_key(conn: Connection, inc: Incoming, game: Game, player: Player) -> None:
    """Refuse a game mail without the player's key (his account key will do too)."""
    tokens = [
        c.token
        for c in claims_in_subject(inc.subject) + claims_in_addresses(inc.recipients)
        if c.game_id == game.id and c.token
    ]
    tokens += _written_keys(inc)
    refuse_many_keys(tokens)
    if any(same_token(t, player.token) for t in tokens):
        return
    own = accounts.account_token(conn, player.email)  # a reply to a player-level mail
    if own and any(same_token(t, own) for t in account_tokens(inc.subject, inc.recipients)
                   + tokens):
        return
    other = game.opponent(player.side)
    if any(same_token(t, other.token) for t in tokens):
        raise Refusal(
            f"this mail carries {other.title}'s key, not yours: reply to the referee's "
            "mails to you, not to your opponent's"
        )
    raise Refusal(
        "this mail does not carry your key, so the referee cannot tell it from a forgery: "
        "reply to the referee's last mail to you (the reply address and the subject tag "
        "carry your key), or add a line 'key <your key>' from that mail"
        if not tokens
        else "the key in this mail is wrong: reply to the referee's last mail to you"
    )


def check_player_key(conn: Connection, inc: Incoming, token: str) -> None:
    """Refuse a player-level mail without one of the sender's keys (account or game)."""
    carried = account_tokens(inc.subject, inc.recipients) + [
        c.token for c in claims_in_subject(inc.subject) + claims_in_addresses(inc.recipients)
        if c.token
    ] + _written_keys(inc)
    keys = accounts.player_keys(conn, inc.sender)
    refuse_many_keys(carried)
    if not any(same_token(c, k) for c in carried for k in keys):
        raise Refusal(
            "this mail does not carry your key, so the referee cannot tell it from a forgery: "
            "reply to any mail of the referee to you (the reply address and the subject tag "
            f"carry your key), or add a line 'key {token}'"
        )


def named_game(conn: Connection, inc: Incoming) -> Game | None:
    """The game a mail names by its subject tag or reply address, or by the referee's mail
    it answers (its key is checked later)."""
    ids = [c.game_id for c in claims_in_subject(inc.subject) + claims_in_addresses(
        inc.recipients)]
    ids += [g for ref in inc.references if (g := games.game_of_mail(conn, ref))]
    for game_id in ids:
        try:
            return load_game(conn, game_id)
        except GameNotFound:
            continue
    return None


def addressed_game(conn: Connection, inc: Incoming) -> Game:
    """The game a mail is about: the one it names, else the sender's only game in play.
    Refused when it names none and he has more or fewer than one in play (a sender who
    plays no game at all is the caller's to tell apart: he is a stranger)."""
    game = named_game(conn, inc)
    if game is not None:
        return game
    playing = games.games_of(conn, inc.sender, playing=True)
    if len(playing) != 1:
        raise Refusal("the mail names no game: reply to the referee's last mail for the "
                      f"game (your games in play: {', '.join(map(str, playing)) or 'none'})")
    return load_game(conn, playing[0])
