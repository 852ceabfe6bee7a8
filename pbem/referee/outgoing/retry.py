"""What a failed delivery means: give the mail up, try it again later, or reconnect.

A mail server's answer says whether trying again can help. ``5xx`` to a recipient
(``550`` no such user) or to a message (``552`` too big) is final for that mail
alone: it is marked failed with the server's words and the others go on. ``4xx``
and a lost connection are temporary: the mail is tried again after a delay that
doubles each time, up to a number of attempts. Refusals of our own sender address
or of our login are the referee's configuration, not the mail's: retried, never
final, so that fixing the configuration sends everything.
"""

from __future__ import annotations

import smtplib
import ssl

from pbem.referee.outgoing.limits import Limits
from pbem.rules.values import frozen


class ConnectFailed(Exception):
    """The mail server could not be reached or would not let us in: nothing can go now."""

    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


@frozen
class Verdict:
    permanent: bool  # no retry can help this mail
    reconnect: bool  # the connection is gone: the next mail needs a new one
    words: str  # what went wrong, in the server's words where it gave some


def _text(message: bytes | str) -> str:
    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
    return " ".join(text.split())[:300]


def judge(exc: BaseException) -> Verdict:
    """The verdict on one mail's failed delivery."""
    if isinstance(exc, ConnectFailed):
        return Verdict(False, True, f"cannot connect: {judge(exc.cause).words}")
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        answers = list(exc.recipients.items())
        words = "; ".join(f"{rcpt}: {code} {_text(msg)}" if len(answers) > 1
                          else f"{code} {_text(msg)}" for rcpt, (code, msg) in answers)
        final = bool(answers) and all(code >= 500 for _, (code, _) in answers)
        return Verdict(final, False, words or "every recipient refused")
    if isinstance(exc, smtplib.SMTPSenderRefused):
        # 552 at MAIL FROM is the SIZE check: this message is too big. Anything else is
        # about the referee's own address: its configuration.
        final = exc.smtp_code == 552
        return Verdict(final, False, f"{exc.smtp_code} {_text(exc.smtp_error)}")
    if isinstance(exc, smtplib.SMTPDataError):
        return Verdict(exc.smtp_code >= 500, False, f"{exc.smtp_code} {_text(exc.smtp_error)}")
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return Verdict(False, True, f"connection lost: {_text(str(exc))}")
    if isinstance(exc, smtplib.SMTPResponseException):
        return Verdict(False, True, f"{exc.smtp_code} {_text(exc.smtp_error)}")
    if isinstance(exc, ssl.SSLError | OSError | smtplib.SMTPException):
        return Verdict(False, True, f"{type(exc).__name__}: {_text(str(exc))}")
    return Verdict(False, True, f"{type(exc).__name__}: {_text(str(exc))}")


def retry_delay(attempts: int, limits: Limits) -> float:
    """Seconds to wait after the ``attempts``-th failed attempt: doubling, capped."""
    return float(min(limits.retry_seconds * 2 ** min(max(attempts - 1, 0), 30),
                     limits.retry_max_seconds))
