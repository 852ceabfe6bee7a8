"""Random playouts conserve the pieces, and a refused action changes nothing.

Each example plays a real set-up with random legal placements, then random turns: mostly
single-piece Dispersals, sometimes a two-piece Dispersal or Concentration, sometimes a
Rearrangement, a pass when nothing else is legal. Where the rules ask for a choice
(``event.enforcer-choice``, ``event.immobilise-choice``) a random one of ``exc.options``
is supplied. Now and then an arbitrary (mostly illegal) action is tried first; when it is
refused, the position must equal the copy saved before it.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.errors import RuleError
from pbem.rules.geometry import (
    CENTER,
    DIRECTIONS,
    IS_CENTER,
    REALM_OF,
    REALM_SQUARES,
    REALMS,
    SQUARES,
    Direction,
)
from pbem.rules.pieces import Kind, Side, enforcer
from pbem.rules.realm.actions import Move, Placement, Rearrangement
from pbem.rules.realm.movement import stops
from pbem.rules.realm.position import Phase, Position, initial_position
from pbem.rules.realm.setup import (
    apply_placement,
    expected_kind,
    legal_base_realms,
    legal_power_squares,
)
from pbem.rules.realm.special_events import base_creation_possible
from pbem.rules.realm.turns import (
    TurnState,
    apply_move,
    apply_pass,
    apply_rearrangement,
    begin_turn,
    finish_turn,
    has_legal_turn,
    rearrangeable,
)
from tests.diagram import render, sq

CHOICES = ("event.enforcer-choice", "event.immobilise-choice")


def count(position: Position, side: Side, kind: Kind) -> int:
    return sum(1 for p in position.board if p is not None and p.side is side and p.kind is kind)


def check_conservation(position: Position) -> None:
    rs = position.ruleset
    for side in Side:
        bases = count(position, side, Kind.BASE)
        supply = position.bases_in_supply(side)
        assert supply >= 0
        assert bases + position.captured[side.other] + supply == rs.bases, render(position)
        powers = count(position, side, Kind.POWER)
        assert powers == position.powers_placed[side], render(position)
        if position.phase is not Phase.SETUP:
            assert powers == rs.powers, render(position)
        enforcers = count(position, side, Kind.ENFORCER)
        assert position.enforcers_in_supply(side) >= 0
        assert enforcers + position.enforcers_in_supply(side) == rs.enforcers, render(position)
    for r in REALMS:  # only Bases stand on Centers
        p = position.board[CENTER[r]]
        assert p is None or p.kind is Kind.BASE, render(position)
    if position.end == "bases":
        assert 0 in (position.bases_in_supply(Side.WHITE), position.bases_in_supply(Side.BLACK))


def saved_copy(position: Position) -> Position:
    return replace(position, board=tuple(position.board))


# -- set-up ----------------------------------------------------------------------------------
def random_setup(data: st.DataObject) -> Position:
    position = initial_position()
    while position.phase is Phase.SETUP:
        check_conservation(position)
        side = position.to_move
        kind = expected_kind(position)
        if kind is Kind.BASE:
            legal = [CENTER[r] for r in legal_base_realms(position, side)]
            # placing a Base asks the rule its own quick way: it agrees with the listing,
            # both ways round, on every Center
            for center in CENTER:
                try:
                    apply_placement(position, Placement(Kind.BASE, center))
                except RuleError:
                    assert center not in legal
                else:
                    assert center in legal
        else:
            legal = legal_power_squares(position, side)
        if data.draw(st.integers(0, 3), label="try a wild placement") == 0:
            wild = Placement(
                data.draw(st.sampled_from([Kind.BASE, Kind.POWER])),
                data.draw(st.sampled_from(SQUARES)),
            )
            saved = saved_copy(position)
            try:
                apply_placement(position, wild)
            except RuleError:
                assert position == saved
            else:
                assert wild.kind is kind and wild.square in legal
        square = data.draw(st.sampled_from(legal), label="placement")
        position, _ = apply_placement(position, Placement(kind, square))
    assert position.to_move is Side.WHITE
    return position


# -- turns -----------------------------------------------------------------------------------
def parse_choice(option: str, move: Move) -> Move:
    if option.startswith("xE"):
        return replace(move, immobilise=sq(option[2:]))
    assert option.startswith("E")
    return replace(move, create_at=sq(option[1:-1]), create_facing=Direction[option[-1]])


def move_with_choices(data: st.DataObject, state: TurnState, move: Move):
    """Apply ``move``, supplying a random legal choice whenever the rules ask for one."""
    for _ in range(3):
        saved = saved_copy(state.position)
        try:
            return apply_move(state, move)
        except RuleError as exc:
            assert state.position == saved
            if exc.code not in CHOICES:
                raise
            assert exc.options, exc.message
            move = parse_choice(data.draw(st.sampled_from(exc.options), label="choice"), move)
    raise AssertionError("a choice was asked for twice")


def movers(position: Position, side: Side, realms=None, into=None) -> list[tuple[int, int]]:
    """Every (from, to) single-piece stop for ``side``'s pieces standing in ``realms``
    (any, if None), optionally only stops in realm ``into``."""
    out = []
    board = position.board
    for s, p in enumerate(board):
        if p is None or p.side is not side or not p.mobile:
            continue
        if realms is not None and REALM_OF[s] not in realms:
            continue
        if into is not None and REALM_OF[s] == into:
            continue
        out.extend((s, t) for t in stops(board, p, s) if into is None or REALM_OF[t] == into)
    return out


def try_wild_move(data: st.DataObject, position: Position) -> None:
    state = begin_turn(position)
    saved = saved_copy(position)
    wild = Move(data.draw(st.sampled_from(SQUARES)), data.draw(st.sampled_from(SQUARES)))
    with contextlib.suppress(RuleError):
        apply_move(state, wild)
    assert position == saved
    assert state.position == saved


def random_rearrangement(data: st.DataObject, position: Position) -> Position | None:
    side = position.to_move
    realms = [r for r in REALMS if rearrangeable(position, side, r)]
    if not realms:
        return None
    realm = data.draw(st.sampled_from(realms), label="realm to rearrange")
    own = [
        (s, p)
        for s, p in position.realm_pieces(realm)
        if p.side is side and p.kind is not Kind.BASE
    ]
    mine = {s for s, _ in own}
    free = [
        s
        for s in REALM_SQUARES[realm]
        if not IS_CENTER[s] and (position.board[s] is None or s in mine)
    ]
    squares = data.draw(st.permutations(free), label="squares")[: len(own)]
    placements = []
    for s, (_, p) in zip(squares, own, strict=True):
        if p.kind is Kind.ENFORCER and p.facing is not None:
            p = enforcer(side, data.draw(st.sampled_from(DIRECTIONS), label="facing"))
        placements.append((s, p))
    saved = saved_copy(position)
    try:
        after, events = apply_rearrangement(position, Rearrangement(realm, tuple(placements)))
    except RuleError as exc:
        assert exc.code == "rearrange.unchanged", exc.message
        assert position == saved
        return None
    assert events == []
    assert after.board != position.board
    return after


def random_turn(data: st.DataObject, position: Position) -> Position:
    side = position.to_move
    if not has_legal_turn(position, side):
        assert not movers(position, side)
        after, _ = apply_pass(position)
        return after
    if data.draw(st.integers(0, 9), label="try a wild move") == 0:
        try_wild_move(data, position)
        saved = saved_copy(position)
        try:
            apply_pass(position)
        except RuleError as exc:
            assert exc.code == "turn.pass"
        else:
            raise AssertionError("a pass with a legal turn was accepted")
        assert position == saved
    options = movers(position, side)
    if not options or data.draw(st.integers(0, 9), label="rearrange?") == 0:
        after = random_rearrangement(data, position)
        if after is not None or not options:
            assert after is not None, render(position)
            return after
    # lean toward Base-creating moves, so that some games reach their end
    creating = [
        (f, t)
        for f, t in options
        if position.board[f].kind is Kind.POWER
        and base_creation_possible(position, side, REALM_OF[t])
    ]
    if creating and data.draw(st.booleans(), label="create a Base?"):
        options = creating
    frm, to = data.draw(st.sampled_from(options), label="move")
    state, _ = move_with_choices(data, begin_turn(position), Move(frm, to))
    if not state.over and data.draw(st.integers(0, 3), label="second piece?") == 0:
        if data.draw(st.booleans(), label="dispersal?"):
            more = movers(state.position, side, realms={REALM_OF[frm]})
        else:
            more = movers(state.position, side, into=REALM_OF[to])
        if more:
            frm2, to2 = data.draw(st.sampled_from(more), label="second move")
            state, _ = move_with_choices(data, state, Move(frm2, to2))
    return finish_turn(state)


@settings(
    max_examples=50,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_playouts_conserve_pieces(data):
    """For each side, at every step: Bases on the board + captured by the other side + in
    supply = ``ruleset.bases``; Powers on the board = ``ruleset.powers`` after set-up;
    Enforcers on the board + in supply = ``ruleset.enforcers``."""
    position = random_setup(data)
    check_conservation(position)
    turns = data.draw(st.integers(0, 150), label="turns")
    for _ in range(turns):
        if position.phase is Phase.OVER:
            break
        position = random_turn(data, position)
        check_conservation(position)
        if position.phase is Phase.PLAY:
            assert max(n for _, n in position.rearranged) <= 2
