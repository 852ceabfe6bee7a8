"""Whole events by mail (issue 26): a 5-player double round robin and a 7-player Swiss of
3 rounds, entered, played and ended by the players' mail alone (resignation, a draw by
agreement, the clock), with every crosstable cell, Sonneborn-Berger figure and pairing
checked against tables worked out by hand."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from pbem.referee.store import tournaments as event_store
from pbem.referee.work.tournament import find, table
from tests.referee.tournament_club import Club, open_club

ROUND_ROBIN = ["ann", "bob", "cid", "dan", "eve"]  # entry order = seeds (all rated 1500)

#: the FIDE Berger table for 6 (player 6 is the round off), and the second cycle with the
#: colours reversed; each game's ending: R (the loser resigns), D (a draw by agreement),
#: Tw / Tb (White / Black runs out of time: forfeit)
DOUBLE_ROUND_ROBIN = {
    1: [(2, 5, "1-0 R"), (3, 4, "D")],
    2: [(5, 3, "0-1 R"), (1, 2, "1-0 R")],
    3: [(3, 1, "D"), (4, 5, "Tb")],
    4: [(1, 4, "1-0 R"), (2, 3, "Tw")],
    5: [(4, 2, "D"), (5, 1, "0-1 R")],
    6: [(5, 2, "1-0 R"), (4, 3, "0-1 R")],
    7: [(3, 5, "Tb"), (2, 1, "D")],
    8: [(1, 3, "1-0 R"), (5, 4, "Tw")],
    9: [(4, 1, "0-1 R"), (3, 2, "D")],
    10: [(2, 4, "1-0 R"), (1, 5, "Tb")],
}

#: worked out by hand from the table above: points, Sonneborn-Berger (each game's points
#: times the opponent's final score), and the crosstable's cells in round order
POINTS = {1: Fraction(7), 2: Fraction(7, 2), 3: Fraction(11, 2), 4: Fraction(3), 5: Fraction(1)}
SB = {1: Fraction(43, 2),   # 1.5 x 3.5 + 1.5 x 5.5 + 2 x 3 + 2 x 1
      2: Fraction(47, 4),   # 0.5 x 7 + 0.5 x 5.5 + 1.5 x 3 + 1 x 1
      3: Fraction(61, 4),   # 0.5 x 7 + 1.5 x 3.5 + 1.5 x 3 + 2 x 1
      4: Fraction(13, 2),   # 0 x 7 + 0.5 x 3.5 + 0.5 x 5.5 + 2 x 1
      5: Fraction(7, 2)}    # 1 x 3.5
CELLS = {
    1: {2: "1 ½", 3: "½ 1", 4: "1 1", 5: "1 +"},
    2: {1: "0 ½", 3: "- ½", 4: "½ 1", 5: "1 0"},
    3: {1: "½ 0", 2: "+ ½", 4: "½ 1", 5: "1 +"},
    4: {1: "0 0", 2: "½ 0", 3: "½ 0", 5: "+ +"},
    5: {1: "0 -", 2: "0 1", 3: "0 -", 4: "- -"},
}
NAMES = {1: "Ann Smith", 2: "Player 2", 3: "Cid Smith", 4: "Dan Smith", 5: "Eve Smith"}


def _address(name: str) -> str:
    return f"{name}@club.test"


def _end(club: Club, game: int, white: str, black: str, how: str) -> None:
    """End a game the way ``how`` says, by the players' mail (the clock's endings are the
    tick's, later: here White only moves when Black is to lose on time)."""
    if how == "D":
        club.play(white, game, "offer draw")
        club.play(black, game, "accept draw")
    elif how == "1-0 R":
        club.play(black, game, "resign")
    elif how == "0-1 R":
        club.play(white, game, "resign")
    elif how == "Tb":
        club.play(white, game, "Bh11")


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(open_club(tmp_path / "home"))


def _main_of(page: str) -> str:
    return page.split("<main>", 1)[1].split("</main>", 1)[0]


