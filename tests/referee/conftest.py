"""Real parts for the referee's tests: a data folder, players who reply, an SMTP server."""

from __future__ import annotations

import email
import email.policy
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import make_msgid
from pathlib import Path

import pytest

from pbem.cli import main
from tests import pgserver

REPO = Path(__file__).resolve().parents[2]
MAIL_DIR = Path(__file__).with_name("mail")


def run_pbem(home: Path, *args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
             timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``pbem`` as a new process, the way an MTA runs it."""
    full = {**os.environ, "PBEM_HOME": str(home), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "pbem", *args], input=stdin, capture_output=True, env=full,
        timeout=timeout, cwd=REPO,
    )


def init_home(path: Path, address: str = "referee@pbem.test", smtp: dict | None = None) -> Path:
    """A new referee home; its store on PostgreSQL in the suite's second run
    (``PBEM_TEST_STORE=postgresql``, tests/pgserver.py), else SQLite."""
    store = ["--store", pgserver.new_store_url()] if pgserver.on_postgresql() else []
    assert main(["init", "--home", str(path), "--address", address, *store]) == 0
    if smtp is not None:
        import yaml

        cfg = path / "config.yaml"
        data = yaml.safe_load(cfg.read_text())
        data["smtp"] = smtp
        cfg.write_text(yaml.safe_dump(data))
    return path


def open_store(home: Path):
    """The home's store, whichever engine it is on (config.yaml's ``store:``)."""
    from pbem.referee.config.home import Home
    from pbem.referee.store import connect

    h = Home(home)
    return connect(h.store_target(h.load_config()))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return init_home(tmp_path / "home")


def outbox_mails(home: Path) -> list[Message]:
    """Every mail in the outbox Maildir, oldest first."""
    files = sorted((home / "outbox" / "new").iterdir(), key=lambda p: p.stat().st_mtime_ns)
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in files]


def text_of(msg: Message) -> str:
    part = msg.get_body(("plain",)) if hasattr(msg, "get_body") else msg
    assert part is not None
    return part.get_content()


@dataclass
class MailPlayer:
    """A player who answers by replying to the referee's last mail to him."""

    address: str
    inbox: list[Message] = field(default_factory=list)

    def receive(self, mails: list[Message]) -> list[Message]:
        new = [m for m in mails if m["To"] == self.address and m not in self.inbox]
        self.inbox.extend(new)
        return new

    @property
    def last(self) -> Message:
        return self.inbox[-1]

    def reply(self, body: str, *, to: Message | None = None, subject: str | None = None,
              quote: bool = True) -> bytes:
        """A reply the way a mail program writes one: To = Reply-To, Re: subject,
        In-Reply-To/References, the original quoted below."""
        original = to or self.last
        msg = EmailMessage()
        msg["From"] = self.address
        msg["To"] = original["Reply-To"] or original["From"]
        msg["Subject"] = subject if subject is not None else "Re: " + original["Subject"]
        msg["Message-ID"] = make_msgid(domain="player.test")
        msg["In-Reply-To"] = original["Message-ID"]
        msg["References"] = original["Message-ID"]
        text = body.rstrip("\n") + "\n"
        if quote:
            text += "\nOn a day, the referee wrote:\n" + "".join(
                f"> {ln}\n" for ln in text_of(original).splitlines()[:30]
            )
        msg.set_content(text)
        return msg.as_bytes()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Received:
    envelope_from: str
    recipients: list[str]
    data: bytes

    @property
    def message(self) -> Message:
        return email.message_from_bytes(self.data, policy=email.policy.default)


class SmtpSink:
    """aiosmtpd on 127.0.0.1, keeping every message it accepts."""

    def __init__(self, *, auth: tuple[str, str] | None = None) -> None:
        from aiosmtpd.controller import Controller

        self.received: list[Received] = []
        self.lock = threading.Lock()
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                with sink.lock:
                    sink.received.append(
                        Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.content)
                    )
                return "250 OK"

        kwargs: dict = {}
        if auth is not None:
            user, password = auth

            def authenticator(server, session, envelope, mechanism, data):
                from aiosmtpd.smtp import AuthResult, LoginPassword

                ok = isinstance(data, LoginPassword) and (
                    data.login.decode(), data.password.decode()) == (user, password)
                return AuthResult(success=ok)

            kwargs = {"authenticator": authenticator, "auth_require_tls": False}
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=free_port(), **kwargs)

    def start(self) -> SmtpSink:
        self.controller.start()
        return self

    @property
    def port(self) -> int:
        return self.controller.port

    def stop(self) -> None:
        self.controller.stop()

    def messages(self) -> list[Message]:
        with self.lock:
            return [r.message for r in self.received]


@pytest.fixture
def smtp() -> Iterator[SmtpSink]:
    sink = SmtpSink().start()
    yield sink
    sink.stop()
