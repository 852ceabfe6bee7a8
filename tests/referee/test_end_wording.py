"""Issue 23, item 10: the game's end is one mail to each player (with the board); counts
agree in number; the result line ends with a full stop; ``pbem games`` says how a game
ended off the board; ``pbem init`` writes a commented ``site:`` example."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem.referee.config.home import Home
from pbem.referee.public.publish import site_settings
from pbem.rules.game import counted
from tests.referee.conftest import run_pbem, text_of
from tests.referee.helpers import new_table


def test_counts_agree_in_number() -> None:
    assert [counted(n, "Realm", "Realms") for n in (0, 1, 2)] == [
        "0 Realms", "1 Realm", "2 Realms"]


def test_a_resigned_game_is_one_mail_each_with_a_full_stop(home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11\nsay good game")).outcome == "accepted"
    before = {m["Message-ID"] for m in table.white.inbox + table.black.inbox}
    assert table.send(table.black.reply("Bh2\nresign")).outcome == "accepted"
    for player in (table.white, table.black):
        new = list({m["Message-ID"]: m for m in player.inbox
                    if m["Message-ID"] not in before}.values())
        assert [m["X-Pbem-Kind"] for m in new] == ["result"], [m["Subject"] for m in new]
        text = text_of(new[0])
        assert "Played: #1b Bh2" in text  # what the report would have said, on top
        assert "is over: Black resigned." in text and "Result: 1-0 (White wins)." in text
        html = new[0].get_body(("html",)).get_content()
        # every line of the result ends with a full stop (the score folded at its tie-break)
        assert "Score:  White 1 Realm, Black 1;\n    Enforcers (mobile + in supply) White 8, " \
            "Black 8.\n" in text, text
        assert "(White wins).</td>" in html and "Black 8.</td>" in html
    games = run_pbem(home, "games").stdout.decode()
    assert "Black resigned" in games and "last end" not in games


def test_a_game_drawn_by_agreement_says_so_in_games(home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("offer draw")).outcome == "accepted"
    assert table.send(table.black.reply("accept draw")).outcome == "accepted"
    games = run_pbem(home, "games").stdout.decode()
    assert "drawn by agreement" in games and "last end" not in games


def test_init_writes_a_commented_site_example_that_works_uncommented(tmp_path: Path) -> None:
    home = tmp_path / "h"
    assert run_pbem(home, "init", "--address", "ref@club.test").returncode == 0
    text = (home / "config.yaml").read_text()
    assert "# site:\n#   path: " in text
    lines = text.split("\n")
    start = lines.index("# site:")
    uncommented = [line[2:] if line.startswith("# ") else line for line in lines[start:start + 4]]
    site = yaml.safe_load("\n".join(uncommented))["site"]
    config = Home(home).load_config()
    config.extra["site"] = site
    settings = site_settings(config, home)
    assert settings is not None and settings.title == "Club games"


def test_the_live_index_says_who_is_to_move_and_the_rating_mark_is_explained(
        home: Path) -> None:
    cfg = yaml.safe_load((home / "config.yaml").read_text())
    cfg["site"] = {"path": "site", "url": "https://realm.example/club", "title": "Club"}
    (home / "config.yaml").write_text(yaml.safe_dump(cfg))
    table = new_table(home)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert run_pbem(home, "site").returncode == 0
    index = (home / "site" / "index.html").read_text(encoding="utf-8")
    assert ">Black to move, #1b</td>" in index and ">in play</td>" in index
    assert ">*</td>" not in index and ">valid</td>" not in index
    assert "? provisional" in text_of(table.black.last)


def test_the_rating_mark_is_explained_wherever_a_rating_is_shown(home: Path) -> None:
    """The '?' after a provisional rating is explained, in the same words, in the mails
    (text and HTML), by ``pbem ratings`` and on the site's ratings page."""
    from pbem.ratings.table import PROVISIONAL_WORDS

    cfg = yaml.safe_load((home / "config.yaml").read_text())
    cfg["site"] = {"path": "site", "url": "https://realm.example/club", "title": "Club"}
    (home / "config.yaml").write_text(yaml.safe_dump(cfg))
    table = new_table(home)
    assert table.send(table.white.reply("resign")).outcome == "accepted"
    result = table.black.last
    html = result.get_body(("html",)).get_content()
    for shown in (text_of(result), html):
        assert "?" in shown and PROVISIONAL_WORDS in " ".join(shown.split())
    out = run_pbem(home, "ratings")
    assert out.returncode == 0
    listing = " ".join(out.stdout.decode().split())
    assert "1742?" in listing or "1258?" in listing
    assert PROVISIONAL_WORDS in listing
    assert run_pbem(home, "site").returncode == 0
    page = " ".join((home / "site" / "ratings.html").read_text(encoding="utf-8").split())
    assert "?</td>" in page and PROVISIONAL_WORDS in page


