"""The random-game policy: legal, complete, conserving, deterministic, and covering the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.players.realm import (
    _KEEPS,
    Playout,
    dead_end,
    play_random_game,
    random_ruleset,
)
from pbem.players.realm_coverage import FEATURED_FEATURES, Coverage, coverage_of
from pbem.records.rulesets import load_ruleset, preset_names
from pbem.rules.geometry import CENTER, REALM_OF
from pbem.rules.pieces import Kind, Side, base, enforcer, power
from pbem.rules.realm.actions import BaseCaptured, Move, Pass, Placement, Rearrangement
from pbem.rules.realm.position import EMPTY_BOARD, Phase, Position
from pbem.rules.realm.ruleset import FEATURED, Ruleset
from pbem.rules.realm.turns import apply_pass, has_legal_turn

PRESETS = preset_names("featured")


def _count(position: Position, side: Side, kind: Kind) -> int:
    return sum(1 for p in position.board if p is not None and p.side is side and p.kind is kind)


def check_conservation(position: Position, captures: list[int]) -> None:
    """Every piece is on the board, in supply, captured, or (Powers) sacrificed."""
    rs = position.ruleset
    for side in Side:
        bases = _count(position, side, Kind.BASE)
        # a Base replaced after a capture left the board as captured and came from supply
        assert bases + position.bases_in_supply(side) + position.captured[side.other] == rs.bases
        assert position.captured[side] == captures[side]
        powers = _count(position, side, Kind.POWER)
        assert powers + position.powers_in_supply(side) + position.sacrificed[side] == rs.powers
        enforcers = _count(position, side, Kind.ENFORCER)
        assert enforcers + position.enforcers_in_supply(side) == rs.enforcers
        assert min(position.bases_in_supply(side), position.enforcers_in_supply(side)) >= 0
    for c in CENTER:
        p = position.board[c]
        assert p is None or p.kind is Kind.BASE


def check_playout(playout: Playout) -> None:
    captures = [0, 0]
    previous = None
    for turn in playout.turns:
        side = turn[0].side
        assert all(s.side is side for s in turn)
        if previous is not None:
            assert turn[0].before == previous.board
        for step in turn:
            for ev in step.events:
                if isinstance(ev, BaseCaptured):
                    captures[ev.side] += 1
            check_conservation(step.after, captures)
        previous = turn[-1].after
    assert playout.final == previous
    assert not playout.capped
    assert playout.final.phase is Phase.OVER
    if playout.final.end == "bases":
        supplies = [playout.final.bases_in_supply(s) for s in Side]
        assert 0 in supplies


@pytest.mark.parametrize("name", PRESETS)
def test_games_under_every_preset_end_by_the_rules_and_conserve_pieces(name: str) -> None:
    ruleset = load_ruleset(name)
    for i in range(4):
        check_playout(play_random_game(random.Random(f"{name}/{i}"), ruleset))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_rulesets_are_valid_and_their_games_conserve_pieces(seed: int) -> None:
    rng = random.Random(seed)
    ruleset = random_ruleset(rng)
    assert isinstance(ruleset, Ruleset)
    # the front matter's mapping of differences reads back as the very same ruleset
    assert load_ruleset({"name": ruleset.name, **ruleset.differences()}) == ruleset
    check_playout(play_random_game(rng, ruleset))


def test_same_seed_same_game() -> None:
    a = play_random_game(random.Random(5), FEATURED)
    b = play_random_game(random.Random(5), FEATURED)
    c = play_random_game(random.Random(6), FEATURED)
    assert [[s.action for s in t] for t in a.turns] == [[s.action for s in t] for t in b.turns]
    assert a.final == b.final
    assert [[s.action for s in t] for t in a.turns] != [[s.action for s in t] for t in c.turns]


def test_set_up_comes_first_and_play_follows_the_ruleset_order() -> None:
    rs = load_ruleset("everything")  # Black moves first after set-up
    playout = play_random_game(random.Random(1), rs)
    setup = [t for t in playout.turns if isinstance(t[0].action, Placement)]
    assert len(setup) == 2 * (rs.setup_bases + rs.powers)
    first_play = playout.turns[len(setup)]
    assert first_play[0].side is Side.BLACK


def _coverage(ruleset: Ruleset, games: int, tag: str) -> Coverage:
    cov = Coverage()
    for i in range(games):
        cov.add(coverage_of(play_random_game(random.Random(f"{tag}/{i}"), ruleset)))
    return cov


def test_forty_featured_games_exercise_every_rule() -> None:
    cov = _coverage(FEATURED, 40, "cov")
    assert cov.games == 40
    assert cov.missing(FEATURED_FEATURES) == [], "\n".join(cov.lines())
    assert "pass" in FEATURED_FEATURES
    assert cov.counts["end: turn cap"] == 0
    # the several-Enforcer choice and both capture margins are the rare ones: often enough
    assert cov.counts["immobilisation, 2+ enemy Enforcers present"] >= 3
    assert cov.counts["capture, margin 2"] >= 3
    assert cov.counts["dispersal of 4+ pieces"] >= 1


@pytest.mark.parametrize(
    ("name", "features"),
    [
        ("checkpoint", ("checkpoint stop",)),
        ("replacement", ("replacement capture",)),
        ("original", ("power sacrifice", "same Realm rearranged 3+ times running")),
        (
            "everything",
            ("power sacrifice", "checkpoint stop", "replacement capture",
             "rearrangement (with the opponent's)"),
        ),
    ],
)
def test_variation_presets_exercise_their_variation(name: str, features: tuple[str, ...]) -> None:
    cov = _coverage(load_ruleset(name), 15, name)
    assert cov.missing(features) == [], "\n".join(cov.lines())
    if not load_ruleset(name).rearrangement_limit:
        return
    assert cov.counts["same Realm rearranged 3+ times running"] == 0


def test_the_limit_stops_a_third_rearrangement_of_the_same_realm() -> None:
    cov = _coverage(FEATURED, 20, "limit")
    assert cov.counts["same Realm rearranged twice running"] > 0
    assert cov.counts["same Realm rearranged 3+ times running"] == 0


def test_coverage_reads_capture_margins_from_the_board() -> None:
    playout = play_random_game(random.Random("margins"), FEATURED)
    cov = coverage_of(playout)
    captures = 0
    for turn in playout.turns:
        for step in turn:
            if isinstance(step.action, Move) and any(
                isinstance(e, BaseCaptured) for e in step.events
            ):
                captures += 1
    counted = sum(v for k, v in cov.counts.items() if k.startswith("capture, margin"))
    assert counted == captures


def test_dead_end_needs_full_centers_and_no_enforcer_to_capture_with() -> None:
    board = list(EMPTY_BOARD)
    for i, c in enumerate(CENTER):
        board[c] = base(Side(i % 2))
    board[0] = power(Side.WHITE)
    full = Position(board=tuple(board), phase=Phase.PLAY, enforcers_created=(8, 8),
                    powers_placed=(3, 3))
    assert dead_end(full)
    board[1] = enforcer(Side.BLACK, None)  # immobilised: no help
    assert dead_end(full.with_board(tuple(board)))
    board[1] = enforcer(Side.BLACK, 0)  # mobile: it may yet capture
    assert not dead_end(full.with_board(tuple(board)))
    assert not dead_end(Position(board=tuple(board), phase=Phase.PLAY, enforcers_created=(7, 8),
                                 powers_placed=(3, 3)))
    board[CENTER[REALM_OF[0]]] = None  # an empty Center: a Base may yet be created
    board[1] = None
    assert not dead_end(full.with_board(tuple(board)))
    # every Power sacrificed: nothing can create or capture a Base again
    assert dead_end(full.with_board(tuple(board), sacrificed=(3, 3)))


def test_sieges_make_a_side_pass_in_a_few_percent_of_featured_games() -> None:
    passing = 0
    for i in range(100):
        playout = play_random_game(random.Random(f"siege/{i}"), FEATURED)
        check_playout(playout)
        before = None
        passes = 0
        for turn in playout.turns:
            action = turn[0].action
            if isinstance(action, Pass):
                passes += 1
                side = turn[0].side
                assert before is not None and before.to_move is side
                # a real pass: nothing was legal, yet the other side could still play
                assert not has_legal_turn(before, side)
                assert has_legal_turn(before, side.other)
            before = turn[-1].after
        passing += passes > 0
    assert passing >= 3


def _keep_position(keep: int, besieger: Side, streak: int) -> Position:
    inner, seal, _ = _KEEPS[keep]
    victim = besieger.other
    board = list(EMPTY_BOARD)
    board[CENTER[keep]] = base(besieger)
    for s in inner:
        board[s] = power(victim)
    board[seal[0]] = power(besieger)
    board[seal[1]] = enforcer(besieger, None)
    board[CENTER[5]] = base(victim)  # the besieger's pieces can still move: no game end
    board[CENTER[5] + 1] = power(besieger)
    rearranged = [(-1, 0), (-1, 0)]
    rearranged[victim] = (keep, streak)
    return Position(board=tuple(board), phase=Phase.PLAY, to_move=victim,
                    bases_created=(2, 2), powers_placed=(3, 3),
                    rearranged=(rearranged[0], rearranged[1]))


@pytest.mark.parametrize("keep", sorted(_KEEPS))
def test_a_sealed_keep_leaves_its_powers_no_legal_turn_once_the_limit_bites(keep: int) -> None:
    inner, seal, rest = _KEEPS[keep]
    assert len(inner) == 3 and len(seal) == 2 and len(rest) == 3
    assert {REALM_OF[s] for s in inner + seal + rest} == {keep}
    # two Rearrangements running of the keep: no third, and no Power can move
    shut = _keep_position(keep, Side.BLACK, streak=2)
    assert not has_legal_turn(shut, Side.WHITE)
    after, _ = apply_pass(shut)
    assert after.phase is Phase.PLAY and after.to_move is Side.BLACK
    # one Rearrangement only: a second is still legal
    assert has_legal_turn(_keep_position(keep, Side.BLACK, streak=1), Side.WHITE)
    # a seal square free: the Power next to it has a line out of the keep
    board = list(shut.board)
    board[seal[0]] = None
    assert has_legal_turn(shut.with_board(tuple(board)), Side.WHITE)


def test_a_passing_side_rearranges_its_keep_twice_between_passes() -> None:
    """The siege's rhythm: Rearrangement, Rearrangement (onto the inner squares), pass."""
    for i in range(100):
        playout = play_random_game(random.Random(f"siege/{i}"), FEATURED)
        own = [t for t in playout.turns if not isinstance(t[0].action, Placement)]
        passes = [k for k, t in enumerate(own) if isinstance(t[0].action, Pass)]
        if not passes:
            continue
        side = own[passes[0]][0].side
        mine = [t[0].action for t in own[: passes[0]] if t[0].side is side]
        assert isinstance(mine[-1], Rearrangement) and isinstance(mine[-2], Rearrangement)
        assert mine[-1].realm == mine[-2].realm in _KEEPS
        inner = set(_KEEPS[mine[-1].realm][0])
        assert {s for s, _ in mine[-1].placements} == inner
        return
    raise AssertionError("no siege made a side pass")


def test_the_registry_finds_each_games_policy_and_names_the_known_ones():
    from pbem.players.registry import NoPolicy, policy

    assert policy("realm").play is play_random_game
    with pytest.raises(NoPolicy, match="realm"):
        policy("chess")
