"""config.yaml is checked as it is read: every mistake names the file, the line and the key,
and no referee ever runs on a default it was not given (``referee@localhost``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem.cli import main
from pbem.referee.config.checks import SCHEMA, ConfigError, Section
from pbem.referee.config.home import DEFAULT_CONFIG, parse_config
from pbem.referee.config.options import load_options

GOOD = "referee:\n  address: ref@pbem.test\n"


def _error(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "config.yaml")
    return str(info.value)


@pytest.mark.parametrize(("text", "expected"), [
    ("", "config.yaml: the file is empty; it needs at least referee.address"),
    ("# nothing but a comment\n", "config.yaml: the file is empty"),
    ("ruleset: featured\n", "config.yaml:1: referee: is required"),
    ("referee:\n  name: Ref\n", "config.yaml:2: referee.address: is required"),
    ("referee:\n", "config.yaml:1: referee: is required"),
    (GOOD + "  address: other@pbem.test\n",
     "config.yaml:3: referee.address: appears twice (first on line 2)"),
    (GOOD + "referee:\n  address: x@y.test\n", "config.yaml:3: referee: appears twice"),
    ("referee:\n  address: [ref@pbem.test]\n", "config.yaml:2: referee.address: must be text, "
                                               "not a list"),
    ("referee:\n  address: nobody\n", "config.yaml:2: referee.address: 'nobody' is not an email"),
    (GOOD + "  name: {a: 1}\n", "config.yaml:3: referee.name: must be text, not a mapping"),
    (GOOD + '  name: "Ref\\nBcc: x@y"\n', "config.yaml:3: referee.name: must be one line"),
    (GOOD + "smtp:\n  host: h\n  timeout: -1\n",
     "config.yaml:5: smtp.timeout: must be a number of seconds above 0"),
    (GOOD + "smtp:\n  host: h\n  port: 70000\n",
     "config.yaml:5: smtp.port: must be a whole number from 1 to 65535, not 70000"),
    (GOOD + "smtp:\n  host: h\n  port: -25\n", "config.yaml:5: smtp.port: must be a whole"),
    (GOOD + "smtp:\n  port: 25\n", "config.yaml:4: smtp.host: is required"),
    (GOOD + "smtp:\n  host: h\n  starttls: 'yes'\n",
     "config.yaml:5: smtp.starttls: must be true or false, not 'yes'"),
    (GOOD + "smtp:\n  host: h\n  ssl: true\n  starttls: true\n",
     "smtp.starttls: ssl (TLS from the first byte, port 465) and starttls"),
    (GOOD + "smtp:\n  host: h\n  password: 0123\n",
     "config.yaml:5: smtp.password: must be text, not the number 83; write it in quotes"),
    (GOOD + "imap:\n  host: h\n  user: u\n  port: 0\n", "config.yaml:6: imap.port: must be"),
    (GOOD + "imap:\n  host: h\n  user: u\n  timeout: -3\n", "config.yaml:6: imap.timeout:"),
    (GOOD + "imap:\n  host: h\n  user: u\n  tls: yes\n", "config.yaml:6: imap.tls: must be text"),
    (GOOD + "imap:\n  host: h\n  usr: u\n", "config.yaml:5: imap.usr: unknown key"),
    (GOOD + "digest_hour: 24\n", "config.yaml:3: digest_hour: must be a whole number from 0 to 23"),
    (GOOD + "observers: 1\n", "config.yaml:3: observers: must be true or false, not 1"),
    (GOOD + "vacation:\n  days_per_year: -1\n", "config.yaml:4: vacation.days_per_year:"),
    (GOOD + "challenges:\n  max_games: 0\n", "config.yaml:4: challenges.max_games: must be"),
    (GOOD + "challenges: [1]\n", "config.yaml:3: challenges: must be a mapping of keys"),
    (GOOD + "clock: days x\n", "config.yaml:3: clock: cannot read the clock setting"),
    (GOOD + "inbox: ''\n", "config.yaml:3: inbox: must not be empty"),
    (GOOD + "ruleset: [featured]\n", "config.yaml:3: ruleset: must be text, not a list"),
    (GOOD + "smpt:\n  host: h\n", "config.yaml:3: smpt: unknown key; allowed here: referee,"),
    ("- referee\n", "config.yaml:1: config: must be a mapping of settings"),
    ("referee: [\n", "config.yaml:2: not valid YAML"),
    ("[" * 3000, "config.yaml: nested too deeply"),
])
def test_every_mistake_names_the_line_and_the_key(text, expected):
    assert expected in _error(text)


def test_the_written_config_and_every_key_of_the_docs_pass():
    config = parse_config(DEFAULT_CONFIG.format(address="ref@pbem.test"))
    assert config.address == "ref@pbem.test" and config.name == "Realm referee"
    options = load_options(config)
    assert options.clock is not None and options.digest_hour == 18
    full = GOOD + (
        "  name: Club referee\nruleset: original\ninbox: mail/in\nclock: none\n"
        "vacation: {days_per_year: 10, max_ahead_days: 100}\n"
        "challenges: {open_registration: true, max_open: 0, max_games: 1}\n"
        "observers: false\ndigest_hour: 0\n"
        "smtp: {host: smtp.example.org, port: 465, ssl: true, starttls: false, username: u,"
        " password: 'p', timeout: 2.5, ca_file: /etc/ca.pem}\n"
        "imap: {host: imap.example.org, port: 993, user: u, password_env: PW, folder: INBOX,"
        " tls: ssl, ca_file: /etc/ca.pem, verify: true, handled_flag: $Done, move_to: Done,"
        " timeout: 10}\n"
    )
    config = parse_config(full)
    assert config.smtp is not None and config.smtp.port == 465 and config.smtp.timeout == 2.5
    assert config.extra["imap"]["handled_flag"] == "$Done"
    options = load_options(config)
    assert options.clock is None and options.max_open_challenges == 0 and not options.observers
    assert config.lines["imap"] == 12 and config.at("digest_hour") == "config.yaml:10: digest_hour"


def test_the_schema_covers_every_key_of_the_docs():
    """Each key the docs' config.yaml examples use is in the schema (and nothing else is)."""
    root = Path(__file__).resolve().parents[2]
    keys = _keys(SCHEMA)
    text = "\n".join((root / name).read_text() for name in
                     ("README.md", "docs/referee.md", "docs/imap.md", "docs/clock.md"))
    for block in text.split("```yaml")[1:]:
        data = yaml.safe_load(block.split("```")[0])
        if isinstance(data, dict):
            assert _flat(data) <= keys, _flat(data) - keys


