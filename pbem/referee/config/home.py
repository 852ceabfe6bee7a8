"""The referee's data folder (``$PBEM_HOME``) and its YAML configuration.

Everything a referee keeps lives under one folder, so a backup is one copy and a
test is one temporary directory: ``config.yaml``, ``pbem.sqlite`` (the store),
``outbox/`` (a Maildir of sent mail when no SMTP server is configured) and
``inbox/`` (the Maildir ``pbem poll`` reads by default).
"""

from __future__ import annotations

import os
from dataclasses import field
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.referee.config.checks import SCHEMA, ConfigError, check_config
from pbem.rules.values import frozen

DEFAULT_HOME = "pbem-home"
CONFIG_NAME = "config.yaml"


@frozen
class SmtpSettings:
    host: str
    port: int = 25
    #: upgrade the connection with STARTTLS (port 587)
    starttls: bool = False
    #: TLS from the first byte (port 465)
    ssl: bool = False
    username: str | None = None
    password: str | None = None
    timeout: float = 30.0
    #: certificates to trust instead of the system's (a private CA)
    ca_file: str | None = None


@frozen
class DkimSettings:
    """``dkim:``: every mail is signed for ``domain`` with the key ``key_file`` (PEM), whose
    public half DNS publishes at ``SELECTOR._domainkey.DOMAIN``."""

    domain: str
    selector: str
    key_file: Path


@frozen
class Config:
    #: the referee's own address; players' replies come back to plus-addresses of it
    address: str = "referee@localhost"
    name: str = "Realm referee"
    smtp: SmtpSettings | None = None
    #: the Maildir ``pbem poll`` reads when given none
    inbox: str = "inbox"
    ruleset: str = "featured"
    #: DKIM signing of every mail (None: mail goes out unsigned)
    dkim: DkimSettings | None = None
    #: the other sections and keys, checked (clock, vacation, challenges, observers, ...)
    extra: dict[str, Any] = field(default_factory=dict)
    #: the file, and the line of every key in it (``smtp.port``), for later errors
    source: str = CONFIG_NAME
    lines: dict[str, int] = field(default_factory=dict)

    def at(self, key: str) -> str:
        """Where a key stands, for an error message: ``config.yaml:12: clock``."""
        line = self.lines.get(key)
        return f"{self.source}:{line}: {key}" if line else f"{self.source}: {key}"

    @property
    def local_part(self) -> str:
        return self.address.rsplit("@", 1)[0]

    @property
    def domain(self) -> str:
        return self.address.rsplit("@", 1)[1] if "@" in self.address else "localhost"

    def is_own(self, email: str) -> bool:
        """Whether ``email`` is the referee's own address (or a plus-address of it)."""
        local, _, domain = email.partition("@")
        return domain == self.domain and local.split("+")[0] == self.local_part


def home_path(explicit: str | None = None) -> Path:
    return Path(explicit or os.environ.get("PBEM_HOME") or DEFAULT_HOME)


