"""New mail from an IMAP folder, each message handed out once, also across restarts.

How a message is handled at most once (and at least once):

* Each message's key is ``"{folder}:{uidvalidity}:{uid}"``: a UID is stable for
  as long as the folder's UIDVALIDITY stays the same, so the key survives
  restarts and reconnections.
* After handling, :meth:`ImapSession.mark_handled` sets ``\\Seen`` and a keyword
  flag (``$PbemHandled`` by default) on the server, optionally moves the message
  to another folder, and then records a high-water mark (the last UID below
  which every message is handled) in the ``imap_state`` table of the SQLite
  store.
* A poll searches ``UID n+1:*`` above the mark, skipping messages that already
  carry the flag (or ``\\Deleted``). If the folder's UIDVALIDITY changed (the
  folder was recreated), the old mark means nothing and the flag alone decides.
* Messages are fetched with ``BODY.PEEK[]``, so fetching does not set ``\\Seen``.
  A message fetched but never marked (a crash in between) has neither the flag
  nor a mark above it, so the next poll fetches it again: the referee dedupes on
  Message-ID, which makes that safe. Nothing is lost; a repeat is harmless.
* Several hosts polling one folder (a store on PostgreSQL): each message is handled
  by one host at a time. A host claims a message before fetching it (a lock of the
  database, held by its session: ``store.imap.claim``) and lets go only once it is
  flagged; a message another host holds is left to it (and this host's mark stays
  below it), and a claimed message is fetched with its flags, so that one another host
  flagged since the search is passed by. Without this both hosts would read a message
  each found unflagged: Message-ID dedupe makes a turn harmless twice, but a refused
  mail (read again by design: ``intake.dedupe``) would be answered twice.

Use::

    with ImapSource(imap_settings(config), store_db) as session:
        for key, raw in session.messages():
            handle(raw)                  # the referee's work, Message-ID dedupe included
            session.mark_handled(key)    # commits store_db

The source commits the SQLite connection it is given: once when it creates its
table, and after each mark, so a mark is durable before the next message.
"""

from __future__ import annotations

import imaplib
import re
import socket
import ssl
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from pbem.errors import PbemError
from pbem.referee.config.imap import ImapSettings
from pbem.referee.store import imap as imap_marks
from pbem.referee.store.engine import Connection

#: the keyword (beside \\Flagged) on a message that could not be handled: never fetched again
FAILED_FLAG = "$PbemFailed"

_UID = re.compile(rb"\bUID (\d+)")


def ssl_context(settings: ImapSettings) -> ssl.SSLContext:
    """Trust the system CAs, or only ``ca_file``; ``verify: false`` checks nothing."""
    context = ssl.create_default_context(
        cafile=str(settings.ca_file) if settings.ca_file is not None else None
    )
    if not settings.verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


def quote(name: str) -> str:
    """An IMAP quoted string: imaplib sends mailbox names as they are."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(data: Any) -> str:
    """The server's words from an imaplib error or response, for a message."""
    if isinstance(data, list | tuple):
        data = b" ".join(d for d in data if isinstance(d, bytes))
    if isinstance(data, bytes):
        data = data.decode("utf-8", "replace")
    return str(data).strip() or "no reason given"


class ImapSource:
    """Opens an IMAP session on the configured folder; ``with source as session:``.

    The SQLite connection (the referee's store) holds the ``imap_state`` table;
    :meth:`ImapSession.mark_handled` commits it.
    """

    def __init__(self, settings: ImapSettings, db: Connection) -> None:
        self.settings = settings
        self.db = db
        self._session: ImapSession | None = None

    def __enter__(self) -> ImapSession:
        imap_marks.ensure_marks(self.db)
        imap = connect(self.settings)
        try:
            self._session = ImapSession(self.settings, self.db, imap)
        except BaseException:
            _close(imap)
            raise
        return self._session

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._session is not None:
            _close(self._session.imap)
            self._session = None


def _close(imap: imaplib.IMAP4) -> None:
    """Log out; not CLOSE, which would expunge mail someone else marked deleted."""
    try:
        imap.logout()
    except (imaplib.IMAP4.error, OSError):
        with_socket = getattr(imap, "sock", None)
        if with_socket is not None:
            with_socket.close()


