"""The referee's data folder (``$PBEM_HOME``) and its YAML configuration.

Everything a referee keeps lives under one folder, so a backup is one copy and a
test is one temporary directory: ``config.yaml``, ``pbem.sqlite`` (the store),
``outbox/`` (a Maildir of sent mail when no SMTP server is configured) and
``inbox/`` (the Maildir ``pbem poll`` reads by default).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import PbemError, UsageError

DEFAULT_HOME = "pbem-home"
CONFIG_NAME = "config.yaml"


class ConfigError(PbemError):
    """The configuration file is missing or wrong."""

    code = "config"


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Config:
    #: the referee's own address; players' replies come back to plus-addresses of it
    address: str = "referee@localhost"
    name: str = "Realm referee"
    smtp: SmtpSettings | None = None
    #: the Maildir ``pbem poll`` reads when given none
    inbox: str = "inbox"
    ruleset: str = "featured"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def local_part(self) -> str:
        return self.address.rsplit("@", 1)[0]

    @property
    def domain(self) -> str:
        return self.address.rsplit("@", 1)[1] if "@" in self.address else "localhost"


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
digest_hour: 18           # UTC hour from which `pbem tick` sends the daily digests
# Outgoing mail. Without an smtp section, mail goes into the outbox/ Maildir here.
# smtp:
#   host: smtp.example.org
#   port: 587
#   starttls: true        # or ssl: true for port 465
#   username: referee@example.org
#   password: secret      # or set PBEM_SMTP_PASSWORD in the environment
#   ca_file: /etc/ssl/private-ca.pem   # only for a server with a private CA
"""


def _bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    raise ConfigError(f"{where} must be true or false, not {value!r}")


def parse_config(text: str, where: str = CONFIG_NAME) -> Config:
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: not valid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply to be a configuration") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping of settings")
    referee = data.get("referee") or {}
    if not isinstance(referee, dict):
        raise ConfigError(f"{where}: 'referee' must be a mapping (address, name)")
    address = str(referee.get("address", "referee@localhost")).strip()
    if "@" not in address or " " in address:
        raise ConfigError(f"{where}: referee.address {address!r} is not an email address")
    smtp = None
    raw = data.get("smtp")
    if raw is not None:
        if not isinstance(raw, dict) or not raw.get("host"):
            raise ConfigError(f"{where}: 'smtp' must be a mapping with at least a host")
        try:
            port = int(raw.get("port", 465 if raw.get("ssl") else 25))
            timeout = float(raw.get("timeout", 30))
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: smtp.port and smtp.timeout must be numbers") from None
        password = raw.get("password") or os.environ.get("PBEM_SMTP_PASSWORD")
        smtp = SmtpSettings(
            host=str(raw["host"]),
            port=port,
            starttls=_bool(raw.get("starttls", False), f"{where}: smtp.starttls"),
            ssl=_bool(raw.get("ssl", False), f"{where}: smtp.ssl"),
            username=str(raw["username"]) if raw.get("username") else None,
            password=str(password) if password else None,
            timeout=timeout,
            ca_file=str(raw["ca_file"]) if raw.get("ca_file") else None,
        )
    known = {"referee", "smtp", "inbox", "ruleset"}
    return Config(
        address=address,
        name=str(referee.get("name", "Realm referee")),
        smtp=smtp,
        inbox=str(data.get("inbox", "inbox")),
        ruleset=str(data.get("ruleset", "featured")),
        extra={k: v for k, v in data.items() if k not in known},
    )


@dataclass(frozen=True, slots=True)
class Home:
    """The data folder and what lives in it."""

    root: Path

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG_NAME

    @property
    def db_path(self) -> Path:
        return self.root / "pbem.sqlite"

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
