"""Hostile and broken mails (``mail/*.eml``), each with its expected outcome (``.json``).

Every fixture is a mail to a fresh game between white@players.test and
black@players.test, White to play 1w; ``abcd2345`` in a fixture stands for White's
key and ``g1`` for the game. The referee handles it on a real store, and the
outcome, the sender it read, the mails it queued and the turns it played must be
the expected ones. Nothing may raise.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.records.rulesets import load_ruleset
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.intake.inbox import read_message
from pbem.referee.store import connect
from tests.referee.conftest import init_home

MAIL = Path(__file__).with_name("mail")
FIXTURES = sorted(p.stem for p in MAIL.glob("*.eml"))


def expected(name: str) -> dict:
    return json.loads((MAIL / f"{name}.json").read_text(encoding="utf-8"))


def test_every_fixture_has_its_expected_outcome() -> None:
    assert len(FIXTURES) >= 12
    assert {p.stem for p in MAIL.glob("*.json")} == set(FIXTURES)
    for name in FIXTURES:
        assert {"about", "item", "outcome", "mails", "turns"} <= set(expected(name)), name


def fixture_for_game(name: str, game_id: int, token: str) -> bytes:
    raw = (MAIL / f"{name}.eml").read_bytes()
    return raw.replace(b"abcd2345", token.encode()).replace(b"g1-w", f"g{game_id}-w".encode())


@pytest.mark.parametrize("name", FIXTURES)
def test_each_hostile_mail_is_handled_as_expected(name: str, tmp_path: Path) -> None:
    want = expected(name)
    h = Home(init_home(tmp_path / "home"))
    conn = connect(h.store_target(h.load_config()))
    referee = Referee(conn, h.load_config())
    game_id = referee.new_game("white@players.test", "black@players.test",
                               load_ruleset("featured"))
    token = conn.execute("SELECT token FROM players WHERE game_id = ? AND side = 'w'",
                         (game_id,)).fetchone()[0]
    raw = fixture_for_game(name, game_id, token)
    if "sender" in want:
        assert read_message(raw).sender == want["sender"]
    before = conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
    handled = referee.handle(raw)
    assert handled.outcome == want["outcome"], handled
    if "reason" in want:
        assert want["reason"] in (handled.reason or ""), handled
    queued = conn.execute("SELECT count(*) FROM outbox").fetchone()[0] - before
    assert queued == want["mails"], handled
    turns = conn.execute("SELECT count(*) FROM turns WHERE game_id = ? AND seq > 0",
                         (game_id,)).fetchone()[0]
    assert turns == want["turns"]
