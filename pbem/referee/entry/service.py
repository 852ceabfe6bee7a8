"""The referee: one incoming message in, one transaction, replies queued.

``Referee.handle`` keeps the raw message, finds what it is about (a game of the sender's,
or the sender himself), makes its unit of work, runs its commands (``registry``) and writes
the unit (``commit``), all inside one transaction (on PostgreSQL its game's lock alone when it
can: ``store.transaction``): a refused message changes no game. The mailer queues the replies;
delivery is after the commit (``outbox.deliver``). The same mail twice (its Message-ID and digest,
a unique key) is handled once; a mail that cannot be read or handled is logged and left over.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from pbem.referee import commands
from pbem.referee.clock import ClockSettings
from pbem.referee.clock.now import Now, system_now
from pbem.referee.commands import registry
from pbem.referee.config.home import Config
from pbem.referee.config.options import load_options
from pbem.referee.entry.first_look import first_look
from pbem.referee.intake.inbox import Incoming, read_message
from pbem.referee.intake.keys import addressed_game, check_game_key, check_player_key
from pbem.referee.intake.orders import Order, find_orders
from pbem.referee.intake.refusal import Refusal
from pbem.referee.outgoing.limits import once_each
from pbem.referee.outgoing.mailer import Mailer
from pbem.referee.store import GAMES, Connection, accounts, games, mail, retried, transaction
from pbem.referee.store.faults import fail_mail, fault_point
from pbem.referee.store.games import Game
from pbem.referee.work.commit import commit, refused
from pbem.referee.work.starting import start_game
from pbem.referee.work.unit import Unit
from pbem.rules.pieces import Side
from pbem.rules.values import frozen

assert commands  # imported for its side effect: every mail command registers itself


@frozen
class Handled:
    outcome: str  # accepted | refused | info | unknown-sender | ignored | duplicate | bounce
    reason: str | None = None
    game_id: int | None = None
    queued: int = 0


class Referee:
    def __init__(self, conn: Connection, config: Config, now: Now | None = None):
        self.conn = conn
        self.config = config
        self.options = load_options(config)
        self.now: Now = now or system_now
        self.mailer = Mailer(conn, config, self.options, self.now)

    def new_game(self, white: str, black: str, ruleset: Any, name: str | None = None,
                 white_name: str | None = None, black_name: str | None = None,
                 clock: ClockSettings | None = None, *, rated: bool | None = None) -> int:
        """A new game (rated as the config says unless ``rated`` says otherwise)."""
        with transaction(self.conn):
            return start_game(self.conn, self.mailer, self.now(), white, black, ruleset, name,
                              white_name, black_name, clock,
                              rated=self.options.rated if rated is None else rated)

    def game_unit(self, game: Game, side: Side, now: datetime, inc: Incoming | None = None,
                  row: int | None = None) -> Unit:
        return Unit.for_game(self.conn, self.config, self.options, self.mailer, now, game,
                             side, inc, row)

    # -- messages -----------------------------------------------------------------------
    def handle(self, raw: bytes) -> Handled:
        try:
            fail_mail(raw)
            inc = read_message(raw)
        except Exception as exc:
            mail.record_failure(self.conn, "sha256:" + hashlib.sha256(raw).hexdigest(), exc)
            raise
        arrived = self.now()  # before waiting for the lock: the arrival time, for lateness
        try:  # one transaction, run again if the store (PostgreSQL) undid it by itself
            handled = retried(self.conn, lambda: self._in_one(inc, raw, arrived), GAMES)
        except Exception as exc:
            mail.record_failure(self.conn, inc.message_id, exc)
            raise
        fault_point("after-commit")
        return handled

    def _in_one(self, inc: Incoming, raw: bytes, arrived: datetime) -> Handled:
        self.mailer.proven_key = False  # until this mail carries its sender's key
        row = mail.add_message(self.conn, inc.message_id, inc.digest, inc.sender, inc.subject, raw)
        if row is None:  # handled before, or by another host meanwhile (the unique key)
            return Handled("duplicate", f"{inc.message_id} was handled before")
        handled, side = self._decide(inc, row, arrived)
        mail.set_outcome(self.conn, row, handled.outcome, handled.reason, handled.game_id, side)
        fault_point("before-commit")
        return handled

    def _decide(self, inc: Incoming, row: int, now: datetime) -> tuple[Handled, str | None]:
        """Find the mail's unit (a game of the sender's, or the sender) and run it, or refuse."""
        if (seen := first_look(self.conn, self.config, self.mailer, inc, row, now)) is not None:
            return Handled(seen.outcome, seen.reason, seen.game_id), None
        orders = once_each(find_orders(inc.subject, inc.body.lines))
        if registry.about_sender(orders):
            return self._player_mail(inc, row, orders, now), None
        try:
            game = addressed_game(self.conn, inc)
        except Refusal as refusal:
            if not games.plays_any(self.conn, inc.sender):
                return self._stranger(inc, row), None
            self.mailer.refuse_address(inc, row, refusal.reason)
            return Handled("refused", refusal.reason), None
        side = game.side_of(inc.sender)
        if side is None and not games.plays_any(self.conn, inc.sender):
            self.mailer.unknown(inc, row)
            return Handled("unknown-sender", f"{inc.sender} plays no game", game.id), None
        if side is None:
            reason = f"you ({inc.sender}) are not a player of game {game.id}"
            self.mailer.refuse_address(inc, row, reason)
            return Handled("refused", reason, game.id), None
        unit = self.game_unit(game, side, now, inc, row)
        try:
            check_game_key(self.conn, inc, game, unit.player)
            self.mailer.proven_key = True
            if not orders:
                raise Refusal("no orders found in your mail: write your turn (or a command) on "
                              "a line of its own, above or below any quoted text")
            registry.run_mail(unit, orders)
        except Refusal as refusal:
            return Handled("refused", refused(unit, refusal), game.id), side.letter
        commit(unit)
        names = dict.fromkeys(o.name for o in orders)  # each once: 'if', not 'if, if, if'
        what = ", ".join(t.label for t in unit.turns) or ", ".join(names)
        return Handled("accepted" if unit.changed else "info", what, game.id), side.letter

    def _player_mail(self, inc: Incoming, row: int, orders: list[Order],
                     now: datetime) -> Handled:
        """Mail about the sender rather than a game: it needs one of his keys."""
        if not accounts.known_address(self.conn, inc.sender):
            return self._stranger(inc, row)
        token = accounts.ensure_account(self.conn, inc.sender)
        unit = Unit(self.conn, self.config, self.options, self.mailer, now, inc.sender, inc, row,
                    token=token)
        try:
            check_player_key(self.conn, inc, token)
            self.mailer.proven_key = True
            registry.run_mail(unit, orders)
        except Refusal as refusal:
            return Handled("refused", refused(unit, refusal))
        if unit.news.sections:
            self.mailer.answer(inc, row, token, unit.news.sections)
        return Handled("accepted" if unit.changed else "info", ", ".join(o.name for o in orders))

    def _stranger(self, inc: Incoming, row: int) -> Handled:
        self.mailer.stranger(inc, row)
        return Handled("unknown-sender", f"{inc.sender or 'no sender'} plays no game")
