"""``pbem poll``: every new message of a source (a Maildir, an IMAP folder), each handled
by ``Referee.handle`` in its own transaction and marked done once committed.

One mail that cannot be read or handled is put aside by its source (a Maildir's
``failed/``, a flag on IMAP) and the poll goes on, so that one bad mail never blocks the
others; a store that cannot be written stops the poll, since every mail after it would
fail alike: they stay where they are for the next poll. What happened to each mail set
aside is told as it happens (``tell``), for the operator's log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.errors import PbemError
from pbem.referee.entry.overview import poll_line
from pbem.referee.entry.service import Referee
from pbem.referee.intake.inbox import looks_like_mail
from pbem.referee.intake.sources import MessageSource, Unreadable
from pbem.referee.store.engine import DB_ERRORS


@dataclass(slots=True)
class PollRun:
    """What one poll did: the handled mails by outcome, those not handled, and whether
    the store stopped it (the rest wait for the next poll)."""

    outcomes: dict[str, int] = field(default_factory=dict)
    not_handled: int = 0
    stopped: bool = False

    @property
    def summary(self) -> str:
        """The count the poll ends with (``pbem.referee.entry.overview.poll_line``)."""
        return poll_line(self.outcomes, self.not_handled)


def poll(referee: Referee, source: MessageSource, tell: Callable[[str], None]) -> PollRun:
    """Handle every new message of ``source``, then close it; ``tell`` hears one line for
    each mail not handled (``NAME: not handled (WHY); WHERE IT WENT``)."""
    run = PollRun()
    try:
        for key, raw in source.messages():
            name = source.name(key)
            try:
                if isinstance(raw, Unreadable):
                    raise raw
                if not looks_like_mail(raw):  # what `pbem mail` refuses is put aside
                    raise Unreadable("not an email message (it has no header lines)")
                handled = referee.handle(raw)
            except DB_ERRORS as exc:  # the store, not the mail: all wait
                tell(f"{name}: not handled, left for the next poll: {exc}")
                run.not_handled += 1
                run.stopped = True
                break
            except Exception as exc:  # this mail alone: put aside, and go on with the next
                run.not_handled += 1
                where = source.failed(key)
                words = str(exc) if isinstance(exc, PbemError | Unreadable) else (
                    f"{type(exc).__name__}: {exc}")
                tell(f"{name}: not handled ({words}); {where}")
                continue
            source.done(key)
            run.outcomes[handled.outcome] = run.outcomes.get(handled.outcome, 0) + 1
    finally:
        source.close()
    return run
