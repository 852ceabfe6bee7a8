"""Rulesets of the other games: presets with ``game:``, mappings, custom set-ups."""

from __future__ import annotations

import pytest

from pbem.errors import RulesetError
from pbem.records.rulesets import describe_ruleset, load_ruleset, preset_names


@pytest.mark.parametrize(
    ("name", "game", "options"),
    [
        ("classic", "classic", {"setup": "standard", "double_moves": False}),
        ("classic-placement", "classic", {"setup": "placement", "double_moves": False}),
        ("classic-double", "classic", {"setup": "standard", "double_moves": True}),
        ("medieval", "medieval", {"setup": "standard"}),
        ("medieval-placement", "medieval", {"setup": "placement"}),
    ],
)
def test_the_presets_name_their_game(name, game, options):
    ruleset = load_ruleset(name)
    assert ruleset.game == game and ruleset.name == name
    assert ruleset.options() == {"name": name, **options}
    assert name in preset_names(game) and name not in preset_names("featured")


def test_a_mapping_with_game_and_options():
    ruleset = load_ruleset({"game": "classic", "double_moves": True})
    assert ruleset.game == "classic" and ruleset.double_moves
    assert ruleset.name == "classic+double_moves"
    assert describe_ruleset(ruleset)[0] == "classic+double_moves: Classic Realm, except:"
    on_preset = load_ruleset({"preset": "classic-placement", "double_moves": True})
    assert on_preset.placement and on_preset.double_moves


def test_a_custom_setup_is_a_map_from_square_to_piece():
    white = ["b2", "e2", "h2", "k2", "b5", "e5", "h5", "k5"]
    black = ["b8", "e8", "h8", "k8", "b11", "e11", "h11", "a12"]
    setup = {**{s: "wE" for s in white}, **{s: "bE" for s in black}}
    ruleset = load_ruleset({"game": "classic", "setup": setup})
    assert ruleset.opening is not None and len(ruleset.opening) == 16
    assert load_ruleset({"game": "classic", "setup": ruleset.setup_option()}) .opening == (
        ruleset.opening
    )


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"game": "classic", "checkpoint": True}, "unknown ruleset option 'checkpoint'"),
        ({"game": "medieval", "double_moves": True}, "unknown ruleset option 'double_moves'"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "medieval", "preset": "classic"}, "is a ruleset of Classic Realm"),
        ({"game": "classic", "double_moves": "yes"}, "must be true or false"),
        ({"game": "classic", "setup": "random"}, "standard, placement, or a map"),
        ({"game": "classic", "setup": {"z9": "wE"}}, "'z9', which is not a square"),
        ({"game": "classic", "setup": {"b2": "wP"}}, "the pieces of Classic Realm are written"),
        ({"game": "medieval", "setup": {"b2": "wE"}}, "gives White 1 Man; each side has 6"),
    ],
)
def test_mistakes_are_named(spec, words):
    with pytest.raises(RulesetError) as info:
        load_ruleset(spec)
    assert words in info.value.message


def test_a_custom_setup_needs_a_piece_of_each_side_on_a_center():
    white = ["a1", "a3", "c1", "c3", "d1", "d3", "f1", "f3"]  # all on Border squares
    black = ["b8", "e8", "h8", "k8", "b11", "e11", "h11", "k11"]
    setup = {**{s: "wE" for s in white}, **{s: "bE" for s in black}}
    with pytest.raises(RulesetError) as info:
        load_ruleset({"game": "classic", "setup": setup})
    assert "none of White's pieces on a Center" in info.value.message
