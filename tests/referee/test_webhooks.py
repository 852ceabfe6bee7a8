"""Issue 25 part 3: webhooks. A real HTTP server on 127.0.0.1 (``allow_loopback``) hears
one call per turn change across a whole game with conditional answers; refusals are
tested with IP literals and a stub resolver, never with a packet to a private range; a
failing hook never delays a mail; a URL that fails for good is dropped and its owner
told by mail."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pbem.referee.config.home import Home
from pbem.referee.outgoing.hook_outbox import deliver_hooks
from pbem.referee.outgoing.webhooks import (
    HookFailed,
    HookSettings,
    allowed_address,
    call,
    check_url,
    checked_addresses,
)
from pbem.referee.store import delivery
from tests.referee.conftest import free_port, init_home
from tests.referee.helpers import Table, new_table
from tests.referee.test_sample_by_mail import sample_turns

TURNS = sample_turns()
OPEN = HookSettings(allow_loopback=True, timeout=5)
CLOSED = HookSettings()


class Hooks:
    """An HTTP server on 127.0.0.1 that keeps every call; ``status`` answers paths."""

    def __init__(self, on_call=None) -> None:
        self.calls: list[tuple[str, dict]] = []
        self.status: dict[str, int] = {}
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(size))
                if on_call is not None:
                    on_call(self.path, body)
                hooks.calls.append((self.path, body))
                self.send_response(hooks.status.get(self.path, 204))
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def at(self, path: str) -> list[dict]:
        return [b for p, b in self.calls if p == path]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    h = Hooks()
    yield h
    h.stop()


def hooked_home(tmp_path: Path, url: str) -> Path:
    home = init_home(tmp_path / "home")
    cfg = home / "config.yaml"
    cfg.write_text(cfg.read_text() + f"webhooks: {{url: '{url}', allow_loopback: true}}\n")
    return home


def loopback_home(tmp_path: Path) -> Path:
    home = init_home(tmp_path / "home")
    cfg = home / "config.yaml"
    cfg.write_text(cfg.read_text() + "webhooks: {allow_loopback: true}\n")
    return home


def send(table: Table, raw: bytes) -> str:
    handled = table.send(raw)
    deliver_hooks(table.conn, Home(table.home).load_config())
    return handled.outcome


# -- the URL and the address, refused before any packet --------------------------------------
@pytest.mark.parametrize("url", [
    "http://hooks.example.org/x", "ftp://hooks.example.org/x", "https://user:pw@hooks.example/x",
    "https://hooks.example.org/to/alice@example.org", "https:///nohost", "https://h/" + "x" * 600,
    "http://127.0.0.1:8080/x", "http://10.0.0.1/x", "javascript:alert(1)",
])
def test_urls_that_are_refused(url: str) -> None:
    assert check_url(url, CLOSED) is not None


def test_plain_http_only_to_loopback_and_only_when_allowed() -> None:
    assert check_url("http://127.0.0.1:8080/x", OPEN) is None
    assert check_url("http://10.0.0.1/x", OPEN) is not None
    assert check_url("http://localhost/x", OPEN) is not None  # a name could resolve anywhere
    assert check_url("https://discord.com/api/webhooks/1/abc", CLOSED) is None


@pytest.mark.parametrize("address", [
    "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "127.0.0.1", "0.0.0.0",
    "100.64.0.1", "224.0.0.1", "::1", "fc00::1", "fe80::1", "::ffff:10.0.0.1",
    "::ffff:127.0.0.1", "240.0.0.1", "not-an-address",
])
def test_private_and_reserved_addresses_are_refused(address: str) -> None:
    assert not allowed_address(address, CLOSED)


def test_public_addresses_pass_and_loopback_only_when_allowed() -> None:
    assert allowed_address("93.184.215.14", CLOSED)
    assert allowed_address("2606:4700::6810:85e5", CLOSED)
    assert allowed_address("127.0.0.1", OPEN) and not allowed_address("10.0.0.1", OPEN)


def test_a_name_resolving_to_one_private_address_is_refused_before_connecting(
        monkeypatch) -> None:
    def no_packets(*args, **kwargs):
        raise AssertionError("no connection may be made")

    monkeypatch.setattr(socket, "create_connection", no_packets)
    stub = {"hooks.example.org": ["93.184.215.14", "10.0.0.5"],
            "rebind.example.org": ["169.254.169.254"]}
    for host in stub:
        with pytest.raises(HookFailed) as refused:
            call(f"https://{host}/hook", b"{}", CLOSED, resolver=lambda h, p: stub[h])
        assert refused.value.permanent and "public addresses only" in refused.value.words
    assert checked_addresses("ok.example", 443, CLOSED,
                             lambda h, p: ["93.184.215.14"]) == ["93.184.215.14"]


# -- a whole game ---------------------------------------------------------------------------
def test_one_call_per_turn_change_across_a_game_with_conditional_answers(
        tmp_path: Path, hooks: Hooks) -> None:
    table = new_table(hooked_home(tmp_path, hooks.url("/club")))
    deliver_hooks(table.conn, Home(table.home).load_config())
    assert send(table, table.black.reply(f"notify webhook {hooks.url('/black')}")) == "accepted"
    units = 0
    turns = dict(TURNS)
    done: set[str] = set()
    for label, text in TURNS:
        if label in done:
            continue
        player = table.white if label.endswith("w") else table.black
        body = text
        if label == "7w":  # with its answer to 7b: 8w plays at once, when 7b comes
            body = f"{text}\nif {turns['7b']} then {turns['8w']}\n"
        if label == "12b":  # and Black's to 13w
            body = f"{text}\nif {turns['13w']} then {turns['13b']}\n"
        assert send(table, player.reply(body)) == "accepted", label
        units += 1
        done.add(label)
        if label == "7b":
            done.add("8w")
        if label == "13w":
            done.add("13b")
    assert table.turns()[-1] == TURNS[-1][0]
    club = hooks.at("/club")
    assert [c["event"] for c in club] == ["turn"] * (units - 1) + ["end"]
    # one call per change: never two for the same turn, never the one answered at once
    labels = [c["turn"] for c in club[:-1]]
    assert len(labels) == len(set(labels))
    assert "8w" not in labels and "13b" not in labels and "8b" in labels and "14w" in labels
    mine = hooks.at("/black")
    assert [c["turn"] for c in mine if c["event"] == "turn"] == [
        t for t in labels if t.endswith("b")]
    assert mine[-1]["event"] == "end"
    for _, body in hooks.calls:
        assert set(body) == {"event", "game", "name", "turn", "to_move", "deadline", "url",
                             "content", "text"}
        assert body["content"] == body["text"] and body["game"] == table.game_id
        assert "@" not in json.dumps(body)


def test_an_offer_calls_the_hook_of_the_player_offered_to(tmp_path: Path,
                                                          hooks: Hooks) -> None:
    table = new_table(loopback_home(tmp_path))
    assert send(table, table.white.reply(f"notify webhook {hooks.url('/w')}")) == "accepted"
    assert send(table, table.black.reply("offer draw")) == "accepted"
    assert [c["event"] for c in hooks.at("/w")] == ["offer"]
    assert "Black offers a draw" in hooks.at("/w")[0]["content"]


def test_a_failing_hook_never_delays_a_mail(tmp_path: Path) -> None:
    """The hook's server looks into the outbox when it is called: the mail is there."""
    seen: list[int] = []
    home_box: list[Path] = []

    def on_call(path: str, body: dict) -> None:
        seen.append(len(list((home_box[0] / "outbox" / "new").iterdir())))

    hooks = Hooks(on_call)
    hooks.status["/club"] = 503
    try:
        home = hooked_home(tmp_path, hooks.url("/club"))
        home_box.append(home)
        from pbem.cli import main

        assert main(["new", "--white", "white@players.test", "--black", "black@players.test",
                     "--home", str(home)]) == 0
        table_mails = len(list((home / "outbox" / "new").iterdir()))
        assert table_mails == 2
        # no call yet (a new game is no turn change); a turn by the CLI's mail path
        table = new_table(home)  # a second game, through the same store
        raw = table.white.reply("Bh11")
        import io
        import sys

        stdin = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw))
        try:
            assert main(["mail", "--home", str(home)]) == 0
        finally:
            sys.stdin = stdin
        assert seen, "the hook was called"
        assert seen[0] == len(list((home / "outbox" / "new").iterdir()))  # mail went first
        conn = table.conn
        row = conn.execute("SELECT status, attempts, next_attempt_at, last_error FROM "
                           "hook_calls ORDER BY id DESC").fetchone()
        assert row["status"] == "queued" and row["last_error"] == "HTTP 503"
        # a closed port fails for now too, and the mail of the next turn goes all the same
        cfg = home / "config.yaml"
        cfg.write_text(cfg.read_text().replace(hooks.url("/club"),
                                               f"http://127.0.0.1:{free_port()}/gone"))
        assert table.send(table.black.reply("Bk2")).outcome == "accepted"
        result = deliver_hooks(conn, Home(home).load_config(), everything=True)
        assert result.failed >= 1 and result.sent == 0
    finally:
        hooks.stop()


