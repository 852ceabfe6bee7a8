"""Errors in the player's words (issue 11, item 5): no "the record says", no grammar
tokens a player cannot use, a forgotten choice names the choices, a wrong move lists the
piece's moves when there are few; ``help`` shows the notation with turns from the
player's own game; ``moves`` keeps to 78 columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.referee.store.games import load_game
from pbem.referee.turns.wording import examples
from pbem.render.legal_text import legal_listing
from pbem.rules.game import Phase
from tests.referee.conftest import MailPlayer, outbox_mails, text_of
from tests.referee.helpers import Table, new_table, play_setup
from tests.referee.test_sample_by_mail import sample_turns


def _until(home: Path, label: str) -> Table:
    table = new_table(home)
    turns = sample_turns()
    play_setup(table, turns[: [t[0] for t in turns].index(label)])
    return table


def test_refusals_speak_to_the_player(home: Path) -> None:
    table = _until(home, "9w")
    handled = table.send(table.white.reply("Pg9l9(Bk8),Pj6j7"))
    assert handled.outcome == "refused"
    reason = handled.reason or ""
    assert "where does the new Enforcer go, and which way does it point?" in reason
    assert "The empty squares of that Realm are k7, l7, j8, l8, j9, k9" in reason
    assert "write for example Pj6j7(Ek7N)" in reason
    assert "the record" not in reason
    wrong_event = table.send(table.white.reply("Pg9l9(Bk8),Pj6j7(Ek8W)")).reason or ""
    assert "the record" not in wrong_event
    broken = table.send(table.white.reply("Pg9l9(Bk8) Pj6j7(El7W)")).reason or ""
    assert "'/'" not in broken and "the record" not in broken
    for mail in table.white.inbox:
        assert "the record says" not in text_of(mail)


def test_a_wrong_move_lists_the_pieces_moves_when_there_are_few(home: Path) -> None:
    table = _until(home, "9w")
    reason = table.send(table.white.reply("Pg9l8")).reason or ""
    assert reason.startswith("the Power on g9 cannot move to l8")
    assert "The Power on g9 can move: " in reason or "can move" not in reason


def test_help_shows_the_notation_with_turns_from_the_players_game(home: Path) -> None:
    table = _until(home, "9w")
    assert table.send(table.white.reply("help")).outcome == "info"
    text = text_of(table.white.last)
    assert "In your game now, for example" in text
    assert "say Good luck!" in text
    table = new_table(home)
    assert table.send(table.white.reply("help")).outcome == "info"
    assert "(set-up)" in text_of(table.white.last)


@pytest.mark.parametrize("ruleset", ["classic", "featured", "medieval", "oriental", "modern"])
def test_helps_examples_are_the_shortest_legal_turns(home: Path, ruleset: str) -> None:
    """Classic's help showed a six-jump capture where a one-step one is legal."""
    table = _until(home, "9w") if ruleset == "featured" else new_table(home, ruleset)
    position = load_game(table.conn, table.game_id).position
    if position.phase is not Phase.PLAY:
        pytest.skip("no move in this game's first position")
    moves = [m for texts in legal_listing(position)["moves"].values() for m in texts]
    shown = dict(examples(position))
    for text, meaning in shown.items():
        if "," in text:
            continue  # two moves in one turn
        alike = [m for m in moves if ("(" in m) == ("(" in text)]
        assert len(text) == min(map(len, alike)), (ruleset, meaning, text)
    assert shown


def test_moves_lines_fit_in_78_columns(home: Path) -> None:
    table = _until(home, "9w")
    assert table.send(table.white.reply("moves")).outcome == "info"
    text = text_of(table.white.last)
    assert "Each move above is a whole turn on its own" in text
    assert max(len(line) for line in text.splitlines()) <= 78


def test_every_text_part_fits_in_78_columns(home: Path) -> None:
    """The invitation's and refusal's board legend and supply lines, and every mail's
    'Time control: ...' line, ran to 89-108 columns in the text part."""
    table = new_table(home)
    assert table.send(table.white.reply("Bh10")).outcome == "refused"
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    mails = table.white.inbox + table.black.inbox
    assert {m["X-Pbem-Kind"] for m in mails} >= {"invitation", "refusal", "report"}
    for mail in mails:
        long = [ln for ln in text_of(mail).splitlines() if len(ln) > 78]
        assert not long, (mail["X-Pbem-Kind"], long)


