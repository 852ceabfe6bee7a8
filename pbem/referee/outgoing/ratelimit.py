"""Answers are rate limited: no stranger can make the referee mail anyone often.

An *answer* is a mail the referee sends because a mail came in (a refusal, a reply to
``help``, the note to an unknown address); turn reports, notices and results are not
answers, and need a mail that proved its key. Answers to mail that proved no key
(strangers, forged ``From`` lines) count as *stranger* answers: at most
``limits.stranger_answers_per_address`` to one address and
``limits.stranger_answers_per_day`` to all addresses together in 24 hours. All answers
together are limited per address and per game. An answer over a limit is not queued;
the game's log says so. The counts come from the outbox itself (``answer`` column, read
by ``store.mail``); the mailer asks before it queues an answer.

A mail loop (a player's auto-responder answering every refusal with the same mail) is cut
short sooner: the same refusal (its subject holds the reason) to the same address is sent at most
``SAME_ANSWERS_PER_DAY`` times in 24 hours; then the operator is told once and the referee
stays silent (issue 23, item 4).
"""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import default as default_policy

from pbem.referee.outgoing.limits import Limits
from pbem.referee.store.engine import Connection
from pbem.referee.store.mail import answers_of_kind_since, answers_since

DAY = 86_400.0
#: the same answer to the same address, at most this often a day (a mail loop beyond)
SAME_ANSWERS_PER_DAY = 2


def over_limit(conn: Connection, limits: Limits, recipient: str, game_id: int | None,
               stranger: bool, now: float) -> str | None:
    """Why this answer may not be sent now (a limit it would pass), or None."""
    since = now - DAY
    if stranger:
        if answers_since(conn, since, recipient=recipient,
                         stranger=True) >= limits.stranger_answers_per_address:
            return (f"{recipient} was answered today already (mail that proves no key is "
                    f"answered {limits.stranger_answers_per_address} time(s) a day)")
        if answers_since(conn, since, stranger=True) >= limits.stranger_answers_per_day:
            return (f"{limits.stranger_answers_per_day} mails that proved no key were "
                    "answered today already")
    if answers_since(conn, since, recipient=recipient) >= limits.answers_per_address:
        return f"{recipient} got {limits.answers_per_address} answers today already"
    if game_id is not None and answers_since(
        conn, since, game_id=game_id
    ) >= limits.answers_per_game:
        return f"game {game_id} got {limits.answers_per_game} answers today already"
    return None


def same_answers(conn: Connection, recipient: str, kind: str, subject: str,
                 now: float) -> int:
    """How often this answer (its kind, and its subject: the refusal's reason) went to
    ``recipient`` in the last 24 hours."""
    parser = BytesHeaderParser(policy=default_policy)
    found = 0
    for raw in answers_of_kind_since(conn, now - DAY, recipient, kind):
        sent = " ".join(str(parser.parsebytes(raw).get("Subject", "")).split())
        if " ".join(subject.split()) in sent:
            found += 1
    return found