def _keys(section: Section, prefix: str = "") -> set[str]:
    keys = set()
    for name, key in section.keys.items():
        keys.add(prefix + name)
        if isinstance(key.kind, Section):
            keys |= _keys(key.kind, f"{prefix}{name}.")
    return keys


def _flat(data: dict, prefix: str = "") -> set[str]:
    keys = set()
    for name, value in data.items():
        keys.add(prefix + name)
        if isinstance(value, dict):
            keys |= _flat(value, f"{prefix}{name}.")
    return keys


def test_the_referee_never_runs_on_a_config_without_an_address(tmp_path, capsys):
    home = tmp_path / "home"
    assert main(["init", "--home", str(home), "--address", "ref@pbem.test"]) == 0
    (home / "config.yaml").write_text("referee:\n  name: Ref\n")
    for args in (["games"], ["poll"], ["flush"], ["tick"],
                 ["new", "--white", "a@p.test", "--black", "b@p.test"]):
        code = main([*args, "--home", str(home)])
        _, err = capsys.readouterr()
        assert code != 0 and "referee.address: is required" in err, (args, err)
        assert "config.yaml:2" in err


def test_init_refuses_an_address_that_is_not_one(tmp_path, capsys):
    assert main(["init", "--home", str(tmp_path / "h"), "--address", "no address"]) == 2
    assert "--address 'no address'" in capsys.readouterr().err


def test_the_docs_list_every_key_of_the_schema():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "referee.md").read_text()
    table = guide.split("**The configuration, checked.**")[1].split("\n## ")[0]
    leaves = {k for k in _keys(SCHEMA)
              if not isinstance(_kind(k), Section)}
    missing = {k for k in leaves if f"`{k}`" not in table}
    assert not missing, missing


def _kind(dotted: str):
    section: Section = SCHEMA
    kind = None
    for part in dotted.split("."):
        kind = section.keys[part].kind
        if isinstance(kind, Section):
            section = kind
    return kind
