"""Random games played to their end by the rules, with a policy that seeks out every rule.

A uniformly random player almost never captures, immobilises two ways or fills a
Realm, so the policy here has goals: it weighs every stop by what it would make
happen (a Base created, an Enforcer created, a capture, an immobilisation), it
brings Powers together where an enemy Base stands, it sends Enforcers where enemy
Enforcers gather, it disperses several pieces at once, concentrates from several
Realms, rearranges now and then (sometimes until the three-in-a-row limit bites) and
sacrifices Powers where the rules allow. Base creation grows more eager as a game
drags on, so that games end by the rules. In about one game in seven (``P_SIEGE``) one
side is besieged: shut in a corner Realm until it has no legal turn and must pass,
which no other play ever brings about.

It samples from the rules core's own primitives (``stops``, the special-event
conditions, ``sacrifices``) instead of enumerating every legal turn, which
would be far too slow for hundreds of games a second. Every action still goes
through ``apply_move`` and friends, so nothing illegal can be played. Randomness
comes only from ``rng``, and nothing depends on set or hash order: the same seed
gives the same games in any process.
"""

from __future__ import annotations

from itertools import combinations
from typing import TypeVar

from pbem.errors import RuleError
from pbem.players.steps import Rng
from pbem.rules.game import Phase
from pbem.rules.geometry import (
    BORDER_SQUARES,
    CENTER,
    DIRECTIONS,
    IS_CENTER,
    RAYS,
    REALM_COLUMN,
    REALM_OF,
    REALM_ROW,
    REALM_SQUARES,
    REALMS,
    direction_between,
    parse_square,
)
from pbem.rules.pieces import BASE, ENFORCER, POWER, Piece, Side, enforcer, power
from pbem.rules.realm.actions import (
    Action,
    Event,
    Move,
    Pass,
    Placement,
    Rearrangement,
    Sacrifice,
)
from pbem.rules.realm.canonical import action_text
from pbem.rules.realm.movement import has_stop, stops
from pbem.rules.realm.position import Board, Position, initial_position
from pbem.rules.realm.ruleset import FEATURED, OPTIONS, SWITCHES, Ruleset
from pbem.rules.realm.setup import (
    apply_placement,
    expected_kind,
    legal_base_realms,
    legal_power_squares,
)
from pbem.rules.realm.turns import (
    TurnState,
    apply_move,
    apply_pass,
    apply_rearrangement,
    apply_sacrifice,
    begin_turn,
    finish_turn,
    has_legal_turn,
    rearrangeable,
    sacrifices,
)
from pbem.rules.values import frozen
from pbem.rules.written import ActionText

T = TypeVar("T")

#: play turns after which a game is cut off (never reached in practice; see the bench)
MAX_TURNS = 1000
#: dead-end games (see ``dead_end``) thrown away in a row before one is kept unfinished
MAX_DISCARDS = 20

# How often each kind of turn is tried, when it is possible.
P_SACRIFICE = 0.3
P_REARRANGE = 0.05
P_REARRANGE_AGAIN = 0.6  # after rearranging a Realm, the chance to rearrange it again
P_CONCENTRATE = 0.3
P_BIG_DISPERSAL = 0.3
#: when a stop would create a Base (for the side meant to), the chance to take it now
P_SEIZE = 0.7
#: how many of the Centers the leader still needs the side behind may fill (per game);
#: the more, the more captures a game needs before it can end, and the longer it is
GENEROSITY = (-1, -1, -1, 0, 1)
DISPERSAL_SIZES = (1, 1, 1, 2, 2, 3, 4)
#: how much a Power wants to create a Base at the start (it grows every turn)
EAGER = 10.0
#: games in which one side is besieged (see ``_Player._victim_turn``): the only way a
#: side runs out of legal turns and passes, which random play never brings about
P_SIEGE = 0.15
#: play turns after which a siege that has not yet made the victim pass is given up: a
#: passive victim drags a game on, and nearly every siege that works does so by then
SIEGE_PATIENCE = 60


def _keep_squares(corner: int, dx: int, dy: int) -> tuple[tuple[int, ...], ...]:
    """A corner Realm as a keep: the board's corner square and its two neighbours
    (``inner``), the two squares beyond them along the board's edges (``seal``), and the
    rest of the Border. With a Base on the Center, Powers on ``inner`` cannot move
    once both ``seal`` squares are taken: every line out is shut by a piece, the Base,
    or the board's edge."""
    inner = (corner, corner + dx, corner + dy)
    seal = (corner + 2 * dx, corner + 2 * dy)
    rest = tuple(s for s in BORDER_SQUARES[REALM_OF[corner]] if s not in inner + seal)
    return inner, seal, rest


#: corner Realm -> (inner, seal, rest) squares; a1 = 0, l1 = 11, a12 = 132, l12 = 143
_KEEPS: dict[int, tuple[tuple[int, ...], ...]] = {
    REALM_OF[c]: _keep_squares(c, dx, dy)
    for c, dx, dy in ((0, 1, 12), (11, -1, 12), (132, 1, -12), (143, -1, -12))
}

