"""Outgoing mail: headers that bring the reply back to the right game and player.

Every mail to a player carries that player's secret in the Reply-To plus-address
and the subject tag (see ``secrets_scheme``), a Message-ID fixed when it is
queued (so a retry is the same mail), and ``Auto-Submitted`` so that other
robots never answer it. Every mail is ``multipart/alternative``: plain text, and
HTML made from the same template with its CSS inlined; a turn report's HTML sits
in a ``multipart/related`` with the board as a PNG that it shows by ``cid:``
(Gmail and Outlook show no SVG).
"""

from __future__ import annotations

import email.policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid

from pbem.referee.config.home import Config
from pbem.referee.store.secrets_scheme import (
    account_address,
    account_tag,
    reply_address,
    subject_tag,
)
from pbem.rules.values import frozen


@frozen
class Picture:
    """An image the HTML part shows by ``cid:`` (the board as PNG)."""

    cid: str  # without the angle brackets: "board-11w@pbem"
    png: bytes
    filename: str = "board.png"
    #: the text the image stands for, in the HTML's alt attribute and the part's name
    description: str = "the board"


@frozen
class Attachment:
    """A file that goes with the mail (a turn report's deadline as .ics)."""

    data: bytes
    maintype: str
    subtype: str
    filename: str
    #: extra Content-Type parameters (``method=PUBLISH`` for a calendar)
    params: tuple[tuple[str, str], ...] = ()


@frozen
class Outgoing:
    kind: str  # invitation | report | refusal | reply | notice | result | unknown-sender
    recipient: str
    subject: str
    text: str
    html: str | None = None
    game_id: int | None = None
    side: str | None = None
    token: str | None = None
    #: the Message-ID of the player's mail this answers, and its References
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    auto: str = "auto-generated"
    #: the recipient's own key (player-level mail: challenges, vacations, digests)
    account_token: str | None = None
    #: images the HTML shows by cid: (a report's board)
    pictures: tuple[Picture, ...] = ()
    #: the kind of mail a List-Unsubscribe stops (digest | reminder | observer), or None
    listed: str | None = None
    attachments: tuple[Attachment, ...] = ()


def new_message_id(config: Config, game_id: int | None) -> str:
    return make_msgid(idstring=f"pbem.g{game_id or 0}", domain=config.domain)


def full_subject(out: Outgoing) -> str:
    if out.game_id is not None and out.side is not None and out.token is not None:
        return f"{subject_tag(out.game_id, out.side, out.token)} {out.subject}"
    if out.account_token is not None:
        return f"{account_tag(out.account_token)} {out.subject}"
    return out.subject


def list_id(config: Config, kind: str) -> str:
    """``List-Id`` of a kind of mail: ``Realm referee reminders <reminder.referee.host>``."""
    return f"{config.name} {kind}s <{kind}.{config.local_part}.{config.domain}>"


def build_mail(config: Config, out: Outgoing, message_id: str,
               unsubscribe: str | None = None) -> bytes:
    """The mail as it is queued (CRLF lines); ``unsubscribe``: the address its
    List-Unsubscribe names, for the mail kinds a player may stop (``out.listed``)."""
    msg = EmailMessage()
    msg["From"] = formataddr((config.name, config.address))
    msg["To"] = out.recipient
    if out.game_id is not None and out.side is not None and out.token is not None:
        plus = reply_address(config.local_part, config.domain, out.game_id, out.side, out.token)
        msg["Reply-To"] = str(Address(config.name, addr_spec=plus))
    elif out.account_token is not None:
        plus = account_address(config.local_part, config.domain, out.account_token)
        msg["Reply-To"] = str(Address(config.name, addr_spec=plus))
    msg["Subject"] = full_subject(out)
    msg["Date"] = formatdate(localtime=True)
    msg["Message-ID"] = message_id
    if out.in_reply_to:
        msg["In-Reply-To"] = out.in_reply_to
        refs = [*out.references[::-1][-8:], out.in_reply_to]
        msg["References"] = " ".join(dict.fromkeys(refs))
    msg["Auto-Submitted"] = out.auto
    msg["X-Auto-Response-Suppress"] = "All"  # Exchange: no out-of-office replies to robots
    if out.listed is not None:
        msg["List-Id"] = list_id(config, out.listed)
        if unsubscribe is not None:
            msg["List-Unsubscribe"] = f"<mailto:{unsubscribe}?subject=unsubscribe>"
    msg["X-Pbem-Kind"] = out.kind
    if out.game_id is not None:
        msg["X-Pbem-Game"] = str(out.game_id)
    msg.set_content(out.text, cte="quoted-printable")
    if out.html is not None:
        msg.add_alternative(out.html, subtype="html", cte="quoted-printable")
        if out.pictures:
            html_part = list(msg.iter_parts())[1]  # the HTML alternative just added
            for pic in out.pictures:
                html_part.add_related(
                    pic.png, "image", "png", cid=f"<{pic.cid}>", filename=pic.filename,
                    disposition="inline",
                )
    for att in out.attachments:
        msg.add_attachment(att.data, maintype=att.maintype, subtype=att.subtype,
                           filename=att.filename, params=dict(att.params))
    return msg.as_bytes(policy=email.policy.SMTP)  # CRLF: what SMTP DATA needs


def quote(text: str, limit: int = 6, width: int = 78) -> str:
    """The start of the player's message quoted back, as mail programs quote (``> ``): a
    few short lines, so that a reply is never as big as the mail (nor carries a forger's
    text to the player whose address he used)."""
    lines = text[: limit * 1000].rstrip("\n").splitlines()[:limit]
    shown = [("> " + (ln if len(ln) <= width - 2 else ln[: width - 3] + "…")).rstrip()
             for ln in lines]
    total = text.rstrip("\n").count("\n") + 1 if text.strip() else 0
    if total > len(lines):
        shown.append(f"> [... {total - len(lines)} more lines not quoted]")
    return "\n".join(shown)