def connect(settings: ImapSettings) -> imaplib.IMAP4:
    """Connect, secure and log in; every failure is a ``PbemError`` naming host, port and user."""
    where = settings.where
    try:
        context = ssl_context(settings) if settings.tls != "none" else None
    except ssl.SSLError as exc:
        raise PbemError(
            f"IMAP server {where}: imap.ca_file {str(settings.ca_file)!r} is not a PEM file "
            f"of CA certificates ({exc.reason or exc})",
            code="imap.tls",
        ) from None
    except OSError as exc:
        raise PbemError(
            f"IMAP server {where}: cannot read imap.ca_file {str(settings.ca_file)!r}: "
            f"{_os_reason(exc)}",
            code="imap.tls",
        ) from None
    try:
        if settings.tls == "ssl":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                settings.host, settings.port, ssl_context=context, timeout=settings.timeout
            )
        else:
            imap = imaplib.IMAP4(settings.host, settings.port, timeout=settings.timeout)
    except ssl.SSLError as exc:
        raise PbemError(
            f"IMAP server {where}: TLS failed: {_ssl_reason(exc)}", code="imap.tls"
        ) from None
    except (OSError, imaplib.IMAP4.error) as exc:
        raise PbemError(
            f"cannot connect to IMAP server {where}: {_os_reason(exc)}", code="imap.connect"
        ) from None

    try:
        if settings.tls == "starttls":
            if "STARTTLS" not in imap.capabilities:
                raise PbemError(
                    f"IMAP server {where} does not offer STARTTLS; use tls: ssl",
                    code="imap.tls",
                )
            try:
                imap.starttls(ssl_context=context)
            except ssl.SSLError as exc:
                raise PbemError(
                    f"IMAP server {where}: STARTTLS failed: {_ssl_reason(exc)}", code="imap.tls"
                ) from None
        try:
            imap.login(settings.user, settings.password)
        except imaplib.IMAP4.abort as exc:
            raise PbemError(
                f"IMAP server {where} closed the connection at login: {_text(exc.args[0])}",
                code="imap.connect",
            ) from None
        except imaplib.IMAP4.error as exc:
            raise PbemError(
                f"IMAP server {where} refused the login: {_text(exc.args[0])}",
                code="imap.login",
            ) from None
        # Servers announce more after login (MOVE, UIDPLUS); imaplib keeps the first list.
        typ, data = imap.capability()
        if typ == "OK" and data and isinstance(data[-1], bytes):
            imap.capabilities = tuple(data[-1].decode("ascii", "replace").upper().split())
    except PbemError:
        _close(imap)
        raise
    except (OSError, imaplib.IMAP4.error) as exc:
        _close(imap)
        raise PbemError(
            f"IMAP server {where}: connection lost: {_os_reason(exc)}", code="imap.connect"
        ) from None
    return imap


def _ssl_reason(exc: ssl.SSLError) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (
            f"the server's certificate cannot be verified ({exc.verify_message}); "
            "set imap.ca_file to the CA that signed it"
        )
    return exc.reason or str(exc)


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, socket.gaierror):
        return f"unknown host ({exc.strerror})"
    if isinstance(exc, TimeoutError | socket.timeout):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return _text(exc.args[0] if exc.args else exc)


