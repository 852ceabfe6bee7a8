"""The mails teach the game (issue 23, item 6): ``help`` gives each game's key to its
notation in its own letters with turns of that game explained, each legal in that game
and ruleset; ``rules`` mails the game's rules page; the invitation says in two lines
what the game is and how a turn is written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.records.rulesets import load_ruleset
from pbem.referee.turns.play import play_turn
from pbem.referee.turns.wording import examples
from pbem.rules.registry import game_of
from tests.referee.conftest import text_of
from tests.referee.helpers import new_table

PRESETS = ["featured", "classic", "classic-double", "classic-placement", "medieval",
           "medieval-placement", "oriental", "oriental-placement", "modern", "modern-placement"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_example_of_help_is_a_legal_turn_in_that_game_and_ruleset(preset: str) -> None:
    rules = load_ruleset(preset)
    position = game_of(rules).initial(rules)
    shown = examples(position)
    assert shown, preset
    for text, _ in shown:  # played against the position, as the referee would play it
        assert play_turn(position, text).error is None, (preset, text)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_key_is_in_the_games_own_letters_and_options(preset: str) -> None:
    rules = load_ruleset(preset)
    game = game_of(rules)
    key = dict(game.notation_key(rules))
    letters = {s.letter for s in game.pieces.styles}
    for written in key:
        for piece in re.findall(r"(?<![A-Za-z])([A-Z])[a-l]\d", written):
            assert piece in letters or (piece == "R" and game.name == "featured"), \
                (preset, written)
    placing = game.initial(rules).phase.name == "SETUP"
    placements = [w for w in key if re.fullmatch(r"[BPE][a-l]\d+", w)]
    assert bool(placements) == (placing and game.name != "featured"), (preset, key)
    assert ("Eb5b8,Ee5e8" in key) == (preset == "classic-double")


def test_help_by_mail_gives_the_key_and_explains_a_turn(home: Path) -> None:
    table = new_table(home, "medieval")
    assert table.send(table.white.reply("help")).outcome == "info"
    text = text_of(table.white.last)
    assert "The key to the notation of Medieval Realm:" in text
    assert "a Duke, a Man" in text
    assert "White's Man moved from" in text
    assert "Pe2 " not in text  # no placement in a game without it
    assert "Pc10g10" not in text and "Bh11" not in text


def test_rules_mails_the_games_own_rules_page(home: Path) -> None:
    table = new_table(home, "oriental")
    assert table.send(table.white.reply("rules")).outcome == "info"
    mail = table.white.last
    text = text_of(mail)
    assert "The rules of Oriental Realm" in text
    assert "A game of surrounding" in text
    assert max(len(line) for line in text.splitlines()) <= 78
    html = next(p for p in mail.walk() if p.get_content_type() == "text/html")
    page = html.get_content()
    assert "Oriental Realm</h1>" in page
    assert "<table" not in page.split("The rules of Oriental Realm")[1]


@pytest.mark.parametrize("preset", ["featured", "medieval", "modern"])
def test_the_invitation_says_what_the_game_is_and_how_a_turn_is_written(
    home: Path, preset: str
) -> None:
    table = new_table(home, preset)
    text = " ".join(text_of(table.white.inbox[0]).split())
    for line in game_of(load_ruleset(preset)).about:
        assert line in text


def test_help_names_every_command_a_player_may_mail(home: Path) -> None:
    """A command the referee understands but ``help`` never names is one nobody finds."""
    from pbem.referee import commands
    from pbem.referee.commands.registry import COMMANDS
    from pbem.referee.outgoing.letters import help_text

    assert commands
    text = " ".join(help_text("KEY").split())
    words = {name.replace("-", " ") for name in COMMANDS} - {"turn", "if"}
    missing = sorted(w for w in words if not re.search(rf"(?<![\w-]){w}(?![\w-])", text))
    assert not missing, missing
    assert "if THEIR-TURN then YOUR-TURN" in text
