"""The legal-move generator agrees with the validator, under every ruleset.

Random positions come from random playouts under every preset in ``games/`` and under
random combinations of the options. At each position, and mid-turn after one or two
moves or a Power sacrifice, a brute-force superset of candidates (every own piece x
every square x every choice; every sacrifice; for small Realms every placement of the
Realm's pieces) goes through the validator: it must accept a candidate iff the
generator yields it (up to choice fields the validator ignores), and every yielded
action must apply. The board-diagram tests below pin the cases by hand.
"""

from __future__ import annotations

import random
from itertools import islice, permutations, product
from math import prod
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import RuleError
from pbem.notation.format import format_action
from pbem.notation.parse import parse_movetext
from pbem.rules.geometry import CENTER, DIRECTIONS, REALM_OF, REALM_SQUARES, REALMS, SQUARES
from pbem.rules.pieces import Kind, Side, enforcer
from pbem.rules.realm.actions import (
    EnforcerCreated,
    EnforcerImmobilised,
    Move,
    Pass,
    Placement,
    Rearrangement,
    Sacrifice,
)
from pbem.rules.realm.canonical import action_text
from pbem.rules.realm.legal import (
    count_actions,
    count_rearrangements,
    legal_actions,
    legal_moves,
    legal_moves_for,
    legal_placements,
    legal_sacrifices,
    rearrangements,
)
from pbem.rules.realm.position import Phase, Position, initial_position
from pbem.rules.realm.resolve import resolve_move
from pbem.rules.realm.ruleset import FEATURED, Ruleset
from pbem.rules.realm.setup import apply_placement
from pbem.rules.realm.turns import (
    TurnState,
    apply_move,
    apply_pass,
    apply_rearrangement,
    apply_sacrifice,
    begin_turn,
    finish_turn,
    has_legal_turn,
)
from tests.diagram import mv, play, position_from, render, sq

W, B = Side.WHITE, Side.BLACK
GAMES = Path(__file__).resolve().parents[2] / "games"
CHOICES = ("event.enforcer-choice", "event.immobilise-choice")
#: brute-force every placement of a Realm's pieces only up to this many candidates
REARRANGE_BRUTE = 4000
#: enumerate a Realm's Rearrangements to check the count only up to this many
REARRANGE_LIST = 20000
#: apply every one of a Realm's Rearrangements (and compare with brute force) up to this many
REARRANGE_APPLY = 600


