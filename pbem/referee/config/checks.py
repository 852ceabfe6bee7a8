"""Every key of ``config.yaml``, its type and range, checked as the file is read.

A referee that starts with a wrong setting does harm quietly (a reply from
``referee@localhost``, a timeout of -1), so the whole file is checked against this
schema first, and every mistake is a ``ConfigError`` naming the file, the line and
the key: ``config.yaml:7: smtp.port: must be a whole number from 1 to 65535, not 70000``.

The YAML is composed into nodes, which keep their line, so a duplicate key (which
plain YAML loading lets win silently) and a value of the wrong kind are found where
they stand. The schema is a few small classes rather than a typed-config library:
pydantic and its models cost some ten times the import time of PyYAML, and every
``pbem mail`` reads this file (see the README's figures).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from pbem.errors import PbemError
from pbem.referee.clock import NO_CLOCK, parse_settings


class ConfigError(PbemError):
    """The configuration file is missing or wrong."""

    code = "config"


class Key:
    """One setting: its kind (``Text``, ``Whole``, ``Number``, ``Flag``, ``Section``);
    ``help`` says what a required one is for, in the error when it is missing.

    (Plain classes, not dataclasses: every ``pbem mail`` builds this schema, and a
    dataclass costs about a millisecond to create.)
    """

    __slots__ = ("help", "kind", "required")

    def __init__(self, kind: Kind, required: bool = False, help: str = "") -> None:
        self.kind, self.required, self.help = kind, required, help


class Kind:
    """Checks a node's value; ``default`` stands in when the key is absent or empty."""

    default: Any = None

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        raise NotImplementedError


class Text(Kind):
    """One line of text; ``choices``: the allowed values; ``address``: an email address;
    ``ascii``: printable ASCII only (what IMAP's LOGIN and folder names carry)."""

    def __init__(self, default: str | None = None, choices: tuple[str, ...] = (),
                 address: bool = False, ascii: bool = False) -> None:
        self.default, self.choices, self.address = default, choices, address
        self.ascii = ascii

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if not isinstance(value, str):
            hint = "; write it in quotes" if not isinstance(value, list | dict) else ""
            raise checker.error(node, path, f"must be text, not {_kind_of(value)}{hint}")
        if not value.strip():
            raise checker.error(node, path, "must not be empty")
        if any(ord(c) < 32 or ord(c) == 127 or c in "\x85\u2028\u2029" for c in value):
            raise checker.error(node, path, "must be one line of printable text")
        if self.ascii and not value.isascii():  # the value unshown: it may be a password
            raise checker.error(node, path, "must be printable ASCII (IMAP carries no other)")
        if self.choices and value not in self.choices:
            raise checker.error(node, path, f"must be one of {', '.join(self.choices)}, "
                                            f"not {value!r}")
        if self.address and (value.count("@") != 1 or any(c.isspace() for c in value)
                             or value.startswith("@") or value.endswith("@")):
            raise checker.error(node, path, f"{value!r} is not an email address")
        return value


class ImapKeyword(Text):
    """An IMAP keyword (a flag of the referee's own): an atom, not a system flag."""

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        text = super().check(value, node, path, checker)
        if any(ord(c) <= 32 or ord(c) == 127 or c in '(){%*"\\]' for c in text):
            raise checker.error(node, path, f"must be an IMAP keyword such as {self.default} "
                                            "(letters, digits, $ _ - .; no spaces, no "
                                            f"backslash), not {_shown(text)}")
        return text


class ClockText(Kind):
    """A time control as ``pbem new --clock`` takes it, or none (``none``, ``off``, false)."""

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if value is False:
            return "none"
        text = Text().check(value, node, path, checker)
        if text.strip().lower() not in NO_CLOCK:
            try:
                parse_settings(text)
            except PbemError as exc:
                raise checker.error(node, path, exc.message) from None
        return text


class StoreUrl(Kind):
    """Where the store is: a ``postgresql://user@host[:port]/database`` URL (issue 28), never
    with its password (that comes from the environment: PGPASSWORD, PBEM_STORE_PASSWORD
    or ~/.pgpass), so that config.yaml can be copied between hosts and shown."""

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        text = Text().check(value, node, path, checker).strip()
        if not text.startswith(("postgresql://", "postgres://")):
            raise checker.error(node, path, "must be a postgresql://user@host/database URL "
                                            "(without it, the store is pbem.sqlite here)")
        if re.search(r"://[^/@]*:[^/@]*@", text) or re.search(r"[?&]password=", text):
            raise checker.error(node, path, "must not hold the password: set PGPASSWORD or "
                                            "PBEM_STORE_PASSWORD, or use ~/.pgpass")
        return text