def test_a_level_score_keeps_its_tie_break_whole_in_the_mails(home: Path) -> None:
    """One Realm each: the score's tie-break ("Enforcers (mobile + in supply) White 8,
    Black 8") stays on one line of the text, in the report and in a refusal's board."""
    table = new_table(home)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("Bh2")).outcome == "accepted"
    tie = "Enforcers (mobile + in supply) White 8, Black 8"
    report = text_of(table.white.last)
    assert "Score so far: White 1 Realm, Black 1;\n  " + tie + " (level)" in report, report
    assert table.send(table.white.reply("Xz99")).outcome == "refused"
    refusal = text_of(table.white.last)
    assert any(tie in line for line in refusal.splitlines()), refusal
    html = " ".join(table.black.last.get_body(("html",)).get_content().split())
    assert tie + " (level)" in html


def test_counts_agree_in_number_in_the_other_games() -> None:
    """Each game speaks its own words, and its counts agree: Oriental Realm's score of a
    game where nobody was surrounded."""
    from dataclasses import replace

    from pbem.rules.geometry import parse_square
    from pbem.rules.oriental.game import OrientalGame
    from pbem.rules.pieces import Kind, Piece, Side

    game = OrientalGame()
    start = game.initial(game.default_ruleset())
    board: list[Piece | None] = [None] * len(start.board)
    board[parse_square("e5")] = Piece(Side.WHITE, Kind.ENFORCER)
    board[parse_square("e8")] = Piece(Side.BLACK, Kind.ENFORCER)
    board[parse_square("h8")] = Piece(Side.BLACK, Kind.POWER)
    assert game.score(replace(start, board=tuple(board))) == (
        "nobody surrounded: White 1 piece, Black 2")


def _new_mails(table, seen: set[str]) -> dict[str, list[str]]:
    return {p.address: [str(m["X-Pbem-Kind"]) for m in p.inbox if m["Message-ID"] not in seen]
            for p in (table.white, table.black)}


def test_every_way_a_game_ends_is_one_mail_to_each_player_with_the_board(home: Path) -> None:
    """A draw agreed, and a loss on time by the clock: one result mail each, with its
    PNG board (as a resignation, above, and the end on the board)."""
    from tests.referee.clocked import FakeNow, clocked_table, tick

    table = new_table(home)
    assert table.send(table.white.reply("offer draw")).outcome == "accepted"
    seen = {m["Message-ID"] for m in table.white.inbox + table.black.inbox}
    assert table.send(table.black.reply("accept draw")).outcome == "accepted"
    assert _new_mails(table, seen) == {table.white.address: ["result"],
                                       table.black.address: ["result"]}
    now = FakeNow()
    timed = clocked_table(home, now, "days 1, forfeit", "w2@players.test", "b2@players.test")
    seen = {m["Message-ID"] for m in timed.white.inbox + timed.black.inbox}
    now.advance(days=2, hours=1)  # White's day is over: he loses on time
    assert tick(timed).forfeits == 1
    assert _new_mails(timed, seen) == {timed.white.address: ["result"],
                                       timed.black.address: ["result"]}
    for mail in (timed.white.last, timed.black.last, table.white.last, table.black.last):
        assert any(part.get_content_type() == "image/png" for part in mail.walk())
