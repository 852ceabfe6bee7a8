"""The referee: one incoming message in, one transaction, replies queued.

``Referee.handle`` stores the raw message, decides what it means, applies any
accepted turn (snapshot, record) and queues every reply, all inside one
``BEGIN IMMEDIATE`` transaction; a refused message changes no game. Delivery
happens after the commit (``outbox.deliver``). The same Message-ID twice is
handled once.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from pbem.errors import PbemError, RuleError
from pbem.notation.format import format_action, format_turn
from pbem.notation.syntax import TurnText
from pbem.records.replay import PlayedTurn
from pbem.records.rulesets import describe_ruleset
from pbem.records.snapshot import dump_snapshot
from pbem.referee import digest, movelist, observers, players, publish, takeback, timed
from pbem.referee.accounts import account_token
from pbem.referee.clock import ClockSettings, ClockState
from pbem.referee.compose import Outgoing, build_mail, new_message_id, quote
from pbem.referee.dedupe import handled_before
from pbem.referee.faults import fail_mail, fault_point
from pbem.referee.games import (
    SIDES,
    Game,
    GameNotFound,
    Player,
    insert_game,
    load_game,
    record_text,
    replay_record,
)
from pbem.referee.home import Config
from pbem.referee.inbox import Incoming, read_message
from pbem.referee.labels import label_problem
from pbem.referee.letters import help_text, letter
from pbem.referee.limits import capped, load_limits, once_each
from pbem.referee.now import Now, system_now
from pbem.referee.options import load_options
from pbem.referee.orders import PLAYER_COMMANDS, Order, find_orders
from pbem.referee.play import expected_turn, live_turn, play_turn
from pbem.referee.profile import display_name_of, zone_of
from pbem.referee.ratelimit import over_limit
from pbem.referee.refusal import Refusal, refuse_many_keys
from pbem.referee.report_mail import report_parts
from pbem.referee.secrets_scheme import (
    account_tokens,
    claims_in_addresses,
    claims_in_subject,
    key_in_line,
    new_token,
    same_token,
)
from pbem.referee.store import transaction
from pbem.render.text_board import render_text
from pbem.rules.game import GamePosition, Phase, result_words
from pbem.rules.registry import game_of

#: how a game ended, in words, by the reason the store keeps
END_WORDS = {
    "bases": "{side} created its last Base",
    "no-legal-turn": "neither side has a legal turn",
    "resigned": "{side} resigned",
    "agreement": "ended by agreement and scored",
    "draw": "drawn by agreement",
    "time": "{side} lost on time",
    "adjudicated": "adjudicated by the referee",
}
#: endings that are not on the board: the record gets an 'end' entry with the snapshot
NOTED_ENDS = ("resigned", "agreement", "draw", "time", "adjudicated")


@dataclass(frozen=True, slots=True)
class Handled:
    outcome: str  # accepted | refused | info | unknown-sender | ignored | duplicate
    reason: str | None = None
    game_id: int | None = None
    queued: int = 0


@dataclass
class Work:
    """A game being changed by one message; written to the store only if all of it is legal."""

    game: Game
    side: str
    position: GamePosition
    offer: str | None
    turns: list[PlayedTurn] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    sections: list[tuple[str, str]] = field(default_factory=list)
    ended: str | None = None  # the end reason when the game ended in this message
    changed: bool = False
    #: when the message arrived (the referee's "now" as it began handling it)
    now: datetime | None = None
    clock_settings: ClockSettings | None = None
    clock: ClockState | None = None
    clock_changed: bool = False
    #: a loss on time was withdrawn by a turn that had arrived by the deadline
    revived: bool = False
    #: the side that lost, when ``ended`` is 'time'
    loser: str | None = None
    #: a board that goes with the notices, drawn for each player from his side
    notice_board: GamePosition | None = None
    #: the offer stood before this mail (a turn lapses it; an offer made with the turn stays)
    offer_before: bool = False


class Referee:
    def __init__(self, conn: sqlite3.Connection, config: Config, now: Now | None = None):
        self.conn = conn
        self.config = config
        self.options = load_options(config)
        self.limits = load_limits(config)
        self.proven_key = False
        self._now = now or system_now

    def now(self) -> datetime:
        """The referee's one clock (``PBEM_NOW`` or a test's function, else the wall clock)."""
        return self._now()

    # -- games ------------------------------------------------------------------------
    def new_game(
        self,
        white: str,
        black: str,
        ruleset: Any,
        name: str | None = None,
        white_name: str | None = None,
        black_name: str | None = None,
        clock: ClockSettings | None = None,
    ) -> int:
        with transaction(self.conn):
            return self.create_game(white, black, ruleset, name, white_name, black_name, clock)

    def create_game(
        self,
        white: str,
        black: str,
        ruleset: Any,
        name: str | None = None,
        white_name: str | None = None,
        black_name: str | None = None,
        clock: ClockSettings | None = None,
    ) -> int:
        """``new_game`` inside the caller's transaction (a challenge accepted by mail)."""
        for what, label in (("the game's name", name), ("White's name", white_name),
                            ("Black's name", black_name)):
            problem = None if label is None else label_problem(label)
            if problem is not None:
                raise PbemError(f"{what} {label!r} {problem}", code="game.name")
        w, b = white.strip().lower(), black.strip().lower()
        players = [  # the name given here, else the one the player gave by mail
            Player("w", w, white_name or display_name_of(self.conn, w) or white.strip(),
                   new_token()),
            Player("b", b, black_name or display_name_of(self.conn, b) or black.strip(),
                   new_token()),
        ]
        game_id = insert_game(self.conn, name or "Realm by mail", ruleset, players)
        if clock is not None:
            timed.start_game_clock(self, game_id, clock, self.now())
        game = load_game(self.conn, game_id)
        self._log(game_id, "created", f"{white} (White) v {black} (Black), {ruleset.name}")
        for p in players:
            self._queue(self._invitation(game, p), None)
        return game_id

    def _invitation(self, game: Game, p: Player) -> Outgoing:
        pos = game.position
        _, to_move = expected_turn(pos)
        rules = game_of(pos)
        first_hint = example = ""
        if rules.name != "featured":  # the Featured Game's invitation keeps its own words
            first_hint = "placement" if pos.phase is Phase.SETUP else "move"
            options = rules.legal_actions(rules.begin_turn(pos))
            texts = sorted((format_action(a) for a in options), key=len)
            example = texts[0] if texts else "pass"
        body = letter(
            "invitation",
            game_title="Realm" if rules.name == "featured" else rules.title,
            first_hint=first_hint,
            example=example,
            player=p.name,
            referee=f"{self.config.name} <{self.config.address}>",
            title=game.name,
            game_id=game.id,
            white=_who(game.players["w"]),
            black=_who(game.players["b"]),
            side=p.title,
            rules=describe_ruleset(pos.ruleset),
            board=render_text(pos, flip=p.side == "b"),
            to_move=to_move.title,
            token=p.token,
            clock=timed.clock_lines(game, self.now(), with_settings=True,
                                    zone=zone_of(self.conn, p.email)),
            help=help_text(p.token, rules.mail_examples),
            examples=rules.mail_examples,
        )
        yours = " (your move)" if to_move == SIDES[p.side] else ""
        return self._to(game, p, "invitation", f"{game.name}: you play {p.title}{yours}",
                        body.text, body.html)

    def _to(
        self, game: Game, p: Player, kind: str, subject: str, text: str, html: str | None = None,
        inc: Incoming | None = None, auto: str = "auto-generated",
    ) -> Outgoing:
        return Outgoing(
            kind=kind, recipient=p.email, subject=subject, text=text, html=html, game_id=game.id,
            side=p.side, token=p.token,
            in_reply_to=inc.message_id if inc is not None and inc.sender == p.email else None,
            references=inc.references if inc is not None and inc.sender == p.email else (),
            auto=auto,
        )

    # -- messages -----------------------------------------------------------------------
    def handle(self, raw: bytes) -> Handled:
        #: whether this mail proved its sender's key: answers to mail that did not are
        #: a stranger's, and rate limited as such (``ratelimit``)
        self.proven_key = False
        try:
            fail_mail(raw)
            inc = read_message(raw)
        except Exception as exc:
            self._record_failure("sha256:" + hashlib.sha256(raw).hexdigest(), exc)
            raise
        arrived = self.now()  # before waiting for the lock: the arrival time, for lateness
        try:
            with transaction(self.conn):
                if handled_before(self.conn, inc.message_id, inc.digest):
                    return Handled("duplicate", f"{inc.message_id} was handled before")
                cur = self.conn.execute(
                    "INSERT INTO messages (message_id, digest, received_at, sender, subject, raw,"
                    " outcome) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
                    (inc.message_id, inc.digest, time.time(), inc.sender, inc.subject, raw),
                )
                row = int(cur.lastrowid or 0)
                handled, side = self._decide(inc, row, arrived)
                self.conn.execute(
                    "UPDATE messages SET outcome = ?, reason = ?, game_id = ?, side = ? "
                    "WHERE id = ?",
                    (handled.outcome, handled.reason, handled.game_id, side, row),
                )
                fault_point("before-commit")
        except Exception as exc:
            self._record_failure(inc.message_id, exc)
            raise
        fault_point("after-commit")
        return handled

    def _record_failure(self, message_id: str, exc: Exception) -> None:
        """Keep why a message could not be handled (its own transaction; best effort)."""
        try:
            with transaction(self.conn):
                self.conn.execute(
                    "INSERT INTO failures (message_id, at, error) VALUES (?, ?, ?)",
                    (message_id, time.time(), f"{type(exc).__name__}: {exc}"),
                )
        except (sqlite3.Error, PbemError):
            pass

    def _decide(self, inc: Incoming, row: int, now: datetime) -> tuple[Handled, str | None]:
        if inc.automatic:
            return Handled("ignored", f"never answered: {inc.automatic}"), None
        if inc.sender.split("@")[-1] == self.config.domain and inc.sender.split("+")[0].split(
            "@"
        )[0] == self.config.local_part:
            return Handled("ignored", "mail from the referee's own address"), None
        found = once_each(find_orders(inc.subject, inc.body.lines))
        if any(o.name in PLAYER_COMMANDS for o in found) and all(
            o.name in PLAYER_COMMANDS or o.name == "help" for o in found
        ):
            return players.handle_player_mail(self, inc, row, found, now), None
        game = self._find_game(inc)
        known = self.conn.execute(
            "SELECT game_id FROM players WHERE email = ?", (inc.sender,)
        ).fetchall()
        if game is None and not known:
            players.unknown_sender(self, inc, row)
            return Handled("unknown-sender", f"{inc.sender or 'no sender'} plays no game"), None
        if game is None:
            playing = [
                r[0] for r in self.conn.execute(
                    "SELECT DISTINCT p.game_id FROM players p JOIN games g ON g.id = p.game_id "
                    "WHERE p.email = ? AND g.status = 'playing'", (inc.sender,))
            ]
            if len(playing) != 1:
                games = ", ".join(str(g) for g in playing) or "none"
                reason = (
                    "the mail names no game: reply to the referee's last mail for the game "
                    f"(your games in play: {games})"
                )
                self._refuse_bare(inc, row, reason)
                return Handled("refused", reason), None
            game = load_game(self.conn, playing[0])
        side = game.side_of(inc.sender)
        if side is None:
            if not known:
                self._unknown(inc, row)
                return Handled("unknown-sender", f"{inc.sender} plays no game", game.id), None
            reason = f"you ({inc.sender}) are not a player of game {game.id}"
            self._refuse_bare(inc, row, reason)
            return Handled("refused", reason, game.id), None
        player = game.players[side]
        # a command may write as it goes (a takeback); a refusal later in the mail undoes it
        self.conn.execute("SAVEPOINT orders")
        try:
            self._check_secret(inc, game, player)
            self.proven_key = True
            orders = found
            if not orders:
                raise Refusal(
                    "no orders found in your mail: write your turn (or a command) on a line "
                    "of its own, above or below any quoted text"
                )
            work = Work(game, side, game.position, game.offer, now=now,
                        offer_before=game.offer is not None)
            timed.attach_clock(work)
            for order in orders:
                self._order(work, order)
        except Refusal as refusal:
            self.conn.execute("ROLLBACK TO orders")
            self.conn.execute("RELEASE orders")
            self._refuse(inc, row, game, player, refusal)
            self._log(game.id, "refused", f"{player.title}: {refusal.reason}")
            return Handled("refused", refusal.reason, game.id), side
        self.conn.execute("RELEASE orders")
        self._commit(work, inc, row)
        outcome = "accepted" if work.changed else "info"
        what = ", ".join(t.label for t in work.turns) or ", ".join(o.name for o in orders)
        return Handled(outcome, what, game.id), side

    def _find_game(self, inc: Incoming) -> Game | None:
        claims = claims_in_subject(inc.subject) + claims_in_addresses(inc.recipients)
        ids = [c.game_id for c in claims]
        for ref in inc.references:
            r = self.conn.execute(
                "SELECT game_id FROM outbox WHERE message_id = ?", (ref,)
            ).fetchone()
            if r is not None and r[0] is not None:
                ids.append(r[0])
        for game_id in ids:
            try:
                return load_game(self.conn, game_id)
            except GameNotFound:
                continue
        return None

    def _check_secret(self, inc: Incoming, game: Game, player: Player) -> None:
        tokens = [
            c.token
            for c in claims_in_subject(inc.subject) + claims_in_addresses(inc.recipients)
            if c.game_id == game.id and c.token
        ]
        tokens += [k for bl in inc.body.lines if (k := key_in_line(bl.text))]
        refuse_many_keys(tokens)
        if any(same_token(t, player.token) for t in tokens):
            return
        own = account_token(self.conn, player.email)  # a reply to a player-level mail
        if own and any(same_token(t, own) for t in account_tokens(inc.subject, inc.recipients)
                       + tokens):
            return
        other = game.opponent(player.side)
        if any(same_token(t, other.token) for t in tokens):
            raise Refusal(
                f"this mail carries {other.title}'s key, not yours: reply to the referee's "
                "mails to you, not to your opponent's"
            )
        raise Refusal(
            "this mail does not carry your key, so the referee cannot tell it from a forgery: "
            "reply to the referee's last mail to you (the reply address and the subject tag "
            "carry your key), or add a line 'key <your key>' from that mail"
            if not tokens
            else "the key in this mail is wrong: reply to the referee's last mail to you"
        )

    # -- orders -------------------------------------------------------------------------
    def _order(self, work: Work, order: Order) -> None:
        handler = MAIL_COMMANDS[order.name]
        if order.name not in INFO_COMMANDS and order.number is not None:
            number, side = expected_turn(work.position)
            if order.number != number and work.position.phase is not Phase.OVER:
                raise Refusal(
                    f"this order is marked #{order.number}, but the game is at turn {number} "
                    f"({side.title} to move): an old or repeated order is never carried out",
                    order,
                )
        handler(self, work, order)

    def _cmd_turn(self, work: Work, order: Order) -> None:
        timed.revive_if_in_time(self, work)
        pos = work.position
        me = SIDES[work.side]
        if pos.phase is Phase.OVER or work.ended:
            raise Refusal("the game is over: nothing more may be played", order)
        if pos.to_move is not me:
            number, side = expected_turn(pos)
            raise Refusal(
                f"it is not your turn: {side.title} is to move (turn {number}{side.letter})",
                order,
            )
        outcome = live_turn(pos, order.text, dict(work.game.headers()),
                            case_repairs=self.options.case_repairs)
        if outcome.error is not None:
            raise Refusal(outcome.error.message, order, outcome.error)
        assert outcome.played is not None
        work.turns.append(outcome.played)
        work.position = outcome.played.after
        work.changed = True
        work.notices += [f"{me.title} wrote {r}." for r in outcome.repaired]
        self._forced_passes(work)
        timed.turn_on_clock(work, order)
        if work.offer is not None and work.offer_before:
            work.notices.append("The offer that stood lapsed with this turn.")
            work.offer = None
        work.offer_before = False
        if work.position.phase is Phase.OVER:
            work.ended = work.position.end or "bases"

    def _forced_passes(self, work: Work) -> None:
        """A side left with no legal turn passes, and the referee writes the pass by itself
        (the rules force it): the player who just moved is to move again."""
        rules = game_of(work.position)
        for _ in range(2):  # two passes in a row end the game (neither side can move)
            if work.position.phase is not Phase.PLAY or rules.pass_text(work.position) is None:
                return
            forced = play_turn(work.position, "pass", dict(work.game.headers()))
            if forced.played is None:
                return
            work.turns.append(forced.played)
            work.position = forced.played.after
            work.notices.append(
                f"{forced.played.side.title} has no legal move and passes "
                f"({forced.played.label}); the referee wrote the pass."
            )

    def _cmd_info(self, work: Work, order: Order) -> None:
        game = work.game
        if order.name == "board":
            board = render_text(work.position, flip=work.side == "b")
            zone = zone_of(self.conn, game.players[work.side].email)
            lines = timed.clock_lines(game, work.now or self.now(), zone=zone)
            work.sections.append(("The board", "\n".join([board, "", *lines]).rstrip()))
        elif order.name == "history":
            record = record_text(self.conn, game, game.result, None)
            work.sections.append((f"The record of game {game.id}", record))
        else:
            token = game.players[work.side].token
            work.sections.append(("Help", help_text(token, game_of(work.position).mail_examples)))

    def _cmd_offer(self, work: Work, order: Order) -> None:
        verb, what = order.name.split("-")
        me = SIDES[work.side]
        if work.position.phase is Phase.OVER or work.ended:
            raise Refusal("the game is over: there is nothing to offer or answer", order)
        if what == "end" and not getattr(work.position.ruleset, "end_by_agreement", True):
            raise Refusal(
                f"the rules in force ({work.game.ruleset}) do not let a game end by agreement",
                order,
            )
        pending = work.offer
        theirs = f"{what}:{'b' if work.side == 'w' else 'w'}"
        words = "to end the game by agreement (it is then scored)" if what == "end" \
            else "a draw"
        noun = "an end by agreement" if what == "end" else "a draw"
        if verb == "offer":
            if pending == f"{what}:{work.side}":
                raise Refusal(f"you have already offered {words}", order)
            if pending == theirs:
                raise Refusal(
                    f"your opponent has already offered {words}: reply 'accept {what}'", order
                )
            work.offer = f"{what}:{work.side}"
            work.offer_before = False  # made with this mail: a turn in it does not lapse it
            work.changed = True
            work.notices.append(
                f"{me.title} offers {words}. {me.other.title} may reply 'accept {what}' or "
                f"'decline {what}'; the offer lapses with the next turn played."
            )
            return
        if pending != theirs:
            raise Refusal(f"there is no offer of {noun} from your opponent to {verb}", order)
        work.offer = None
        work.changed = True
        if verb == "decline":
            work.notices.append(f"{me.title} declines the offer of {noun}.")
            return
        try:
            if what == "end":
                work.position = game_of(work.position).end_by_agreement(work.position)
                work.ended = "agreement"
            else:
                work.position = game_of(work.position).agree_draw(work.position)
                work.ended = "draw"
        except RuleError as exc:
            raise Refusal(exc.message, order) from None

    def _cmd_resign(self, work: Work, order: Order) -> None:
        if work.position.phase is Phase.OVER or work.ended:
            raise Refusal("the game is over already", order)
        work.position = game_of(work.position).resign(work.position, SIDES[work.side])
        work.ended = "resigned"
        work.changed = True
        work.offer = None

    # -- writing ------------------------------------------------------------------------
    def _commit(self, work: Work, inc: Incoming | None, row: int | None) -> None:
        game = work.game
        conn = self.conn
        player = game.players[work.side]
        now = time.time()
        seq = game.seq
        if work.revived:  # the loss on time is void: its 'end' entry goes
            conn.execute("DELETE FROM turns WHERE game_id = ? AND seq = ? AND label = 'end'",
                         (game.id, seq))
            seq -= 1
        if work.clock is not None and work.clock_changed:
            timed.save_clock(conn, game.id, work.clock)
        for played in work.turns:
            seq += 1
            text = format_turn(TurnText(tuple(r.canonical() for r in played.resolved)))
            conn.execute(
                "INSERT INTO turns (game_id, seq, label, notation, snapshot, message_id, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game.id, seq, played.label, text, dump_snapshot(played.after), row, now),
            )
            self._log(game.id, "turn", f"{played.label} {text}")
        result = work.position.result if work.ended else None
        note = None
        if work.ended in NOTED_ENDS:
            loser = game.players[work.loser].title if work.loser else player.title
            note = END_WORDS[work.ended].format(side=loser)
            conn.execute(
                "INSERT INTO turns (game_id, seq, label, notation, snapshot, message_id, "
                "created_at) VALUES (?, ?, 'end', ?, ?, ?, ?)",
                (game.id, seq + 1, note, dump_snapshot(work.position), row, now),
            )
        if work.changed:
            record = record_text(conn, game, result, note)
            status, old_result, old_end = game.status, game.result, game.end_reason
            if work.revived:
                status, old_result, old_end = "playing", None, None
            conn.execute(
                "UPDATE games SET record = ?, offer = ?, status = ?, result = ?, end_reason = ?, "
                "updated_at = ? WHERE id = ?",
                (record, work.offer, "over" if work.ended else status,
                 result or old_result, work.ended or old_end, now, game.id),
            )
            game = load_game(conn, game.id)
        for text in work.notices:
            self._log(game.id, "notice", text)
        if work.turns:
            self._queue_reports(game, inc, row, work.notices)
        if work.notices and not work.turns:
            for p in game.players.values():
                text = "\n".join(work.notices)
                if work.notice_board is not None:
                    text += "\n\n" + render_text(work.notice_board, flip=p.side == "b")
                body = letter(
                    "notice", player=p.name, text=text,
                    next=self._next_words(game),
                )
                self._queue(self._to(game, p, "notice", f"{game.name}: {work.notices[0][:60]}",
                                     body.text, body.html, inc=inc), row)
        if work.sections:
            body = letter(
                "reply", player=player.name,
                sections=[{"title": t, "text": x} for t, x in work.sections],
            )
            what = ", ".join(t.lower() for t, _ in work.sections)
            self._queue(self._to(game, player, "reply", f"{game.name}: {what}", body.text,
                                 body.html, inc=inc, auto="auto-replied"), row)
        if work.ended:
            self._log(game.id, "end", f"{work.ended}: {game.result}")
            self._queue_results(game, inc, row, work)

    def _next_words(self, game: Game) -> str:
        if game.status == "over":
            return f"The game is over: {game.result}."
        number, side = expected_turn(game.position)
        return f"Next: {side.title} to move (turn {number}{side.letter})."

    def _queue_reports(
        self, game: Game, inc: Incoming | None, row: int | None, notes: list[str] | None = None
    ) -> None:
        replay = replay_record(game.record)
        if replay.final != game.position and game.end_reason not in NOTED_ENDS:
            raise PbemError(
                f"game {game.id}: the stored record and the snapshot disagree; nothing was "
                "changed", code="store.inconsistent",
            )
        last = replay.turns[-1]
        number, to_move = expected_turn(last.after)
        now = self.now()
        top = [*(notes or []), *timed.clock_lines(game, now)]
        links = publish.page_links(self.config, game.id)
        for p in game.players.values():
            mine = [*(notes or []), *timed.clock_lines(game, now, zone=zone_of(self.conn, p.email))]
            text, html, pictures = report_parts(replay, flip=p.side == "b", top=mine, links=links)
            if last.after.phase is Phase.OVER:
                state = "the game is over"
            elif to_move == SIDES[p.side]:
                state = f"your move ({number}{to_move.letter})"
            else:
                state = f"{to_move.title} to move"
            subject = f"{game.name}: {last.label} played; {state}"
            if digest.held(self, p.email, game, subject, text):
                continue
            out = self._to(game, p, "report", subject, text, html, inc=inc)
            self._queue(replace(out, pictures=pictures), row)
        observers.queue_reports(self, game, replay, top, links, last.label, row)

    def _queue_results(self, game: Game, inc: Incoming | None, row: int | None,
                       work: Work) -> None:
        pos = game.position
        mover = game.players[work.side].title
        if work.ended == "bases" and work.turns:
            mover = work.turns[-1].side.title
        if work.loser is not None:
            mover = game.players[work.loser].title
        if work.ended in END_WORDS:
            how = END_WORDS[work.ended].format(side=mover)
        else:  # the game's own ending on the board
            last = work.turns[-1].label if work.turns else None
            how = game_of(pos).end_words_after(pos, last)
        for p in game.players.values():
            body = letter(
                "result", player=p.name, game_id=game.id, title=game.name,
                how=how, result=game.result, result_words=result_words(game.result),
                score=game_of(pos).score(pos), board=render_text(pos, flip=p.side == "b"),
                record=game.record,
            )
            subject = f"{game.name}: game over, {game.result} ({result_words(game.result)})"
            self._queue(self._to(game, p, "result", subject, body.text, body.html, inc=inc),
                        row)

    def _refuse(
        self, inc: Incoming, row: int, game: Game, player: Player, refusal: Refusal
    ) -> None:
        where = line = caret = None
        order, error = refusal.order, refusal.error
        if order is not None:
            column = order.column
            if error is not None and error.span is not None:
                column = order.column + error.span.column - 1
            place = "the subject" if order.line == 0 else f"line {order.line}"
            where = f"{place}, column {column}"
            line = order.original.expandtabs(1) if order.line else order.original
            width = len(error.action) if error is not None and error.action else 1
            caret = " " * (column - 1) + "^" * max(1, width)
        options = list(error.options) if error is not None and error.options else []
        body = letter(
            "refusal", player=player.name, game_id=game.id, reason=refusal.reason,
            where=where, line=line, caret=caret,
            options=options if len(options) <= 12 else [],
            next=self._next_words(game),
            board=render_text(game.position, flip=player.side == "b"),
            quoted=quote(inc.body.text, self.limits.quote_lines, self.limits.quote_width),
        )
        self._queue(self._to(game, player, "refusal", f"{game.name}: not played: "
                             f"{_short(refusal.reason)}", body.text, body.html, inc=inc,
                             auto="auto-replied"), row)

    def _refuse_bare(self, inc: Incoming, row: int, reason: str) -> None:
        body = letter(
            "refusal", player=inc.sender_name or inc.sender, game_id="-",
            reason=reason, where=None, line=None, caret=None, options=[], next=None, board=None,
            quoted=quote(inc.body.text, self.limits.quote_lines, self.limits.quote_width),
        )
        out = Outgoing("refusal", inc.sender, f"Realm referee: not played: {_short(reason)}",
                       body.text, body.html, in_reply_to=inc.message_id, references=inc.references,
                       auto="auto-replied")
        self._queue(out, row)

    def _unknown(self, inc: Incoming, row: int) -> None:
        if not inc.sender:
            return
        body = letter(
            "unknown", referee=f"{self.config.name} <{self.config.address}>",
            sender=inc.sender,
        )
        out = Outgoing("unknown-sender", inc.sender, "Realm referee: this address plays no game",
                       body.text, body.html, in_reply_to=inc.message_id, references=inc.references,
                       auto="auto-replied")
        self._queue(out, row)

    # -- store helpers ------------------------------------------------------------------
    def tell_players(self, game: Game, subject: str, text: str, kind: str = "notice",
                     board: GamePosition | None = None, after: str = "") -> None:
        """A notice to both players of a game (clock events, the operator's decisions);
        ``board`` is drawn for each from his side, before the lines ``after``."""
        for p in game.players.values():
            said = text
            if board is not None:
                said += "\n\n" + render_text(board, flip=p.side == "b")
            if after:
                said += "\n\n" + after
            body = letter("notice", player=p.name, text=said, next=self._next_words(game))
            self._queue(self._to(game, p, kind, f"{game.name}: {subject}", body.text, body.html),
                        None)

    def _queue(self, out: Outgoing, reply_to_row: int | None) -> int:
        answer = None
        if out.auto == "auto-replied":  # an answer to a mail: rate limited
            answer = "keyed" if self.proven_key else "stranger"
            why = over_limit(self.conn, self.limits, out.recipient, out.game_id,
                             answer == "stranger", time.time())
            if why is not None:
                if out.game_id is not None:
                    self._log(out.game_id, "not-answered", f"{out.kind} to {out.recipient}: "
                              f"{why}")
                return 0
        out = capped(out, self.limits)
        message_id = new_message_id(self.config, out.game_id)
        raw = build_mail(self.config, out, message_id)
        cur = self.conn.execute(
            "INSERT INTO outbox (message_id, game_id, side, reply_to_message, recipient, kind, "
            "raw, created_at, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (message_id, out.game_id, out.side, reply_to_row, out.recipient, out.kind, raw,
             time.time(), answer),
        )
        return int(cur.lastrowid or 0)

    def _log(self, game_id: int, kind: str, text: str) -> None:
        self.conn.execute(
            "INSERT INTO game_log (game_id, at, kind, text) VALUES (?, ?, ?, ?)",
            (game_id, time.time(), kind, text),
        )