_CHOICES = ("event.enforcer-choice", "event.immobilise-choice")


@frozen
class Step:
    """One action as played: who, what, the events it caused, and the boards around it."""

    side: Side
    action: Action
    events: tuple[Event, ...]
    #: the board the action was played on (the notation needs it to name the piece)
    before: Board
    #: the position right after the action
    after: Position


Turn = tuple[Step, ...]


@frozen
class Playout:
    ruleset: Ruleset
    #: set-up placements first, each a turn of one action, then the turns of play
    turns: tuple[Turn, ...]
    final: Position
    #: the game was cut off (turn cap or dead end) instead of ending by the rules
    capped: bool = False
    #: games thrown away before this one (a dead end, or the turn cap) and played afresh
    discarded: int = 0

    @property
    def play_turns(self) -> int:
        return sum(1 for t in self.turns if not isinstance(t[0].action, Placement))


def written_turn(turn: Turn) -> tuple[ActionText, ...]:
    """A turn as canonical written syntax, every special event written."""
    return tuple(action_text(s.action, s.events, s.before) for s in turn)


def play_random_game(
    rng: Rng, ruleset: Ruleset = FEATURED, *, max_turns: int = MAX_TURNS
) -> Playout:
    """A whole game, set-up included, played until the rules end it.

    A game that reaches a dead end or ``max_turns`` is thrown away and another played
    from the same stream (at most ``MAX_DISCARDS`` times; then it is returned ``capped``).
    """
    discarded = 0
    while True:
        turns, pos = _play(_Player(rng, ruleset), ruleset, max_turns)
        if pos.phase is Phase.OVER or discarded >= MAX_DISCARDS:
            capped = pos.phase is not Phase.OVER
            return Playout(ruleset, tuple(turns), pos, capped=capped, discarded=discarded)
        discarded += 1


def _play(player: _Player, ruleset: Ruleset, max_turns: int) -> tuple[list[Turn], Position]:
    pos = initial_position(ruleset)
    turns: list[Turn] = []
    while pos.phase is Phase.SETUP:
        step = player.placement(pos)
        turns.append((step,))
        pos = step.after
    played = 0
    while pos.phase is Phase.PLAY and played < max_turns:
        turn = player.turn(pos, played)
        turns.append(turn)
        pos = turn[-1].after
        played += 1
        if played % 16 == 0 and dead_end(pos):
            break
    return turns, pos


def dead_end(pos: Position) -> bool:
    """No rule can end this game any more, so playing on is pointless.

    Either no Power is left on the board (all sacrificed), so no Base can be created or
    captured; or every Center holds a Base, so none can be created until one is
    captured, and no side has an Enforcer to capture with (none mobile, none in supply,
    none a sacrifice could remobilise). Powers still move, so neither does the game end
    for want of a legal turn.
    """
    board = pos.board
    if all(pos.powers_placed[s] == pos.sacrificed[s] for s in (Side.WHITE, Side.BLACK)):
        return True  # no Power left on the board: no Base can be created or captured
    if any(board[c] is None for c in CENTER):
        return False
    for side in (Side.WHITE, Side.BLACK):
        if pos.enforcers_in_supply(side) or pos.mobile_enforcers(side):
            return False
        if pos.ruleset.power_sacrifice and pos.ruleset.powers > pos.sacrificed[side]:
            return False
    return True


def random_ruleset(rng: Rng) -> Ruleset:
    """A random valid ruleset: every number in its range, every switch on or off.

    Built as the Featured Game with the differing options in their declared order, so
    that its name is the one ``with_options`` would give the same options read back.
    """
    setup_bases = rng.choice((3, 4))
    values: dict[str, object] = {
        "bases": rng.choice((11, 12, 13)),
        "enforcers": rng.choice((4, 5, 6, 7, 8, 9)),
        "powers": rng.choice((3, 4)) if setup_bases == 3 else 4,
        "setup_bases": setup_bases,
    }
    for option in SWITCHES:
        values[option] = rng.random() < 0.4 if option not in _ON_BY_DEFAULT else (
            rng.random() < 0.7)
    changed = {k: values[k] for k in OPTIONS if k in values and getattr(FEATURED, k) != values[k]}
    return FEATURED.with_options(changed) if changed else FEATURED


_ON_BY_DEFAULT = ("rearrangement_limit", "end_by_agreement")


def _sacrifice_pairs(pos: Position, side: Side) -> list[tuple[int, int]]:
    """The (Power, Enforcer) pairs of the legal sacrifices, in order: the policy picks a
    pair, then a facing that lets the Enforcer itself move."""
    return list(dict.fromkeys((s.power, s.enforcer) for s in sacrifices(pos, side)))