def test_a_double_round_robin_by_mail(tmp_path: Path) -> None:
    site = tmp_path / "site"
    club = Club(open_club(tmp_path / "home", site={"path": str(site), "title": "The Club"}))
    code, out = club.pbem("tournament", "new", "Spring Cup", "--format", "double-round-robin",
                          "--clock", "days 3, forfeit")
    assert code == 0, out
    for name in ROUND_ROBIN:  # everyone enters by mail; Bob gives no name
        lines = ["join Spring Cup"] + ([] if name == "bob" else [f"name {name.title()} Smith"])
        assert club.register(_address(name), *lines).outcome == "accepted"
    shown = club.show("Spring Cup")
    assert shown == {"name": "Spring Cup", "format": "double-round-robin", "status": "entries",
                     "divisions": [{"players": [NAMES[i] for i in range(1, 6)],
                                    "standings": [], "games": []}]}
    assert club.pbem("tournament", "start", "Spring Cup")[0] == 0

    games = club.show("Spring Cup")["divisions"][0]["games"]
    by_name = {v: k for k, v in NAMES.items()}
    schedule = {(g["round"], by_name[g["white"]], by_name[g["black"]]): g["game"] for g in games}
    expected = {(r, w, b) for r, pairs in DOUBLE_ROUND_ROBIN.items() for w, b, _ in pairs}
    assert set(schedule) == expected  # the Berger table, colours and all; no bye rows
    for (r, w, _), game in schedule.items():  # every mail of a game names event/round/board
        invitation = club.game_mail(_address(ROUND_ROBIN[w - 1]), game)
        assert invitation["Subject"].startswith(f"[realm g{game}-w-")
        assert f"Spring Cup, round {r}, board " in invitation["Subject"]
    summary = club.mails_to(_address("bob"), "Spring Cup: your games")
    assert len(summary) == 1 and "Round 2, board 2: game" in summary[0]
    assert "you play Black against Ann Smith" in summary[0]

    for r, pairs in DOUBLE_ROUND_ROBIN.items():
        for w, b, how in pairs:
            _end(club, schedule[(r, w, b)], _address(ROUND_ROBIN[w - 1]),
                 _address(ROUND_ROBIN[b - 1]), how)
    assert club.show("Spring Cup")["status"] == "running"
    club.tick(days=10)  # the clock ends the rest: forfeits

    shown = club.show("Spring Cup")
    assert shown["status"] == "finished"
    results = {(g["round"], by_name[g["white"]], by_name[g["black"]]): g["result"]
               for g in shown["divisions"][0]["games"]}
    words = {"1-0 R": "1-0", "0-1 R": "0-1", "D": "1/2-1/2", "Tw": "0-1", "Tb": "1-0"}
    assert results == {(r, w, b): words[how] for r, pairs in DOUBLE_ROUND_ROBIN.items()
                       for w, b, how in pairs}
    standings = shown["divisions"][0]["standings"]
    assert standings == [
        {"player": NAMES[n], "points": float(POINTS[n]) if POINTS[n].denominator > 1
         else int(POINTS[n]), "sonneborn_berger": float(SB[n]), "played": 8, "rank": rank}
        for rank, n in enumerate([1, 3, 2, 4, 5], 1)
    ]
    t = table(club.conn, find(club.conn, "Spring Cup"))
    rows = {r.number: r for r in t.divisions[0].rows}
    for n, row in rows.items():
        assert row.points == POINTS[n] and row.sonneborn_berger == SB[n]
        cells: dict[int, list[str]] = {}
        for c in row.cells:
            cells.setdefault(c.opponent, []).append(c.text)
        assert {k: " ".join(v) for k, v in cells.items()} == CELLS[n]

    # the text crosstable, by mail too; no address anywhere
    code, out = club.pbem("tournament", "show", "Spring Cup")
    assert out.splitlines()[:8] == [
        "Spring Cup: double round robin (finished)",
        "",
        "Rk  Player      1   2   3   4   5   Pts     SB",
        " 1  Ann Smith ### ½ 1 1 ½ 1 1 1 +     7  21.50",
        " 2  Cid Smith ½ 0 ### + ½ ½ 1 1 +    5½  15.25",
        " 3  Player 2  0 ½ - ½ ### ½ 1 1 0    3½  11.75",
        " 4  Dan Smith 0 0 ½ 0 ½ 0 ### + +     3   6.50",
        " 5  Eve Smith 0 - 0 - 0 1 - - ###     1   3.50",
    ]
    assert "@" not in out
    results_mail = club.mails_to(_address("ann"), "game over")
    assert len(results_mail) == 8
    assert "The event now:" in results_mail[-1]
    assert " 1  Ann Smith ### ½ 1 1 ½ 1 1 1 +     7  21.50" in results_mail[-1]
    assert club.register(_address("zed"), "standings Spring Cup").outcome == "info"
    assert " 2  Cid Smith ½ 0 ### + ½ ½ 1 1 +    5½  15.25" in club.players[
        _address("zed")].inbox[-1].get_body(("plain",)).get_content()
    code, out = club.pbem("tournaments")
    assert out == "Spring Cup  double-round-robin  finished  featured  5 players\n"

    # the live site (as pbem mail, poll and tick update it after each run): a page for the
    # event, linked from the index, every game linked
    assert club.pbem("site")[0] == 0
    index = (site / "index.html").read_text()
    assert 'href="events/event-spring-cup.html">Spring Cup</a>' in index
    live = (site / "events" / "event-spring-cup.html").read_text()
    for game in schedule.values():
        assert f'href="../games/game-{game}.html"' in live
        assert (site / "games" / f"game-{game}.html").is_file()
    assert "@" not in live
    # exported with event:, round: and board: in the front matter, then archived: the
    # same crosstable page
    records = tmp_path / "records"
    code, out = club.pbem("export", "--tournament", "Spring Cup", "-o", f"{records}/")
    assert code == 0 and out == f"wrote 20 games to {records}\n"
    first = (records / "game-1.realm").read_text()
    assert "event: Spring Cup\nround: 1\nboard: 1\nformat: double-round-robin\n" in first
    assert "white_seed: 2\nblack_seed: 5\n" in first
    archive = tmp_path / "archive"
    code, out = club.pbem("archive", str(records), "-o", str(archive), "--title", "The Club",
                          home=False)
    assert code == 0, out
    archived = (archive / "events" / "event-spring-cup.html").read_text()
    assert _main_of(archived) == _main_of(live)
    assert 'href="events/event-spring-cup.html"' in (archive / "index.html").read_text()


