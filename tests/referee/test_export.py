"""``pbem export``: a referee's game as a .realm record that validate accepts and archive
publishes, with full front matter and display names, never an address."""

from __future__ import annotations

import sys
from io import BytesIO, TextIOWrapper
from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from pbem.referee.store import transaction
from tests.referee.conftest import MailPlayer, init_home, open_store, outbox_mails

ALICE, BOB = "alice@club.test", "bob@players.test"


def _pbem(monkeypatch, capsys, *args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", TextIOWrapper(BytesIO(stdin)))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def played(tmp_path, monkeypatch, capsys) -> Path:
    """Two games: one resigned after four set-up turns, one in play."""
    home = init_home(tmp_path / "home")
    h = ("--home", str(home))
    for white, black in ((ALICE, BOB), (BOB, ALICE)):
        code, _, _ = _pbem(monkeypatch, capsys, "new", *h, "--white", white, "--black", black,
                           "--white-name", "Alice Archer" if white == ALICE else "Bob",
                           "--name", "Spring cup")
        assert code == 0
    alice, bob = MailPlayer(ALICE), MailPlayer(BOB)
    for player, text in ((alice, "Bh11"), (bob, "Bh2"), (alice, "Be8"), (bob, "Be5"),
                         (alice, "resign")):
        player.receive(outbox_mails(home))
        last = [m for m in player.inbox if m["X-Pbem-Game"] == "1"][-1]
        code, out, _ = _pbem(monkeypatch, capsys, "mail", *h, stdin=player.reply(text, to=last))
        assert out.startswith("accepted"), out
    return home


def test_export_round_trips_through_validate_and_archive(played, tmp_path, monkeypatch, capsys):
    h = ("--home", str(played))
    code, record, _ = _pbem(monkeypatch, capsys, "export", "1", *h)
    assert code == 0
    front = yaml.safe_load(record.split("---\n")[1])
    assert front["game"] == "Spring cup" and front["event"] == "Realm by mail"
    assert front["white"] == "Alice Archer" and front["black"] == "Black"  # Bob gave no name
    assert front["result"] == "0-1" and front["ruleset"] == "featured"
    assert str(front["date"]) == str(front["finished"]) and len(str(front["date"])) == 10
    assert "{White resigned}" in record
    out_dir = tmp_path / "export"
    code, said, _ = _pbem(monkeypatch, capsys, "export", "--all", *h, "-o", f"{out_dir}/")
    assert code == 0 and "2 games" in said
    assert sorted(p.name for p in out_dir.iterdir()) == ["game-1.realm", "game-2.realm"]
    assert (out_dir / "game-1.realm").read_text(encoding="utf-8") == record
    live = yaml.safe_load((out_dir / "game-2.realm").read_text().split("---\n")[1])
    assert live["result"] == "*" and "finished" not in live
    code, said, err = _pbem(monkeypatch, capsys, "validate", "--strict", str(out_dir))
    assert code == 0, said + err
    site = tmp_path / "site"
    code, said, _ = _pbem(monkeypatch, capsys, "archive", str(out_dir), "-o", str(site))
    assert code == 0 and "2 games, 2 valid" in said
    page = (site / "games" / "game-1.html").read_text(encoding="utf-8")
    assert "Alice Archer" in page and "White resigned" in page and "<dd>0-1</dd>" in page
    for f in site.rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8", errors="replace")
            assert "@club.test" not in text and "@players.test" not in text, f


def test_export_one_file_of_all_games_and_usage_errors(played, tmp_path, monkeypatch, capsys):
    h = ("--home", str(played))
    target = tmp_path / "all.realm"
    assert _pbem(monkeypatch, capsys, "export", "--all", *h, "-o", str(target))[0] == 0
    code, said, _ = _pbem(monkeypatch, capsys, "validate", str(target))
    assert code == 0 and said.count("valid") == 2
    for args in (("export", *h), ("export", "1", "--all", *h), ("export", "9", *h),
                 ("export", "x", *h)):
        code, out, err = _pbem(monkeypatch, capsys, *args)
        assert code == 2 and out == "" and "Traceback" not in err, args


def test_an_address_given_as_a_name_is_never_exported(played, monkeypatch, capsys):
    conn = open_store(played)
    with transaction(conn):
        conn.execute("UPDATE players SET name = ? WHERE game_id = 2 AND side = 'w'",
                     ("Bob <bob@players.test>",))
        conn.execute("UPDATE games SET name = ? WHERE id = 2", ("Bob@players.test's game",))
    code, record, _ = _pbem(monkeypatch, capsys, "export", "2", "--home", str(played))
    assert code == 0 and "@" not in record
    front = yaml.safe_load(record.split("---\n")[1])
    assert front["white"] == "White"
