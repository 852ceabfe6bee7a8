"""Where ``pbem poll`` gets its messages: any source of raw messages to acknowledge.

A source yields ``(key, raw bytes)`` and is told ``done(key)`` once the message
is handled and committed; a crash in between means the message is read again,
and the store's Message-ID check makes that harmless. A message that cannot be
read or handled is yielded as :class:`Unreadable` or fails in the referee; the
source is then told ``failed(key)`` and puts it aside (a Maildir's ``failed/``
folder; a flag on IMAP), so that it never stops the poll again. The Maildir
source and the IMAP one (over ``imap_source``) are here.
"""

from __future__ import annotations

import contextlib
import mailbox
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pbem.referee.config.imap import ImapSettings


class Unreadable(Exception):
    """A message the source has but cannot hand out (unreadable, or not a file)."""


class MessageSource(Protocol):
    def messages(self) -> Iterator[tuple[str, bytes | Unreadable]]: ...

    def name(self, key: str) -> str:
        """The message as the operator's log names it."""
        ...

    def done(self, key: str) -> None: ...

    def failed(self, key: str) -> str: ...

    def close(self) -> None: ...


_MAILDIR_NAME = re.compile(r"(\d+)\.(?:[^.]*?M(\d+))?(?:[^.]*?Q(\d+))?")


def open_source(maildir: Path, imap: ImapSettings | None,
                store: Path | str) -> MessageSource:
    """The IMAP folder when settings are given (its marks kept in ``store``), else the
    Maildir; a FileNotFoundError for a folder that is not a Maildir."""
    if imap is not None:
        return ImapMessageSource(imap, store)
    return MaildirSource(maildir)


def _arrival(path: Path) -> tuple[int, int, int, str]:
    """Arrival order: Maildir names start with the delivery second, and most writers add
    the microsecond (``M123456``) and a per-process counter (``Q12``); compare those as
    numbers, not text, or the tenth mail of a second would come before the second."""
    m = _MAILDIR_NAME.match(path.name)
    if m is None:
        return (0, 0, 0, path.name)
    return (int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0), path.name)


class MaildirSource:
    """Unseen mail in a Maildir: everything in ``new/``, and ``cur/`` files without ``S``.

    A handled message moves to ``cur/`` with the Seen flag (a rename: atomic).
    """

    def __init__(self, path: Path):
        if not (path / "new").is_dir() or not (path / "cur").is_dir():
            raise FileNotFoundError(f"{path} is not a Maildir (it needs new/ and cur/)")
        self.path = path

    def _unseen(self) -> list[Path]:
        found = []
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as it:
                for entry in it:
                    if entry.name.startswith("."):
                        continue
                    info = entry.name.partition(":2,")[2]
                    if sub == "cur" and "S" in info:
                        continue
                    found.append(Path(entry.path))
        return sorted(found, key=_arrival)

    def messages(self) -> Iterator[tuple[str, bytes | Unreadable]]:
        for path in self._unseen():
            try:
                info = os.lstat(path)
                if not stat.S_ISREG(info.st_mode):  # a FIFO would block, a folder fail
                    yield str(path), Unreadable("not a regular file")
                    continue
                raw = path.read_bytes()
            except FileNotFoundError:
                continue  # taken by another poll meanwhile
            except OSError as exc:
                yield str(path), Unreadable(exc.strerror or str(exc))
                continue
            yield str(path), raw

    def name(self, key: str) -> str:
        return Path(key).name

    def failed(self, key: str) -> str:
        """Move the message into the ``failed/`` Maildir beside ``new/`` and ``cur/``."""
        path = Path(key)
        target = self.path / "failed"
        mailbox.Maildir(str(target), create=True)
        with contextlib.suppress(FileNotFoundError):
            os.rename(path, target / "new" / path.name.partition(":2,")[0])
        return f"moved to {target / 'new'}"

    def done(self, key: str) -> None:
        path = Path(key)
        base, _, flags = path.name.partition(":2,")
        flags = "".join(sorted(set(flags + "S")))
        with contextlib.suppress(FileNotFoundError):
            os.rename(path, self.path / "cur" / f"{base}:2,{flags}")

    def close(self) -> None:
        pass


class ImapMessageSource:
    """New mail in an IMAP folder, each message once (see ``imap_source``).

    The IMAP marks live in their own connection to the store's database, so that
    marking a message never commits, or waits on, the referee's own transaction.
    """

    def __init__(self, settings: ImapSettings, db_path: Path | str):
        from pbem.referee.intake.imap_source import ImapSource
        from pbem.referee.store.imap import open_marks

        self._db = open_marks(db_path)
        self._source = ImapSource(settings, self._db)
        try:
            self._session = self._source.__enter__()
        except BaseException:
            self._db.close()
            raise

    def messages(self) -> Iterator[tuple[str, bytes | Unreadable]]:
        return self._session.messages()

    def name(self, key: str) -> str:
        return key

    def done(self, key: str) -> None:
        self._session.mark_handled(key)

    def failed(self, key: str) -> str:
        return self._session.mark_failed(key)

    def close(self) -> None:
        try:
            self._source.__exit__(None, None, None)
        finally:
            self._db.close()
