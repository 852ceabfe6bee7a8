"""The addresses mail comes back to by itself: bounces (VERP) and List-Unsubscribe.

Every mail goes out with its own return path, ``referee+bounce-TOKEN@domain``: a server
that cannot deliver it writes its report to that address, so the report names the mail
(and through it the player) even when it quotes nothing of it. An unsubscribe address,
``referee+unsub-r7-MAC@domain``, names a kind of mail (``d`` digest, ``r`` reminders,
``o`` observer copies) and a game. Both carry an HMAC under the referee's own secret
(kept in the store): a stranger who knows a player's address cannot make one that
marks him unreachable or stops his reminders.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from pbem.rules.values import frozen

#: the kinds of mail a List-Unsubscribe stops, by the letter its address carries
UNSUBSCRIBE_KINDS = {"d": "digest", "r": "reminder", "o": "observer"}
_LETTERS = {kind: letter for letter, kind in UNSUBSCRIBE_KINDS.items()}
_BOUNCE = re.compile(r"\+bounce-([a-z2-7]{16})@", re.I)
_UNSUB = re.compile(r"\+unsub-([dro])(\d{1,9})-([a-z2-7]{12})@", re.I)


def _mac(secret: bytes, text: str, length: int) -> str:
    digest = hmac.new(secret, text.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:length]


def bounce_token(secret: bytes, message_id: str) -> str:
    """The token of the mail ``message_id``: 16 base32 letters (80 bits)."""
    return _mac(secret, "bounce:" + message_id, 16)


def bounce_address(local: str, domain: str, token: str) -> str:
    return f"{local}+bounce-{token}@{domain}"


def unsubscribe_address(secret: bytes, local: str, domain: str, kind: str, game_id: int,
                        email: str) -> str:
    mac = _mac(secret, f"unsub:{kind}:{game_id}:{email.lower()}", 12)
    return f"{local}+unsub-{_LETTERS[kind]}{game_id}-{mac}@{domain}"


@frozen
class Unsubscribe:
    kind: str
    game_id: int
    mac: str

    def made_for(self, secret: bytes, email: str) -> bool:
        """Whether this address was made for ``email`` (in constant time)."""
        expected = _mac(secret, f"unsub:{self.kind}:{self.game_id}:{email.lower()}", 12)
        return hmac.compare_digest(expected, self.mac.lower())


def bounce_token_in(recipients: tuple[str, ...]) -> str | None:
    """The bounce token of the first return path among a mail's recipients."""
    for address in recipients:
        m = _BOUNCE.search(address)
        if m:
            return m.group(1).lower()
    return None


def token_matches(secret: bytes, message_id: str, token: str) -> bool:
    return hmac.compare_digest(bounce_token(secret, message_id), token)


def unsubscribe_in(recipients: tuple[str, ...]) -> Unsubscribe | None:
    for address in recipients:
        m = _UNSUB.search(address)
        if m:
            return Unsubscribe(UNSUBSCRIBE_KINDS[m.group(1).lower()], int(m.group(2)),
                               m.group(3).lower())
    return None
