"""The article's sample game played by mail, from the invitations to the result.

Each player replies to the referee's last mail to him (In-Reply-To, and the key
that mail's Reply-To and subject carry); the referee's mails go over real SMTP
to aiosmtpd on 127.0.0.1; the store is a real SQLite file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.records.reader import read_file
from pbem.records.rulesets import load_ruleset
from pbem.records.validate import validate_source
from pbem.referee.home import Home
from pbem.referee.outbox import deliver
from pbem.referee.service import Referee
from pbem.referee.store import connect
from tests.referee.conftest import REPO, MailPlayer, SmtpSink, init_home, text_of

SAMPLE = REPO / "games" / "sample-game-2002.realm"


def sample_turns() -> list[tuple[str, str]]:
    source = next(iter(read_file(SAMPLE)))
    replay = validate_source(source).replay
    return [
        (t.label, format_turn(TurnText(tuple(r.canonical() for r in t.resolved))))
        for t in replay.turns
    ]


@pytest.fixture
def smtp_home(tmp_path: Path, smtp: SmtpSink) -> Path:
    return init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": smtp.port})


def test_the_sample_game_by_mail(smtp_home: Path, smtp: SmtpSink) -> None:
    home = Home(smtp_home)
    config = home.load_config()
    conn = connect(home.db_path)
    referee = Referee(conn, config)
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    game_id = referee.new_game(white.address, black.address, load_ruleset("featured"),
                               name="Sample by mail")
    assert deliver(conn, config, home.outbox_path).failed == 0

    def fetch() -> None:
        mails = smtp.messages()
        white.receive(mails)
        black.receive(mails)

    fetch()
    assert "You move first" in text_of(white.last)
    assert "You play: Black" in text_of(black.last)
    assert f"[realm g{game_id}-w-" in white.last["Subject"]

    for i, (label, text) in enumerate(sample_turns()):
        player = white if label.endswith("w") else black
        number = label[:-1]
        # some replies number the turn, some do not; all quote the referee's mail
        body = f"Hello,\n\n{number}{'.' if label.endswith('w') else '...'}{text}\n" if i % 3 == 0 \
            else f"{text}\n\nRegards\n-- \nA player\n"
        handled = referee.handle(player.reply(body))
        assert handled.outcome == "accepted", (label, handled)
        assert deliver(conn, config, home.outbox_path).failed == 0
        fetch()
        if label != "16w":
            opponent = black if player is white else white
            assert "your move" in opponent.last["Subject"], label
            assert "your move" not in player.last["Subject"]

    # the game ended the moment White created its 12th Base: both get the result
    for p in (white, black):
        result = text_of(p.last)
        assert "1-0 (White wins)" in result
        assert "White 8 Realms, Black 7" in result
        assert p.last["X-Pbem-Kind"] == "result"
    row = conn.execute("SELECT status, result, end_reason FROM games WHERE id = ?",
                       (game_id,)).fetchone()
    assert tuple(row) == ("over", "1-0", "bases")
    # the stored record is canonical notation that pbem validate agrees with
    record = conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    from pbem.records.reader import read_games

    report = validate_source(next(iter(read_games(record))))
    assert report.valid and report.replay.result == "1-0"
    assert not report.replay.warnings
    assert len(report.replay.turns) == 31
    # every mail went out once: 2 invitations, 2 reports per turn, 2 results
    assert len(smtp.received) == 2 + 2 * 31 + 2
    assert len({m["Message-ID"] for m in smtp.messages()}) == len(smtp.received)
    # a move after the end is refused, and changes nothing
    handled = referee.handle(black.reply("Pl4l10"))
    assert handled.outcome == "refused" and "over" in (handled.reason or "")
