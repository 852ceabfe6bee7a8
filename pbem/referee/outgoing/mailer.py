"""Who gets which mail, and what it says: the referee's one way out.

Commands and the service say what happened (a turn, a notice, a reply, a refusal); the
mailer decides who is told and how: both players' turn reports (held for a daily digest
when a player asked for one), observers' copies, each board drawn from its reader's side,
subjects that never end mid-word. Every mail is queued in the store in the caller's
transaction and delivered after the commit (``outbox``), within the config's limits: each
mail cut to ``limits.reply_chars`` and its subject at a word, and answers to a mail rate
limited (``ratelimit``), as a stranger's when the mail proved no key.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, tzinfo

from pbem.errors import PbemError
from pbem.notation.format import format_action
from pbem.records.replay import Replay
from pbem.records.rulesets import describe_ruleset
from pbem.referee import clock
from pbem.referee.config.home import Config
from pbem.referee.config.options import Options
from pbem.referee.intake.inbox import Incoming
from pbem.referee.intake.refusal import Refusal
from pbem.referee.outgoing.compose import Attachment, Outgoing, quote
from pbem.referee.outgoing.deadline_ics import deadline_event
from pbem.referee.outgoing.letters import Letter, help_text, letter
from pbem.referee.outgoing.limits import capped, load_limits
from pbem.referee.outgoing.operator_notice import notify_operator
from pbem.referee.outgoing.posting import post
from pbem.referee.outgoing.ratelimit import SAME_ANSWERS_PER_DAY, over_limit, same_answers
from pbem.referee.outgoing.report_mail import MailBoard, mail_board, report_parts
from pbem.referee.public.club_ratings import report_line
from pbem.referee.public.publish import page_links
from pbem.referee.store import accounts, delivery, games, transaction
from pbem.referee.store.engine import Connection
from pbem.referee.store.games import Game, Player
from pbem.referee.turns.wording import examples, wrap
from pbem.render.text_board import render_text
from pbem.rules.game import GamePosition, Phase, counted, result_words, turn_name
from pbem.rules.pieces import Side
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
    "withdrew": "{side} withdrew from the event",
}
#: endings that are not on the board: the record gets an 'end' entry with the snapshot
NOTED_ENDS = ("resigned", "agreement", "draw", "time", "adjudicated", "withdrew")

SUBJECT_WIDTH = 60


def shorten(text: str, width: int = SUBJECT_WIDTH) -> str:
    """``text`` for a subject: whole when it fits, else cut at a word's end with '...'."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[: width - 3].rsplit(" ", 1)[0] if " " in text[: width - 3] else text[: width - 3]
    return cut.rstrip(" ,;:") + "..."


def clock_lines(game: Game, now: datetime, *, with_settings: bool = True,
                zone: tzinfo | None = None) -> list[str]:
    """The clock for a mail: the time control, then who must move by when (in ``zone``, the
    reader's time zone; UTC when None)."""
    found = game.clock()
    if found is None:
        return ["Time control: none (no deadlines)."] if with_settings else []
    settings, state = found
    lines = [clock.describe_settings(settings)] if with_settings else []
    if game.status == "over" and state.result is None:
        return lines
    return lines + clock.describe_clock(state, settings, now, zone=zone)


def next_words(game: Game) -> str:
    if game.status == "over":
        return f"The game is over: {game.result}."
    pos = game.position
    return f"Next: {pos.to_move.title} to move ({turn_name(pos.turn_label())})."


def who(p: Player) -> str:
    return p.email if p.name == p.email else f"{p.name} <{p.email}>"


