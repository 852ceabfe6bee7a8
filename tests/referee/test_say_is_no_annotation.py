"""A player's comment by mail is a message, never an annotation: the opponent reads it,
and the game's page on the live site shows no comment, mark or side line for it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pbem.referee.config.home import Home
from pbem.referee.public.publish import update_site
from tests.referee.clocked import FakeNow
from tests.referee.conftest import init_home, text_of
from tests.referee.every_mail import _play, _registration


def test_a_said_comment_reaches_the_opponent_and_is_no_annotation(tmp_path: Path) -> None:
    home = init_home(tmp_path / "home")
    _registration(home, False)  # and the live site
    table = _play(home, FakeNow(), "featured", "white@players.test", "black@players.test")
    white, black = table.white, table.black
    table.send(white.reply("Bh11\nsay What a lovely opening, isn't it!"))
    table.send(black.reply("Bh2 !? {my own notes} [1...Bb2]"))  # a mark by mail is notation
    assert table.turns() == ["1w", "1b"]
    assert update_site(table.conn, Home(home).load_config(), home).problem is None
    said = [text_of(m) for m in black.inbox]
    assert any("What a lovely opening" in t for t in said)
    page = (home / "site" / "games" / "game-1.html").read_text(encoding="utf-8")
    assert "lovely opening" not in page
    frames = json.loads(re.search(r'<script type="application/json" id="frames">(.*?)</script>',
                                  page, re.S).group(1))
    assert all("cm" not in f for f in frames)  # no comment on any move
    lines = json.loads(re.search(r'<script type="application/json" id="lines">(.*?)</script>',
                                 page, re.S).group(1))
    assert lines["lines"] == []  # and no side line from a player's mail
    assert 'class="comment"' not in page
