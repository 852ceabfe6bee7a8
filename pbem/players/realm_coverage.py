"""Which rules a set of played games exercised: counts read back from the events.

The generator's promise is that its games exercise every rule often; these counts
are how the CLI (``--stats``), the bench and the tests check that promise. They
are read from what happened (the events and the board before each action), not
from what the policy meant to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.players.realm import Playout, Step
from pbem.rules.geometry import CENTER, REALM_OF, REALM_SQUARES, direction_between
from pbem.rules.pieces import Kind, Side
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Move,
    Pass,
    Placement,
    PowerSacrificed,
    Rearrangement,
)
from pbem.rules.realm.movement import stops
from pbem.rules.realm.position import Board

#: every feature counted, in the order they are printed
FEATURES: tuple[str, ...] = (
    "dispersal of 1 piece",
    "dispersal of 2 pieces",
    "dispersal of 3 pieces",
    "dispersal of 4+ pieces",
    "concentration from 1 Realm",
    "concentration from 2 Realms",
    "concentration from 3+ Realms",
    "rearrangement (own pieces)",
    "rearrangement (with the opponent's)",
    "same Realm rearranged twice running",
    "same Realm rearranged 3+ times running",
    "base created",
    "enforcer created",
    "capture, margin 1",
    "capture, margin 2",
    "capture, margin 3+",
    "replacement capture",
    "immobilisation, 1 enemy Enforcer present",
    "immobilisation, 2+ enemy Enforcers present",
    "self-immobilisation",
    "power sacrifice",
    "checkpoint stop",
    "pass",
    "end: all Bases created",
    "end: no legal turn",
    "end: turn cap",
)

#: what every featured game set should show (the rest belong to variations or are rare);
#: passes come from the policy's sieges, in about one featured game in ten
FEATURED_FEATURES: tuple[str, ...] = tuple(
    f
    for f in FEATURES
    if f
    not in (
        "concentration from 1 Realm",
        "rearrangement (with the opponent's)",
        "same Realm rearranged 3+ times running",
        "capture, margin 3+",
        "replacement capture",
        "power sacrifice",
        "checkpoint stop",
        "end: turn cap",
        # both sides shut in at once: a siege shuts in only one (see ``pbem.players.realm``)
        "end: no legal turn",
    )
)


@dataclass(slots=True)
class Coverage:
    games: int = 0
    turns: int = 0
    actions: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FEATURES, 0))

    def add(self, other: Coverage) -> None:
        self.games += other.games
        self.turns += other.turns
        self.actions += other.actions
        for k, v in other.counts.items():
            self.counts[k] += v

    def missing(self, wanted: tuple[str, ...] = FEATURED_FEATURES) -> list[str]:
        return [f for f in wanted if not self.counts[f]]

    def lines(self) -> list[str]:
        width = max(len(f) for f in FEATURES)
        head = f"{self.games} games, {self.turns} turns of play, {self.actions} actions"
        return [head, *(f"  {f:<{width}}  {self.counts[f]:>7}" for f in FEATURES)]


def coverage_of(playout: object) -> Coverage:
    """The rules one Featured Game's playout (``GeneratedGame.playout``) used."""
    if not isinstance(playout, Playout):
        raise TypeError(f"not a Featured Game's playout: {type(playout).__name__}")
    cov = Coverage(games=1)
    counts = cov.counts
    rs = playout.ruleset
    streak: list[tuple[int, int]] = [(-1, 0), (-1, 0)]
    for turn in playout.turns:
        first = turn[0]
        if isinstance(first.action, Placement):
            continue
        cov.turns += 1
        cov.actions += len(turn)
        side = first.side
        if isinstance(first.action, Rearrangement):
            action = first.action
            mixed = any(p.side is not side for _, p in action.placements)
            kind = "with the opponent's" if mixed else "own pieces"
            counts[f"rearrangement ({kind})"] += 1
            realm, n = streak[side]
            n = n + 1 if realm == action.realm else 1
            streak[side] = (action.realm, n)
            if n == 2:
                counts["same Realm rearranged twice running"] += 1
            elif n >= 3:
                counts["same Realm rearranged 3+ times running"] += 1
            continue
        streak[side] = (-1, 0)
        if isinstance(first.action, Pass):
            counts["pass"] += 1
            continue
        moves = [s for s in turn if isinstance(s.action, Move)]
        moved = [s.action for s in turn if isinstance(s.action, Move)]
        for step in turn:
            if any(isinstance(e, PowerSacrificed) for e in step.events):
                counts["power sacrifice"] += 1
        starts = {REALM_OF[m.frm] for m in moved}
        ends = {REALM_OF[m.to] for m in moved}
        if len(starts) == 1:
            counts[f"dispersal of {min(len(moves), 4)}{'+' if len(moves) >= 4 else ''} "
                   f"piece{'s' if len(moves) > 1 else ''}"] += 1
        if len(moves) >= 2 and len(ends) == 1:
            k = len(starts)
            counts[f"concentration from {min(k, 3)}{'+' if k >= 3 else ''} "
                   f"Realm{'s' if k > 1 else ''}"] += 1
        for step in moves:
            _count_move(counts, step, rs.checkpoint)
    end = playout.final.end
    if playout.capped:
        counts["end: turn cap"] += 1
    elif end == "bases":
        counts["end: all Bases created"] += 1
    elif end == "no-legal-turn":
        counts["end: no legal turn"] += 1
    return cov


