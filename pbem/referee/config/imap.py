"""The ``imap:`` section as ``pbem poll`` uses it: settings built from the checked values.

Every check of the section's keys is made once, as config.yaml is read (``checks.IMAP``,
with the file's line and the key's path). Two things the file alone cannot show wait
until the folder is about to be read, so that a command that never reads it (``pbem
mail`` from an MTA, ``pbem tick`` from cron) does not fail for them: the environment
variable ``password_env`` names, and the ``ca_file`` on disk. They are said in the same
words, ``config.yaml:14: imap.password_env: ...``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Literal, cast

from pbem.referee.config.checks import IMAP_PORTS, ConfigError
from pbem.referee.config.home import Config
from pbem.rules.values import frozen

TlsMode = Literal["ssl", "starttls", "none"]


@frozen
class ImapSettings:
    """Where the referee's mail is and how to mark it. A plain record: it checks nothing
    itself (``imap_settings`` builds it from the checked section)."""

    host: str
    user: str
    password: str = field(repr=False)
    port: int = 993
    folder: str = "INBOX"
    tls: TlsMode = "ssl"
    ca_file: Path | None = None
    verify: bool = True
    handled_flag: str = "$PbemHandled"
    move_to: str | None = None
    timeout: float = 30.0

    @property
    def where(self) -> str:
        """Host, port and user for error messages (never the password)."""
        return f"{self.host}:{self.port} as user {self.user!r}"

    @property
    def account(self) -> str:
        """Names the mailbox owner in the state table, so two servers never share marks."""
        return f"{self.user}@{self.host}:{self.port}"


def imap_settings(config: Config, *,
                  environ: Mapping[str, str] | None = None) -> ImapSettings | None:
    """The IMAP settings of ``config`` (None without an ``imap:`` section); the password
    from ``password_env``'s variable, and the ``ca_file`` there, are checked now."""
    imap = config.extra.get("imap")
    if imap is None:
        return None
    environ = os.environ if environ is None else environ
    if "password_env" in imap:
        name = imap["password_env"]
        password = environ.get(name, "")
        if not password:
            raise ConfigError(f"{config.at('imap.password_env')}: the environment variable "
                              f"{name} is not set or empty")
        if not password.isascii() or any(ord(c) < 32 or ord(c) == 127 for c in password):
            raise ConfigError(f"{config.at('imap.password_env')}: the password in {name} "
                              "has characters that IMAP's LOGIN cannot carry")
    else:
        password = imap["password"]
    ca_file = Path(imap["ca_file"]).expanduser() if "ca_file" in imap else None
    if ca_file is not None and not ca_file.is_file():
        raise ConfigError(f"{config.at('imap.ca_file')}: no such file: {ca_file}")
    tls = cast(TlsMode, imap["tls"])
    return ImapSettings(
        host=imap["host"], user=imap["user"], password=password,
        port=imap.get("port", IMAP_PORTS[tls]), folder=imap["folder"], tls=tls,
        ca_file=ca_file, verify=imap["verify"], handled_flag=imap["handled_flag"],
        move_to=imap.get("move_to"), timeout=imap["timeout"],
    )
