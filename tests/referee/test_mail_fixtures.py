"""``.eml`` files from different mail programs, each with its expected orders and outcome.

Every fixture is a reply by White at turn 7 of the sample game (after set-up).
The orders must be found where the player wrote them (line and column of his own
text, quoted lines not counted; line 0 is the subject), and the message must then be handled as
expected by a real referee on a real SQLite store.
"""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest

from pbem.records.rulesets import load_ruleset
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.intake.extract import extract_body
from pbem.referee.intake.inbox import read_message
from pbem.referee.intake.orders import find_orders
from pbem.referee.store import connect
from tests.referee.conftest import MAIL_DIR
from tests.referee.test_sample_by_mail import sample_turns

FIXTURES = sorted(p.stem for p in MAIL_DIR.glob("*.eml"))


def expected(name: str) -> dict:
    return json.loads((MAIL_DIR / f"{name}.json").read_text(encoding="utf-8"))


def test_every_fixture_has_its_expected_result() -> None:
    assert len(FIXTURES) >= 12
    assert {p.stem for p in MAIL_DIR.glob("*.json")} == set(FIXTURES)


@pytest.mark.parametrize("name", FIXTURES)
def test_orders_are_found_where_the_player_wrote_them(name: str) -> None:
    raw = (MAIL_DIR / f"{name}.eml").read_bytes()
    want = expected(name)
    inc = read_message(raw)
    assert inc.body.source == want["source"]
    got = [[o.name, o.text, o.line, o.column] for o in find_orders(inc.subject, inc.body.lines)]
    assert got == want["orders"]
    if want.get("charset_note"):
        assert inc.body.charset_note
    # the line is numbered as the player's own text (quotes not counted, issue 23.9) and
    # the column points at the text in that line
    lines = {bl.number: bl.text for bl in inc.body.lines}
    for _, text, line, column in want["orders"]:
        if line:
            assert lines[line][column - 1 :].startswith(text.split()[0])


@pytest.mark.parametrize("name", FIXTURES)
def test_each_fixture_is_handled_as_expected(name: str, home: Path) -> None:
    h = Home(home)
    conn = connect(h.store_target(h.load_config()))
    referee = Referee(conn, h.load_config())
    game_id = referee.new_game("white@players.test", "black@players.test",
                               load_ruleset("featured"))
    tokens = dict(conn.execute("SELECT side, token FROM players WHERE game_id = ?", (game_id,)))
    # set-up (turns 1w to 6b) by mail with the key line, then the fixture
    for i, (label, text) in enumerate(sample_turns()[:12]):
        side = label[-1]
        sender = "white@players.test" if side == "w" else "black@players.test"
        raw = (f"From: {sender}\r\nTo: referee@pbem.test\r\nSubject: set-up\r\n"
               f"Message-ID: <setup{i}@players.test>\r\n\r\n{text}\r\nkey {tokens[side]}\r\n")
        assert referee.handle(raw.encode()).outcome == "accepted"
    raw = (MAIL_DIR / f"{name}.eml").read_bytes()
    raw = raw.replace(b"abcd2345", tokens["w"].encode()).replace(b"g1-w", f"g{game_id}-w".encode())
    handled = referee.handle(raw)
    assert handled.outcome == expected(name)["outcome"], handled
    assert handled.game_id == game_id
    if handled.outcome == "accepted" and "turn" in [o[0] for o in expected(name)["orders"]]:
        label = conn.execute(
            "SELECT label FROM turns WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()[0]
        assert label == "7w"


def test_html_only_mail_keeps_text_and_drops_quotes() -> None:
    raw = (MAIL_DIR / "html-only-gmail.eml").read_bytes()
    body = extract_body(email.message_from_bytes(raw, policy=email.policy.compat32))
    assert "old" not in body.text and "Pi10i6(Bh5)" in body.text
