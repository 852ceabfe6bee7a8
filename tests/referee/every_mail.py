"""Every kind of mail the referee writes, from real games by mail: for the browser checks.

``every_mail(folder)`` plays a Featured game by mail through each of the referee's mails
(invitation, report, reply, notice, refusal, reminder, digest, result, challenge, welcome,
an unknown sender's answer) and one game of each other kind up to a report, a refusal
and a result, and returns every mail sent, each with its kind and game. The HTML parts
are what the browser tests read (375 px phones, axe-core): the PNG boards they show by
``cid:`` are written beside them so that a browser draws them as a mail client would.
The referee publishes the games on its live site as they are played (``site_of``).
"""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.utils import make_msgid
from pathlib import Path

import yaml

from pbem.notation.format import format_action
from pbem.records.rulesets import load_ruleset
from pbem.rules.registry import game_of
from tests.referee.clocked import FakeNow, referee_at, tick
from tests.referee.conftest import MailPlayer, init_home, outbox_mails
from tests.referee.helpers import Table

GAMES = ("featured", "classic", "medieval", "oriental", "modern")


@dataclass(frozen=True, slots=True)
class SentMail:
    kind: str
    game: str
    #: the HTML part, its cid: pictures pointing at files written beside it
    html: Path
    message: Message


def _bare(sender: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "referee@pbem.test", "hello"
    msg["Message-ID"] = make_msgid(domain="x.test")
    msg.set_content(body)
    return msg.as_bytes()


def _first_turn(table: Table) -> str:
    """The shortest legal turn for the side to move, as the invitation's example picks it."""
    from pbem.referee.store import games

    pos = games.load_game(table.conn, table.game_id).position
    rules = game_of(pos)
    options = rules.legal_actions(rules.begin_turn(pos))
    return sorted((format_action(a) for a in options), key=len)[0]


def _play(home: Path, now: FakeNow, ruleset: str, white: str, black: str) -> Table:
    referee = referee_at(home, now)
    w, b = MailPlayer(white), MailPlayer(black)
    from pbem.referee.clock import parse_settings

    game_id = referee.new_game(w.address, b.address, load_ruleset(ruleset),
                               name=f"A {ruleset} game", clock=parse_settings("days 3, claim"))
    table = Table(home, referee, game_id, w, b)
    table.deliver()
    return table


def _featured(home: Path, now: FakeNow) -> None:
    table = _play(home, now, "featured", "white@players.test", "black@players.test")
    white, black = table.white, table.black
    table.send(black.reply("digest on"))
    table.send(black.reply("digest off"))
    table.send(white.reply("Bh11"))  # reports
    table.send(black.reply("Bh2"))
    table.send(white.reply("board\nhistory\nhelp"))  # a reply
    table.send(white.reply("offer draw"))  # notices
    table.send(black.reply("decline draw"))
    table.send(white.reply("Be9", quote=False))  # a refusal, with its line and column
    table.send(white.reply("Pe8 and something", quote=False))
    table.send(_bare("stranger@nowhere.test", "hello"))  # unknown sender
    table.send(white.reply("challenge carol@players.test ruleset classic"))  # a challenge
    table.send(black.reply("digest on"))
    table.send(white.reply("Be8"))  # held for Black's digest
    now.set(datetime(2026, 12, 3, 18, 0, tzinfo=UTC))  # reminder time, and the digest hour
    tick(table)
    table.send(white.reply("resign"))  # the result


def _other(home: Path, now: FakeNow, ruleset: str) -> None:
    table = _play(home, now, ruleset, f"w-{ruleset}@players.test", f"b-{ruleset}@players.test")
    table.send(table.white.reply(_first_turn(table)))
    table.send(table.black.reply("Zz99", quote=False))  # refused
    table.send(table.black.reply(_first_turn(table)))
    table.send(table.white.reply("resign"))


def _registration(home: Path, open_: bool) -> None:
    cfg = home / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data.setdefault("challenges", {})["open_registration"] = open_
    # the live site too: a page per game, the index, the ratings (site_of finds it)
    data["site"] = {"path": "site", "url": "https://realm.example/club", "title": "Club games"}
    cfg.write_text(yaml.safe_dump(data))


def site_of(folder: Path) -> Path:
    """The live site the games of ``every_mail(folder)`` were published to."""
    return folder / "home" / "site"


def every_mail(folder: Path) -> list[SentMail]:
    """Play the games and write each mail's HTML (and its pictures) under ``folder``."""
    home = init_home(folder / "home")
    _registration(home, False)  # a stranger is told he plays no game
    now = FakeNow()
    _featured(home, now)
    for ruleset in GAMES[1:]:
        _other(home, now, ruleset)
    _registration(home, True)  # a referee open to new players welcomes a stranger
    table = Table(home, referee_at(home, now), 1, MailPlayer("x@x.test"), MailPlayer("y@x.test"))
    table.send(_bare("dora@players.test", "hello"))
    from pbem.referee.config.home import Home
    from pbem.referee.public.publish import update_site

    update_site(table.conn, Home(home).load_config(), home)  # as 'pbem mail' does
    out = folder / "html"
    out.mkdir()
    sent = []
    for n, mail in enumerate(outbox_mails(home)):
        raw = mail.as_bytes()
        message = email.message_from_bytes(raw, policy=email.policy.default)
        html = message.get_body(("html",)).get_content()
        for part in message.walk():
            cid = part.get("Content-ID")
            if cid and part.get_content_type() == "image/png":
                name = f"{n}-{cid.strip('<>').replace('@', '-')}.png"
                (out / name).write_bytes(part.get_content())
                html = html.replace(f"cid:{cid.strip('<>')}", name)
        path = out / f"{n:03d}-{message['X-Pbem-Kind']}.html"
        path.write_text(html, encoding="utf-8")
        game = str(message.get("X-Pbem-Game") or "")
        sent.append(SentMail(message["X-Pbem-Kind"], game, path, message))
    return sent