def _preset(path: Path) -> Ruleset | None:
    """The Featured Game's preset in ``path``; None for a preset of another game."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if data.get("game", "featured") != "featured" or (
        data.get("preset", "featured") != "featured"
        and _preset(GAMES / f"{data['preset']}.yaml") is None
    ):
        return None
    options = {k: v for k, v in data.items() if k not in ("name", "description", "preset")}
    return FEATURED.with_options(options, name=path.stem)


PRESETS = {
    p.stem: r for p in sorted(GAMES.glob("*.yaml")) if (r := _preset(p)) is not None
}


def rulesets() -> st.SearchStrategy[Ruleset]:
    """Random combinations of every switch and number."""
    switches = {
        name: st.booleans()
        for name in (
            "free_placement", "checkpoint", "exclusive_creation", "replacement",
            "second_player_first", "rearrange_opponent", "tiebreak_captures",
            "power_sacrifice", "rearrangement_limit", "end_by_agreement",
        )
    }
    numbers = st.fixed_dictionaries(
        {
            "bases": st.integers(11, 13),
            "enforcers": st.integers(4, 9),
            "setup_bases": st.integers(3, 4),
            "extra_powers": st.integers(0, 1),
        }
    )

    def build(switched: dict, n: dict) -> Ruleset:
        powers = min(4, n["setup_bases"] + n["extra_powers"])
        return FEATURED.with_options(
            {**switched, "bases": n["bases"], "enforcers": n["enforcers"],
             "setup_bases": n["setup_bases"], "powers": powers},
            name="random",
        )

    return st.builds(build, st.fixed_dictionaries(switches), numbers)


# -- random playouts through the generator ---------------------------------------------------
def random_move_turn(rng: random.Random, state: TurnState, pieces: int) -> TurnState:
    """Play up to ``pieces`` random legal Moves (at least one must be possible)."""
    for i in range(pieces):
        moves = list(legal_moves(state))
        if not moves:
            assert i > 0 or state.moves > 0
            break
        if i == 0:  # lean toward Base-creating stops, so that games reach their end
            board = state.position.board
            creating = [
                m for m in moves
                if board[m.frm].kind is Kind.POWER and board[CENTER[REALM_OF[m.to]]] is None
            ]
            if creating and rng.random() < 0.5:
                moves = creating
        state, _ = apply_move(state, rng.choice(moves))
    return state


def random_turn(rng: random.Random, position: Position) -> Position:
    if position.phase is Phase.SETUP:
        after, _ = apply_placement(position, rng.choice(legal_placements(position)))
        return after
    state = begin_turn(position)
    moves = list(legal_moves(state))
    sacrifices = legal_sacrifices(position)
    realms = [r for r in REALMS if count_rearrangements(position, r)]
    roll = rng.random()
    if sacrifices and (roll < 0.15 or not (moves or realms)):
        state, _ = apply_sacrifice(state, rng.choice(sacrifices))
        return finish_turn(random_move_turn(rng, state, rng.choice((1, 1, 2))))
    if realms and (roll < 0.3 or not moves):
        realm = rng.choice(realms)
        n = rng.randrange(min(count_rearrangements(position, realm), 300))
        action = next(islice(rearrangements(position, realm), n, None))
        after, _ = apply_rearrangement(position, action)
        return after
    if moves:
        return finish_turn(random_move_turn(rng, state, rng.choice((1, 1, 1, 2, 3))))
    after, _ = apply_pass(position)
    return after


def playout(ruleset: Ruleset, seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    position = initial_position(ruleset)
    for _ in range(plies):
        if position.phase is Phase.OVER:
            break
        position = random_turn(rng, position)
    return position


# -- the brute-force oracle ------------------------------------------------------------------
def _accepted(state: TurnState, move: Move):
    try:
        return apply_move(state, move)[1]
    except RuleError:
        return None


def _choice_variants(frm: int, to: int) -> list[Move]:
    realm = REALM_SQUARES[REALM_OF[to]]
    out = [Move(frm, to, s, d) for s in realm for d in DIRECTIONS]
    out += [Move(frm, to, immobilise=s) for s in realm]
    out += [Move(frm, to, create_facing=d) for d in DIRECTIONS]  # half a choice
    out += [Move(frm, to, create_at=s) for s in realm]
    return out


def canonical(plain_events, move: Move, events) -> Move:
    """The generator's form of an accepted Move: choice fields only where the plain Move
    is refused for lack of them, and then exactly the choice that was made."""
    if plain_events is not None:
        assert events == plain_events, (move, events, plain_events)
        return Move(move.frm, move.to)
    for ev in events:
        if isinstance(ev, EnforcerCreated):
            return Move(move.frm, move.to, ev.square, ev.facing)
        if isinstance(ev, EnforcerImmobilised) and not ev.own:
            return Move(move.frm, move.to, immobilise=ev.square)
    raise AssertionError(f"{move} needed a choice but made none: {events}")


def brute_moves(state: TurnState, rng: random.Random) -> set[Move]:
    """Every Move the validator accepts, in the generator's form."""
    board = state.position.board
    side = state.position.to_move
    froms = [s for s in SQUARES if board[s] is not None and board[s].side is side]
    froms += rng.sample(list(SQUARES), 6)
    found: set[Move] = set()
    refused_with_rules = []
    for frm in dict.fromkeys(froms):
        for to in SQUARES:
            plain = Move(frm, to)
            try:
                plain_events = apply_move(state, plain)[1]
            except RuleError as exc:
                plain_events = None
                if not exc.code.startswith("event."):
                    refused_with_rules.append(plain)
                    continue  # refused before any choice is looked at: sampled below
            if plain_events is not None:
                found.add(plain)
            for variant in _choice_variants(frm, to):
                events = _accepted(state, variant)
                if events is not None:
                    found.add(canonical(plain_events, variant, events))
    # a Move refused before its special event stays refused whatever the choices say
    for plain in rng.sample(refused_with_rules, min(5, len(refused_with_rules))):
        assert not any(_accepted(state, v) for v in _choice_variants(plain.frm, plain.to))
    return found


def any_move_accepted(state: TurnState) -> bool:
    board = state.position.board
    for frm in SQUARES:
        p = board[frm]
        if p is None or p.side is not state.position.to_move:
            continue
        for to in SQUARES:
            try:
                apply_move(state, Move(frm, to))
                return True
            except RuleError as exc:
                if exc.code in CHOICES:
                    return True
    return False


