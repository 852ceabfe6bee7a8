"""A club that runs events by mail, for the tournament tests: the organiser's commands
(``pbem tournament ...`` through the command line), players who enter, play and resign by
replying to the referee's mail, and a "now" the test moves to let clocks run out."""

from __future__ import annotations

import contextlib
import email
import email.policy
import io
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import Message
from pathlib import Path
from typing import Any

import yaml

from pbem.cli import main
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Handled
from pbem.referee.entry.tick import run_tick
from pbem.referee.outgoing.delivery import deliver
from tests.referee.clocked import FakeNow, referee_at
from tests.referee.conftest import MailPlayer, init_home, text_of


def open_club(path: Path, **config: Any) -> Path:
    """A referee's home whose strangers may register by mail (and ``config`` on top)."""
    home = init_home(path)
    cfg = home / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data["challenges"]["open_registration"] = True
    data.update(config)
    cfg.write_text(yaml.safe_dump(data))
    return home


@dataclass
class Club:
    home: Path
    now: FakeNow = field(default_factory=lambda: FakeNow(datetime.now(UTC)
                                                         + timedelta(minutes=1)))
    players: dict[str, MailPlayer] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.referee = referee_at(self.home, self.now)

    @property
    def conn(self):
        return self.referee.conn

    # -- the organiser ---------------------------------------------------------------------
    def pbem(self, *args: str, home: bool = True) -> tuple[int, str]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main([*args, *(["--home", str(self.home)] if home else [])])
        self.deliver()
        return code, out.getvalue()

    def show(self, name: str) -> dict[str, Any]:
        code, out = self.pbem("tournament", "show", name, "--json")
        assert code == 0, out
        return json.loads(out)

    # -- the players -------------------------------------------------------------------------
    def player(self, address: str) -> MailPlayer:
        return self.players.setdefault(address, MailPlayer(address))

    def deliver(self) -> None:
        h = Home(self.home)
        assert deliver(self.conn, h.load_config(), h.outbox_path).failed == 0
        files = sorted((p for p in (self.home / "outbox" / "new").iterdir()
                        if p.name not in self.seen), key=lambda p: p.stat().st_mtime_ns)
        self.seen.update(p.name for p in files)
        mails = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
                 for p in files]
        for p in self.players.values():
            p.receive(mails)

    def send(self, raw: bytes) -> Handled:
        handled = self.referee.handle(raw)
        self.deliver()
        return handled

    def register(self, address: str, *lines: str) -> Handled:
        """A stranger writes, gets his key in the welcome, and replies with ``lines``."""
        p = self.player(address)
        first = self.send(_plain(address, "Hello", "I would like to play."))
        assert first.outcome == "unknown-sender", first
        assert "welcome" in p.last["Subject"], p.last["Subject"]
        return self.send(p.reply("\n".join(lines)))

    def game_mail(self, address: str, game_id: int) -> Message:
        """The referee's latest mail to ``address`` about game ``game_id``."""
        p = self.players[address]
        tag = f"+g{game_id}-"
        for m in reversed(p.inbox):
            if tag in str(m["Reply-To"] or ""):
                return m
        raise AssertionError(f"{address} has no mail about game {game_id}")

    def play(self, address: str, game_id: int, text: str) -> Handled:
        p = self.players[address]
        handled = self.send(p.reply(text, to=self.game_mail(address, game_id)))
        assert handled.outcome == "accepted", (address, game_id, text, handled)
        return handled

    def tick(self, **later: float) -> None:
        self.now.advance(**later)
        run_tick(self.referee)
        self.deliver()

    def mails_to(self, address: str, subject_part: str) -> list[str]:
        return [text_of(m) for m in self.players[address].inbox
                if subject_part in str(m["Subject"])]


def _plain(sender: str, subject: str, body: str) -> bytes:
    from email.message import EmailMessage
    from email.utils import make_msgid

    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@pbem.test"
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid(domain="player.test")
    msg.set_content(body)
    return msg.as_bytes()
