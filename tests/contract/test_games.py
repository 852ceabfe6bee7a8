"""The contract every registered game keeps (``pbem.rules.game``): one suite, run for
each game in the registry, so a new game joins it by registering."""

from __future__ import annotations

import random

import pytest

from pbem.errors import PbemError
from pbem.notation.format import format_action
from pbem.notation.parse import parse_game, parse_movetext
from pbem.players.registry import NoPolicy, policy
from pbem.records.generate import record_text
from pbem.records.replay import replay_game
from pbem.rules.game import Game, Phase
from pbem.rules.registry import game_for, game_of, games
from pbem.rules.written import MoveText, PlacementText

GAMES = games()
IDS = [g.name for g in GAMES]


def _parse_action(text: str):
    """The text of one action, parsed as the notation reads it (as White's turn 1)."""
    return parse_movetext(f"1.{text}").entries[0].white.actions[0]


def random_game(game: Game, seed: int, max_turns: int = 400):
    """Play ``game`` from its start by choosing among its own legal actions; each chosen
    action goes through format -> parse -> resolve, as a record's would."""
    rng = random.Random(seed)
    position = game.initial(game.default_ruleset())
    turns = 0
    while position.phase is not Phase.OVER and turns < max_turns:
        state = game.begin_turn(position)
        played = 0
        while True:
            options = game.legal_actions(state)
            stop = not game.can_continue(state) or (
                not game.must_continue(state) and rng.random() < 0.5
            )
            if not options or (played and stop):
                break
            # moves and placements first: a uniform pick among thousands of Featured
            # Rearrangements would never end the game (the players' policies are cleverer)
            pieces = [a for a in options if isinstance(a, MoveText | PlacementText)]
            text = format_action(rng.choice(pieces if pieces and rng.random() < 0.95 else options))
            state, resolved = game.resolve_action(state, _parse_action(text))
            assert format_action(resolved.canonical()) == text  # generator and validator agree
            assert not resolved.warnings
            played += 1
        assert played, f"{game.name}: no legal action at {position.turn_label()}"
        position = game.finish_turn(state)
        turns += 1
    return position, turns


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_registry_finds_the_game_by_name_and_alias(game):
    assert game_for(game.name) is game
    for alias in game.aliases:
        assert game_for(alias) is game
    assert game_of(game.default_ruleset()) is game
    assert game.title and game.pieces.styles


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_set_up(game):
    position = game.initial(game.default_ruleset())
    assert position.phase in (Phase.SETUP, Phase.PLAY)
    assert position.result is None
    assert position.turn_label().endswith(("w", "b"))
    assert game.legal_actions(game.begin_turn(position))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_json_round_trip(game):
    position, _ = random_game(game, seed=7, max_turns=12)
    data = game.position_to_json(position)
    assert data["game"] == (game.json_name or game.name)
    again = game.position_from_json(data)
    assert game.position_to_json(again) == data
    assert again.board == position.board


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_legal_actions_round_trip_through_the_notation(game):
    position, _ = random_game(game, seed=3, max_turns=10)
    state = game.begin_turn(position)
    for action in game.legal_actions(state)[:200]:
        text = format_action(action)
        assert format_action(_parse_action(text)) == text
        _, resolved = game.resolve_action(state, _parse_action(text))
        assert format_action(resolved.canonical()) == text


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_an_unknown_action_is_a_rule_error_not_a_crash(game):
    position, _ = random_game(game, seed=5, max_turns=6)
    state = game.begin_turn(position)
    with pytest.raises(PbemError):
        game.resolve_action(state, _parse_action("Pa1a2a3a4"))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_random_playout_ends_and_is_scored(game):
    """The game's own random player (``pbem generate``) plays it to the end; the record
    it writes validates with no warning, to the same final position and result."""
    try:
        player = policy(game.name)
    except NoPolicy:
        position, turns = random_game(game, seed=11)
    else:
        played = player.generate(random.Random(11), game.default_ruleset())
        replay = replay_game(parse_game(record_text(played, 11, 0)))
        assert replay.valid, replay.error
        assert not replay.warnings
        assert game.position_to_json(replay.final) == game.position_to_json(played.final)
        position, turns = replay.final, len(replay.turns)
    assert position.phase is Phase.OVER, f"{game.name}: no end after {turns} turns"
    assert position.result in ("1-0", "0-1", "1/2-1/2")
    assert game.score(position)
    assert game.end_words(position)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_snapshot_round_trip(game):
    """The referee stores a snapshot per turn: reading it back gives the same position."""
    from pbem.records.snapshot import dump_snapshot, load_snapshot

    for turns in (0, 9):
        position, _ = random_game(game, seed=13, max_turns=turns)
        assert load_snapshot(dump_snapshot(position)) == position


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_words_and_pictures(game):
    """Every layer above draws and words the game through the interface, never a crash."""
    from pbem.records.replay import replay_game as replay
    from pbem.render.board_svg import render_svg
    from pbem.render.frames import frames_of
    from pbem.render.reports import render_report_html, render_report_text
    from pbem.render.text_board import render_text

    position, _ = random_game(game, seed=17, max_turns=6)
    assert render_text(position)
    assert render_svg(position).startswith("<svg")
    played = policy(game.name).generate(random.Random(17), game.default_ruleset())
    record = replay(parse_game(record_text(played, 17, 0)))
    assert record.valid
    assert len(frames_of(record)) > len(record.turns)
    assert "Moves:" in render_report_text(record)
    assert "<svg" in render_report_html(record)
    assert render_svg(record.final, last=record.turns[-1])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_it_says_beforehand_whether_it_ends_by_agreement(game):
    """``ends_by_agreement`` (what the referee offers and its help lists) agrees with
    ``end_by_agreement``: a scored end where it says yes, end.agreement-off where no."""
    position = next(
        p for n in range(2, 40, 2)
        if (p := random_game(game, seed=3, max_turns=n)[0]).phase is Phase.PLAY
    )  # the set-up over, the game going on
    if game.ends_by_agreement(position.ruleset):
        assert game.end_by_agreement(position).phase is Phase.OVER
    else:
        with pytest.raises(PbemError) as info:
            game.end_by_agreement(position)
        assert info.value.code == "end.agreement-off"


def test_only_the_featured_game_ends_by_agreement_and_only_where_its_rules_say():
    featured = game_for("featured")
    assert featured.ends_by_agreement(featured.default_ruleset())
    off = featured.ruleset_from({"end_by_agreement": False})
    assert not featured.ends_by_agreement(off)
    assert [g.name for g in GAMES if g.ends_by_agreement(g.default_ruleset())] == ["featured"]