def brute_sacrifices(position: Position, rng: random.Random) -> set[Sacrifice]:
    state = begin_turn(position)
    board = position.board
    side = position.to_move
    powers = [s for s in SQUARES if board[s] is not None and board[s].side is side
              and board[s].kind is Kind.POWER]
    found = set()
    for pw in dict.fromkeys(powers + rng.sample(list(SQUARES), 3)):
        for e in SQUARES:
            for d in DIRECTIONS:
                action = Sacrifice(pw, e, d)
                try:
                    after, _ = apply_sacrifice(state, action)
                except RuleError:
                    continue
                if any_move_accepted(after):
                    found.add(action)
    return found


def brute_rearrangement_boards(position: Position, realm: int) -> set | None:
    """Every board the validator accepts from any placement of the Realm's pieces (with and
    without the opponent's), or None when there are too many candidates to try."""
    side = position.to_move
    pieces = [p for _, p in position.realm_pieces(realm) if p.kind is not Kind.BASE]
    own = [p for p in pieces if p.side is side]
    theirs = [p for p in pieces if p.side is not side]
    lists = [own] + ([own + theirs] if theirs else [])
    boards = set()
    for listed in lists:
        options = [
            [p] if p.kind is Kind.POWER else [enforcer(p.side, d) for d in (*DIRECTIONS, None)]
            for p in listed
        ]
        n = len(listed)
        if prod(range(10 - n, 10)) * prod(len(o) for o in options) > REARRANGE_BRUTE:
            return None
        for squares in permutations(REALM_SQUARES[realm], n):
            for choice in product(*options):
                action = Rearrangement(realm, tuple(zip(squares, choice, strict=True)))
                try:
                    after, _ = apply_rearrangement(position, action)
                except RuleError:
                    continue
                boards.add(after.board)
    return boards


# -- the checks -------------------------------------------------------------------------------
def check_moves(state: TurnState, rng: random.Random) -> None:
    generated = list(legal_moves(state))
    assert len(generated) == len(set(generated)), "a Move is yielded twice"
    for move in generated:
        assert _accepted(state, move) is not None, (move, render(state.position))
    assert set(generated) == brute_moves(state, rng), render(state.position)
    for square in SQUARES:
        assert legal_moves_for(state, square) == [m for m in generated if m.frm == square]
    for move in rng.sample(generated, min(3, len(generated))):
        check_notation_round_trip(state, move)


def check_notation_round_trip(state: TurnState, move: Move) -> None:
    """action_text -> format -> parse -> resolve gives the same Move back."""
    board = state.position.board
    _, events = apply_move(state, move)
    text = format_action(action_text(move, events, board))
    number = "1." if state.position.to_move is W else "1..."
    entry = parse_movetext(number + text).items[0]
    written = (entry.white or entry.black).actions[0]
    after, resolved = resolve_move(state, written)
    # the notation names a lone immobilised Enforcer, which the generator leaves implicit
    assert (resolved.action.frm, resolved.action.to) == (move.frm, move.to), text
    assert resolved.events == tuple(events), text
    assert after == apply_move(state, move)[0], text
    assert resolved.warnings == (), text


def check_rearrangements(position: Position, rng: random.Random) -> None:
    side = position.to_move
    for realm in REALMS:
        n = count_rearrangements(position, realm)
        if n > REARRANGE_LIST:
            listed = list(islice(rearrangements(position, realm), 200))
            assert len(listed) == 200
        else:
            listed = list(rearrangements(position, realm))
            assert len(listed) == n, (realm, render(position))
        # one Rearrangement per board: the placements (own, then theirs) say the board
        assert len({a.placements for a in listed}) == len(listed)
        assert all(a.placements[0][1].side is side for a in listed)
        applied = listed if n <= REARRANGE_APPLY else rng.sample(listed, 20)
        boards = {apply_rearrangement(position, a)[0].board for a in applied}
        assert len(boards) == len(applied), "two Rearrangements give the same board"
        if n <= REARRANGE_APPLY:
            brute = brute_rearrangement_boards(position, realm)
            if brute is not None:
                assert brute == boards, (realm, render(position))


