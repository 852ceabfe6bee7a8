"""Ratings in the referee: rated and unrated games, every way a game ends, a rollback after
the end, one rating per game of the family, ``pbem ratings``, the reports and the live
site's ratings page (never an address)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from pbem.ratings.glicko2 import Settings
from pbem.ratings.table import Finished, fold
from pbem.referee.config.home import Home
from pbem.referee.public.club_ratings import club_ratings, finished
from pbem.referee.store import connect
from pbem.referee.store import schema as store_schema
from tests.golden import check_golden
from tests.referee.clocked import START, FakeNow, clocked_table, tick
from tests.referee.conftest import MailPlayer, outbox_mails, text_of
from tests.referee.helpers import new_table

ANN, BOB, CY = "ann@club.test", "bob@club.test", "cy@club.test"


def _pbem(home: Path, *args: str) -> int:
    return main([*args, "--home", str(home)])


def _new(home: Path, white: str, black: str, *extra: str, capsys) -> int:
    assert _pbem(home, "new", "--white", white, "--black", black, "--no-send", *extra) == 0
    return int(capsys.readouterr().out.split()[-1])


def _config(home: Path, **settings: object) -> None:
    path = home / "config.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(settings)
    path.write_text(yaml.safe_dump(data))


def _db(home: Path) -> sqlite3.Connection:
    return connect(Home(home).store_target(Home(home).load_config()))


def _ratings(home: Path, capsys, *args: str) -> str:
    capsys.readouterr()
    assert _pbem(home, "ratings", *args) == 0
    return capsys.readouterr().out


@pytest.fixture
def club(home: Path, capsys) -> Path:
    """Three finished rated games (an adjudication each way and a draw), one unrated,
    one Classic game, one still in play; a live site."""
    _config(home, site={"path": "site", "title": "The <Club>"})
    g1 = _new(home, ANN, BOB, "--white-name", "Ann", capsys=capsys)
    g2 = _new(home, BOB, CY, "--black-name", "Cy <i>", capsys=capsys)
    g3 = _new(home, CY, ANN, capsys=capsys)
    g4 = _new(home, ANN, BOB, "--unrated", capsys=capsys)
    g5 = _new(home, BOB, ANN, "--ruleset", "classic", capsys=capsys)
    _new(home, CY, BOB, capsys=capsys)
    for game, result in ((g1, "1-0"), (g2, "0-1"), (g3, "1/2-1/2"), (g4, "0-1"), (g5, "1-0")):
        assert _pbem(home, "adjudicate", str(game), result, "--no-send") == 0
    capsys.readouterr()
    return home


def test_the_club_table_is_the_fold_of_its_finished_rated_games(club: Path, capsys) -> None:
    conn = _db(club)
    games = finished(conn)
    assert [(g.number, g.game, g.rated) for g in games] == [
        (1, "featured", True), (2, "featured", True), (3, "featured", True),
        (4, "featured", False), (5, "classic", True)]
    assert [g.finished_at for g in games] == sorted(g.finished_at for g in games)
    expected = fold([
        Finished("featured", ANN, BOB, "1-0", 1.0, number=1),
        Finished("featured", BOB, CY, "0-1", 2.0, number=2),
        Finished("featured", CY, ANN, "1/2-1/2", 3.0, number=3),
        Finished("classic", BOB, ANN, "1-0", 5.0, number=5),
    ], Settings())
    assert club_ratings(conn, Settings()).table == expected  # the unrated game 4 is not there
    out = _ratings(club, capsys)
    featured = out.split("\n\n")[0].splitlines()
    assert featured[0] == "The Featured Game (featured): 3 players"
    # the operator's table: names where players have one, else the address
    assert [ln.split()[1] for ln in featured[2:]] == ["Ann", "Cy", "bob@club.test"]
    assert "Classic Realm (classic): 2 players" in out


def test_pbem_ratings_of_one_game_of_the_family(club: Path, capsys) -> None:
    out = _ratings(club, capsys, "--game", "classic")
    assert out.startswith("Classic Realm (classic): 2 players\n")
    assert "Featured" not in out and out.splitlines()[2].split()[1] == "bob@club.test"
    assert _ratings(club, capsys, "--game", "oriental") == (
        "No rated game of Oriental Realm has finished yet.\n")
    assert _pbem(club, "ratings", "--game", "go") == 2


def test_glicko2_settings_come_from_the_config(club: Path, capsys) -> None:
    _config(club, ratings={"rating": 1200, "deviation": 350, "volatility": 0.06, "tau": 0.5})
    out = _ratings(club, capsys, "--game", "classic")
    mine = Settings(rating=1200, deviation=350, volatility=0.06, tau=0.5)
    won = fold([Finished("classic", BOB, ANN, "1-0", 1.0)], mine)["classic"][BOB]
    assert out.splitlines()[2].split()[2:4] == [won.shown(), f"{won.rating.deviation:.0f}"]
    assert won.rating.rating < 1500 and won.rating.deviation < 350
    _config(club, ratings={"tau": 0})
    assert _pbem(club, "ratings") != 0
    assert "ratings.tau: must be a number above 0" in capsys.readouterr().err


def test_a_rollback_after_the_end_takes_the_game_out(club: Path, capsys) -> None:
    before = club_ratings(_db(club), Settings()).table["featured"]
    assert before[BOB].games == 2
    assert _pbem(club, "rollback", "2", "start", "--force", "--no-send") == 0
    conn = _db(club)
    row = conn.execute("SELECT status, finished_at FROM games WHERE id = 2").fetchone()
    assert row["status"] == "playing" and row["finished_at"] is None
    after = club_ratings(conn, Settings()).table["featured"]
    assert after[BOB].games == 1 and after[CY].games == 1
    assert after == fold([
        Finished("featured", ANN, BOB, "1-0", 1.0, number=1),
        Finished("featured", CY, ANN, "1/2-1/2", 3.0, number=3),
    ], Settings())["featured"]
    # ended again, it counts again, now as the last game to end
    assert _pbem(club, "adjudicate", "2", "1-0", "--no-send") == 0
    games = finished(_db(club))
    assert [g.number for g in games if g.game == "featured"] == [1, 3, 4, 2]


def test_the_live_site_lists_the_players_and_never_an_address(club: Path, capsys) -> None:
    assert _pbem(club, "site") == 0
    site = club / "site"
    index = (site / "index.html").read_text()
    assert '<a id="ratings-link" href="ratings.html">Ratings</a>' in index
    page = (site / "ratings.html").read_text()
    featured = page.split('id="ratings-featured"')[1].split("</section>")[0]
    players = [ln.split(">")[1].split("<")[0] for ln in featured.splitlines()
               if 'class="player"' in ln]
    assert players == ["Ann", "Cy &lt;i&gt;", "Player 1"]  # Bob gave no name
    assert "The &lt;Club&gt;" in page
    check_golden("ratings-live-site.html", page)
    for path in site.rglob("*"):
        if path.is_file():
            assert "@club.test" not in path.read_text(errors="replace"), path


def test_an_exported_unrated_game_says_so(club: Path, capsys) -> None:
    assert _pbem(club, "export", "4") == 0
    front = yaml.safe_load(capsys.readouterr().out.split("---")[1])
    assert front["rated"] is False and front["result"] == "0-1"
    assert _pbem(club, "export", "1") == 0
    assert "rated" not in yaml.safe_load(capsys.readouterr().out.split("---")[1])


def test_the_site_ratings_follow_a_rollback(club: Path, capsys) -> None:
    assert _pbem(club, "site") == 0
    assert _pbem(club, "rollback", "1", "start", "--force", "--no-send") == 0
    assert _pbem(club, "site") == 0
    page = (club / "site" / "ratings.html").read_text()
    featured = page.split('id="ratings-featured"')[1].split("</section>")[0]
    assert featured.count('class="player"') == 3  # Ann still plays games 3 and 5
    assert '<td data-label="Games">2</td>' in featured  # Cy: games 2 and 3


def test_unrated_games_by_config_and_by_new(home: Path, capsys) -> None:
    _config(home, rated=False)
    off = _new(home, ANN, BOB, capsys=capsys)
    on = _new(home, ANN, BOB, "--rated", capsys=capsys)
    assert _pbem(home, "new", "--white", ANN, "--black", BOB, "--rated", "--unrated") == 2
    conn = _db(home)
    rated = dict(conn.execute("SELECT id, rated FROM games").fetchall())
    assert rated == {off: 0, on: 1}
    assert _pbem(home, "flush") == 0
    invitations = {m["Subject"]: text_of(m) for m in outbox_mails(home)
                   if m["X-Pbem-Kind"] == "invitation" and m["To"] == ANN}
    said = sorted(t.split("Rated:")[1].split("\n")[0].strip() for t in invitations.values())
    assert said == ["no: this game does not count for the ratings", "yes"]


def test_reports_and_the_result_show_both_ratings(home: Path) -> None:
    table = new_table(home)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    report = text_of(table.black.last)
    assert "Ratings in the Featured Game: White 1500?, Black 1500?." in report
    assert table.send(table.black.reply("resign")).outcome == "accepted"
    result = table.black.last
    assert result["X-Pbem-Kind"] == "result"
    assert "Ratings in the Featured Game: White 1742?, Black 1258?." in text_of(result)
    html = result.get_body(("html",)).get_content()
    assert "White 1742?, Black 1258?" in html
    row = table.conn.execute("SELECT finished_at, status FROM games").fetchone()
    assert row["status"] == "over" and row["finished_at"] is not None


def test_a_loss_on_time_counts_and_a_voided_one_does_not(home: Path) -> None:
    now = FakeNow()
    table = clocked_table(home, now, clock="days 3, forfeit")
    now.set(START.replace(day=5))
    assert tick(table).forfeits == 1
    (game,) = finished(table.conn)
    assert (game.result, game.rated) == ("0-1", True)
    table_now = club_ratings(table.conn, Settings()).table["featured"]
    assert table_now["black@players.test"].wins == 1


def test_a_challenge_may_be_unrated(home: Path) -> None:
    _config(home, challenges={"open_registration": True})
    table = new_table(home)
    sent = table.send(table.white.reply("challenge newbie@fresh.test unrated days 5"))
    assert sent.outcome == "accepted", sent.reason
    newbie = MailPlayer("newbie@fresh.test")
    newbie.receive(outbox_mails(home))
    assert "Unrated: the game does not count" in text_of(newbie.last)
    assert table.send(newbie.reply("accept challenge 1")).outcome == "accepted"
    game = table.conn.execute("SELECT rated, clock_settings FROM games WHERE name = "
                              "'Challenge 1'").fetchone()
    assert game["rated"] == 0 and '"days": 5' in game["clock_settings"]
    # rated by default, and 'unrated' said twice is refused
    assert table.send(table.white.reply("challenge other@fresh.test")).outcome == "accepted"
    assert table.conn.execute("SELECT rated FROM challenges WHERE id = 2").fetchone()[0] == 1
    twice = table.send(table.white.reply("challenge third@fresh.test unrated unrated"))
    assert twice.outcome == "refused" and "once" in (twice.reason or "")


def test_an_old_store_gets_the_finish_times_of_its_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite"
    older = tuple(m for m in store_schema.MIGRATIONS if "ratings" not in m[0])
    monkeypatch.setattr(store_schema, "MIGRATIONS", older)
    conn = connect(path, create=True)
    conn.execute("INSERT INTO games (name, ruleset, ruleset_options, status, result, record, "
                 "created_at, updated_at) VALUES ('old', 'featured', '{}', 'over', '1-0', '', "
                 "1.0, 42.0)")
    conn.close()
    monkeypatch.undo()
    conn = connect(path)
    row = conn.execute("SELECT rated, finished_at FROM games").fetchone()
    assert (row["rated"], row["finished_at"]) == (1, 42.0)