DEFAULT_CONFIG = """\
# pbem referee configuration. Everything else lives beside this file.
referee:
  # the address players write to; replies go to plus-addresses of it
  # (referee+g7-w-k3x9qpma@example.org), so the mail server must deliver those too
  address: {address}
  name: Realm referee
# the ruleset of new games when `pbem new` names none
ruleset: featured
# the Maildir that `pbem poll` reads when given none (relative to this folder)
inbox: inbox
# the time control of games started by `pbem new` or a challenge ("none": no clock):
# days N | bank R+I [cap C], then forfeit | claim, remind F/D (hours)
clock: days 3, claim, remind 24/12
vacation:
  days_per_year: 30       # vacation days per player per calendar year
  max_ahead_days: 365
challenges:
  open_registration: false  # true: a mail from an unknown address registers it
  max_open: 3             # open challenges per player
  max_games: 10           # games in play per player
observers: true           # any known player may observe any game
tournaments:
  entries: anyone         # 'join EVENT' by mail: anyone with a key; known: players only
digest_hour: 18           # UTC hour from which `pbem tick` sends the daily digests
case_repairs: false       # true: play 'bh2' as 'Bh2' (said in the report); never i for l
public_messages: false    # true: a finished game's public record keeps the players' 'say'
# The live web site of the games (pages rewritten after every run; no address ever on it):
# site:
#   path: /var/www/realm            # relative paths are under this folder
#   url: https://realm.example/club # the reports link to URL/games/game-N.html
#   title: Club games               # the index's title and the records' event
# Who is told of a mail the mail server refused for good, or of a mail loop (the same
# refusal twice a day to one address), besides stderr and the game's log:
# operator: admin@example.org
# What a mail, an address, a game and a day can make the referee send (defaults shown):
# limits:
#   stranger_answers_per_address: 1   # a day, to mail that proves no key
#   stranger_answers_per_day: 100     # all such answers together
#   answers_per_address: 30           # refusals and replies to one address, a day
#   answers_per_game: 60
#   quote_lines: 6                    # of the player's mail, in a refusal
#   quote_width: 78
#   reply_chars: 100000
#   subject_chars: 80
#   delivery_attempts: 10             # then a mail that fails for now is given up
#   retry_seconds: 300                # doubling after each attempt
#   retry_max_seconds: 21600
# Outgoing mail. Without an smtp section, mail goes into the outbox/ Maildir here.
# smtp:
#   host: smtp.example.org
#   port: 587
#   starttls: true        # or ssl: true for port 465
#   username: referee@example.org
#   password: secret      # or set PBEM_SMTP_PASSWORD in the environment
#   ca_file: /etc/ssl/private-ca.pem   # only for a server with a private CA
"""


def parse_config(text: str, where: str = CONFIG_NAME) -> Config:
    """The configuration in ``text``, checked against the schema (``config_schema``)."""
    data, lines = check_config(text, SCHEMA, where)
    referee = data["referee"]
    smtp = None
    raw = data.get("smtp")
    if raw is not None:
        password = raw.get("password") or os.environ.get("PBEM_SMTP_PASSWORD")
        smtp = SmtpSettings(
            host=raw["host"],
            port=raw.get("port", 465 if raw["ssl"] else 25),
            starttls=raw["starttls"],
            ssl=raw["ssl"],
            username=raw.get("username"),
            password=password or None,
            timeout=raw["timeout"],
            ca_file=raw.get("ca_file"),
        )
    dkim = None
    if data.get("dkim") is not None:
        raw_dkim = data["dkim"]
        key_file = Path(raw_dkim["key_file"]).expanduser()
        if not key_file.is_absolute():
            key_file = Path(where).parent / key_file
        dkim = DkimSettings(raw_dkim["domain"].strip().lower(), raw_dkim["selector"].strip(),
                            key_file)
    known = {"referee", "smtp", "inbox", "ruleset", "dkim"}
    return Config(
        address=referee["address"].strip(),
        name=referee["name"],
        smtp=smtp,
        inbox=data["inbox"],
        ruleset=data["ruleset"],
        dkim=dkim,
        extra={k: v for k, v in data.items() if k not in known},
        source=where,
        lines=lines,
    )


@frozen
class Home:
    """The data folder and what lives in it."""

    root: Path

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def db_path(self) -> Path:
        return self.root / "pbem.sqlite"

    def store_target(self, config: Config) -> Path | str:
        """Where the store is: config.yaml's ``store:`` URL (PostgreSQL), else the SQLite
        file beside it."""
        url = config.extra.get("store")
        return str(url) if url else self.db_path

    @property
    def outbox_path(self) -> Path:
        return self.root / "outbox"

    def inbox_path(self, config: Config) -> Path:
        return self.root / config.inbox

    def exists(self) -> bool:
        return self.config_path.is_file()

    def load_config(self) -> Config:
        if not self.exists():
            raise UsageError(
                f"{self.root} is not a referee's home (no {CONFIG_NAME}): run `pbem init` "
                "first, or set PBEM_HOME"
            )
        try:
            text = self.config_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read {self.config_path}: {exc}") from None
        return parse_config(text, str(self.config_path))
