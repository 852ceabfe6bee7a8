"""The event's rules beyond its pairings: a withdrawal by mail (the FIDE rule on struck
games), the organiser's adjudication after the end date, the spectators' delay on the
live site, and the organiser's refusals."""

from __future__ import annotations

from pathlib import Path

from pbem.referee.work.tournament import find, table
from tests.referee.tournament_club import Club, open_club

PLAYERS = ["ann", "bob", "cid", "dan"]


def _started(club: Club, name: str, *options: str, players: list[str] = PLAYERS) -> dict:
    assert club.pbem("tournament", "new", name, *options)[0] == 0
    for p in players:
        code, out = club.pbem("tournament", "add", name, f"{p}@club.test", "--name", p.title())
        assert code == 0, out
        club.player(f"{p}@club.test")
    code, out = club.pbem("tournament", "start", name)
    assert code == 0, out
    return {(g["white"], g["black"]): g["game"] for g in club.show(name)["divisions"][0]["games"]}


def test_a_withdrawal_before_half_the_games_strikes_them(tmp_path: Path) -> None:
    club = Club(open_club(tmp_path / "home"))
    games = _started(club, "Winter Cup", "--format", "round-robin", "--clock", "none")
    # Berger for 4: 1-4 2-3 | 4-3 1-2 | 2-4 3-1; Cid (3) plays one game of three, then goes
    club.play("cid@club.test", games[("Bob", "Cid")], "resign")
    club.play("ann@club.test", games[("Ann", "Dan")], "resign")
    summary = next(m for m in club.players["cid@club.test"].inbox
                   if "your games" in str(m["Subject"]))
    handled = club.send(club.players["cid@club.test"].reply("withdraw Winter Cup", to=summary))
    assert handled.outcome == "accepted", handled
    answer = club.players["cid@club.test"].inbox[-1].get_body(("plain",)).get_content()
    assert "Cid withdrew from Winter Cup" in answer and "lost by forfeit" in answer
    results = {g["game"]: g["result"] for g in club.show("Winter Cup")["divisions"][0]["games"]}
    assert results[games[("Dan", "Cid")]] == "1-0" and results[games[("Cid", "Ann")]] == "0-1"
    rows = {r.entrant.name: r for r in table(club.conn, find(club.conn, "Winter Cup"))
            .divisions[0].rows}
    # every game of Cid's counts for nobody: Bob's win is struck, Dan's and Ann's forfeits too
    assert rows["Bob"].points == 0 and rows["Cid"].points == 0
    assert rows["Dan"].points == 1 and rows["Ann"].points == 0
    assert [c.text for c in rows["Bob"].cells if c.opponent == 3] == ["(1)"]
    assert [c.text for c in rows["Ann"].cells if c.opponent == 3] == ["(+)"]
    assert rows["Cid"].entrant.withdrawn and rows["Cid"].played == 0
    # a second withdrawal is refused, and the rest is played out
    again = club.send(club.players["cid@club.test"].reply("withdraw Winter Cup", to=summary))
    assert again.outcome == "refused"
    club.play("bob@club.test", games[("Ann", "Bob")], "resign")
    club.play("bob@club.test", games[("Bob", "Dan")], "resign")
    shown = club.show("Winter Cup")
    assert shown["status"] == "finished"
    assert [(s["player"], s["points"], s["played"]) for s in
            shown["divisions"][0]["standings"]] == [
        ("Dan", 2, 2), ("Ann", 1, 2), ("Bob", 0, 2), ("Cid", 0, 0)]
    _, out = club.pbem("tournament", "show", "Winter Cup")
    assert "(+)" in out and "withdrew" in out


