"""Issue 23, items 1 and 2: what the players say to each other reaches the opponent and the
game's own log, and nothing public (the live site with its record download, ``pbem export``,
an archive built from the export, ``pbem show``, an observer's copy): never while the game
is in play, after its end only with ``public_messages: true``. No address the referee knows,
and nothing shaped like an address, is ever in anything public."""

from __future__ import annotations

import sys
from email.message import Message
from io import BytesIO, TextIOWrapper
from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from pbem.referee.public.publish import mask_addresses
from tests.referee.conftest import MailPlayer, init_home, outbox_mails, text_of

ALICE, BOB = "alice.archer@club.test", "bob@players.test"
CAROL, DAVE = "carol@club.test", "dave@elsewhere.test"
OTHER = "alice.private@home.test"  # an address a player types in a message
REFEREE = "referee@pbem.test"
ADDRESSES = (ALICE, BOB, CAROL, DAVE, OTHER, REFEREE)
#: what the players say (each message holds addresses too)
MESSAGES = {
    "w1": f"Good luck Bob, write to me at {OTHER}",
    "b1": f"Thanks! Carol ({CAROL}) says hello",
    "b2": f"See you at {BOB}.",
}
#: a piece of each message that survives masking
WORDS = ("Good luck Bob", "Carol (", "See you at")


class Club:
    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
        self.home = init_home(tmp_path / "home", address=REFEREE)
        self.tmp = tmp_path
        self.monkeypatch, self.capsys = monkeypatch, capsys
        data = yaml.safe_load((self.home / "config.yaml").read_text())
        data["site"] = {"path": "site", "url": "https://realm.example/club", "title": "Club"}
        (self.home / "config.yaml").write_text(yaml.safe_dump(data))
        self.site = self.home / "site"
        self.players = {a: MailPlayer(a) for a in (ALICE, BOB, CAROL, DAVE)}

    def pbem(self, *args: str, stdin: bytes = b"", code: int = 0) -> str:
        self.monkeypatch.setattr(sys, "stdin", TextIOWrapper(BytesIO(stdin)))
        home = () if args[0] in ("archive", "validate") else ("--home", str(self.home))
        got = main([args[0], *home, *args[1:]])
        out, err = self.capsys.readouterr()
        assert got == code, out + err
        return out

    def mail(self, address: str, text: str, game: str) -> None:
        player = self.players[address]
        player.receive(outbox_mails(self.home))
        mine = [m for m in player.inbox if m["X-Pbem-Game"] == game]
        out = self.pbem("mail", stdin=player.reply(text, to=mine[-1]))
        assert out.startswith("accepted"), out

    def set_public_messages(self, value: bool) -> None:
        data = yaml.safe_load((self.home / "config.yaml").read_text())
        data["public_messages"] = value
        (self.home / "config.yaml").write_text(yaml.safe_dump(data))

    def public(self, tag: str) -> dict[str, str]:
        """Every public thing, by where it is: each file of the live site, of ``export
        --all`` into a folder, of an archive built from that export, and ``pbem show``."""
        found: dict[str, str] = {}
        exported = self.tmp / f"export-{tag}"
        self.pbem("export", "--all", "-o", f"{exported}/")
        archive = self.tmp / f"archive-{tag}"
        self.pbem("archive", str(exported), "-o", str(archive))
        for root in (self.site, exported, archive):
            files = [p for p in root.rglob("*") if p.is_file()]
            assert files, root
            for p in files:
                found[str(p)] = p.read_bytes().decode("utf-8", errors="replace")
        for game in ("1", "2"):
            found[f"pbem show {game}"] = self.pbem("show", game)
        return found

    def mails_to(self, address: str) -> list[Message]:
        player = self.players[address]
        player.receive(outbox_mails(self.home))
        return player.inbox


def _leaks(found: dict[str, str], needles: tuple[str, ...]) -> list[str]:
    out = []
    for where, text in found.items():
        low = text.lower()
        for needle in needles:
            if needle.lower() in low:
                out.append(f"{where}: {needle}")
    return out


def _address_parts() -> tuple[str, ...]:
    parts: list[str] = []
    for a in ADDRESSES:
        local, domain = a.split("@")
        parts += [a, "@" + domain, local + "@"]
    return tuple(parts)


