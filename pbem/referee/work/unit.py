"""One unit of work per mail: what the mail is about, what its commands change, and what
must be said. A game's commands change only its unit: the turns, the offer, the clock, the
end, the standing conditional turns (``Conditional``) and the lines for the game's log are
written by ``commit`` once every order has run, with the replies handed to the mailer in
the same transaction; a refused mail writes nothing but its refusal.

Two kinds of command write to the store themselves, inside the savepoint the mail's orders
run in (``registry.run_mail``), so that a refusal later in the mail undoes them too:
``accept takeback``, which removes the turn taken back at once (``work.rollback``), because
the mail's later orders and its conditional turns work on the game as it is then; and the
commands about the sender alone (``vacation``, ``challenge`` and its answers, ``name``,
``timezone``, ``observe``, ``digest``, ``notify``, ``join``/``withdraw``), which have no game
to commit and change his account, his challenges, his entries or (``vacation``) his games'
clocks. (Mail queued by the mailer is the mailer's writing, not theirs.)
``tests/referee/test_unit.py`` lists them and fails on any other command that writes.

A unit is about one game (a turn, an offer, ``board``) or about its sender alone
(``vacation``, ``games``, a challenge); ``pbem tick`` and the operator make units too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbem.records.replay import PlayedTurn
from pbem.referee.clock import ClockSettings, ClockState
from pbem.referee.config.home import Config
from pbem.referee.config.options import Options
from pbem.referee.intake.inbox import Incoming
from pbem.referee.intake.orders import Order
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.store import games, standing_conditions
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, Player
from pbem.referee.store.offers import Offer
from pbem.referee.store.standing_conditions import Standing
from pbem.referee.turns.conditions import Condition
from pbem.rules.game import GamePosition, Phase
from pbem.rules.pieces import Side


@dataclass
class Clocked:
    """A game's time control and its clock as the unit leaves it."""

    settings: ClockSettings
    state: ClockState
    #: the state differs from the stored one (``commit`` saves it)
    changed: bool = False


@dataclass
class Conditional:
    """The conditional turns a game's unit handles: the mail's own lines, and the sets it
    replaces or withdraws (None), by side, which ``commit`` files."""

    #: the mail's ``if ... then ...`` lines, read as one set once every order has run
    lines: list[Order] = field(default_factory=list)
    sets: dict[Side, Standing | None] = field(default_factory=dict)


@dataclass
class News:
    """What a unit must say to its players and its sender, handed to the mailer by
    ``commit`` (a game's unit) or the service (a player's mail) once every order has run.
    (A challenge's and a vacation's mail to other players is queued by those commands.)"""

    #: what both players are told (with the report when a turn was played)
    notices: list[str] = field(default_factory=list)
    #: what the sender says to his opponent ('say ...'): relayed, and kept in the game's
    #: log (the store's 'said' table), never in the record
    said: list[str] = field(default_factory=list)
    #: what one player alone is told in his report (his conditional turns are secret)
    private: dict[Side, list[str]] = field(default_factory=dict)
    #: a board that goes with the notices, drawn for each player from his side
    notice_board: GamePosition | None = None
    # -- any unit: the answer to the sender ------------------------------------------------
    #: the private answer to the sender: (title, text) sections
    sections: list[tuple[str, str]] = field(default_factory=list)
    #: a section's own HTML, by its title (the rules page); others are shown preformatted
    section_html: dict[str, str] = field(default_factory=dict)


@dataclass
class Unit:
    conn: Connection
    config: Config
    options: Options
    mailer: Mailer
    #: when the mail arrived (the referee's "now" as it began handling it)
    now: datetime
    #: the sender's address, and his account key (player-level mail)
    email: str
    inc: Incoming | None = None
    #: the mail's row in the store (the replies point back to it)
    row: int | None = None
    token: str | None = None
    # -- a game's unit -----------------------------------------------------------------------
    game: Game | None = None
    side: Side | None = None
    position: GamePosition | None = None
    offer: Offer | None = None
    #: the offer stood before this mail (a turn lapses it; an offer made with the turn stays)
    offer_before: bool = False
    turns: list[PlayedTurn] = field(default_factory=list)
    #: the sender declined an offer or takeback request (a conditional answer that waited
    #: for it is then played)
    declined: bool = False
    conditional: Conditional = field(default_factory=Conditional)
    #: lines for the game's log, (kind, text), written by ``commit`` before its own
    log: list[tuple[str, str]] = field(default_factory=list)
    #: the end reason when the game ended with this unit, and who lost (on time)
    ended: str | None = None
    loser: Side | None = None
    #: None for a game without a clock
    clock: Clocked | None = None
    #: a loss on time was withdrawn by a turn that had arrived by the deadline
    revived: bool = False
    # -- any unit ----------------------------------------------------------------------------
    news: News = field(default_factory=News)
    #: something in the store changes (else the mail only asked)
    changed: bool = False

    @classmethod
    def for_game(cls, conn: Connection, config: Config, options: Options,
                 mailer: Mailer, now: datetime, game: Game, side: Side,
                 inc: Incoming | None = None, row: int | None = None) -> Unit:
        games.claim(conn, game)  # ``game`` as read in this transaction, or done again
        unit = cls(conn, config, options, mailer, now, game.players[side].email, inc, row,
                   game=game, side=side, position=game.position, offer=game.offer,
                   offer_before=game.offer is not None)
        unit.attach(game)
        return unit

    def attach(self, game: Game) -> None:
        """Work on ``game`` as stored now (after a takeback changed it, say)."""
        self.game, self.position = game, game.position
        found = game.clock()
        if found is not None:
            self.clock = Clocked(*found)

    @property
    def the_game(self) -> Game:
        assert self.game is not None, "a game command in a unit without a game"
        return self.game

    @property
    def me(self) -> Side:
        assert self.side is not None, "a game command in a unit without a side"
        return self.side

    @property
    def player(self) -> Player:
        return self.the_game.players[self.me]

    @property
    def board(self) -> GamePosition:
        assert self.position is not None
        return self.position

    def tell(self, side: Side, text: str) -> None:
        """A line for ``side``'s own report (or his own notice) only."""
        self.news.private.setdefault(side, []).append(text)

    def note(self, kind: str, text: str) -> None:
        """A line for the game's log (``pbem show --log``), written with the unit."""
        self.log.append((kind, text))

    def standing(self, side: Side) -> Standing | None:
        """``side``'s set of conditional turns as the unit leaves it so far."""
        if side in self.conditional.sets:
            return self.conditional.sets[side]
        return standing_conditions.load(self.conn, self.the_game.id, side)

    def keep_set(self, side: Side, from_seq: int, conditions: tuple[Condition, ...]) -> None:
        """``side``'s set, made for entry ``from_seq``, replaces the one that stood."""
        self.conditional.sets[side] = Standing(side, from_seq, conditions)

    def drop_set(self, side: Side) -> bool:
        """``side``'s set goes; whether one stood."""
        stood = self.standing(side) is not None
        self.conditional.sets[side] = None
        return stood

    @property
    def over(self) -> bool:
        return self.board.phase is Phase.OVER or self.ended is not None