def test_adjudication_waits_for_the_end_date(tmp_path: Path) -> None:
    club = Club(open_club(tmp_path / "home"))
    games = _started(club, "Long Cup", "--format", "round-robin", "--end-date", "2999-01-01",
                     players=PLAYERS[:2])
    (game,) = games.values()
    code, _ = club.pbem("tournament", "adjudicate", "Long Cup", str(game), "draw")
    assert code == 1
    shown = club.pbem("tournament", "show", "Long Cup")[1]
    assert shown.startswith("Long Cup: round robin, ends 2999-01-01 23:59 UTC (in play)")
    games = _started(club, "Short Cup", "--format", "round-robin", "--end-date", "2000-01-01",
                     players=PLAYERS[2:])
    (other,) = games.values()
    assert club.pbem("tournament", "adjudicate", "Short Cup", str(game), "draw")[0] == 1
    code, out = club.pbem("tournament", "adjudicate", "Short Cup", str(other), "draw")
    assert code == 0, out
    shown = club.show("Short Cup")
    assert shown["status"] == "finished"
    assert [s["points"] for s in shown["divisions"][0]["standings"]] == [0.5, 0.5]
    assert club.mails_to("cid@club.test", "game over")[-1].count("Short Cup") >= 1


def test_the_site_holds_back_the_last_turns(tmp_path: Path) -> None:
    site = tmp_path / "site"
    club = Club(open_club(tmp_path / "home", site={"path": str(site)}))
    games = _started(club, "Delay Cup", "--format", "round-robin", "--public-delay", "1",
                     players=PLAYERS[:2])
    (game,) = games.values()
    record = site / "games" / f"game-{game}.realm"
    club.play("ann@club.test", game, "Bh11")
    club.pbem("site")
    assert "Bh11" not in record.read_text() and "round: 1" in record.read_text()
    club.play("bob@club.test", game, "Bh2")
    club.pbem("site")
    text = record.read_text()
    assert "Bh11" in text and "Bh2" not in text
    assert game_turns(club, game) == ["1w", "1b"]  # the store keeps both, of course
    club.play("bob@club.test", game, "resign")
    club.pbem("site")
    assert "Bh2" in record.read_text()  # over: in full
    page = (site / "events" / "event-delay-cup.html").read_text()
    assert "Ann" in page and "1-0" in page


def game_turns(club: Club, game: int) -> list[str]:
    return [r[0] for r in club.conn.execute(
        "SELECT label FROM turns WHERE game_id = ? AND seq > 0 AND label != 'end' ORDER BY seq",
        (game,))]


def test_the_organiser_is_refused_in_words(tmp_path: Path) -> None:
    club = Club(open_club(tmp_path / "home"))
    assert club.pbem("tournament", "new", "Cup", "--format", "swiss")[0] == 1  # no --rounds
    assert club.pbem("tournament", "new", "Cup", "--format", "round-robin",
                     "--rounds", "3")[0] == 1
    assert club.pbem("tournament", "new", "12", "--format", "round-robin")[0] == 1
    assert club.pbem("tournament", "new", "Cup", "--format", "swiss", "--rounds", "3")[0] == 0
    assert club.pbem("tournament", "new", "cup", "--format", "swiss", "--rounds", "3")[0] == 1
    for p in PLAYERS[:3]:
        assert club.pbem("tournament", "add", "Cup", f"{p}@club.test")[0] == 0
    assert club.pbem("tournament", "add", "Cup", "x@club.test", "--name", "a@b.c")[0] == 1
    assert club.pbem("tournament", "start", "Cup")[0] == 1  # 3 players, 3 rounds: too many
    assert club.pbem("tournament", "withdraw", "Cup", "cid@club.test")[0] == 0  # before start
    assert club.show("Cup")["divisions"][0]["players"] == ["Player 1", "Player 2"]


