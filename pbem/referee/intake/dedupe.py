"""The same mail twice is handled once; a different mail with a used Message-ID is not.

A mail server may deliver a mail again (a retry after a crash, a second alias), and a
poll may fetch one again; the referee must then do nothing twice. But a Message-ID
is chosen by the sender, so a stranger can send his mail with the Message-ID of a
real turn before the turn arrives. So a mail counts as seen when one with the same
Message-ID *and* the same digest was handled before, and only when that one was
really handled: a refused mail sent again (say after the opponent's turn that it
was waiting for) is read again.

The store keeps the digest with the Message-ID and answers whether a mail was handled
before (``store.mail.handled_before``). The digest covers what the author wrote: the
body and the author's headers, not the trace headers (``Received``, ``Delivered-To``,
...) that each delivery adds.
"""

from __future__ import annotations

import hashlib

#: the headers that make a mail what it is; trace headers differ between deliveries
_AUTHOR_HEADERS = frozenset({
    b"from", b"sender", b"to", b"cc", b"subject", b"date", b"message-id", b"in-reply-to",
    b"references", b"mime-version", b"content-type", b"content-transfer-encoding",
})


def digest(raw: bytes) -> str:
    """SHA-256 of the body and the author's headers (line ends and folding normalised)."""
    text = raw.replace(b"\r\n", b"\n")
    head, _, body = text.partition(b"\n\n")
    kept: list[bytes] = []
    keep = False
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):  # a folded continuation belongs to the last header
            if keep:
                kept.append(b" " + line.strip())
            continue
        name = line.split(b":", 1)[0].strip().lower()
        keep = name in _AUTHOR_HEADERS
        if keep:
            kept.append(b"\n" + line.rstrip())
    h = hashlib.sha256()
    h.update(b"".join(kept))
    h.update(b"\n\n")
    h.update(body)
    return h.hexdigest()