class _Survey:
    """What stands in the Realms of one board, looked at lazily (a turn's stops reach
    only a few Realms), and what the policy thinks of stopping there."""

    __slots__ = ("board", "facts", "player", "pos", "weights")

    def __init__(self, pos: Position, player: _Player) -> None:
        self.pos = pos
        self.board = pos.board
        self.player = player
        self.facts: list[_Facts | None] = [None] * 16
        #: (Power weight, Enforcer weight) of stopping in each Realm, for the side to move
        self.weights: list[tuple[float, float] | None] = [None] * 16

    def realm(self, r: int) -> _Facts:
        facts = self.facts[r]
        if facts is None:
            board = self.board
            powers = [0, 0]
            mobile: tuple[list[int], list[int]] = ([], [])
            empty = []
            for s in BORDER_SQUARES[r]:  # the Center holds a Base or nothing: no matter here
                p = board[s]
                if p is None:
                    empty.append(s)
                elif p.kind is POWER:
                    powers[p.side] += 1
                elif p.facing is not None and p.kind is ENFORCER:
                    mobile[p.side].append(s)
            facts = self.facts[r] = (powers, mobile, empty)
        return facts

    def weight(self, piece: Piece, to: int) -> float:
        r = REALM_OF[to]
        w = self.weights[r] or self.realm_weight(r)
        return w[0] if piece.kind is POWER else w[1]

    def realm_weight(self, r: int) -> tuple[float, float]:
        w = self.weights[r] = self.player.realm_weights(self, r)
        return w


#: Powers by side, mobile Enforcers' squares by side, empty Border squares
_Facts = tuple[list[int], tuple[list[int], list[int]], list[int]]


def _pick_weighted(rng: Rng, items: list[T], weights: list[float]) -> T:
    x = rng.random() * sum(weights)
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x < 0:
            return item
    return items[-1]


