"""The live site: a game played by mail has a page that follows it, and no address, ever."""

from __future__ import annotations

import re
import sys
from io import BytesIO, TextIOWrapper
from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from tests.referee.conftest import MailPlayer, init_home, outbox_mails

ALICE, BOB = "alice.archer@club.test", "bob@players.test"
CAROL, DAVE = "carol@club.test", "dave@elsewhere.test"


def _configure_site(home: Path) -> Path:
    cfg = home / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data["site"] = {"path": "site", "url": "https://realm.example/club", "title": "Club games"}
    cfg.write_text(yaml.safe_dump(data))
    return home / "site"


def _pbem(monkeypatch: pytest.MonkeyPatch, capsys, *args: str, stdin: bytes = b"") -> str:
    monkeypatch.setattr(sys, "stdin", TextIOWrapper(BytesIO(stdin)))
    code = main(list(args))
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def _every_file(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace")
            for p in site.rglob("*") if p.is_file()}


def _addresses_in(site: Path) -> list[str]:
    found = []
    for name, text in _every_file(site).items():
        for address in (ALICE, BOB, CAROL, DAVE):
            local, domain = address.split("@")
            for needle in (address, "@" + domain, local + "@"):
                if needle.lower() in text.lower():
                    found.append(f"{name}: {needle}")
    return found


def test_a_game_by_mail_has_a_live_page_without_addresses(tmp_path, monkeypatch, capsys):
    home = init_home(tmp_path / "home")
    site = _configure_site(home)
    h = ("--home", str(home))
    _pbem(monkeypatch, capsys, "new", *h, "--white", CAROL, "--black", DAVE, "--name", "Other")
    assert (site / "games" / "game-1.html").is_file()
    first_game = (site / "games" / "game-1.html").stat().st_mtime_ns
    _pbem(monkeypatch, capsys, "new", *h, "--white", ALICE, "--black", BOB,
          "--white-name", "Alice Archer", "--name", "Club final")
    white, black = MailPlayer(ALICE), MailPlayer(BOB)

    def turn(player: MailPlayer, text: str) -> None:
        player.receive(outbox_mails(home))
        mine = [m for m in player.inbox if m["X-Pbem-Game"] == "2"]
        out = _pbem(monkeypatch, capsys, "mail", *h, stdin=player.reply(text, to=mine[-1]))
        assert out.startswith("accepted"), out

    page = site / "games" / "game-2.html"
    shown = []
    for player, text in ((white, "Bh11"), (black, "Bh2"), (white, "Be8"), (black, "Be5")):
        before = page.stat().st_mtime_ns
        turn(player, text)
        html = page.read_text(encoding="utf-8")
        assert page.stat().st_mtime_ns > before  # rewritten after each turn
        assert f">{text}</a>" in html
        shown.append(text)
        assert all(f">{t}</a>" in html for t in shown)
        # only that game's page and the index: the other game's page is untouched
        assert (site / "games" / "game-1.html").stat().st_mtime_ns == first_game
    assert "Alice Archer" in html and "<dd>Black</dd>" in html  # Bob gave no name
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Club final" in index and "Other" in index and "Alice Archer" in index
    record = (site / "games" / "game-2.realm").read_text(encoding="utf-8")
    assert "white: Alice Archer" in record and "black: Black" in record
    assert _addresses_in(site) == []
    assert not re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", "".join(_every_file(site).values()))
    # nothing changed, nothing rewritten; a name given by mail rewrites that game's page
    assert "0 game page(s) rewritten" in _pbem(monkeypatch, capsys, "site", *h)
    black.receive(outbox_mails(home))
    mine = [m for m in black.inbox if m["X-Pbem-Game"] == "2"]
    out = _pbem(monkeypatch, capsys, "mail", *h, stdin=black.reply("name Bob Bowman", to=mine[-1]))
    assert out.startswith("accepted"), out
    assert "<dd>Bob Bowman</dd>" in page.read_text(encoding="utf-8")
    assert (site / "games" / "game-1.html").stat().st_mtime_ns == first_game
    assert _addresses_in(site) == []
    # the reports link to the game's page
    white.receive(outbox_mails(home))
    report = [m for m in white.inbox if m["X-Pbem-Kind"] == "report"][-1]
    text = report.get_body(("plain",)).get_content()
    assert "https://realm.example/club/games/game-2.html" in text