def _count_move(counts: dict[str, int], step: Step, checkpoint: bool) -> None:
    move = step.action
    assert isinstance(move, Move)
    before = step.before
    side = step.side
    realm = REALM_OF[move.to]
    events = step.events
    captured = False
    for i, ev in enumerate(events):
        if isinstance(ev, BaseCreated):
            if captured:
                counts["replacement capture"] += 1
            else:
                counts["base created"] += 1
        elif isinstance(ev, EnforcerCreated):
            counts["enforcer created"] += 1
        elif isinstance(ev, BaseCaptured):
            captured = True
            margin = _powers(before, realm, side) - _powers(before, realm, side.other)
            counts[f"capture, margin {min(margin, 3)}{'+' if margin >= 3 else ''}"] += 1
        elif isinstance(ev, EnforcerImmobilised):
            if not ev.own:
                present = _mobile_enforcers(before, realm, ev.side)
                counts["immobilisation, 1 enemy Enforcer present" if present == 1
                       else "immobilisation, 2+ enemy Enforcers present"] += 1
            elif i and isinstance(events[i - 1], EnforcerImmobilised):
                counts["self-immobilisation"] += 1
    if checkpoint and _stopped_by_checkpoint(before, move):
        counts["checkpoint stop"] += 1


def _powers(board: Board, realm: int, side: Side) -> int:
    return sum(
        1 for s in REALM_SQUARES[realm]
        if (p := board[s]) is not None and p.kind is Kind.POWER and p.side is side
    )


def _mobile_enforcers(board: Board, realm: int, side: Side) -> int:
    return sum(
        1 for s in REALM_SQUARES[realm]
        if (p := board[s]) is not None and p.side is side and p.kind is Kind.ENFORCER
        and p.facing is not None
    )


def _stopped_by_checkpoint(board: Board, move: Move) -> bool:
    """The move stopped in an enemy Realm whose checkpoint cut its line short."""
    piece = board[move.frm]
    assert piece is not None
    d = direction_between(move.frm, move.to)
    centre = board[CENTER[REALM_OF[move.to]]]
    if centre is None or centre.kind is not Kind.BASE or centre.side is piece.side:
        return False
    free = stops(board, piece, move.frm, False)
    cut = stops(board, piece, move.frm, True)
    return any(s not in cut and direction_between(move.frm, s) == d for s in free)