class Whole(Kind):
    def __init__(self, low: int, high: int, default: int | None = None) -> None:
        self.low, self.high, self.default = low, high, default

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or not (
            self.low <= value <= self.high
        ):
            raise checker.error(node, path, f"must be a whole number from {self.low} to "
                                            f"{self.high}, not {_shown(value)}")
        return value


class Number(Kind):
    """A positive number of seconds, up to ``high``."""

    def __init__(self, high: float, default: float | None = None) -> None:
        self.high, self.default = high, default

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or not 0 < value <= self.high):
            raise checker.error(node, path, f"must be a number of seconds above 0 and at most "
                                            f"{self.high:g}, not {_shown(value)}")
        return float(value)


class Real(Kind):
    """A number above ``low`` and at most ``high`` (the Glicko-2 constants)."""

    def __init__(self, low: float, high: float, default: float | None = None) -> None:
        self.low, self.high, self.default = low, high, default

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or not self.low < value <= self.high):
            raise checker.error(node, path, f"must be a number above {self.low:g} and at "
                                            f"most {self.high:g}, not {_shown(value)}")
        return float(value)


class Flag(Kind):
    def __init__(self, default: bool | None = None) -> None:
        self.default = default

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if not isinstance(value, bool):
            raise checker.error(node, path, f"must be true or false, not {_shown(value)}")
        return value


#: what keys of one section say together: (the key at fault, what is wrong), or None
Together = Callable[[dict[str, Any]], "tuple[str, str] | None"]


class Section(Kind):
    """A mapping of keys; an ``optional`` one absent is None (not configured), else its
    keys' defaults. ``together`` checks what the keys say together, once each is checked."""

    def __init__(self, keys: Mapping[str, Key], optional: bool = False,
                 together: Together | None = None) -> None:
        self.keys, self.optional, self.together = keys, optional, together
        self.default = None if optional else {}

    def check(self, value: Any, node: yaml.Node, path: str, checker: Checker) -> Any:
        if not isinstance(node, yaml.MappingNode):
            raise checker.error(node, path, f"must be a mapping of keys ({', '.join(self.keys)}),"
                                            f" not {_kind_of(value)}")
        result = checker.section(self, node, path)
        problem = self.together(result) if self.together is not None else None
        if problem is not None:
            key, message = problem
            name = f"{path}.{key}"
            line = checker.lines.get(name, node.start_mark.line + 1)
            raise ConfigError(f"{checker.where}:{line}: {name}: {message}", code="config")
        return result


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if isinstance(value, int | float):
        return f"the number {value}"
    return f"{_shown(value)}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Checker:
    """Walks the composed YAML against the schema; knows every key's line."""

    def __init__(self, where: str, loader: yaml.SafeLoader) -> None:
        self.where = where
        self.loader = loader
        #: the line of every key found, by dotted name ("smtp.port")
        self.lines: dict[str, int] = {}

    def error(self, node: yaml.Node, path: str, message: str) -> ConfigError:
        return ConfigError(f"{self.where}:{node.start_mark.line + 1}: {path}: {message}",
                           code="config")

    def value(self, node: yaml.Node) -> Any:
        """The Python value of a node (lists and mappings only as a kind, for messages)."""
        if isinstance(node, yaml.SequenceNode):
            return []
        if isinstance(node, yaml.MappingNode):
            return {}
        return self.loader.construct_object(node, deep=True)

    def section(self, section: Section, node: yaml.MappingNode, prefix: str) -> dict[str, Any]:
        found: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = self.value(key_node)
            name = f"{prefix}.{key}" if prefix else str(key)
            if not isinstance(key, str):
                raise self.error(key_node, name, "a key must be a word")
            if key in found:
                first = found[key][0].start_mark.line + 1
                raise self.error(key_node, name, f"appears twice (first on line {first}); "
                                                 "keep one")
            if key not in section.keys:
                allowed = ", ".join(section.keys)
                raise self.error(key_node, name, f"unknown key; allowed here: {allowed}")
            found[key] = (key_node, value_node)
        result: dict[str, Any] = {}
        for key, spec in section.keys.items():
            name = f"{prefix}.{key}" if prefix else key
            if key in found:
                key_node, value_node = found[key]
                self.lines[name] = key_node.start_mark.line + 1
                value = self.value(value_node)
                if value is not None:
                    result[key] = spec.kind.check(value, value_node, name, self)
                    continue
            if spec.required:
                at = found[key][1] if key in found else node
                why = f" ({spec.help})" if spec.help else ""
                raise self.error(at, name, f"is required{why}")
            default = spec.kind.default
            if default is not None:  # else left out: the reader knows its default
                result[key] = dict(default) if isinstance(default, dict) else default
        return result