def test_a_hook_that_fails_for_good_is_dropped_and_its_owner_told(tmp_path: Path,
                                                                  hooks: Hooks) -> None:
    table = new_table(loopback_home(tmp_path))
    hooks.status["/gone"] = 404
    assert send(table, table.black.reply(f"notify webhook {hooks.url('/gone')}")) == "accepted"
    assert send(table, table.white.reply("Bh11")) == "accepted"
    assert len(hooks.at("/gone")) == 1
    assert delivery.player_hook(table.conn, "black@players.test") is None
    table.deliver()
    told = [m for m in table.black.inbox if "webhook was dropped" in m["Subject"]]
    assert told and hooks.url("/gone") in told[0].get_body(("plain",)).get_content()
    report = [m for m in table.black.inbox if m["X-Pbem-Kind"] == "report"][-1]
    assert send(table, table.black.reply("Bh2", to=report)) == "accepted"
    assert send(table, table.white.reply("Be8")) == "accepted"
    assert len(hooks.at("/gone")) == 1  # never called again


def test_notify_refuses_a_private_or_plain_url(tmp_path: Path) -> None:
    table = new_table(init_home(tmp_path / "home"))
    assert table.send(table.black.reply("notify webhook http://10.0.0.1/x")).outcome == (
        "refused")
    assert "https://" in table.black.inbox[-1].get_body(("plain",)).get_content()
    assert table.send(table.black.reply("notify off")).outcome == "accepted"