def test_messages_and_addresses_never_reach_anything_public(tmp_path, monkeypatch, capsys):
    club = Club(tmp_path, monkeypatch, capsys)
    club.pbem("new", "--white", CAROL, "--black", DAVE, "--name", f"Ask {DAVE}")
    club.pbem("new", "--white", ALICE, "--black", BOB, "--white-name", "Alice Archer",
              "--name", "Club final")
    club.mail(CAROL, "observe 2", "1")
    club.mail(ALICE, f"Bh11\nsay {MESSAGES['w1']}", "2")
    club.mail(BOB, f"say: {MESSAGES['b1']}", "2")
    club.mail(BOB, f"Bh2\nsay {MESSAGES['b2']}", "2")
    club.mail(ALICE, "Be8", "2")

    # the opponent reads them; the game's own log keeps them
    to_bob = "\n".join(text_of(m) for m in club.mails_to(BOB))
    assert f"White says: {MESSAGES['w1']}" in to_bob
    to_alice = "\n".join(text_of(m) for m in club.mails_to(ALICE))
    assert f"Black says: {MESSAGES['b1']}" in to_alice
    assert f"Black says: {MESSAGES['b2']}" in to_alice
    log = club.pbem("show", "2", "--log")
    assert all(text in log for text in MESSAGES.values())
    # an observer gets the turn reports, never what the players say to each other
    observed = [m for m in club.mails_to(CAROL) if m["X-Pbem-Game"] == "2"]
    assert len(observed) >= 3
    assert _leaks({m["Subject"]: text_of(m) for m in observed}, WORDS) == []

    # in play: no message, no address anywhere public, whatever the config says
    for public_messages in (False, True):
        club.set_public_messages(public_messages)
        club.pbem("site")
        found = club.public(f"play-{public_messages}")
        assert _leaks(found, WORDS) == []
        assert _leaks(found, _address_parts()) == []
        assert any("Club final" in text for text in found.values())

    # over, public_messages false (the default): still none
    club.set_public_messages(False)
    club.mail(BOB, "resign", "2")
    found = club.public("over-private")
    assert _leaks(found, WORDS) == []
    assert _leaks(found, _address_parts()) == []
    assert any("Black resigned" in text for text in found.values())

    # over, public_messages true: the messages are published, their addresses masked
    club.set_public_messages(True)
    club.pbem("site")
    found = club.public("over-public")
    assert _leaks(found, _address_parts()) == []
    download = found[str(club.site / "games" / "game-2.realm")]
    front = yaml.safe_load(download.split("---\n")[1])
    assert front["messages"] == [
        "1w White: Good luck Bob, write to me at [address]",
        "1w Black: Thanks! Carol ([address]) says hello",
        "1b Black: See you at [address].",
    ]
    assert "{White:" not in download and "{Black:" not in download  # no comment: annotations'
    exported = (tmp_path / "export-over-public" / "game-2.realm").read_text(encoding="utf-8")
    assert exported == download
    assert "Good luck Bob" in found["pbem show 2"]
    archived = {k: v for k, v in found.items() if "archive-over-public" in k}
    assert all(any(w in text for text in archived.values()) for w in WORDS)
    # the other game's name held an address: masked too
    assert "Ask [address]" in found["pbem show 1"]
    # and the export still validates strictly (messages: is a known header)
    assert club.pbem("validate", "--strict", str(tmp_path / "export-over-public"))


def test_show_names_players_as_export_does(tmp_path, monkeypatch, capsys):
    club = Club(tmp_path, monkeypatch, capsys)
    club.pbem("new", "--white", ALICE, "--black", BOB, "--white-name", "Alice Archer")
    shown = club.pbem("show", "1")
    exported = club.pbem("export", "1")
    assert shown.startswith(exported)
    assert "black: Black" in shown and "white: Alice Archer" in shown
    assert _leaks({"show": shown}, _address_parts()) == []
    # the organiser asks for the addresses
    shown = club.pbem("show", "1", "--addresses")
    assert f"White: {ALICE}" in shown and f"Black: {BOB}" in shown
    assert BOB in club.pbem("games")


@pytest.mark.parametrize(("text", "masked"), [
    ("mail bob@example.org.", "mail [address]."),
    ("{Carol <carol+realm@club.test>}", "{Carol <[address]>}"),
    ("é.ü@dömain.de ok", "[address] ok"),
    ("a@b", "[address]"),
    ("@home, x@, @@", "@home, x@, @@"),
    ("no address", "no address"),
])
def test_anything_shaped_like_an_address_is_masked(text: str, masked: str) -> None:
    assert mask_addresses(text) == masked


def test_masking_is_linear() -> None:
    """Long runs around many '@' signs: each character is looked at a bounded number of
    times (a quadratic scan would take minutes here)."""
    for text in ("a" * 200_000 + "@", "a@" * 100_000, "@" + "b." * 100_000, "a@b" * 60_000):
        assert len(mask_addresses(text)) <= len(text) * 5
