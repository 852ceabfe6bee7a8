"""One unit of work per mail: what the mail is about, what its commands change, and what
must be said. Commands change only the unit; the service writes it to the store and hands
its replies to the mailer in the same transaction, or, when a command refuses, nothing.

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
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, Player
from pbem.referee.store.offers import Offer
from pbem.rules.game import GamePosition, Phase
from pbem.rules.pieces import Side


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
    #: what both players are told (with the report when a turn was played)
    notices: list[str] = field(default_factory=list)
    #: what the sender says to his opponent ('say ...'): relayed, and kept in the game's
    #: log (the store's 'said' table), never in the record
    said: list[str] = field(default_factory=list)
    #: what one player alone is told in his report (his conditional turns are secret)
    private: dict[Side, list[str]] = field(default_factory=dict)
    #: the mail's conditional lines (``if ... then ...``), read as one set once every
    #: order of the mail has run
    condition_lines: list[Order] = field(default_factory=list)
    #: a board that goes with the notices, drawn for each player from his side
    notice_board: GamePosition | None = None
    #: the end reason when the game ended with this unit, and who lost (on time)
    ended: str | None = None
    loser: Side | None = None
    clock_settings: ClockSettings | None = None
    clock: ClockState | None = None
    clock_changed: bool = False
    #: a loss on time was withdrawn by a turn that had arrived by the deadline
    revived: bool = False
    # -- any unit ----------------------------------------------------------------------------
    #: the private answer to the sender: (title, text) sections
    sections: list[tuple[str, str]] = field(default_factory=list)
    #: a section's own HTML, by its title (the rules page); others are shown preformatted
    section_html: dict[str, str] = field(default_factory=dict)
    #: something in the store changes (else the mail only asked)
    changed: bool = False

    @classmethod
    def for_game(cls, conn: Connection, config: Config, options: Options,
                 mailer: Mailer, now: datetime, game: Game, side: Side,
                 inc: Incoming | None = None, row: int | None = None) -> Unit:
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
            self.clock_settings, self.clock = found
            self.clock_changed = False

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
        self.private.setdefault(side, []).append(text)

    @property
    def over(self) -> bool:
        return self.board.phase is Phase.OVER or self.ended is not None