class _Player:
    def __init__(self, rng: Rng, ruleset: Ruleset) -> None:
        self.rng = rng
        self.ruleset = ruleset
        self.checkpoint = ruleset.checkpoint
        self.first_leader = Side.WHITE if rng.random() < 0.5 else Side.BLACK
        #: how many of the Centers the leader still needs the side behind may take
        self.generosity = rng.choice(GENEROSITY)
        self.eager = self.create = self.hunt = 3.0
        self.endgame = False
        self.lines = [False] * 8
        #: a siege game (decided by the seed): the side to be shut in, else None
        siege = rng.random() < P_SIEGE and _siege_possible(ruleset)
        self.victim: Side | None = None
        if siege:
            self.victim = Side.WHITE if rng.random() < 0.5 else Side.BLACK
        #: the corner Realm the victim's Powers gather in (it holds a besieger's Base)
        self.keep: int | None = None
        self.inner: tuple[int, ...] = ()
        self.passed = False

    # -- set-up -----------------------------------------------------------------------
    def placement(self, pos: Position) -> Step:
        side = pos.to_move
        kind = expected_kind(pos)
        if kind is BASE:
            sq = CENTER[self.rng.choice(legal_base_realms(pos, side))]
        else:
            sq = self.rng.choice(legal_power_squares(pos, side))
        action = Placement(kind, sq)
        after, events = apply_placement(pos, action)
        return Step(side, action, tuple(events), pos.board, after)

    # -- a turn of play ------------------------------------------------------------------
    def turn(self, pos: Position, played: int) -> Turn:
        side = pos.to_move
        rng = self.rng
        movers = self._movers(pos.board, side)
        if not movers and not has_legal_turn(pos, side):
            self.passed = True
            after, events = apply_pass(pos, Pass())
            return (Step(side, Pass(), tuple(events), pos.board, after),)
        self._pace(pos, played)
        if self.victim is not None and not self.passed and played >= SIEGE_PATIENCE:
            self.victim, self.keep, self.inner = None, None, ()  # give the siege up
        if self.victim is not None:
            if side is self.victim:
                siege_turn = self._victim_turn(pos, movers)
            else:
                siege_turn, movers = self._besieger_turn(pos, movers)
            if siege_turn is not None:
                return siege_turn
        last, streak = pos.rearranged[side]
        r = rng.random()
        if self.ruleset.power_sacrifice and (r < P_SACRIFICE or self._out_of_enforcers(pos)):
            # a side keeps two Powers: with none it could never create a Base again
            keep = pos.ruleset.powers - pos.sacrificed[side] > 2 or not movers
            pairs = _sacrifice_pairs(pos, side) if keep else []
            if pairs:
                return self._sacrifice_turn(pos, rng.choice(pairs))
        again = streak > 0 and rng.random() < P_REARRANGE_AGAIN
        if again or r < P_REARRANGE or not movers:
            turn = self._rearrangement_turn(pos, last if again else None)
            if turn is not None:
                return turn
        if not movers:  # has_legal_turn said yes: then a sacrifice is what is left
            return self._sacrifice_turn(pos, rng.choice(_sacrifice_pairs(pos, side)))
        survey = _Survey(pos, self)
        board = pos.board
        squares = list(movers)
        best = [self._best(survey, _on(board, s), movers[s]) for s in squares]
        if max(best) >= self.create and rng.random() < P_SEIZE:
            first = _pick_weighted(rng, squares, [w * w for w in best])
            return self._dispersal_turn(pos, movers, first=first, survey=survey)
        if rng.random() < P_CONCENTRATE:
            turn = self._concentration_turn(pos, movers)
            if turn is not None:
                return turn
        by_realm: dict[int, list[int]] = {}
        for s in squares:
            by_realm.setdefault(REALM_OF[s], []).append(s)
        most = max(len(v) for v in by_realm.values())
        if rng.random() < (P_BIG_DISPERSAL if most < 3 else 2 * P_BIG_DISPERSAL):
            realm = rng.choice([r for r, v in by_realm.items() if len(v) == most])
            return self._dispersal_turn(pos, movers, realm=realm, size=4, survey=survey)
        first = _pick_weighted(rng, squares, [w * w for w in best])
        return self._dispersal_turn(pos, movers, first=first, survey=survey)

    def _out_of_enforcers(self, pos: Position) -> bool:
        """With the Centers full and no Enforcer to capture with, only a sacrifice (which
        remobilises one) can keep the game going toward its end."""
        side = pos.to_move
        return self.endgame and not pos.enforcers_in_supply(side) and not (
            pos.mobile_enforcers(side))

    @staticmethod
    def _best(survey: _Survey, piece: Piece, options: list[int]) -> float:
        """The most the policy wants of any of ``options`` (one look per Realm crossed)."""
        k = 0 if piece.kind is POWER else 1
        best = 0.0
        last = -1
        for to in options:
            r = REALM_OF[to]
            if r != last:
                last = r
                w = survey.weights[r] or survey.realm_weight(r)
                if w[k] > best:
                    best = w[k]
        return best

    def _pace(self, pos: Position, played: int) -> None:
        """Drive the game to its end: the side ahead in Bases grows ever more eager to
        create and capture, and once the empty Centers are no more than it still needs,
        the side behind stops filling them (or the board fills up and the game stalls)."""
        side = pos.to_move
        created = pos.bases_created
        leader = Side(0 if created[0] > created[1] else 1 if created[1] > created[0]
                      else self.first_leader)
        if self.passed and self.victim is not None:
            leader = self.victim.other  # the victim, shut in, can create no Base: finish
        board = pos.board
        empties = sum(1 for c in CENTER if board[c] is None)
        self.eager = EAGER + played / 4
        self.create = self.eager
        if side is not leader and empties <= pos.bases_in_supply(leader) - self.generosity:
            self.create = 0.1
        self.hunt = 3.0 if side is not leader else 3.0 + self.eager / 2
        # with the Centers full, only captures free them: Enforcers become precious
        self.endgame = empties <= 1
        # Realms where a Power could create a Base, by row and column of Realms: a stop in
        # line with one is a step toward it (a Power's next move runs along a row or file)
        other = side.other
        lines = [False] * 8
        for r in REALMS:
            if board[CENTER[r]] is None and pos.powers_in(r, other) == 0:
                lines[REALM_ROW[r]] = lines[4 + REALM_COLUMN[r]] = True
        self.lines = lines

    def _movers(self, board: Board, side: Side) -> dict[int, list[int]]:
        """Square -> stops, for every piece of ``side`` that can move now (square order)."""
        out = {}
        checkpoint = self.checkpoint
        for s, p in enumerate(board):
            if p is not None and p.side is side and p.mobile:
                found = stops(board, p, s, checkpoint)
                if found:
                    out[s] = found
        return out

    # -- weighing stops ------------------------------------------------------------------
    def realm_weights(self, survey: _Survey, realm: int) -> tuple[float, float]:
        """How much the policy wants a Power, and an Enforcer, of the side to move to stop
        in ``realm``: by what would happen there."""
        pos = survey.pos
        side = pos.to_move
        other = 1 - side
        powers, mobile, empty = survey.realm(realm)
        center = survey.board[CENTER[realm]]
        own = powers[side]
        enemy = powers[other]
        # a Power
        if center is None:
            creates = (
                enemy == 0
                and pos.bases_in_supply(side) > 0
                and not (self.ruleset.exclusive_creation and own > 0)
            )
            wp = self.create if creates else 1.0
        elif center.side is side:
            fresh = not mobile[0] and not mobile[1] and len(empty) > 1
            wp = 2.5 if fresh and pos.enforcers_in_supply(side) > 0 else 0.5
        else:  # an enemy Base: gather Powers here so that an Enforcer can capture it
            wp = self.hunt if own + 1 <= enemy + 2 else 1.0
        if wp < 3.0 and (self.lines[REALM_ROW[realm]] or self.lines[4 + REALM_COLUMN[realm]]):
            wp += self.create / 3
        # an Enforcer
        targets = mobile[other]
        margin = own - enemy
        if targets:
            # in the endgame, an immobilisation that costs the mover too wastes Enforcers
            lossy = self.endgame and margin <= 0
            we = 0.2 if lossy else 4.0 if len(targets) == 1 else 12.0
        elif center is not None and center.side is not side:
            if margin <= 0:
                we = 1.5
            elif self.endgame and margin == 1:
                we = 2.0 + self.eager / 2
            else:
                we = 4.0 + self.eager
        elif mobile[side]:
            we = 2.5  # Enforcers that gather become targets for several-Enforcer choices
        else:
            we = 1.0
        if own + len(mobile[side]) >= 2:  # a crowd of one's own: a big Dispersal later
            wp += 1.0
            we += 1.0
        return wp, we

    def _choose_stop(self, survey: _Survey, piece: Piece, options: list[int]) -> int:
        weights = [survey.weight(piece, to) ** 2 for to in options]
        if self.inner and piece.side is not self.victim:  # a siege: leave room for the victim
            weights = [w * 1e-6 if to in self.inner else w for to, w in zip(
                options, weights, strict=True)]
        return _pick_weighted(self.rng, options, weights)

    # -- playing one move, with the choices the rules ask for ----------------------------
    def _move(self, state: TurnState, survey: _Survey, frm: int, to: int) -> tuple[TurnState, Step]:
        pos = state.position
        board = pos.board
        piece = board[frm]
        assert piece is not None
        side = piece.side
        realm = REALM_OF[to]
        rng = self.rng
        move = Move(frm, to)
        if piece.kind is POWER:
            center = board[CENTER[realm]]
            if (
                center is not None
                and center.side is side
                and not survey.realm(realm)[1][0]
                and not survey.realm(realm)[1][1]
                and pos.enforcers_in_supply(side) > 0
            ):
                empties = [s for s in survey.realm(realm)[2] if s != to]
                if realm == self.keep and side is not self.victim:
                    # the besieger's new Enforcer helps to shut the keep, never fills it
                    keep = _KEEPS[realm]
                    empties = [s for s in keep[1] if s in empties] or [
                        s for s in keep[2] if s in empties] or empties
                if empties:
                    move = Move(frm, to, rng.choice(empties), rng.choice(DIRECTIONS))
        else:
            targets = survey.realm(realm)[1][1 - side]
            if len(targets) > 1:
                move = Move(frm, to, immobilise=rng.choice(targets))
        for _ in range(3):
            try:
                state, events = apply_move(state, move)
                return state, Step(side, move, tuple(events), board, state.position)
            except RuleError as exc:  # a safety net: the survey above should predict the choice
                if exc.code not in _CHOICES:
                    raise
                option = rng.choice(list(exc.options))
                if exc.code == "event.enforcer-choice":
                    move = Move(frm, to, parse_square(option[1:-1]), DIRECTIONS["NESW".index(
                        option[-1])])
                else:
                    move = Move(frm, to, immobilise=parse_square(option[2:]))
        raise AssertionError("no choice satisfied the rules")

    # -- kinds of turn -------------------------------------------------------------------
    def _dispersal_turn(
        self, pos: Position, movers: dict[int, list[int]], *, first: int | None = None,
        realm: int | None = None, size: int | None = None,
        state: TurnState | None = None, steps: list[Step] | None = None,
        survey: _Survey | None = None,
    ) -> Turn:
        """Pieces out of one Realm (``first``'s, or ``realm``): ``first`` moves first.

        ``survey``: one already made of ``pos``, reused for the first move (surveying
        is most of the policy's cost, and the turn's choice of piece made one)."""
        rng = self.rng
        steps = steps if steps is not None else []
        state = state if state is not None else begin_turn(pos)
        if first is not None:
            realm = REALM_OF[first]
        size = size or rng.choice(DISPERSAL_SIZES)
        group = [s for s in movers if REALM_OF[s] == realm and s != first]
        rng.shuffle(group)
        if first is not None:
            group.insert(0, first)
        for frm in group[:size]:
            if state.over:
                break
            board = state.position.board
            piece = board[frm]
            assert piece is not None
            options = stops(board, piece, frm, self.checkpoint) if steps else movers[frm]
            if not options:
                continue  # an earlier move of this turn blocked it
            if survey is None or survey.pos is not state.position:
                survey = _Survey(state.position, self)
            to = self._choose_stop(survey, piece, options)
            state, step = self._move(state, survey, frm, to)
            steps.append(step)
        return self._finish(state, steps)

    def _concentration_turn(self, pos: Position, movers: dict[int, list[int]]) -> Turn | None:
        """Two or three pieces from different Realms into one Realm, where possible."""
        rng = self.rng
        sources: dict[int, dict[int, None]] = {}  # target realm -> source realms (ordered)
        for s, found in movers.items():
            home = REALM_OF[s]
            for to in found:
                sources.setdefault(REALM_OF[to], {})[home] = None
        targets = [t for t, homes in sources.items() if len(homes) >= 2 or sum(
            1 for s in movers if REALM_OF[s] in homes and any(REALM_OF[x] == t for x in movers[s])
        ) >= 2]
        if not targets:
            return None
        survey = _Survey(pos, self)
        weights = []
        for t in targets:
            center = pos.board[CENTER[t]]
            goal = 1.0
            if center is None:
                goal = 4.0
            elif center.side is not pos.to_move:
                goal = 3.0  # margins for a capture
            if survey.realm(t)[1][1 - pos.to_move]:
                goal += 1.0
            weights.append(goal * len(sources[t]) ** 2)
        target = _pick_weighted(rng, targets, weights)
        candidates = [s for s in movers if any(REALM_OF[x] == target for x in movers[s])]
        rng.shuffle(candidates)
        # one piece per source Realm first, so that several Realms contribute
        firsts: dict[int, int] = {}
        rest = []
        for s in candidates:
            if REALM_OF[s] in firsts:
                rest.append(s)
            else:
                firsts[REALM_OF[s]] = s
        order = list(firsts.values()) + rest
        size = rng.choice((2, 2, 3, 3, 4))
        state = begin_turn(pos)
        steps: list[Step] = []
        for frm in order:
            if len(steps) >= size or state.over:
                break
            board = state.position.board
            piece = board[frm]
            assert piece is not None
            options = [x for x in stops(board, piece, frm, self.checkpoint)
                       if REALM_OF[x] == target]
            if not options:
                continue
            if survey.pos is not state.position:
                survey = _Survey(state.position, self)
            to = self._choose_stop(survey, piece, options)
            state, step = self._move(state, survey, frm, to)
            steps.append(step)
        if not steps:
            return None
        return self._finish(state, steps)

    def _sacrifice_turn(self, pos: Position, pair: tuple[int, int]) -> Turn:
        """Power sacrifice, then a Dispersal from its Realm (the rules require one)."""
        rng = self.rng
        side = pos.to_move
        power_at, enf_at = pair
        trial = list(pos.board)
        trial[power_at] = None
        board = tuple(trial)
        facings = [d for d in DIRECTIONS if has_stop(board, enforcer(side, d), enf_at)]
        action = Sacrifice(power_at, enf_at, rng.choice(facings or list(DIRECTIONS)))
        state, events = apply_sacrifice(begin_turn(pos), action)
        steps = [Step(side, action, tuple(events), pos.board, state.position)]
        movers = self._movers(state.position.board, side)
        return self._dispersal_turn(
            pos, movers, realm=REALM_OF[enf_at], state=state, steps=steps
        )

    def _rearrangement_turn(self, pos: Position, realm: int | None) -> Turn | None:
        side = pos.to_move
        if realm is None or not rearrangeable(pos, side, realm):
            realms = [r for r in REALMS if rearrangeable(pos, side, r)]
            if not realms:
                return None
            if self.keep is not None and side is not self.victim and len(realms) > 1:
                realms = [r for r in realms if r != self.keep]  # the keep stays shut
            realm = self.rng.choice(realms)
        action = self._sample_rearrangement(pos, realm)
        if action is None:
            return None
        after, events = apply_rearrangement(pos, action)
        return (Step(side, action, tuple(events), pos.board, after),)

    def _sample_rearrangement(self, pos: Position, realm: int) -> Rearrangement | None:
        """A random new placement of the Realm's pieces (a sampler, not an enumeration)."""
        rng = self.rng
        side = pos.to_move
        board = pos.board
        pieces = [(s, p) for s, p in pos.realm_pieces(realm) if p.kind is not BASE]
        own = [(s, p) for s, p in pieces if p.side is side]
        theirs = [(s, p) for s, p in pieces if p.side is not side]
        taken_by_theirs = {s for s, _ in theirs}
        free_own = [s for s in REALM_SQUARES[realm]
                    if not IS_CENTER[s] and s not in taken_by_theirs]
        own_can_change = (
            len(free_own) > len(own)
            or len({p for _, p in own}) > 1
            or any(p.kind is ENFORCER and p.facing is not None for _, p in own)
        )
        with_theirs = bool(theirs) and self.ruleset.rearrange_opponent and (
            rng.random() < 0.5 or not own_can_change
        )
        picked = own + theirs if with_theirs else own
        free = [s for s in REALM_SQUARES[realm] if not IS_CENTER[s] and (
            board[s] is None or any(s == q for q, _ in picked))]
        before = dict(picked)
        for _ in range(40):
            squares = rng.sample(free, len(picked))
            placements = []
            for sq, (_, p) in zip(squares, picked, strict=True):
                if p.kind is ENFORCER and p.facing is not None:
                    p = enforcer(p.side, rng.choice(DIRECTIONS))
                placements.append((sq, p))
            if dict(placements) != before:
                return Rearrangement(realm, tuple(placements))
        return None

    def _finish(self, state: TurnState, steps: list[Step]) -> Turn:
        after = finish_turn(state)  # also when the game ended in the turn: it counts the ply
        last = steps[-1]
        steps[-1] = Step(last.side, last.action, last.events, last.before, after)
        return tuple(steps)

    # -- a siege: the only way a side is left without a legal turn ----------------------
    # A side passes only when none of its pieces can move and no Realm of its pieces can
    # be rearranged. Random play never gets there, so in a siege game (``P_SIEGE``) the
    # two sides work together toward it: the victim avoids creating Enforcers (each would
    # be one more piece to shut in) and walks its Powers into the keep, a corner Realm
    # whose Center holds a besieger's Base; the besieger takes the keep's two seal
    # squares and holds them. The victim then rearranges its Powers twice (the second
    # time onto the inner squares, where no line out is open), and on its next turn the
    # three-in-a-row limit forbids a third: no legal turn, so it passes, and does so
    # again every third turn until the besieger ends the game.

    def _find_keep(self, pos: Position) -> int | None:
        """The keep: a corner Realm whose Center holds a besieger's Base (chosen once,
        and again only if that Base is captured)."""
        board = pos.board
        victim = self.victim
        keep = self.keep
        if keep is not None:
            c = board[CENTER[keep]]
            if c is not None and c.side is not victim:
                return keep
        found = [r for r in _KEEPS if (c := board[CENTER[r]]) is not None and c.side is not victim]
        self.keep = keep = self.rng.choice(found) if found else None
        self.inner = _KEEPS[keep][0] if keep is not None else ()
        return keep

    def _victim_turn(self, pos: Position, movers: dict[int, list[int]]) -> Turn | None:
        """Powers outside the keep walk toward it; once all are in, rearrange them."""
        keep = self._find_keep(pos)
        board = pos.board
        own = power(pos.to_move)
        outside = {s: v for s, v in movers.items() if REALM_OF[s] != keep and board[s] == own}
        if keep is not None and not outside:
            turn = self._hold(pos, keep)
            if turn is not None:
                return turn
        if not movers:
            return None  # a Rearrangement or a sacrifice: the ordinary policy finds it
        return self._creep(pos, outside or movers, keep)

    def _victim_weight(
        self, survey: _Survey, frm: int, piece: Piece, to: int, goals: set[int]
    ) -> float:
        """Into the keep above all, then onto a line into it; hardly ever a stop that
        creates an Enforcer (one more piece that would have to be shut in)."""
        r = REALM_OF[to]
        if r == self.keep:
            return 1000.0
        pos = survey.pos
        side = piece.side
        powers, mobile, empty = survey.realm(r)
        center = survey.board[CENTER[r]]
        w = 1.0
        if piece.kind is POWER:
            if center is None:
                if powers[1 - side] == 0 and pos.bases_in_supply(side) > 0:
                    w = 0.3  # a Base created brings the game's end nearer: not too often
            elif (center.side is side and not mobile[0] and not mobile[1] and len(empty) > 1
                  and pos.enforcers_in_supply(side) > 0):
                w = 0.001  # an Enforcer would be created
        if goals and _in_line(survey.board, frm, piece, to, goals):
            w *= 30.0
        return w

    def _creep(self, pos: Position, movers: dict[int, list[int]], keep: int | None) -> Turn:
        """One piece moves, chosen by ``_victim_weight`` over every stop of ``movers``."""
        board = pos.board
        survey = _Survey(pos, self)
        goals = {s for s in BORDER_SQUARES[keep] if board[s] is None} if keep is not None else set()
        moves: list[tuple[int, int]] = []
        weights: list[float] = []
        for frm, found in movers.items():
            piece = board[frm]
            assert piece is not None
            for to in found:
                moves.append((frm, to))
                w = self._victim_weight(survey, frm, piece, to, goals)
                weights.append(w * w)
        frm, to = _pick_weighted(self.rng, moves, weights)
        state, step = self._move(begin_turn(pos), survey, frm, to)
        return self._finish(state, [step])

    def _hold(self, pos: Position, keep: int) -> Turn | None:
        """Rearrange the Powers in the keep so that the second Rearrangement running puts
        them on the inner squares: the limit then forbids a third, and if the seal
        squares are taken the victim has no legal turn. None when it cannot."""
        side = pos.to_move
        board = pos.board
        own = power(side)
        last, n = pos.rearranged[side]
        n = n if last == keep else 0
        if n >= 2 or not rearrangeable(pos, side, keep):
            return None
        inner, seal, _ = _KEEPS[keep]
        mine = tuple(s for s in BORDER_SQUARES[keep] if (p := board[s]) is not None
                     and p.side is side)
        if any(board[s] != own for s in mine):
            return None  # an Enforcer of its own in the keep: no siege can shut it in
        free = [s for s in BORDER_SQUARES[keep] if board[s] is None or board[s] == own]
        home = tuple(sorted([s for s in inner if s in free][: len(mine)]))
        if n == 1 and len(home) == len(mine) and home != mine:
            layout = home
        else:  # anywhere else, off the seal squares if possible, best where it cannot move
            layouts = [c for c in combinations([s for s in free if s not in seal], len(mine))
                       if c != mine and c != home]
            layouts = layouts or [c for c in combinations(free, len(mine)) if c != mine]
            if not layouts:
                return None
            stuck = [c for c in layouts if not _can_move(board, mine, c, own)]
            layout = self.rng.choice(stuck or layouts)
        action = Rearrangement(keep, tuple((s, own) for s in layout))
        after, events = apply_rearrangement(pos, action)
        return (Step(side, action, tuple(events), board, after),)

    def _besieger_turn(
        self, pos: Position, movers: dict[int, list[int]]
    ) -> tuple[Turn | None, dict[int, list[int]]]:
        """Make a keep, keep its inner squares free, take its seal squares and hold them.
        Returns a turn, or None and the pieces the ordinary policy may move."""
        rng = self.rng
        board = pos.board
        side = pos.to_move
        keep = self._find_keep(pos)
        if keep is None:  # a Base in a free corner Realm makes one
            own_power = power(side)  # movers are the side's own pieces
            options = [(frm, to) for frm, found in movers.items() if board[frm] is own_power
                       for to in found if REALM_OF[to] in _KEEPS
                       and _creates_base(pos, side, REALM_OF[to])]
            if options and rng.random() < 0.7:
                return self._single(pos, *rng.choice(options)), movers
            return None, movers
        inner, seal, _ = _KEEPS[keep]
        for s in inner:  # a piece of its own on an inner square leaves
            if s in movers:
                away = [to for to in movers[s] if REALM_OF[to] != keep]
                if away:
                    return self._single(pos, s, rng.choice(away)), movers
        held = {s: v for s, v in movers.items() if s not in seal}
        if held:
            movers = held
        victim = power(side.other)
        inside = sum(1 for s in BORDER_SQUARES[keep] if board[s] == victim)
        open_seal = {s for s in seal if board[s] is None}
        if inside >= 2 and open_seal:
            options = [(frm, to) for frm, found in movers.items() for to in found
                       if to in open_seal]
            if options:
                return self._single(pos, *rng.choice(options)), movers
            if rng.random() < 0.6:  # onto a line to a seal square, for next turn
                options = [(frm, to) for frm, found in movers.items() for to in found
                           if REALM_OF[to] != keep
                           and _in_line(board, frm, _on(board, frm), to, open_seal)]
                if options:
                    return self._single(pos, *rng.choice(options)), movers
        return None, movers

    def _single(self, pos: Position, frm: int, to: int) -> Turn:
        """A Dispersal of one piece."""
        state, step = self._move(begin_turn(pos), _Survey(pos, self), frm, to)
        return self._finish(state, [step])


