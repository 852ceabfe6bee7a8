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
from pbem.records.reader import read_file, read_games
from pbem.records.rulesets import load_ruleset
from pbem.records.validate import validate_source
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.outgoing.delivery import deliver
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
    conn = connect(home.store_target(home.load_config()))
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
    # every mail went out once: 2 invitations, 2 reports per turn but the last, whose
    # news the result mail carries (one mail each at the end, issue 23.10), 2 results
    assert len(smtp.received) == 2 + 2 * 30 + 2
    assert len({m["Message-ID"] for m in smtp.messages()}) == len(smtp.received)
    # a move after the end is refused, and changes nothing
    handled = referee.handle(black.reply("Pl4l10"))
    assert handled.outcome == "refused" and "over" in (handled.reason or "")


def written_turns() -> list[tuple[str, str, str]]:
    """(label, the turn as the scanned record writes it, its canonical reading)."""
    source = next(iter(read_file(SAMPLE)))
    replay = validate_source(source).replay
    return [
        (t.label, format_turn(t.text),
         format_turn(TurnText(tuple(r.canonical() for r in t.resolved))))
        for t in replay.turns
    ]


def _board_rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln[:3].strip().isdigit() and "|" in ln]


def test_the_sample_game_as_written_never_plays_a_silent_repair(smtp_home: Path,
                                                                smtp: SmtpSink) -> None:
    """The scanned record's look-alike letters (``Pd1L1``, ``EI7a7``) mailed as they are:
    each is refused with the legal reading offered, and the player's reply with it plays.
    A draw offer made with a turn reaches the opponent; Black's boards are Black's view."""
    home = Home(smtp_home)
    config = home.load_config()
    conn = connect(home.store_target(home.load_config()))
    referee = Referee(conn, config)
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    referee.new_game(white.address, black.address, load_ruleset("featured"), name="Sample")

    def send(player: MailPlayer, body: str) -> str:
        handled = referee.handle(player.reply(body))
        assert deliver(conn, config, home.outbox_path).failed == 0
        mails = smtp.messages()
        white.receive(mails)
        black.receive(mails)
        return handled.outcome

    assert deliver(conn, config, home.outbox_path).failed == 0  # the invitations
    white.receive(smtp.messages())
    black.receive(smtp.messages())
    refused = 0
    for label, written, canonical in written_turns():
        player = white if label.endswith("w") else black
        body = written + ("\noffer draw" if label == "12w" else "")
        if send(player, body) == "refused":
            refused += 1
            said = " ".join(text_of(player.last).split())  # the reason is wrapped at 78
            assert "Did you mean" in said and "Reply with it to play it." in said, label
            meant = said.split("Did you mean ", 1)[1].split("?", 1)[0]
            assert meant == canonical, label
            assert send(player, meant + ("\noffer draw" if label == "12w" else "")) == \
                "accepted", label
        if label == "12w":  # the offer rode with the turn: Black reads it in the report
            report = text_of(black.last)
            assert "White offers a draw" in report and "accept draw" in report
        if label == "12b":  # Black played on: the offer lapsed, and White is told
            assert "The offer that stood lapsed with this turn." in text_of(white.last)
        if label == "15b":  # Black's Enforcer on l6 points West: ">" from Black's side
            mine, theirs = text_of(black.last), text_of(white.last)
            assert "bE>" in mine and "bE<" in theirs
            rows_b, rows_w = _board_rows(mine), _board_rows(theirs)
            assert rows_b[0].startswith(" 1 |") and rows_w[0].startswith("12 |")
    assert refused == 5  # 8b, 9w, 11w, 11b and 15b hold look-alike letters
    row = conn.execute("SELECT status, result FROM games").fetchone()
    assert tuple(row) == ("over", "1-0")
    record = conn.execute("SELECT record FROM games").fetchone()[0]
    report = validate_source(next(iter(read_games(record))))
    assert report.valid and not report.replay.warnings