def test_entries_closed_and_known_only(tmp_path: Path) -> None:
    club = Club(open_club(tmp_path / "home", tournaments={"entries": "known"}))
    assert club.pbem("tournament", "new", "Closed Cup", "--format", "swiss",
                     "--rounds", "2")[0] == 0
    handled = club.register(_address("zed"), "join Closed Cup")
    assert handled.outcome == "refused"
    assert "open to the referee's players only" in str(handled.reason)
    assert event_store.entries(club.conn, find(club.conn, "Closed Cup").id) == []
    assert club.pbem("tournament", "add", "Closed Cup", "zed@club.test")[0] == 0
    assert club.pbem("tournament", "add", "Closed Cup", "zed@club.test")[0] == 1
    assert club.pbem("tournament", "add", "No Such Cup", "zed@club.test")[0] == 1


SWISS = ["amy", "ben", "cat", "dov", "eli", "fay", "gus"]  # entry order = seeds
#: each round's games as py4swiss paired them (seed v seed), and how each ended; round 1 by
#: hand: the top half meets the bottom half (1-4, 2-5, 3-6), the top seed White and the
#: colours alternating down the boards, the lowest seed (7) the bye
SWISS_ROUNDS = {
    1: ({(1, 4): "1-0 R", (5, 2): "D", (3, 6): "Tw"}, 7),
    2: ({(7, 1): "D", (6, 5): "Tb", (2, 3): "0-1 R"}, 4),
    3: ({(1, 6): "1-0 R", (4, 7): "1-0 R", (3, 5): "1-0 R"}, 2),
}
#: by hand: points (the bye scores 1) and Sonneborn-Berger (byes add nothing)
SWISS_TABLE = [  # rank order: name, points, SB, games played, per-round cells
    ("Amy", 2.5, 4.75, 3, ["4w1", "5b½", "2w1"]),      # 1 x Dov 2 + ½ x Gus 1½ + 1 x Fay 2
    ("Fay", 2, 2.5, 3, ["3b+", "7w+", "1b0"]),          # 1 x Cat 2 + 1 x Eli ½
    ("Cat", 2, 2, 3, ["2w-", "6b1", "7w1"]),            # 1 x Ben 1½ + 1 x Eli ½
    ("Dov", 2, 1.5, 2, ["1b0", "bye", "5w1"]),          # 1 x Gus 1½
    ("Gus", 1.5, 1.25, 2, ["bye", "1w½", "4b0"]),       # ½ x Amy 2½
    ("Ben", 1.5, 0.25, 2, ["7b½", "3w0", "bye"]),       # ½ x Eli ½
    ("Eli", 0.5, 0.75, 3, ["6w½", "2b-", "3b0"]),       # ½ x Ben 1½
]