def check_position(position: Position, seed: int) -> None:
    rng = random.Random(seed)
    if position.phase is Phase.SETUP:
        legal = legal_placements(position)
        accepted = []
        for kind, s in product((Kind.BASE, Kind.POWER), SQUARES):
            try:
                apply_placement(position, Placement(kind, s))
            except RuleError:
                continue
            accepted.append(Placement(kind, s))
        assert legal == accepted
        assert list(legal_actions(position)) == legal
        return
    actions = list(legal_actions(position))
    if position.phase is Phase.OVER:
        assert actions == []
        return
    state = begin_turn(position)
    check_moves(state, rng)
    sacrifices = legal_sacrifices(position)
    assert set(sacrifices) == brute_sacrifices(position, rng), render(position)
    check_rearrangements(position, rng)
    legal_turn = has_legal_turn(position, position.to_move)
    assert (actions == [Pass()]) == (not legal_turn)
    try:
        apply_pass(position)
        passed = True
    except RuleError:
        passed = False
    assert passed == (Pass() in actions)
    counts = count_actions(position)
    assert counts["moves"] == len(list(legal_moves(state)))
    assert counts["sacrifices"] == len(sacrifices)
    assert counts["rearrangements"] == sum(count_rearrangements(position, r) for r in REALMS)
    assert counts["pass"] == int(not legal_turn)
    without = list(legal_actions(position, rearrangements=False))
    assert without == [a for a in actions if not isinstance(a, Rearrangement)]
    # mid-turn: after one move, and after two, the continuations agree too
    for first in rng.sample(list(legal_moves(state)), min(2, counts["moves"])):
        mid, _ = apply_move(state, first)
        check_moves(mid, rng)
        more = list(legal_moves(mid))
        if more:
            later, _ = apply_move(mid, rng.choice(more))
            check_moves(later, rng)
    for sacrifice in rng.sample(sacrifices, min(2, len(sacrifices))):
        after, _ = apply_sacrifice(state, sacrifice)
        assert list(legal_moves(after)), "no Dispersal follows a legal sacrifice"
        check_moves(after, rng)


SETTINGS = settings(
    max_examples=8,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 140))
def test_generator_agrees_with_the_validator_under_every_preset(preset, seed, plies):
    check_position(playout(PRESETS[preset], seed, plies), seed)


@settings(SETTINGS, max_examples=30)
@given(ruleset=rulesets(), seed=st.integers(0, 2**32 - 1), plies=st.integers(10, 160))
def test_generator_agrees_with_the_validator_under_random_rulesets(ruleset, seed, plies):
    check_position(playout(ruleset, seed, plies), seed)


def test_every_preset_is_covered():
    assert {"featured", "original", "everything", "checkpoint"} <= set(PRESETS)
    assert PRESETS["everything"].rearrange_opponent and PRESETS["original"].power_sacrifice


# -- board diagrams --------------------------------------------------------------------------
def test_concentration_continuation():
    """After a2-d2 (b2 Realm into e2), the turn goes on as a Dispersal from b2 or a
    Concentration into e2; after a second piece joins e2 from h2, only into e2.
    (No Bases left to create, so no stop has a special event.)"""
    position = position_from("""
        . . . . . . . . .
        P . . . . . . . P
        P . . . . . . . .
    """, bases_created=(12, 3))
    state, _ = play(position, mv("a2", "d2"))
    moves = list(legal_moves(state))
    assert all(REALM_OF[m.frm] == REALM_OF[sq("b2")] or REALM_OF[m.to] == REALM_OF[sq("e2")]
               for m in moves)
    assert Move(sq("i2"), sq("f2")) in moves  # a Concentration into e2
    assert Move(sq("a1"), sq("a4")) in moves  # a Dispersal from b2
    assert not any(m.frm == sq("d2") for m in moves)  # it has moved
    state, _ = apply_move(state, Move(sq("i2"), sq("f2")))
    later = list(legal_moves(state))
    assert later and all(REALM_OF[m.to] == REALM_OF[sq("e2")] for m in later)
    assert {m.frm for m in later} == {sq("a1")}


def test_immobilise_choice_with_two_enemy_enforcers():
    position = position_from("""
        . . . . n .
        . . E . . .
        . . . . . s
    """)
    moves = legal_moves_for(begin_turn(position), sq("c2"))
    to_d2 = [m for m in moves if m.to == sq("d2")]
    assert set(to_d2) == {mv("c2", "d2", immobilise="e3"), mv("c2", "d2", immobilise="f1")}
    lone = position_from("""
        . . . . n .
        . . E . . .
        . . . . . .
    """)
    assert mv("c2", "d2") in legal_moves_for(begin_turn(lone), sq("c2"))