def compose(text: str, where: str) -> tuple[yaml.Node | None, yaml.SafeLoader]:
    """The YAML as nodes that keep their lines; a ConfigError for YAML that is not."""
    loader = yaml.SafeLoader(text)
    try:
        return loader.get_single_node(), loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        raise ConfigError(f"{where}{line}: not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where}: not valid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply to be a configuration") from None
    finally:
        loader.dispose()


def check_config(text: str, schema: Section, where: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The settings, checked and with defaults filled in, and the line of every key."""
    node, loader = compose(text, where)
    if node is None:
        raise ConfigError(f"{where}: the file is empty; it needs at least referee.address "
                          "(`pbem init` writes a complete one)")
    checker = Checker(where, loader)
    if not isinstance(node, yaml.MappingNode):
        raise checker.error(node, "config", "must be a mapping of settings (referee:, smtp:, "
                                            "...), not " + _kind_of(checker.value(node)))
    try:
        return checker.section(schema, node, ""), checker.lines
    except yaml.YAMLError as exc:  # a scalar YAML cannot construct (a bad timestamp)
        raise ConfigError(f"{where}: not valid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{where}: nested too deeply to be a configuration") from None


# -- the schema -------------------------------------------------------------------------
PORT = Whole(1, 65535)


def _smtp_together(smtp: dict[str, Any]) -> tuple[str, str] | None:
    if smtp["ssl"] and smtp["starttls"]:
        return "starttls", ("ssl (TLS from the first byte, port 465) and starttls (port 587) "
                            "exclude each other; keep one")
    return None


#: ``imap.tls``'s words; the port when none is given
IMAP_TLS = ("ssl", "starttls", "none")
IMAP_PORTS = {"ssl": 993, "starttls": 143, "none": 143}
#: the keyword set on handled mail unless ``imap.handled_flag`` names another
IMAP_HANDLED_FLAG = "$PbemHandled"


def is_loopback(host: str) -> bool:
    """True for names and addresses that never leave this machine."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    import ipaddress  # only for tls: none; every command reads this file

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _imap_together(imap: dict[str, Any]) -> tuple[str, str] | None:
    if imap["tls"] == "none" and not is_loopback(imap["host"]):
        return "tls", (f"none (no encryption) is only allowed for a server on this machine, "
                       f"not {_shown(imap['host'])}; use ssl or starttls")
    if "password" in imap and "password_env" in imap:
        return "password", "give password or password_env, not both"
    if "password" not in imap and "password_env" not in imap:
        return "password", ("is required: the password, or password_env naming an "
                            "environment variable that holds it")
    if imap.get("move_to") == imap["folder"]:
        return "move_to", "must differ from folder"
    return None


SMTP = Section({
    "host": Key(Text(), required=True, help="the SMTP server's name or address"),
    "port": Key(PORT),
    "starttls": Key(Flag(False)),
    "ssl": Key(Flag(False)),
    "username": Key(Text()),
    "password": Key(Text()),
    "timeout": Key(Number(3600, 30.0)),
    "ca_file": Key(Text()),
}, optional=True, together=_smtp_together)

# issue 24: the one check of imap: (pbem.referee.config.imap builds the settings from it)
IMAP = Section({
    "host": Key(Text(), required=True, help="the IMAP server's name or address"),
    "port": Key(PORT),
    "user": Key(Text(ascii=True), required=True, help="the login name on the IMAP server"),
    "password": Key(Text(ascii=True)),
    "password_env": Key(Text()),
    "folder": Key(Text("INBOX", ascii=True)),
    "tls": Key(Text("ssl", choices=IMAP_TLS)),
    "ca_file": Key(Text()),
    "verify": Key(Flag(True)),
    "handled_flag": Key(ImapKeyword(IMAP_HANDLED_FLAG)),
    "move_to": Key(Text(ascii=True)),
    "timeout": Key(Number(3600, 30.0)),
}, optional=True, together=_imap_together)

SCHEMA = Section({
    "referee": Key(Section({
        "address": Key(Text(address=True), required=True,
                       help="the address players write to, e.g. referee@example.org"),
        "name": Key(Text("Realm referee")),
    }), required=True, help="the referee's address and name"),
    "ruleset": Key(Text("featured")),
    "inbox": Key(Text("inbox")),
    # issue 28: the store on PostgreSQL (several hosts, one database); absent: SQLite
    "store": Key(StoreUrl()),
    "clock": Key(ClockText()),
    "vacation": Key(Section({
        "days_per_year": Key(Whole(0, 366, 30)),
        "max_ahead_days": Key(Whole(1, 3660, 365)),
    })),
    "challenges": Key(Section({
        "open_registration": Key(Flag(False)),
        "max_open": Key(Whole(0, 1000, 3)),
        "max_games": Key(Whole(1, 10000, 10)),
    })),
    # issue 26: who may enter an event by mail ('join NAME'): anyone with a key, or only
    # addresses that play or played a game here
    "tournaments": Key(Section({
        "entries": Key(Text("anyone", choices=("anyone", "known"))),
    })),
    "observers": Key(Flag(True)),
    "digest_hour": Key(Whole(0, 23, 18)),
    "case_repairs": Key(Flag(False)),
    "public_messages": Key(Flag(False)),
    # issue 14: new games are rated unless made unrated; Glicko-2's constants (lichess's)
    "rated": Key(Flag(True)),
    "ratings": Key(Section({
        "rating": Key(Real(0, 10000, 1500.0)),
        "deviation": Key(Real(0, 1000, 500.0)),
        "volatility": Key(Real(0, 1, 0.09)),
        "tau": Key(Real(0, 10, 0.75)),
    })),
    "smtp": Key(SMTP),
    "imap": Key(IMAP),
    "site": Key(Section({
        "path": Key(Text(), required=True, help="the folder of the live site"),
        "url": Key(Text()),
        "title": Key(Text()),
        "event": Key(Text()),
    }, optional=True)),
    "event": Key(Text()),
    # issue 12: who is told of mail given up, and what one mail or stranger can cause
    # (pbem.referee.outgoing.limits holds the defaults)
    "operator": Key(Text(address=True)),
    "limits": Key(Section({
        "quote_lines": Key(Whole(0, 200)),
        "quote_width": Key(Whole(20, 998)),
        "reply_chars": Key(Whole(1000, 10_000_000)),
        "subject_chars": Key(Whole(20, 500)),
        "answers_per_address": Key(Whole(0, 100_000)),
        "answers_per_game": Key(Whole(0, 100_000)),
        "stranger_answers_per_address": Key(Whole(0, 1000)),
        "stranger_answers_per_day": Key(Whole(0, 1_000_000)),
        "delivery_attempts": Key(Whole(1, 1000)),
        "retry_seconds": Key(Whole(1, 86_400)),
        "retry_max_seconds": Key(Whole(1, 30 * 86_400)),
    }, optional=True)),
    # issue 25: signed mail, bounces, webhooks (pbem.referee.outgoing.signing, reach, webhooks)
    "dkim": Key(Section({
        "domain": Key(Text(), required=True, help="the domain the mail is signed for"),
        "selector": Key(Text(), required=True,
                        help="the DNS selector (SELECTOR._domainkey.DOMAIN holds the key)"),
        "key_file": Key(Text(), required=True,
                        help="the PEM private key (relative to the referee's folder)"),
    }, optional=True)),
    "bounces": Key(Section({
        "grace_days": Key(Whole(1, 365, 14)),
    })),
    "webhooks": Key(Section({
        "url": Key(Text()),
        "allow_loopback": Key(Flag(False)),
        "timeout": Key(Number(60, 5.0)),
    })),
})
