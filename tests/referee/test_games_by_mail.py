"""A whole generated game of every other game on the board, played by mail.

``pbem new --ruleset GAME`` invites both players; each turn goes in through ``pbem
mail`` as a reply to the referee's last mail (over real SMTP to aiosmtpd on
127.0.0.1, a real SQLite store), until the rules end the game and both players
get the result. The Featured Game has its own whole game by mail
(``test_sample_by_mail.py``).
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.notation.format import format_turn
from pbem.notation.syntax import TurnText
from pbem.players.registry import policy
from pbem.rules.game import result_words
from pbem.rules.registry import game_for
from tests.referee.conftest import MailPlayer, SmtpSink, init_home, text_of

#: a seed whose game ends by the rules in few turns, per game (the test stays quick)
SEEDS = {"classic": 9, "medieval": 27, "oriental": 24, "modern": 11}


def _pbem(args: list[str], stdin: bytes = b"") -> tuple[int, str]:
    out = io.StringIO()
    old_stdin, old_stdout = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    sys.stdout = out
    try:
        code = main(args)
    finally:
        sys.stdin, sys.stdout = old_stdin, old_stdout
    return code, out.getvalue()


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_a_generated_game_by_mail(name: str, tmp_path: Path, smtp: SmtpSink) -> None:
    game = game_for(name)
    played = policy(name).generate(random.Random(SEEDS[name]), game.default_ruleset())
    assert played.final.result is not None
    home = init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": smtp.port})
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    code, out = _pbem(["new", "--home", str(home), "--ruleset", name,
                       "--white", white.address, "--black", black.address])
    assert code == 0, out

    def fetch() -> None:
        mails = smtp.messages()
        white.receive(mails)
        black.receive(mails)

    fetch()
    assert game.title in text_of(white.last)  # the invitation names the game's rules
    for side, texts in played.turns:
        player = white if side.letter == "w" else black
        code, out = _pbem(["mail", "--home", str(home)],
                          player.reply(format_turn(TurnText(texts)) + "\n"))
        assert code == 0 and out.startswith("accepted"), (name, out)
        fetch()
    for p in (white, black):
        result = text_of(p.last)
        assert f"{played.final.result} ({result_words(played.final.result)})" in result, result
        assert "game over" in p.last["Subject"]
