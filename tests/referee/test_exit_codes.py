"""Issue 23, item 11: each outcome of ``poll`` and ``flush`` has its own exit code, so a cron
wrapper can tell a mail set aside or left queued from a store or internal error (3); every
code is documented in docs/referee.md."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.cli import mail as cli
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.store import connect
from tests.referee.conftest import free_port, init_home, run_pbem
from tests.referee.test_delivery_failures import PickyServer, _home, picky  # noqa: F401

DOCS = Path(__file__).parents[2] / "docs" / "referee.md"


def _put(inbox: Path, name: str, raw: bytes) -> None:
    (inbox / "new" / name).write_bytes(raw)


def test_poll_says_a_mail_was_set_aside_with_its_own_code(home: Path) -> None:
    inbox = home / "inbox"
    assert run_pbem(home, "poll").returncode == 0  # nothing to do
    _put(inbox, "1", b"just a line of text\n")
    run = run_pbem(home, "poll")
    assert run.returncode == cli.EXIT_SET_ASIDE == 4, run.stderr.decode()
    assert (inbox / "failed" / "new").is_dir()
    assert run_pbem(home, "poll").returncode == 0  # set aside once, not again


def test_flush_says_queued_and_given_up_apart(tmp_path: Path, picky: PickyServer) -> None:  # noqa: F811
    # a server that cannot be reached: the mails stay queued for a retry
    port = free_port()
    home = init_home(tmp_path / "a", smtp={"host": "127.0.0.1", "port": port, "timeout": 5})
    assert run_pbem(home, "new", "--white", "w@p.test", "--black", "b@p.test").returncode == 0
    flush = run_pbem(home, "flush")
    assert flush.returncode == cli.EXIT_QUEUED == 5 and b"still queued" in flush.stdout
    # a server that refuses a recipient for good: given up
    home = _home(tmp_path / "b", picky.controller.port)
    h = Home(home)
    Referee(connect(h.store_target(h.load_config())), h.load_config()).new_game(
        "nosuch@players.test", "black@players.test", cli_ruleset())
    flush = run_pbem(home, "flush")
    assert flush.returncode == cli.EXIT_GIVEN_UP == 6, flush.stdout + flush.stderr
    assert b"1 given up" in flush.stdout
    assert run_pbem(home, "flush").returncode == 0  # nothing left


def cli_ruleset():
    from pbem.records.rulesets import load_ruleset

    return load_ruleset("featured")


def test_every_exit_code_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    codes = {int(c) for c in re.findall(r"^\| `(\d+)` \|", section, flags=re.M)}
    assert codes >= {0, 1, 2, 3, cli.EXIT_SET_ASIDE, cli.EXIT_QUEUED, cli.EXIT_GIVEN_UP,
                     cli.EX_TEMPFAIL}
    # one meaning each: no two outcomes share a code
    assert len({cli.EXIT_SET_ASIDE, cli.EXIT_QUEUED, cli.EXIT_GIVEN_UP, cli.EX_TEMPFAIL, 3}) == 5