def _siege_possible(ruleset: Ruleset) -> bool:
    """The siege shuts in three Powers on three inner squares (so three Powers), relies
    on the three-in-a-row limit to forbid the keep's next Rearrangement, and needs the
    besieger's pieces in the keep to stay out of the victim's Rearrangements."""
    return ruleset.powers == 3 and ruleset.rearrangement_limit and not ruleset.rearrange_opponent


def _creates_base(pos: Position, side: Side, realm: int) -> bool:
    """Would a Power of ``side`` stopping in ``realm`` create a Base there?"""
    board = pos.board
    if board[CENTER[realm]] is not None or pos.bases_in_supply(side) <= 0:
        return False
    other = power(side.other)
    mine = power(side)
    squares = REALM_SQUARES[realm]
    if pos.ruleset.exclusive_creation:
        return not any(board[s] == other or board[s] == mine for s in squares)
    return not any(board[s] == other for s in squares)


def _on(board: Board, square: int) -> Piece:
    """The piece on ``square``, which holds one (a mover's)."""
    piece = board[square]
    assert piece is not None
    return piece


def _in_line(board: Board, frm: int, piece: Piece, to: int, goals: set[int]) -> bool:
    """From ``to`` (after moving there from ``frm``), could ``piece`` reach one of
    ``goals`` next turn along a clear line? (A cheap look ahead: the checkpoint and
    the other Realm rule are left to the move itself.)"""
    back = None
    if piece.kind is ENFORCER:
        d = direction_between(frm, to)
        back = d.opposite if d is not None else None
    for d in DIRECTIONS:
        if d == back:
            continue
        for sq in RAYS[to][d]:
            if sq in goals:
                return True
            if sq != frm and board[sq] is not None:
                break
    return False


def _can_move(board: Board, before: tuple[int, ...], after: tuple[int, ...], piece: Piece) -> bool:
    """Would any of identical ``piece``s moved from ``before`` to ``after`` have a stop?"""
    trial = list(board)
    for s in before:
        trial[s] = None
    for s in after:
        trial[s] = piece
    b = tuple(trial)
    return any(has_stop(b, piece, s) for s in after)