class Mailer:
    """Queues the referee's mail in the store; one per connection."""

    def __init__(self, conn: Connection, config: Config, options: Options,
                 now: Callable[[], datetime]):
        self.conn = conn
        self.config = config
        self.options = options
        self.limits = load_limits(config)
        self.now = now
        #: whether the mail being handled proved its sender's key; the service sets it for
        #: each mail. Answers to mail that did not are a stranger's, rate limited as such.
        self.proven_key = False

    @property
    def referee(self) -> str:
        return f"{self.config.name} <{self.config.address}>"

    def queue(self, out: Outgoing, row: int | None) -> int:
        """Queue ``out`` within the limits; 0 when it is an answer over a rate limit (not
        sent; the game's log says so)."""
        answer = None
        if out.auto == "auto-replied":  # an answer to a mail: rate limited
            answer = "keyed" if self.proven_key else "stranger"
            why = over_limit(self.conn, self.limits, out.recipient, out.game_id,
                             answer == "stranger", time.time())
            if why is None and out.kind == "refusal":  # replies differ by their sections
                why = self._loop(out)
            if why is not None:
                if out.game_id is not None:
                    games.log(self.conn, out.game_id, "not-answered",
                              f"{out.kind} to {out.recipient}: {why}")
                return 0
        out = capped(out, self.limits)
        return post(self.conn, self.config, out, row, answer)

    def _loop(self, out: Outgoing) -> str | None:
        """Why ``out`` looks like a turn of a mail loop (the same answer to the same address
        twice today already), or None; the operator is told once of each loop."""
        sent = same_answers(self.conn, out.recipient, out.kind, out.subject, time.time())
        if sent < SAME_ANSWERS_PER_DAY:
            return None
        digest = hashlib.sha256(f"{out.kind}\x00{out.subject}".encode()).hexdigest()[:16]
        notify_operator(
            self.conn, self.config, f"answer-loop:{out.recipient}:{digest}",
            f"a mail loop with {out.recipient}?",
            f"{out.recipient} was sent the same {out.kind} ('{out.subject}') "
            f"{SAME_ANSWERS_PER_DAY} times today and wrote again the same way: perhaps an "
            "auto-responder. The referee stays silent to that address about this until "
            "tomorrow; nothing else changes.", game_id=out.game_id)
        return (f"the same {out.kind} went to {out.recipient} {sent} times today already "
                "(a mail loop?)")

    def zone(self, email: str) -> tzinfo | None:
        """The time zone the address reads deadlines in (None: UTC)."""
        return accounts.zone_of(self.conn, email)

    def to(self, game: Game, p: Player, kind: str, subject: str, body: Letter,
           inc: Incoming | None = None, auto: str = "auto-generated") -> Outgoing:
        """A mail to a player of ``game``, threaded under his own mail when it answers one."""
        mine = inc is not None and inc.sender == p.email
        return Outgoing(
            kind=kind, recipient=p.email, subject=f"{game.name}: {subject}", text=body.text,
            html=body.html, game_id=game.id, side=p.key, token=p.token,
            in_reply_to=inc.message_id if mine and inc is not None else None,
            references=inc.references if mine and inc is not None else (),
            auto=auto,
        )

    def to_address(self, kind: str, email: str, subject: str, body: Letter, *,
                   token: str | None = None, inc: Incoming | None = None,
                   auto: str = "auto-generated") -> Outgoing:
        """A mail about the player rather than a game (his account key, when he has one)."""
        return Outgoing(kind, email, shorten(subject), body.text, body.html,
                        in_reply_to=inc.message_id if inc is not None else None,
                        references=inc.references if inc is not None else (), auto=auto,
                        account_token=token)

    def board(self, game: Game, flip: bool, position: GamePosition | None = None,
              tag: str = "") -> MailBoard:
        """The board for a mail as a PNG from the reader's side (``flip``: Black's), of
        ``position``, else of the game as it stands with its last turn marked; its alt
        text and its words. ``tag`` keeps apart the pictures of two games in one mail."""
        pos = game.position if position is None else position
        replay = games.replay_record(game.record)
        last = replay.turns[-1] if replay.turns else None
        if last is not None and last.after != pos:
            last = None  # another position than the last turn's: nothing to mark
        result = game.result if game.status == "over" else None
        return mail_board(pos, last, flip=flip, result=result, tag=tag)

    # -- game mail -------------------------------------------------------------------------
    def invitation(self, game: Game, p: Player) -> None:
        pos = game.position
        rules = game_of(pos)
        first_hint = example = ""
        if rules.name != "featured":  # the Featured Game's invitation keeps its own words
            first_hint = "placement" if pos.phase is Phase.SETUP else "move"
            options = rules.legal_actions(rules.begin_turn(pos))
            texts = sorted((format_action(a) for a in options), key=len)
            example = texts[0] if texts else "pass"
        agreement = rules.ends_by_agreement(pos.ruleset)  # is 'offer end' in the help?
        board = self.board(game, p.flip)
        body = letter(
            "invitation", game_title="Realm" if rules.name == "featured" else rules.title,
            first_hint=first_hint, example=example, player=p.name, referee=self.referee,
            title=game.name,
            game_id=game.id, white=who(game.players[Side.WHITE]),
            black=who(game.players[Side.BLACK]), side=p.title,
            rules=describe_ruleset(pos.ruleset), board=render_text(pos, flip=p.flip),
            to_move=pos.to_move.title, token=p.token,
            clock=clock_lines(game, self.now(), with_settings=True, zone=self.zone(p.email)),
            help=help_text(p.token, examples(pos), rules.notation_key(pos.ruleset), agreement,
                           rules.title),
            examples=examples(pos), notation=rules.notation_key(pos.ruleset),
            agreement=agreement, about=rules.about,
            rated="yes" if game.rated else "no: this game does not count for the ratings",
            **board.context(),
        )
        yours = " (your move)" if pos.to_move is p.side else ""
        out = self.to(game, p, "invitation", f"you play {p.title}{yours}", body)
        self.queue(replace(out, pictures=board.pictures), None)

    def reports(self, game: Game, inc: Incoming | None, row: int | None,
                notes: Sequence[str] = (), *, played: int = 1,
                private: Mapping[Side, Sequence[str]] | None = None,
                players: bool = True) -> None:
        """The turn report to both players (or their digests) and to the observers: the
        notices on top, the clock after the board. ``played``: how many turns the report
        covers (a turn and the answer given in advance, a forced pass); ``private``: lines
        for one player's report alone (never an observer's)."""
        replay = games.replay_record(game.record)
        if replay.final != game.position and game.end_reason not in NOTED_ENDS:
            raise PbemError(
                f"game {game.id}: the stored record and the snapshot disagree; nothing was "
                "changed", code="store.inconsistent",
            )
        last = replay.turns[-1]
        after = last.after
        now = self.now()
        links = page_links(self.config, game.id)
        ratings = report_line(self.conn, game, self.options.ratings)
        labels = turn_name(last.label)
        if played > 1 and len(replay.turns) >= played:
            labels = f"{turn_name(replay.turns[-played].label)} to {turn_name(last.label)}"
        for p in game.players.values() if players else ():  # at the end: the result mail
            lines = [*clock_lines(game, now, zone=self.zone(p.email)), ratings]
            top = [*notes, *(private or {}).get(p.side, ())]
            text, html, pictures = report_parts(replay, flip=p.flip, top=top,
                                                links=links, after=lines)
            if after.phase is Phase.OVER:
                state = "the game is over"
            elif after.to_move is p.side:
                state = f"your move ({turn_name(after.turn_label())})"
            else:
                state = f"{after.to_move.title} to move"
            out = self.to(game, p, "report", f"{labels} played; {state}", Letter(text, html),
                          inc=inc)
            if self._held(p.email, game, out.subject, text):  # the subject as it is mailed
                continue
            due = self._deadline_event(game, p, links)
            self.queue(replace(out, pictures=pictures, attachments=due), row)
        self._observers(game, replay, notes, [*clock_lines(game, now), ratings], links,
                        last.label, row)

    def _deadline_event(self, game: Game, p: Player,
                        links: list[tuple[str, str]]) -> tuple[Attachment, ...]:
        """The next deadline as an .ics for the player who must move, if there is one."""
        found = game.clock()
        pos = game.position
        if found is None or game.status == "over" or pos.to_move is not p.side:
            return ()
        due = clock.deadline(found[1], found[0])
        if due is None:
            return ()
        label = f"{pos.turn_number()}{pos.to_move.letter}"
        ics = deadline_event(game.id, game.name, label, due, self.config.domain, self.now(),
                             links[0][1] if links else None)
        return (Attachment(ics, "text", "calendar", f"deadline-{label}.ics",
                           (("method", "PUBLISH"),)),)

    def _observers(self, game: Game, replay: Replay, notes: Sequence[str], lines: list[str],
                   links: list[tuple[str, str]], label: str, row: int | None) -> None:
        emails = accounts.observers(self.conn, game.id)
        if not emails:
            return
        text, html, pictures = report_parts(replay, flip=False, top=list(notes), links=links,
                                            after=lines)
        subject = f"{game.name}: {turn_name(label)} played (you observe game {game.id})"
        for email in emails:
            if self._held(email, game, subject, text):
                continue
            self.queue(Outgoing("report", email, subject, text, html, game_id=game.id,
                                account_token=accounts.ensure_account(self.conn, email),
                                pictures=pictures, listed="observer"), row)

    def notices(self, game: Game, notices: Sequence[str], board: GamePosition | None,
                inc: Incoming | None, row: int | None) -> None:
        """Notices without a turn (an offer, a takeback) to both players."""
        for p in game.players.values():
            text = "\n".join(notices)
            picture = self.board(game, p.flip, board) if board is not None else None
            if board is not None:
                text += "\n\n" + render_text(board, flip=p.flip)
            body = letter("notice", player=p.name, text=text, next=next_words(game),
                          **(picture.context() if picture is not None else {}))
            out = self.to(game, p, "notice", shorten(notices[0].split("\n")[0]), body, inc=inc)
            self.queue(replace(out, pictures=picture.pictures if picture else ()), row)

    def tell_players(self, game: Game, subject: str, text: str, kind: str = "notice",
                     board: GamePosition | None = None, after: str = "") -> None:
        """A notice to both players (clock events, the operator's decisions); ``board`` is
        drawn for each from his side, before the lines ``after``."""
        for p in game.players.values():
            said = text
            picture = self.board(game, p.flip, board) if board is not None else None
            if board is not None:
                said += "\n\n" + render_text(board, flip=p.flip)
            if after:
                said += "\n\n" + after
            body = letter("notice", player=p.name, text=said, next=next_words(game),
                          **(picture.context() if picture is not None else {}))
            out = self.to(game, p, kind, subject, body)
            self.queue(replace(out, pictures=picture.pictures if picture else ()), None)

    def tell_one(self, game: Game, p: Player, subject: str, text: str,
                 row: int | None = None, kind: str = "notice") -> None:
        """A notice to one player of a game (his opponent's vacation, or message)."""
        body = letter("notice", player=p.name, text=text, next=next_words(game))
        self.queue(self.to(game, p, kind, subject, body), row)

    def tell_address(self, email: str, subject: str, text: str, *, kind: str = "notice",
                     name: str | None = None) -> None:
        """A mail about the player rather than one game (his games of an event), with his
        account key, so that a reply to it may act for him (``standings``, ``withdraw``)."""
        token = accounts.ensure_account(self.conn, email)
        body = letter("reply", player=name or email,
                      sections=[{"title": subject, "text": text}])
        self.queue(self.to_address(kind, email, subject, body, token=token), None)

    def reminder(self, game: Game, p: Player, first: bool, deadline: datetime) -> None:
        if delivery.unsubscribed(self.conn, p.email, "reminder", game.id):
            games.log(self.conn, game.id, "not-sent", f"reminder to {p.title}: unsubscribed")
            return
        pos = game.position
        zone = self.zone(p.email)
        when = clock.format_instant(deadline, zone)
        head = "Reminder" if first else "Last reminder: today is the day"
        text = (f"{head}: your move in game {game.id} ({turn_name(pos.turn_label())}) is due "
                f"by {when}.\n\n"
                + render_text(pos, flip=p.flip) + "\n\n"
                + "\n".join(clock_lines(game, self.now(), with_settings=False, zone=zone)))
        board = self.board(game, p.flip)
        body = letter("notice", player=p.name, text=text,
                      next="Reply to this mail with your turn.", **board.context())
        out = self.to(game, p, "reminder", f"reminder, your move by {when}", body)
        self.queue(replace(out, pictures=board.pictures, listed="reminder"), None)

    def reply(self, game: Game, p: Player, sections: Sequence[tuple[str, str]],
              inc: Incoming | None, row: int | None,
              html: Mapping[str, str] | None = None) -> None:
        """The answer to a player's questions (board, history, help, moves); ``html``: a
        section's own HTML by its title (the rules page), else its text, preformatted."""
        html = html or {}
        shows = any(t == "The board" for t, _ in sections)  # the 'board' command's answer
        board = self.board(game, p.flip) if shows else None
        body = letter("reply", player=p.name,
                      sections=[{"title": t, "text": x, "html": html.get(t)}
                                for t, x in sections],
                      **(board.context() if board is not None else {}))
        what = ", ".join(t.lower() for t, _ in sections)
        out = self.to(game, p, "reply", what, body, inc=inc, auto="auto-replied")
        self.queue(replace(out, pictures=board.pictures if board else ()), row)

    def results(self, game: Game, how: str, inc: Incoming | None, row: int | None,
                event: str | None = None,
                news: Mapping[Side, Sequence[str]] | None = None) -> None:
        """The end of the game to both players, with their ratings after it (and the
        crosstable of its event, ``event``, when it is a game of one). ``news``: what a
        turn report would have said on top (the turn that ended the game, notices,
        messages), so that the end is one mail to each player, not a report and a result."""
        pos = game.position
        ratings = report_line(self.conn, game, self.options.ratings)
        for p in game.players.values():
            board = self.board(game, p.flip)
            body = letter(
                "result", player=p.name, game_id=game.id, title=game.name,
                how=how, result=game.result, result_words=result_words(game.result),
                score=game_of(pos).score(pos), board=render_text(pos, flip=p.flip),
                record=game.record, ratings=ratings, event=event,
                news=list((news or {}).get(p.side, ())), **board.context(),
            )
            subject = f"game over, {game.result} ({result_words(game.result)})"
            out = self.to(game, p, "result", subject, body, inc=inc)
            self.queue(replace(out, pictures=board.pictures), row)

    def refusal(self, inc: Incoming, row: int, game: Game, p: Player,
                refusal: Refusal) -> None:
        """Why a mail was not played, with the line it is about (and nothing else of it)."""
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
        board = self.board(game, p.flip)
        body = letter(
            "refusal", player=p.name, game_id=game.id, reason=wrap(refusal.reason, ""),
            where=where, line=line, caret=caret,
            options=options if len(options) <= 12 else [],
            next=next_words(game),
            board=render_text(game.position, flip=p.flip),
            clock=clock_lines(game, self.now(), with_settings=False, zone=self.zone(p.email)),
            quoted=None if order is not None else self.quoted(inc),
            **board.context(),
        )
        out = self.to(game, p, "refusal", shorten(f"not played: {refusal.reason}"), body,
                      inc=inc, auto="auto-replied")
        self.queue(replace(out, pictures=board.pictures), row)

    def quoted(self, inc: Incoming) -> str:
        """The start of the sender's mail, quoted back within the limits."""
        return quote(inc.body.text, self.limits.quote_lines, self.limits.quote_width)

    # -- mail about a player, or to a stranger ------------------------------------------------
    def refuse_address(self, inc: Incoming, row: int, reason: str, *, token: str | None = None,
                       verb: str = "not played") -> None:
        body = letter(
            "refusal", player=inc.sender_name or inc.sender, game_id=None,
            reason=reason, where=None, line=None, caret=None, options=[], next=None, board=None,
            clock=[], quoted=self.quoted(inc),
        )
        self.queue(self.to_address("refusal", inc.sender, f"Realm referee: {verb}: {reason}",
                                   body, token=token, inc=inc, auto="auto-replied"), row)

    def answer(self, inc: Incoming, row: int, token: str,
               sections: Sequence[tuple[str, str]]) -> None:
        """The answer to a player-level mail (games, vacation, digest, ...)."""
        body = letter(
            "reply", player=inc.sender_name or inc.sender,
            sections=[{"title": t, "text": x} for t, x in sections])
        what = ", ".join(t.lower() for t, _ in sections)
        self.queue(self.to_address("reply", inc.sender, f"Realm referee: {what}", body,
                                   token=token, inc=inc, auto="auto-replied"), row)

    def unknown(self, inc: Incoming, row: int) -> None:
        if not inc.sender:
            return
        body = letter("unknown", referee=self.referee, sender=inc.sender)
        self.queue(self.to_address("unknown-sender", inc.sender,
                                   "Realm referee: this address plays no game", body, inc=inc,
                                   auto="auto-replied"), row)

    def stranger(self, inc: Incoming, row: int) -> None:
        """Mail from an address that plays no game: answered politely, never acted on; with
        ``open_registration`` the answer carries a new key for the address (only its owner
        reads it) for player-level commands."""
        if self.options.open_registration and "@" in inc.sender:
            self.welcome(inc, row, accounts.ensure_account(self.conn, inc.sender))
        else:
            self.unknown(inc, row)

    def welcome(self, inc: Incoming, row: int, token: str) -> None:
        body = letter("welcome", referee=self.referee, sender=inc.sender, token=token)
        self.queue(self.to_address("welcome", inc.sender,
                                   "Realm referee: welcome (nothing was done yet)", body,
                                   token=token, inc=inc, auto="auto-replied"), row)

    # -- digests ---------------------------------------------------------------------------
    def _held(self, email: str, game: Game, subject: str, text: str) -> bool:
        """Hold a turn report for ``email``'s digest if he wants one; True if held."""
        if not accounts.wants_digest(self.conn, email):
            return False
        accounts.hold_report(self.conn, email, game.id, subject, text)
        return True

    def digest(self, email: str, now: datetime) -> int:
        """Queue one digest of everything held for ``email`` (inside the caller's
        transaction); the number of reports in it."""
        rows = accounts.held_reports(self.conn, email)
        if not rows:
            return 0
        # each game's board as it stands now, after its last report, from the reader's side
        last_of = {r["game_id"]: r["id"] for r in rows}
        boards: dict[int, MailBoard] = {}
        for game_id in last_of:
            game = games.load_game(self.conn, game_id)
            mine = [p for p in game.players.values() if p.email == email]
            boards[game_id] = self.board(game, mine[0].flip if mine else False,
                                         tag=f"g{game_id}-")
        body = letter("digest", reports=[
            {"subject": r["subject"], "text": r["text"], "game_id": r["game_id"],
             "pictured": boards[r["game_id"]].picture is not None,
             "board": boards[r["game_id"]].context() if last_of[r["game_id"]] == r["id"]
             else None}
            for r in rows])
        token = accounts.ensure_account(self.conn, email)
        day = now.date().isoformat()
        pictures = tuple(pic for b in boards.values() for pic in b.pictures)
        self.queue(Outgoing("digest", email, f"Realm referee: your digest for {day} "
                            f"({counted(len(rows), 'report', 'reports')})", body.text, body.html,
                            account_token=token, pictures=pictures, listed="digest"), None)
        accounts.digest_sent(self.conn, email, [r["id"] for r in rows], day)
        return len(rows)

    def due_digests(self, now: datetime) -> int:
        """``pbem tick``: one digest per player per UTC day, from the configured hour."""
        if now.hour < self.options.digest_hour:
            return 0
        day = now.date().isoformat()
        sent = 0
        for email in accounts.holding(self.conn):
            with transaction(self.conn):
                if accounts.digest_day(self.conn, email) == day:
                    continue
                sent += 1 if self.digest(email, now) else 0
        return sent