class ImapSession:
    """A logged-in connection with the folder selected: new messages in, handled marks out."""

    def __init__(self, settings: ImapSettings, db: Connection, imap: imaplib.IMAP4):
        self.settings = settings
        self.db = db
        self.imap = imap
        self.folder = settings.folder
        self.uidvalidity = self._select()
        #: UIDs handed out by the last poll and not yet marked; the mark stays below them
        self._open: set[int] = set()
        self._polled_up_to = 0
        #: UIDs this session has claimed (``store.imap.claim``) and not yet let go of
        self._claimed: set[int] = set()

    def _select(self) -> int:
        where = f"{self.settings.where}"
        try:
            typ, data = self.imap.select(quote(self.folder))
        except imaplib.IMAP4.readonly:
            raise PbemError(
                f"IMAP folder {self.folder!r} on {where} is read-only; "
                "the referee must be able to mark what it has handled",
                code="imap.folder",
            ) from None
        except (OSError, imaplib.IMAP4.error) as exc:
            raise self._lost(exc) from None
        if typ != "OK":
            raise PbemError(
                f"IMAP folder {self.folder!r} cannot be opened on {where}: {_text(data)}",
                code="imap.folder",
            )
        values = self.imap.untagged_responses.get("UIDVALIDITY") or [b""]
        try:
            last = values[-1]  # a literal (a pair) is no UIDVALIDITY either
            uidvalidity = int(last if isinstance(last, bytes) else b"")
        except ValueError:
            raise PbemError(
                f"IMAP server {where} gave folder {self.folder!r} no UIDVALIDITY",
                code="imap.server",
            ) from None
        flags = _text(self.imap.untagged_responses.get("PERMANENTFLAGS", []))
        self.keywords_allowed = "\\*" in flags or self.settings.handled_flag in flags.split()
        if self.settings.move_to is not None:
            self._check_target(self.settings.move_to)
        return uidvalidity

    def _check_target(self, name: str) -> None:
        """Refuse a missing move_to folder now, not after the first message is flagged."""
        try:
            typ, data = self.imap.status(quote(name), "(UIDVALIDITY)")
        except (OSError, imaplib.IMAP4.error) as exc:
            raise self._lost(exc) from None
        if typ != "OK":
            raise PbemError(
                f"IMAP folder {name!r} (imap.move_to) cannot be used on "
                f"{self.settings.where}: {_text(data)}",
                code="imap.folder",
            )

    def _lost(self, exc: BaseException) -> PbemError:
        if isinstance(exc, imaplib.IMAP4.abort | OSError):
            return PbemError(
                f"IMAP server {self.settings.where}: connection lost: {_os_reason(exc)}",
                code="imap.connect",
            )
        return PbemError(
            f"IMAP server {self.settings.where} refused a command on folder "
            f"{self.folder!r}: {_text(exc.args[0] if exc.args else exc)}",
            code="imap.server",
        )

    def _uid(self, command: str, *args: str) -> list[Any]:
        try:
            typ, data = self.imap.uid(command, *args)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise self._lost(exc) from None
        if typ != "OK":
            raise PbemError(
                f"IMAP server {self.settings.where} refused UID {command} on folder "
                f"{self.folder!r}: {_text(data)}",
                code="imap.server",
            )
        return data

    def last_handled(self) -> int | None:
        """The mark for this folder and UIDVALIDITY, or None when there is none yet."""
        return imap_marks.last_uid(self.db, self.settings.account, self.folder,
                                   self.uidvalidity)

    def key(self, uid: int) -> str:
        return f"{self.folder}:{self.uidvalidity}:{uid}"

    def new_uids(self) -> list[int]:
        """UIDs above the mark without the handled flag, oldest first."""
        last = self.last_handled() or 0
        criteria = ["UNDELETED"]
        if self.keywords_allowed:
            criteria += [f"UNKEYWORD {self.settings.handled_flag}", f"UNKEYWORD {FAILED_FLAG}"]
        data = self._uid("SEARCH", f"UID {last + 1}:*", *criteria)
        # "n+1:*" also matches the highest UID when it is below n+1 (RFC 3501 6.4.8)
        return sorted(u for u in (int(x) for x in b" ".join(data or [b""]).split()) if u > last)

    def messages(self) -> Iterator[tuple[str, bytes]]:
        """Yield ``(key, raw message)`` for each new message, fetched one at a time.

        A message that arrives while this runs is left for the next poll. A message
        expunged by someone else in the meantime is skipped. A message another host is
        handling is left to it; one another host flagged done since the search is
        passed by.
        """
        uids = self.new_uids()
        self._open = set(uids)
        self._polled_up_to = max(uids, default=self.last_handled() or 0)
        for uid in uids:
            if not imap_marks.claim(self.db, self.settings.account, self.folder,
                                    self.uidvalidity, uid):
                continue  # another host's now; still open here, so the mark stays below it
            self._claimed.add(uid)
            self._noop()  # see the flags other sessions set since the search
            data = self._uid("FETCH", str(uid), "(FLAGS BODY.PEEK[])")
            raw = _body(data, uid)
            if raw is None:
                self._release(uid)
                self._open.discard(uid)
                continue
            if _flags(data, uid) & self._done_flags():
                self._release(uid)
                self._passed(uid)
                continue
            yield self.key(uid), raw

    def _noop(self) -> None:
        try:
            self.imap.noop()
        except (OSError, imaplib.IMAP4.error) as exc:
            raise self._lost(exc) from None

    def _done_flags(self) -> set[str]:
        """The flags of a message some host is done with (handled, or set aside)."""
        if not self.keywords_allowed:
            return {"\\Deleted"}
        return {"\\Deleted", self.settings.handled_flag, FAILED_FLAG}

    def _release(self, uid: int) -> None:
        if uid in self._claimed:
            self._claimed.discard(uid)
            imap_marks.release(self.db, self.settings.account, self.folder,
                               self.uidvalidity, uid)

    def mark_handled(self, key: str) -> None:
        """Flag the message as handled on the server (and move it), then advance the mark."""
        uid = self._parse_key(key)
        flags = "\\Seen"
        if self.keywords_allowed:
            flags += " " + self.settings.handled_flag
        self._uid("STORE", str(uid), "+FLAGS.SILENT", f"({flags})")
        if self.settings.move_to is not None:
            self._move(uid)
        self._passed(uid)
        self._release(uid)  # flagged (or moved): another host that claims it now passes it

    def mark_failed(self, key: str) -> str:
        """Flag a message that could not be handled (``\\Flagged`` and ``$PbemFailed``) and
        pass it by, so that the operator sees it in the folder and no poll fetches it again."""
        uid = self._parse_key(key)
        flags = "\\Flagged"
        if self.keywords_allowed:
            flags += " " + FAILED_FLAG
        self._uid("STORE", str(uid), "+FLAGS.SILENT", f"({flags})")
        self._passed(uid)
        self._release(uid)
        return f"flagged {flags} in {self.folder!r}"

    def _passed(self, uid: int) -> None:
        """Move the high-water mark over a message that is done with (handled or failed)."""
        self._open.discard(uid)
        if uid > self._polled_up_to:
            return  # not from the last poll: flagged, and the next poll will see the rest
        mark = min(self._open) - 1 if self._open else self._polled_up_to
        if mark > 0:
            imap_marks.raise_mark(self.db, self.settings.account, self.folder,
                                  self.uidvalidity, mark)

    def _move(self, uid: int) -> None:
        target = quote(self.settings.move_to or "")
        if "MOVE" in self.imap.capabilities:
            self._uid("MOVE", str(uid), target)
            return
        self._uid("COPY", str(uid), target)
        self._uid("STORE", str(uid), "+FLAGS.SILENT", "(\\Deleted)")
        if "UIDPLUS" in self.imap.capabilities:
            self._uid("EXPUNGE", str(uid))

    def _parse_key(self, key: str) -> int:
        folder, _, rest = key.rpartition(":")
        folder, _, validity = folder.rpartition(":")
        if folder != self.folder or validity != str(self.uidvalidity) or not rest.isdigit():
            raise PbemError(
                f"message key {key!r} does not belong to folder {self.folder!r} "
                f"with UIDVALIDITY {self.uidvalidity}; it was not handed out by this session",
                code="imap.key",
            )
        return int(rest)


