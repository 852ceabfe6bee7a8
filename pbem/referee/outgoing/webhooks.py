"""Webhooks: a small JSON POST to a player's or an organiser's URL (Discord, Slack,
Matrix bridges), made carefully because the URL comes from mail.

- ``https:`` only; plain ``http:`` only to a loopback address and only with
  ``webhooks: {allow_loopback: true}`` (tests, a local bridge). No user name or password
  in the URL, nothing shaped like an e-mail address anywhere in it, at most 500 chars.
- The host is resolved first and **every** address it resolves to must be public
  (``ipaddress.is_global``): no loopback, private, link-local (cloud metadata),
  multicast or reserved range; the connection then goes to the address that was
  checked (a second lookup could answer otherwise), TLS still verifying the name.
- Time-limited (``webhooks.timeout``, 5 s), redirects not followed, the answer not read
  beyond its status. A 2xx is done; 408, 429 and 5xx, a timeout or a refused connection
  are tried again later; anything else (a 404, an address refused) fails for good.

The body never carries an e-mail address: the game's name, the turn, the side and a
player's chosen name (only when it has no ``@``), the deadline and the live page.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import re
import socket
import ssl
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from pbem.rules.values import frozen

MAX_URL = 500
#: (host, port) -> the addresses it resolves to; tests pass a stub
Resolver = Callable[[str, int], Sequence[str]]
_ADDRESS = re.compile(r"[^\s@]{1,64}@[^\s@]+")


class HookFailed(Exception):
    """A call that did not succeed: ``permanent`` when trying again cannot help."""

    def __init__(self, words: str, permanent: bool) -> None:
        super().__init__(words)
        self.words, self.permanent = words, permanent


@frozen
class HookSettings:
    allow_loopback: bool = False
    timeout: float = 5.0


def check_url(url: str, settings: HookSettings) -> str | None:
    """Why ``url`` may not be a webhook (in the player's words), or None."""
    if len(url) > MAX_URL:
        return f"a webhook URL may have at most {MAX_URL} characters"
    if any(c.isspace() or ord(c) < 32 for c in url):
        return "a webhook URL has no spaces"
    if "@" in url:
        return "a webhook URL may not carry a user name or an e-mail address"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "that is not a URL"
    if not parts.hostname:
        return "a webhook URL names a host (https://host/path)"
    if parts.scheme == "http":
        if not settings.allow_loopback or not _is_loopback_literal(parts.hostname):
            return "a webhook URL must start with https://"
    elif parts.scheme != "https":
        return "a webhook URL must start with https://"
    if port == 0:
        return "that is not a URL"
    return None


def _is_loopback_literal(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def allowed_address(address: str, settings: HookSettings) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return settings.allow_loopback
    return ip.is_global and not ip.is_multicast


def checked_addresses(host: str, port: int, settings: HookSettings,
                      resolver: Resolver) -> list[str]:
    """The addresses of ``host``, each one allowed; HookFailed when any one is not."""
    try:
        addresses = list(resolver(host, port))
    except (OSError, UnicodeError) as exc:
        raise HookFailed(f"cannot resolve {host}: {exc}", permanent=False) from None
    if not addresses:
        raise HookFailed(f"{host} has no address", permanent=False)
    refused = [a for a in addresses if not allowed_address(a, settings)]
    if refused:
        raise HookFailed(f"{host} resolves to {refused[0]}, a loopback, private or reserved "
                         "address: webhooks go to public addresses only", permanent=True)
    return addresses


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        context = ssl.create_default_context()
        self.sock = context.wrap_socket(raw, server_hostname=self.host)


def call(url: str, body: bytes, settings: HookSettings,
         resolver: Resolver = system_resolver) -> int:
    """POST ``body`` (JSON) to ``url``; its HTTP status, or HookFailed."""
    why = check_url(url, settings)
    if why is not None:
        raise HookFailed(why, permanent=True)
    parts = urlsplit(url)
    host = parts.hostname or ""
    secure = parts.scheme == "https"
    port = parts.port or (443 if secure else 80)
    addresses = checked_addresses(host, port, settings, resolver)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kind = _PinnedHTTPSConnection if secure else _PinnedHTTPConnection
    conn = kind(host, port, addresses[0], settings.timeout)
    try:
        conn.request("POST", path, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "pbem-referee"})
        status = conn.getresponse().status
    except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
        raise HookFailed(f"{type(exc).__name__}: {exc}", permanent=False) from None
    finally:
        conn.close()
    if 200 <= status < 300:
        return status
    again = status in (408, 429) or status >= 500
    raise HookFailed(f"HTTP {status}", permanent=not again)


def without_addresses(text: str) -> str:
    return _ADDRESS.sub("[address]", text)


def hook_body(event: str, game_id: int, name: str, turn: str | None, to_move: str | None,
              deadline: str | None, url: str | None, text: str) -> bytes:
    """The JSON every hook gets: the fields, and ``content`` (Discord) and ``text`` (Slack,
    Matrix bridges) with the same sentence."""
    text = without_addresses(text)
    return json.dumps({
        "event": event, "game": game_id, "name": without_addresses(name), "turn": turn,
        "to_move": None if to_move is None else without_addresses(to_move),
        "deadline": deadline, "url": url, "content": text, "text": text,
    }, sort_keys=True).encode()