def test_a_swiss_pairs_a_withdrawn_player_no_more(tmp_path: Path) -> None:
    import json

    club = Club(open_club(tmp_path / "home"))
    games = _started(club, "Quick Swiss", "--format", "swiss", "--rounds", "3", "--unrated",
                     "--clock", "none")
    assert set(games) == {("Ann", "Cid"), ("Dan", "Bob")}  # 1-3, 4-2: Dutch, white1
    assert {r[0] for r in club.conn.execute("SELECT rated FROM games")} == {0}
    code, out = club.pbem("tournament", "withdraw", "Quick Swiss", "dan@club.test")
    assert code == 0 and "lost by forfeit" in out
    club.play("cid@club.test", games[("Ann", "Cid")], "resign")  # the round ends: round 2
    shown = club.show("Quick Swiss")
    second = [g for g in shown["divisions"][0]["games"] if g["round"] == 2]
    seated = {g["white"] for g in second} | {g["black"] for g in second}
    assert "Dan" not in seated and len(second) == 2  # a game and a bye
    assert [g["result"] for g in second if g["black"] is None] == ["bye"]
    code, out = club.pbem("tournaments", "--json")
    assert json.loads(out) == [{"name": "Quick Swiss", "format": "swiss", "status": "running",
                                "ruleset": "featured", "players": 4, "rounds": 3}]


def test_a_swiss_that_cannot_be_paired_ends(tmp_path: Path) -> None:
    club = Club(open_club(tmp_path / "home"))
    games = _started(club, "Thin Swiss", "--format", "swiss", "--rounds", "3", "--clock", "none")
    for who in ("dan", "bob"):  # two of four leave; Ann and Cid have met already
        assert club.pbem("tournament", "withdraw", "Thin Swiss", f"{who}@club.test")[0] == 0
    club.play("cid@club.test", games[("Ann", "Cid")], "resign")
    shown = club.show("Thin Swiss")
    assert shown["status"] == "finished"
    assert {g["round"] for g in shown["divisions"][0]["games"]} == {1}


def test_divisions_seeded_by_rating(tmp_path: Path) -> None:
    club = Club(open_club(tmp_path / "home"))
    names = ["ann", "bob", "cid", "dan", "eve"]
    for p in names:
        club.player(f"{p}@club.test")
    # Eve and Dan have beaten the others in rated games before: they are the top seeds
    for winner, loser in (("eve", "ann"), ("dan", "bob"), ("eve", "cid")):
        code, out = club.pbem("new", "--white", f"{winner}@club.test", "--black",
                              f"{loser}@club.test", "--no-send")
        assert code == 0, out
        assert club.pbem("adjudicate", out.strip(), "1-0")[0] == 0
    assert club.pbem("tournament", "new", "Club Cup", "--format", "round-robin",
                     "--division-size", "3")[0] == 0
    for p in names:
        assert club.pbem("tournament", "add", "Club Cup", f"{p}@club.test",
                         "--name", p.title())[0] == 0
    assert club.pbem("tournament", "start", "Club Cup")[0] == 0
    shown = club.show("Club Cup")
    # Eve won twice, Dan once; Cid lost to a stronger Eve than Ann and Bob met (less
    # lost); Ann and Bob lost alike: the order of entry
    assert [d["players"] for d in shown["divisions"]] == [["Eve", "Dan", "Cid"],
                                                          ["Ann", "Bob"]]
    assert [len(d["games"]) for d in shown["divisions"]] == [3, 1]
    (game,) = shown["divisions"][1]["games"]
    subject = club.game_mail("ann@club.test", game["game"])["Subject"]
    assert "Club Cup, division 2, round 1, board 1" in subject


def test_the_organisers_webhook_is_every_games(tmp_path: Path) -> None:
    from pbem.referee.store.delivery import game_hook

    club = Club(open_club(tmp_path / "home"))
    assert club.pbem("tournament", "new", "Hook Cup", "--format", "round-robin",
                     "--webhook", "ftp://hooks.example/x")[0] == 1
    # the same checks as a game's own webhook: https only, no address or user in the URL
    for url in ("http://hooks.example/x", "https://user@hooks.example/x",
                "https://hooks.example/" + "x" * 3000):
        code, out = club.pbem("tournament", "new", "Hook Cup", "--format", "round-robin",
                              "--webhook", url)
        assert code == 1, (url, out)
    assert club.pbem("tournaments")[1].count("Hook Cup") == 0
    games = _started(club, "Hook Cup", "--format", "round-robin", "--webhook",
                     "https://hooks.example/club", players=PLAYERS[:3])
    assert {game_hook(club.conn, g) for g in games.values()} == {"https://hooks.example/club"}