def _body(data: list[Any], uid: int) -> bytes | None:
    """The message bytes from a ``UID FETCH (BODY.PEEK[])`` answer, or None if it is gone.

    The answer may also hold unsolicited FETCH lines about other messages; only the
    one with this UID and a body counts.
    """
    for item in data or []:
        if isinstance(item, tuple) and len(item) == 2 and b"BODY[]" in item[0]:
            found = _UID.search(item[0])
            if found is not None and int(found.group(1)) == uid:
                return bytes(item[1])
    return None


def _flags(data: list[Any], uid: int) -> set[str]:
    """The flags in a ``UID FETCH (FLAGS BODY.PEEK[])`` answer for this UID (the
    parenthesised list after ``FLAGS``, before or after the body's literal)."""
    for n, item in enumerate(data or []):
        if not (isinstance(item, tuple) and len(item) == 2 and b"BODY[]" in item[0]):
            continue
        found = _UID.search(item[0])
        if found is None or int(found.group(1)) != uid:
            continue
        after = data[n + 1] if n + 1 < len(data) and isinstance(data[n + 1], bytes) else b""
        for text in (item[0], after):
            start = text.find(b"FLAGS (")
            if start >= 0:
                end = text.find(b")", start)
                return set(text[start + 7:end].decode("ascii", "replace").split())
    return set()
