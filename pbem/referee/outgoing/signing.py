"""DKIM: the referee's signature on every mail it queues, and the DNS records to publish.

Gmail, Yahoo (2024) and Outlook (2025) turn away or file as spam mail from a busy sender
that proves nothing, and a report in the spam folder is a report never read: with a
``dkim:`` section in config.yaml every mail is signed (``dkimpy``) when it is built and
queued, so the copy in the outbox Maildir carries the same signature the SMTP server
passes on. The key is read once per process (a mail handled signs a few mails), and
dkimpy is imported only when a mail is signed: with dnspython it takes a quarter of a
second to import, more than all the rest of ``pbem mail``.

``check_dkim`` is ``pbem check-mail``'s offline check: the key readable and at least 2048
bits, selector and domain set, the From domain the signing domain (DMARC's alignment),
and the TXT records to publish for SPF, DKIM and DMARC.
"""

from __future__ import annotations

import base64
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from pbem.referee.config.home import DkimSettings
from pbem.rules.values import frozen

#: what is signed, when present: what a reader sees and what threads and routes it
SIGNED_HEADERS = (
    b"from", b"to", b"subject", b"date", b"message-id", b"reply-to", b"in-reply-to",
    b"references", b"auto-submitted", b"list-id", b"list-unsubscribe", b"mime-version",
    b"content-type",
)
MIN_BITS = 2048
_SELECTOR = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")


class SigningError(Exception):
    """The DKIM key cannot be used: the words say why, for ``check-mail`` and stderr."""


@frozen
class DkimKey:
    pem: bytes
    bits: int
    #: the public key as DNS publishes it (SubjectPublicKeyInfo, base64)
    public: str


@functools.lru_cache(maxsize=4)
def _load(path: str, mtime_ns: int) -> DkimKey:
    try:
        pem = Path(path).read_bytes()
    except OSError as exc:
        raise SigningError(f"cannot read the DKIM key {path}: {exc.strerror or exc}") from None
    import dkim.crypto

    try:
        key = dkim.crypto.parse_pem_private_key(pem)
    except Exception as exc:  # dkimpy raises several kinds for a file that is no key
        raise SigningError(f"{path} is not a PEM RSA private key ({exc})") from None
    modulus, exponent = key["modulus"], key["publicExponent"]
    return DkimKey(pem, modulus.bit_length(),
                   base64.b64encode(public_key_info(modulus, exponent)).decode())


def load_key(settings: DkimSettings) -> DkimKey:
    """The key (cached while its file is unchanged)."""
    try:
        mtime = settings.key_file.stat().st_mtime_ns
    except OSError as exc:
        raise SigningError(f"cannot read the DKIM key {settings.key_file}: "
                           f"{exc.strerror or exc}") from None
    return _load(str(settings.key_file), mtime)


def sign(raw: bytes, settings: DkimSettings) -> bytes:
    """``raw`` with a ``DKIM-Signature`` header on top (relaxed/relaxed, rsa-sha256)."""
    import dkim

    key = load_key(settings)
    present = {line.split(b":", 1)[0].strip().lower()
               for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n") if b":" in line
               and not line[:1].isspace()}
    headers = [h for h in SIGNED_HEADERS if h in present]
    signature = dkim.sign(raw, settings.selector.encode(), settings.domain.encode(), key.pem,
                          canonicalize=(b"relaxed", b"relaxed"), include_headers=headers,
                          linesep=b"\r\n")
    return signature + raw


# -- DER, just enough to publish the public key --------------------------------------------
def _der(tag: int, body: bytes) -> bytes:
    n = len(body)
    if n < 0x80:
        return bytes([tag, n]) + body
    size = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(size)]) + size + body


def _integer(value: int) -> bytes:
    body = value.to_bytes(value.bit_length() // 8 + 1, "big")  # a leading 0: positive
    return _der(0x02, body)


def public_key_info(modulus: int, exponent: int) -> bytes:
    """The RSA public key as X.509 SubjectPublicKeyInfo DER (what DKIM's ``p=`` holds)."""
    rsa = _der(0x30, _integer(modulus) + _integer(exponent))
    algorithm = _der(0x30, _der(0x06, bytes.fromhex("2a864886f70d010101")) + _der(0x05, b""))
    return _der(0x30, algorithm + _der(0x03, b"\x00" + rsa))


# -- pbem check-mail -----------------------------------------------------------------------
@dataclass
class MailCheck:
    problems: list[str]
    #: (name, type, value) records to publish in DNS
    records: list[tuple[str, str, str]]
    notes: list[str]

    def lines(self, from_address: str, domain: str) -> list[str]:
        """The check as ``pbem check-mail`` prints it: the problems (or that mail from
        ``from_address`` is signed for ``domain``), the DNS records, then the notes."""
        lines = [f"problem: {problem}" for problem in self.problems]
        if not self.problems:
            lines.append(f"ok: mail from {from_address} is DKIM-signed for {domain}")
        lines += ["", "Publish in DNS:"]
        lines += [f"{name}. IN {kind} \"{value}\"" for name, kind, value in self.records]
        lines.append("")
        lines += [f"note: {note}" for note in self.notes]
        return lines


def check_dkim(settings: DkimSettings | None, from_address: str,
               smtp_host: str | None) -> MailCheck:
    """What is wrong with the signing set-up, and what DNS must say; nothing is looked up."""
    domain = from_address.rsplit("@", 1)[-1].lower()
    check = MailCheck([], [], [])
    spf = "v=spf1 mx -all" if smtp_host is None else f"v=spf1 mx a:{smtp_host} -all"
    check.records.append((domain, "TXT", spf))
    check.notes.append(
        "SPF: list every server that sends the referee's mail (the TXT above assumes the "
        "domain's MX" + (f" and {smtp_host}" if smtp_host else "") + "); the bounce "
        "address (referee+bounce-...@" + domain + ") is on the same domain, so SPF checks "
        "the same record")
    if settings is None:
        check.problems.append("no dkim: section in config.yaml: mail goes out unsigned, and "
                              "Gmail, Yahoo and Outlook may refuse it or file it as spam")
    else:
        if not settings.domain or "." not in settings.domain:
            check.problems.append(f"dkim.domain {settings.domain!r} is not a domain name")
        if not _SELECTOR.fullmatch(settings.selector or ""):
            check.problems.append(f"dkim.selector {settings.selector!r} is not a DNS label")
        try:
            key = load_key(settings)
        except SigningError as exc:
            check.problems.append(str(exc))
        else:
            if key.bits < MIN_BITS:
                check.problems.append(
                    f"the DKIM key {settings.key_file} has {key.bits} bits: use at least "
                    f"{MIN_BITS} (openssl genpkey -algorithm RSA -pkeyopt "
                    "rsa_keygen_bits:2048 -out dkim.pem)")
            check.records.append((f"{settings.selector}._domainkey.{settings.domain}", "TXT",
                                  f"v=DKIM1; k=rsa; p={key.public}"))
        if settings.domain.lower() != domain and not domain.endswith("." + settings.domain
                                                                     .lower()):
            check.problems.append(
                f"the From address {from_address} is not on the DKIM domain "
                f"{settings.domain}: DMARC needs them to match (sign as {domain})")
    check.records.append((f"_dmarc.{domain}", "TXT",
                          f"v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:postmaster@"
                          f"{domain}"))
    check.notes.append("DMARC: start with p=none while you read the reports sent to rua, "
                       "then p=quarantine")
    return check
