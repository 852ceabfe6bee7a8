"""The Warning Option by mail: a whole generated Oriental game with the option, played
through the referee to its result (real SMTP to aiosmtpd on 127.0.0.1, a real
SQLite store); each report to the player to move carries a warning exactly when one
of his groups can be surrounded on the opponent's next turn. (Every game's whole
game by mail through ``pbem new`` and ``pbem mail`` is ``test_games_by_mail.py``.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.players import modern, oriental
from pbem.records.reader import read_games
from pbem.records.rulesets import load_ruleset
from pbem.records.validate import validate_source
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.outgoing.delivery import deliver
from pbem.referee.store import connect
from pbem.rules.game import Phase
from pbem.rules.oriental.warning import threatened_groups
from pbem.rules.pieces import Side
from tests.referee.conftest import MailPlayer, SmtpSink, init_home, text_of

PLAYERS = {"oriental": oriental, "modern": modern}


@pytest.fixture
def smtp_home(tmp_path: Path, smtp: SmtpSink) -> Path:
    return init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": smtp.port})


def _generated(preset: str, seed: int):
    """A whole game of ``preset`` by its random player, with no pass in it (the referee
    writes a pass by itself; see the Featured Game's tests for that)."""
    ruleset = load_ruleset(preset)
    player = PLAYERS[ruleset.game]
    for s in range(seed, seed + 50):
        played = player.play_random_game(random.Random(s), ruleset)
        if played.final.phase is Phase.OVER and not any(
            type(step.action).__name__ == "Pass" for turn in played.turns for step in turn
        ):
            return ruleset, played, player
    raise AssertionError("no finished game without a pass")


def _play_by_mail(smtp_home: Path, smtp: SmtpSink, preset: str, seed: int):
    ruleset, played, player = _generated(preset, seed)
    home = Home(smtp_home)
    config = home.load_config()
    conn = connect(home.store_target(home.load_config()))
    referee = Referee(conn, config)
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    game_id = referee.new_game(white.address, black.address, ruleset, name=f"{preset} by mail")
    assert deliver(conn, config, home.outbox_path).failed == 0

    def fetch() -> None:
        mails = smtp.messages()
        white.receive(mails)
        black.receive(mails)

    fetch()
    reports = []
    for turn in played.turns:
        side = turn[0].side
        text = format_turn(TurnText(player.written_turn(turn)))
        mover = white if side is Side.WHITE else black
        handled = referee.handle(mover.reply(f"{text}\n\nRegards\n"))
        assert handled.outcome == "accepted", (text, handled)
        assert deliver(conn, config, home.outbox_path).failed == 0
        fetch()
        opponent = black if mover is white else white
        reports.append((turn[-1].after, text_of(opponent.last)))
    row = conn.execute(
        "SELECT status, result FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    assert tuple(row) == ("over", played.final.result)
    for p in (white, black):
        assert p.last["X-Pbem-Kind"] == "result"
    record = conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    report = validate_source(next(iter(read_games(record))))
    assert report.valid and report.replay.result == played.final.result
    assert not report.replay.warnings
    return played, reports


def test_the_warning_notice_appears_exactly_when_a_group_can_be_surrounded(
    smtp_home: Path, smtp: SmtpSink
):
    _, reports = _play_by_mail(smtp_home, smtp, "oriental-warning", seed=11)
    seen = {True: 0, False: 0}
    for position, text in reports:
        if position.phase is not Phase.PLAY:
            continue
        threatened = bool(threatened_groups(position, position.to_move))
        assert ("Warning:" in text) is threatened, text
        seen[threatened] += 1
    assert seen[True] and seen[False]  # both ways in one game