def test_created_enforcer_choice_is_every_empty_square_times_four_facings():
    position = position_from("""
        . . . . . .
        . . P . B .
        . . . . . .
    """)
    moves = [m for m in legal_moves(begin_turn(position)) if m.to == sq("d2")]
    assert len(moves) == 7 * 4  # e2's Realm: 9 squares less the Base and the stop
    assert {m.create_at for m in moves} == {
        sq(s) for s in ("d1", "e1", "f1", "f2", "d3", "e3", "f3")
    }
    assert all(m.immobilise is None for m in moves)


def test_pass_only_when_nothing_else_is_legal():
    boxed = """
        p p p
        p b p
        P p p
    """
    position = position_from(boxed)
    assert list(legal_actions(position)) == [Pass()]
    assert count_actions(position)["pass"] == 1
    roomy = position_from(boxed.replace("p b p", "p b ."))
    actions = list(legal_actions(roomy))
    assert Pass() not in actions
    assert Rearrangement(0, ((sq("c2"), position.board[sq("a1")]),)) in actions


def test_checkpoint_stops_in_the_first_enemy_realm():
    diagram = """
        . . . . . . . . .
        . . . . b . . . .
        . . P . . . . . .
    """
    east = [sq(s) for s in ("d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1", "l1")]
    plain = legal_moves_for(begin_turn(position_from(diagram)), sq("c1"))
    assert [m.to for m in plain if m.to in east] == east
    checkpoint = position_from(diagram, ruleset=FEATURED.with_options({"checkpoint": True}))
    stopped = legal_moves_for(begin_turn(checkpoint), sq("c1"))
    assert [m.to for m in stopped if m.to in east] == east[:3]
    for m in stopped:
        apply_move(begin_turn(checkpoint), m)


def test_sacrifice_needs_the_power_sacrifice_rule_and_a_dispersal_after_it():
    diagram = """
        P . .
        . . .
        U p .
    """
    sacrifice = FEATURED.with_options({"power_sacrifice": True})
    position = position_from(diagram, ruleset=sacrifice)
    found = legal_sacrifices(position)
    # pointing South the Enforcer on a1 may go only East or West: blocked, and the edge
    north, east, _, west = DIRECTIONS
    assert found == [Sacrifice(sq("a3"), sq("a1"), d) for d in (north, east, west)]
    assert legal_sacrifices(position_from(diagram)) == []
    state, _ = apply_sacrifice(begin_turn(position), found[0])
    assert {m.frm for m in legal_moves(state)} == {sq("a1")}
    assert count_actions(position)["sacrifices"] == 3


def test_rearrangements_are_counted_by_formula():
    diagram = """
        N . .
        . . .
        P . .
    """
    position = position_from(diagram)
    assert count_rearrangements(position, 0) == 8 * 7 * 4 - 1
    crowded = position_from(diagram.replace("N . .", "N . p"))
    assert count_rearrangements(crowded, 0) == 7 * 6 * 4 - 1
    opened = position_from(
        diagram.replace("N . .", "N . p"),
        ruleset=FEATURED.with_options({"rearrange_opponent": True}),
    )
    assert count_rearrangements(opened, 0) == 8 * 7 * 4 * 6 - 1
    assert len(list(rearrangements(opened, 0))) == 8 * 7 * 4 * 6 - 1
    limited = position_from(diagram, rearranged=((0, 2), (-1, 0)))
    assert count_rearrangements(limited, 0) == 0
    assert list(rearrangements(limited, 0)) == []


def test_game_over_mid_turn_leaves_nothing_to_play():
    position = position_from("""
        . . . . . .
        . . P . . .
        . P . . . .
    """, bases_created=(11, 3))
    state, _ = play(position, mv("c2", "d2"))
    assert state.over
    assert list(legal_moves(state)) == []
    assert legal_moves_for(state, sq("b1")) == []


def test_nothing_once_the_game_is_over():
    position = position_from("P", phase=Phase.OVER)
    assert list(legal_actions(position)) == []
    assert count_actions(position) == dict.fromkeys(
        ("placements", "moves", "sacrifices", "rearrangements", "pass"), 0
    )
