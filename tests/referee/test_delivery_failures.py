"""One refused mail fails alone (issue 12, item 1).

A real SMTP server (aiosmtpd on 127.0.0.1) refuses one recipient for good (550),
one message for good (552) and one recipient for now (451). The final refusals
are marked failed with the server's words, logged in the game, shown by
``pbem show --log`` and reported to the operator; the temporary one is retried
after a delay, a limited number of times; every other mail goes out in the same
run, none waits behind a failing one.
"""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from pbem.records.rulesets import load_ruleset
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.outgoing.delivery import deliver
from pbem.referee.store import connect
from tests.referee.conftest import free_port, init_home


class PickyServer:
    """Refuses nosuch@ (550), busy@ (451) at RCPT, and any message to toobig@ (552)."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.received: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()
        server = self

        class Handler:
            async def handle_RCPT(self, srv, session, envelope, address, options):
                if address.startswith("nosuch@"):
                    return f"550 5.1.1 <{address}>: Recipient address rejected: no such user"
                if address.startswith("busy@"):
                    return "451 4.3.0 Mailbox busy, try again later"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, srv, session, envelope):
                if any(r.startswith("toobig@") for r in envelope.rcpt_tos):
                    return "552 5.3.4 Message too big for system"
                with server.lock:
                    server.received.append((list(envelope.rcpt_tos), envelope.content))
                return "250 OK"

        self.controller = Controller(Handler(), hostname="127.0.0.1", port=free_port())

    def to(self, address: str) -> int:
        with self.lock:
            return sum(address in rcpts for rcpts, _ in self.received)


@pytest.fixture
def picky() -> Iterator[PickyServer]:
    server = PickyServer()
    server.controller.start()
    yield server
    server.controller.stop()


def _home(tmp_path: Path, port: int) -> Path:
    home = init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": port, "timeout": 10})
    cfg = yaml.safe_load((home / "config.yaml").read_text())
    cfg["operator"] = "op@club.test"
    cfg["limits"] = {"delivery_attempts": 3, "retry_seconds": 3600}
    (home / "config.yaml").write_text(yaml.safe_dump(cfg))
    return home


def _status(conn, recipient: str) -> tuple[str, str | None, int]:
    row = conn.execute("SELECT status, last_error, attempts FROM outbox WHERE recipient = ?",
                       (recipient,)).fetchone()
    return row[0], row[1], row[2]


def test_a_final_refusal_fails_that_mail_alone(tmp_path: Path, picky: PickyServer,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    home = _home(tmp_path, picky.controller.port)
    h = Home(home)
    config = h.load_config()
    conn = connect(h.store_target(h.load_config()))
    referee = Referee(conn, config)
    featured = load_ruleset("featured")
    bad = referee.new_game("nosuch@players.test", "toobig@players.test", featured)
    good = referee.new_game("white@players.test", "black@players.test", featured)

    result = deliver(conn, config, h.outbox_path)
    assert result.sent == 2 and result.failed == 0
    assert picky.to("white@players.test") == 1 and picky.to("black@players.test") == 1
    assert len(result.given_up) == 2
    status, error, _ = _status(conn, "nosuch@players.test")
    assert status == "failed" and "550 5.1.1" in (error or "") and "no such user" in error
    status, error, _ = _status(conn, "toobig@players.test")
    assert status == "failed" and "552 5.3.4 Message too big" in (error or "")
    logged = [r[0] for r in conn.execute(
        "SELECT text FROM game_log WHERE game_id = ? AND kind = 'delivery-failed'", (bad,))]
    assert len(logged) == 2 and any("550" in t for t in logged)
    assert not conn.execute("SELECT 1 FROM game_log WHERE game_id = ? AND "
                            "kind = 'delivery-failed'", (good,)).fetchone()

    # the operator is told by mail; nothing refused for good is tried again
    again = deliver(conn, config, h.outbox_path)
    assert again.sent == 2 and not again.given_up
    assert picky.to("op@club.test") == 2
    assert picky.to("white@players.test") == 1
    text = "".join(
        email.message_from_bytes(c, policy=email.policy.default).get_content()
        for r, c in picky.received if "op@club.test" in r)
    assert "no such user" in text and "552 5.3.4 Message too big" in text

    # and pbem show --log says so, in the server's words
    capsys.readouterr()
    assert main(["show", str(bad), "--log", "--home", str(home)]) == 0
    shown = capsys.readouterr().out
    assert "failed" in shown and "550 5.1.1" in shown and "552 5.3.4" in shown
    assert main(["flush", "--home", str(home)]) == 0  # nothing left to do, nothing retried
    assert picky.to("white@players.test") == 1


def test_a_temporary_refusal_is_retried_later_then_given_up(tmp_path: Path,
                                                            picky: PickyServer) -> None:
    home = _home(tmp_path, picky.controller.port)
    h = Home(home)
    config = h.load_config()
    conn = connect(h.store_target(h.load_config()))
    Referee(conn, config).new_game("busy@players.test", "black@players.test",
                                   load_ruleset("featured"))
    first = deliver(conn, config, h.outbox_path)
    assert first.sent == 1 and first.failed == 1 and not first.given_up
    status, error, attempts = _status(conn, "busy@players.test")
    assert (status, attempts) == ("queued", 1) and "451 4.3.0" in (error or "")
    wait = conn.execute("SELECT next_attempt_at FROM outbox WHERE recipient = ?",
                        ("busy@players.test",)).fetchone()[0]
    assert wait > time.time() + 600  # retried after the delay, not by the next mail
    assert deliver(conn, config, h.outbox_path).failed == 0
    assert _status(conn, "busy@players.test")[2] == 1
    # the operator's flush tries it at once; the third attempt is the last
    assert deliver(conn, config, h.outbox_path, everything=True).failed == 1
    last = deliver(conn, config, h.outbox_path, everything=True)
    assert last.failed == 0 and len(last.given_up) == 1
    status, error, attempts = _status(conn, "busy@players.test")
    assert status == "failed" and attempts == 3
    assert error is not None and error.startswith("gave up after 3 attempts: 451")
    assert picky.to("black@players.test") == 1