def test_a_swiss_by_mail(club: Club) -> None:
    code, out = club.pbem("tournament", "new", "Autumn Swiss", "--format", "swiss",
                          "--rounds", "3", "--clock", "days 3, forfeit")
    assert code == 0, out
    for name in SWISS:
        assert club.register(_address(name), "join Autumn Swiss",
                             f"name {name.title()}").outcome == "accepted"
    code, out = club.pbem("tournament", "start", "Autumn Swiss")
    assert out == "Autumn Swiss: started, games 1, 2, 3\n"
    seed = {n.title(): i for i, n in enumerate(SWISS, 1)}
    met: set[frozenset[int]] = set()
    colours: dict[int, list[str]] = {i: [] for i in range(1, 8)}
    byes = []
    for r, (plan, bye) in SWISS_ROUNDS.items():
        shown = club.show("Autumn Swiss")
        assert shown["status"] == "running"
        games = [g for g in shown["divisions"][0]["games"] if g["round"] == r]
        assert [g for g in games if g["black"] is None] == [
            {"game": None, "round": r, "white": SWISS[bye - 1].title(), "black": None,
             "result": "bye"}]
        paired = {(seed[g["white"]], seed[g["black"]]): g["game"] for g in games if g["black"]}
        assert set(paired) == set(plan)
        for w, b in paired:
            assert frozenset((w, b)) not in met  # no one meets anyone twice
            met.add(frozenset((w, b)))
            colours[w].append("w")
            colours[b].append("b")
        byes.append(bye)
        for (w, b), how in plan.items():
            _end(club, paired[(w, b)], _address(SWISS[w - 1]), _address(SWISS[b - 1]), how)
        if any(how.startswith("T") for how in plan.values()):
            club.tick(days=10)  # the clock ends the rest of the round
    assert len(set(byes)) == 3  # nobody has two byes
    for w_b in colours.values():  # colours balanced: never two more of one than the other
        assert abs(w_b.count("w") - w_b.count("b")) <= 1
        assert "www" not in "".join(w_b) and "bbb" not in "".join(w_b)

    shown = club.show("Autumn Swiss")
    assert shown["status"] == "finished" and shown["format"] == "swiss"
    assert len(shown["divisions"]) == 1
    assert shown["divisions"][0]["standings"] == [
        {"player": name, "points": points, "sonneborn_berger": sb, "played": played,
         "rank": rank} for rank, (name, points, sb, played, _) in enumerate(SWISS_TABLE, 1)]
    code, out = club.pbem("tournament", "show", "Autumn Swiss")
    lines = out.splitlines()
    assert lines[2] == "Rk  Player    Rd 1    Rd 2    Rd 3   Pts     SB"
    for rank, (name, _, _, _, cells) in enumerate(SWISS_TABLE, 1):
        assert lines[2 + rank].split()[:5] == [str(rank), name, *cells]
    # the round's invitations came once the round before had ended
    rounds = [m["Subject"] for m in club.players[_address("amy")].inbox
              if "you play" in str(m["Subject"])]
    assert [s.split(", ")[1] for s in rounds] == ["round 1", "round 2", "round 3"]
    after_round_two = club.mails_to(_address("fay"), "game over")[1]  # round 3 paired
    assert "Autumn Swiss: Swiss, 3 rounds (in play)" in after_round_two
    assert " 1  Fay        5b+     7w+     2b*     2   1.50" in after_round_two
    last = club.mails_to(_address("eli"), "game over")[-1]  # the event's last game
    assert "Autumn Swiss: Swiss, 3 rounds (finished)" in last
