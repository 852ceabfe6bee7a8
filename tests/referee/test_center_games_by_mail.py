"""A whole generated game of Classic and of Medieval Realm (and their variations) played
by mail through ``pbem mail``, from the invitations to the result.

The referee is the real command (``pbem new``, ``pbem mail`` reading the message on
standard input), in this process; its mails go over real SMTP to aiosmtpd on
127.0.0.1; the store is a real SQLite file. Each player replies to the referee's
last mail to him with the generated game's next turn; one wrong move per game is
refused with the legal alternatives, and the game goes on.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.records.generate import generate_game
from pbem.records.reader import read_games
from pbem.records.rulesets import load_ruleset
from pbem.records.validate import validate_source
from pbem.referee.config.home import Home
from pbem.referee.store import connect
from pbem.rules.game import Phase
from pbem.rules.registry import game_for
from pbem.rules.written import PassText
from tests.referee.clocked import FakeNow, clocked_table
from tests.referee.conftest import MailPlayer, SmtpSink, init_home, outbox_mails, text_of

#: a wrong move to send once per game, and what the refusal must say
WRONG = {
    "classic": ("Eb5b11", "is not next to b5"),
    "medieval": ("Eb5b2", "a Man moves only forward or sideways"),
}


def _passes(game) -> int:
    return sum(isinstance(texts[0], PassText) for _, texts in game.turns)


def shortest_game(preset: str):
    """The shortest of a few generated games of ``preset`` that ended by the rules; for
    Medieval one in which a side must pass (the referee writes those passes itself)."""
    ruleset = load_ruleset(preset)
    games = [generate_game(5, i, ruleset) for i in range(12)]
    finished = [g for g in games if g.final.phase is Phase.OVER]
    if ruleset.game == "medieval":
        finished = [g for g in finished if _passes(g)]
    return min(finished, key=lambda g: len(g.turns))


def mail(home: Path, raw: bytes, monkeypatch: pytest.MonkeyPatch, capsys) -> str:
    """``pbem mail`` with ``raw`` on standard input; what it printed."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    code = main(["mail", "--home", str(home)])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    out = captured.out
    return out


@pytest.mark.parametrize(
    # Classic plain, with Black first after placement, with double moves; Medieval
    "preset", ["classic", "classic-placement", "classic-double", "medieval"]
)
def test_a_generated_game_by_mail(
    preset: str, tmp_path: Path, smtp: SmtpSink, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    home = init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": smtp.port})
    played = shortest_game(preset)
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    assert main([
        "new", "--home", str(home), "--white", white.address, "--black", black.address,
        "--ruleset", preset, "--name", f"{preset} by mail",
    ]) == 0
    capsys.readouterr()

    def fetch() -> None:
        mails = smtp.messages()
        white.receive(mails)
        black.receive(mails)

    fetch()
    game = load_ruleset(preset).game
    invitation = text_of(white.inbox[0])
    assert f"a game of {game_for(game).title} by mail" in invitation
    assert "You move first. Reply to this mail with your first" in invitation
    # the key to the notation, in the game's own letters
    assert f" {game_for(game).notation_words.move} " in invitation
    assert "Pc10g10" not in invitation and "Bh11" not in invitation
    wrong, words = WRONG[game]
    refused_once = False
    for side, texts in played.turns:
        player = white if side.key == "white" else black
        if isinstance(texts[0], PassText):
            continue  # forced: the referee wrote it after the opponent's turn
        if not refused_once and not isinstance(texts[0], PassText) and "placement" not in preset:
            out = mail(home, player.reply(wrong), monkeypatch, capsys)
            assert out.startswith("refused"), out
            fetch()
            assert words in text_of(player.last)
            refused_once = True
        text = format_turn(TurnText(texts))
        out = mail(home, player.reply(f"{text}\n\nRegards\n"), monkeypatch, capsys)
        assert out.startswith("accepted"), (text, out)
        fetch()
    assert refused_once or "placement" in preset
    # both players get the result, in the game's own words
    for p in (white, black):
        assert p.last["X-Pbem-Kind"] == "result"
        assert played.final.result in text_of(p.last)
    conn = connect(Home(home).store_target(Home(home).load_config()))
    status, result, record = conn.execute(
        "SELECT status, result, record FROM games"
    ).fetchone()
    assert (status, result) == ("over", played.final.result)
    # the stored record is canonical notation that pbem validate agrees with
    report = validate_source(next(iter(read_games(record))))
    assert report.valid and not report.replay.warnings
    assert report.replay.result == played.final.result
    assert len(report.replay.turns) == len(played.turns)
    assert sum(t.text.actions[0].__class__ is PassText for t in report.replay.turns) == (
        _passes(played)
    )


def test_a_challenge_names_medieval_and_the_game_it_starts_is_medieval(home: Path) -> None:
    now = FakeNow()
    table = clocked_table(home, now)
    handled = table.send(table.white.reply("challenge newbie@fresh.test ruleset medieval"))
    assert handled.outcome == "accepted", handled.reason
    newbie = MailPlayer("newbie@fresh.test")
    newbie.receive(outbox_mails(home))
    assert "medieval" in text_of(newbie.last)
    assert table.send(newbie.reply("accept challenge 1")).outcome == "accepted"
    game = table.conn.execute("SELECT * FROM games WHERE name = 'Challenge 1'").fetchone()
    assert game["ruleset"] == "medieval" and game["status"] == "playing"
    newbie.receive(outbox_mails(home))
    invitation = next(m for m in newbie.inbox if m["X-Pbem-Kind"] == "invitation")
    assert "a game of Medieval Realm by mail" in text_of(invitation)
