"""Who may move: per-player secrets carried by the referee's own mails.

Each player of each game has a random token. The referee's mails to that player
carry it twice: in the Reply-To plus-address (``referee+g7-w-k3x9qpma@host``) and
in the subject tag (``[realm g7-w-k3x9qpma]``). A plain reply brings one of them
back; a forger who only knows the player's address has neither. A player whose
mail program drops both can write ``key k3x9qpma`` on a line of the body.
"""

from __future__ import annotations

import re
import secrets

from pbem.rules.values import frozen

_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
TOKEN_LENGTH = 8
_TAG = re.compile(r"\[realm\s+g(\d+)-([wb])(?:-([a-z0-9]+))?\]", re.I)
_PLUS = re.compile(r"\+g(\d+)-([wb])-([a-z0-9]+)@", re.I)
#: the key itself; the words around it are read without a pattern (``\s*[:=]?\s*`` was
#: quadratic on a line of spaces)
_KEY = re.compile(r"[a-z0-9]{4,32}")


def new_token() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(TOKEN_LENGTH))


@frozen
class Claim:
    """A game, side and (maybe) secret named by a message."""

    game_id: int
    side: str
    token: str | None
    where: str  # "subject", "address", "body"


def subject_tag(game_id: int, side: str, token: str) -> str:
    return f"[realm g{game_id}-{side}-{token}]"


def reply_address(local: str, domain: str, game_id: int, side: str, token: str) -> str:
    return f"{local}+g{game_id}-{side}-{token}@{domain}"


def claims_in_subject(subject: str) -> list[Claim]:
    return [
        Claim(int(m.group(1)), m.group(2).lower(), (m.group(3) or "").lower() or None, "subject")
        for m in _TAG.finditer(subject)
    ]


def claims_in_addresses(addresses: tuple[str, ...]) -> list[Claim]:
    return [
        Claim(int(m.group(1)), m.group(2).lower(), m.group(3).lower(), "address")
        for a in addresses
        if (m := _PLUS.search(a))
    ]


def key_in_line(text: str) -> str | None:
    """The key of a ``key k3x9qpma`` line (also ``key: ...``, ``key=...``), or None."""
    words = text.strip()
    if len(words) > 60 or words[:3].lower() != "key":
        return None
    rest = words[3:].lstrip()
    if rest[:1] in (":", "="):
        rest = rest[1:].lstrip()
    return rest.lower() if _KEY.fullmatch(rest.lower()) else None


def same_token(a: str | None, b: str) -> bool:
    return a is not None and secrets.compare_digest(a.encode(), b.encode())


# -- a player's own key, for commands about him rather than one game ---------------------
_ACCOUNT_TAG = re.compile(r"\[realm\s+p-([a-z0-9]+)\]", re.I)
_ACCOUNT_PLUS = re.compile(r"\+p-([a-z0-9]+)@", re.I)


def account_tag(token: str) -> str:
    return f"[realm p-{token}]"


def account_address(local: str, domain: str, token: str) -> str:
    return f"{local}+p-{token}@{domain}"


def account_tokens(subject: str, addresses: tuple[str, ...]) -> list[str]:
    """Player keys named by a message's subject tag or reply address."""
    found = [m.group(1).lower() for m in _ACCOUNT_TAG.finditer(subject)]
    found += [m.group(1).lower() for a in addresses if (m := _ACCOUNT_PLUS.search(a))]
    return found
