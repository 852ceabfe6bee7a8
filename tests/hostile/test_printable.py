"""Text from mail reaches a terminal printable (item 10)."""

from __future__ import annotations

from pathlib import Path

from pbem.cli.printable import printable
from tests.referee.conftest import run_pbem
from tests.referee.helpers import new_table


def test_control_and_format_characters_are_shown_escaped() -> None:
    assert printable("plain text, ünïcödé") == "plain text, ünïcödé"
    assert printable("\x1b]0;pwned\x07\x1b[2J") == "\\x1b]0;pwned\\x07\\x1b[2J"
    assert printable("a\u202eb\x85c\x00") == "a\\u202eb\\x85c\\x00"
    assert printable("two\nlines", keep_newlines=True) == "two\nlines"
    assert printable("two\nlines") == "two\\x0alines"


def test_show_log_prints_no_escape_sequence_from_a_mail(home: Path) -> None:
    table = new_table(home)
    evil = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"
    raw = (f"From: white@players.test\r\nTo: referee@pbem.test\r\n"
           f"Subject: [realm g{table.game_id}-w-{table.token('w')}] {evil}\r\n"
           f"Message-ID: <esc1@players.test>\r\n\r\nBh11{evil}\r\n").encode()
    table.referee.handle(raw)
    raw = (f"From: white@players.test\r\nTo: referee@pbem.test\r\n"
           f"Subject: Re: [realm g{table.game_id}-w-{table.token('w')}] {evil}\r\n"
           f"Message-ID: <\x1b[31m{evil}@players.test>\r\n\r\nPz1z1{evil}\r\n").encode()
    table.referee.handle(raw)
    shown = run_pbem(home, "show", str(table.game_id), "--log")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout.decode("utf-8")
    assert "received" in out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    games = run_pbem(home, "games").stdout.decode("utf-8")
    assert "\x1b" not in games