def _who(p: Player) -> str:
    return p.email if p.name == p.email else f"{p.name} <{p.email}>"


def _short(text: str, width: int = 60) -> str:
    first = text.split(":")[0] if len(text) > width else text
    return first if len(first) <= width else first[: width - 3] + "..."


#: mail command name -> handler; the next issue adds e.g. "vacation", "claim"
MAIL_COMMANDS = {
    "turn": Referee._cmd_turn,
    "board": Referee._cmd_info,
    "history": Referee._cmd_info,
    "help": Referee._cmd_info,
    "resign": Referee._cmd_resign,
    "offer-end": Referee._cmd_offer,
    "accept-end": Referee._cmd_offer,
    "decline-end": Referee._cmd_offer,
    "offer-draw": Referee._cmd_offer,
    "accept-draw": Referee._cmd_offer,
    "decline-draw": Referee._cmd_offer,
}
MAIL_COMMANDS.update(timed.MAIL_COMMANDS)
MAIL_COMMANDS.update(takeback.MAIL_COMMANDS)
MAIL_COMMANDS.update(movelist.MAIL_COMMANDS)
MAIL_COMMANDS.update({name: players.elsewhere for name in PLAYER_COMMANDS})
INFO_COMMANDS = frozenset({"board", "history", "help", "moves"})
