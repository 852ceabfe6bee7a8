"""Delivery over real TLS: STARTTLS and SMTPS with AUTH against aiosmtpd on 127.0.0.1,
with a private CA; a certificate the referee cannot trust keeps the mail queued."""

from __future__ import annotations

import shutil
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from tests.referee.conftest import free_port, init_home
from tests.referee.dovecot import make_certificates

USER, PASSWORD = "referee@pbem.test", "s3cret"


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed (scripts/test.sh installs it)")
    folder = tmp_path_factory.mktemp("certs")
    make_certificates(folder)
    return folder


class TlsSink:
    """aiosmtpd that demands TLS (STARTTLS, or TLS from the first byte) before AUTH."""

    def __init__(self, certs: Path, *, implicit: bool) -> None:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(certs / "server.crt", certs / "server.key")
        self.received: list[bytes] = []
        self.logins: list[str] = []
        lock = threading.Lock()
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                with lock:
                    sink.received.append(envelope.content)
                return "250 OK"

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and (
                data.login.decode(), data.password.decode()) == (USER, PASSWORD)
            if ok:
                sink.logins.append(mechanism)
            return AuthResult(success=ok)

        tls = {"ssl_context": context} if implicit else {
            "tls_context": context, "require_starttls": True}
        self.controller = Controller(
            Handler(), hostname="127.0.0.1", port=free_port(), authenticator=authenticator,
            # aiosmtpd does not see TLS from the first byte as TLS when it decides whether
            # to offer AUTH; the whole connection is TLS there anyway
            auth_require_tls=not implicit, **tls,
        )
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()


def _home(tmp_path: Path, port: int, ca_file: Path, *, implicit: bool) -> Path:
    home = init_home(tmp_path / "home")
    cfg = home / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data["smtp"] = {
        "host": "127.0.0.1", "port": port, "username": USER, "password": PASSWORD,
        "ca_file": str(ca_file), **({"ssl": True} if implicit else {"starttls": True}),
    }
    cfg.write_text(yaml.safe_dump(data))
    return home


@pytest.fixture(params=["starttls", "smtps"])
def tls_sink(request: pytest.FixtureRequest, certs: Path) -> Iterator[TlsSink]:
    sink = TlsSink(certs, implicit=request.param == "smtps")
    sink.implicit = request.param == "smtps"  # type: ignore[attr-defined]
    yield sink
    sink.stop()


def test_invitations_go_out_over_tls_with_login(tmp_path, certs, tls_sink, capsys):
    home = _home(tmp_path, tls_sink.controller.port, certs / "ca.crt",
                 implicit=tls_sink.implicit)  # type: ignore[attr-defined]
    assert main(["new", "--home", str(home), "--white", "w@players.test",
                 "--black", "b@players.test"]) == 0
    assert len(tls_sink.received) == 2
    assert tls_sink.logins, "the referee logged in"
    assert all(b"Subject:" in m for m in tls_sink.received)
    assert not list((home / "outbox" / "new").iterdir())  # nothing fell back to the Maildir


def test_an_untrusted_certificate_keeps_the_mail_queued_until_it_can_go(
    tmp_path, certs, tls_sink, capsys
):
    implicit = tls_sink.implicit  # type: ignore[attr-defined]
    home = _home(tmp_path, tls_sink.controller.port, certs / "other-ca.crt", implicit=implicit)
    code = main(["new", "--home", str(home), "--white", "w@players.test",
                 "--black", "b@players.test"])
    err = capsys.readouterr().err
    assert code == 0  # the game exists; its mail waits
    assert tls_sink.received == []
    assert "certificate" in err.lower() and "Traceback" not in err
    # the operator fixes the CA: the next flush sends both, once
    config = yaml.safe_load((home / "config.yaml").read_text())
    config["smtp"]["ca_file"] = str(certs / "ca.crt")
    (home / "config.yaml").write_text(yaml.safe_dump(config))
    assert main(["flush", "--home", str(home)]) == 0
    assert len(tls_sink.received) == 2
    assert main(["flush", "--home", str(home)]) == 0
    assert len(tls_sink.received) == 2