def test_help_of_every_game_keeps_its_two_columns_in_78(home: Path) -> None:
    """Classic's, Medieval's and Modern's notation rows ran to 82-87 columns."""
    for ruleset in ("featured", "classic", "medieval", "oriental", "modern"):
        table = new_table(home, ruleset)
        assert table.send(table.white.reply("help")).outcome == "info"
        lines = text_of(table.white.last).splitlines()
        assert max(len(line) for line in lines) <= 78, ruleset
        for line in lines:  # a row's second column goes on under itself, at column 30
            assert not line.startswith("   ") or line.startswith(" " * 29), (ruleset, line)


def test_a_mail_that_names_no_game_is_refused_without_a_game_number(home: Path) -> None:
    """It said 'nothing in game - has changed'; and 'not played' of a mail that held no
    turn."""
    from email.message import EmailMessage

    table = new_table(home)
    new_table(home)  # a second game, so that the sender's game is not known
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "white@players.test", "referee@pbem.test", "x"
    msg["Message-ID"] = "<no-game@players.test>"
    msg.set_content("board\n")
    assert table.send(msg.as_bytes()).outcome == "refused"
    text = text_of(table.white.last)
    assert "Your mail was not acted on: nothing has changed." in text
    html = table.white.last.get_body(("html",)).get_content()
    assert "not acted on: nothing has changed" in html and "game -" not in text + html
    assert table.send(table.white.reply("timezone Mars/Olympus")).outcome == "refused"
    assert "Your mail was not acted on: nothing has changed." in text_of(table.white.last)


def test_a_paragraph_with_an_address_in_it_is_filled_not_folded(home: Path) -> None:
    """The answer to a stranger ran to 94 columns (the referee's name and address in its
    first line); folded, its lines went on indented in mid-paragraph."""
    from email.message import EmailMessage

    table = new_table(home)
    msg = EmailMessage()
    msg["From"] = "a.rather.long.address.of.a.stranger@somewhere.example.org"
    msg["To"], msg["Subject"] = "referee@pbem.test", "hello"
    msg["Message-ID"] = "<stranger@somewhere.example.org>"
    msg.set_content("Pi10i6\n")
    table.referee.handle(msg.as_bytes())
    table.deliver()
    stranger = MailPlayer(msg["From"])
    stranger.receive(outbox_mails(home))
    text = text_of(stranger.last)
    assert "This is Realm referee <referee@pbem.test>, the robot" in text
    assert max(len(line) for line in text.splitlines()) <= 78
    assert not [line for line in text.splitlines() if line.startswith(" ")]
    assert "\n\nThis reply is sent once per mail" in text


def test_help_and_the_invitation_head_how_to_play_once(home: Path) -> None:
    """A help mail read 'Help / ---- / How to play by mail / ----...', and the
    invitation's HTML gave 'How to play by mail' as a heading and again in its text."""
    table = new_table(home)
    invitation = table.white.last
    assert text_of(invitation).count("How to play by mail") == 1
    html = invitation.get_body(("html",)).get_content()
    assert html.count("How to play by mail") == 1
    assert table.send(table.white.reply("help")).outcome == "info"
    text = text_of(table.white.last)
    assert text.count("How to play by mail") == 1 and "Help\n----" not in text
    html = table.white.last.get_body(("html",)).get_content()
    assert html.count("How to play by mail") == 1


def test_a_folded_item_of_a_list_goes_on_further_in(home: Path) -> None:
    """An option of the rules in force, folded, went on at its own indent and read as
    the next option."""
    table = new_table(home, "original")
    lines = text_of(table.white.last).splitlines()
    item = next(i for i, line in enumerate(lines) if line.startswith("    power_sacrifice:"))
    assert lines[item + 1].startswith("      ") and not lines[item + 1].startswith("       ")
    assert max(len(line) for line in lines) <= 78
