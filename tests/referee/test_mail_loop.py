"""Issue 23, item 4: an auto-responder at a player's address that answers every refusal with
the same mail gets the same refusal at most twice a day; then the referee tells its operator
once (``operator:`` in config.yaml; without one, a line in ``pbem show --log``) and stays
silent to that address about it."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.referee.conftest import outbox_mails, run_pbem
from tests.referee.helpers import new_table


def _loop(home: Path, rounds: int) -> tuple[int, int]:
    """A player's auto-responder sends the same bad turn back ``rounds`` times; the
    refusals it got and the mails the operator got."""
    table = new_table(home)
    for _ in range(rounds):
        # each round a new mail (new Message-ID), quoting the referee's last mail
        assert table.send(table.white.reply("Bz99")).outcome == "refused"
    refusals = {m["Message-ID"] for m in table.white.inbox if m["X-Pbem-Kind"] == "refusal"}
    operator = [m for m in outbox_mails(home) if m["To"] == "op@club.test"]
    return len(refusals), len(operator)


def test_the_same_refusal_goes_out_twice_a_day_then_the_operator_is_told_once(
        home: Path) -> None:
    cfg = yaml.safe_load((home / "config.yaml").read_text())
    cfg["operator"] = "op@club.test"
    (home / "config.yaml").write_text(yaml.safe_dump(cfg))
    refusals, operator = _loop(home, 30)
    assert refusals == 2
    assert operator == 1
    log = run_pbem(home, "show", "1", "--log").stdout.decode()
    assert log.count("(a mail loop?)") == 28


def test_without_an_operator_the_log_says_it_once(home: Path) -> None:
    refusals, operator = _loop(home, 6)
    assert refusals == 2 and operator == 0
    log = run_pbem(home, "show", "1", "--log").stdout.decode()
    assert log.count("operator-notice") == 1 and "mail loop" in log


def test_different_refusals_are_each_sent(home: Path) -> None:
    table = new_table(home)
    for text in ("Bz99", "Bz98", "Bz97", "Bz96"):
        assert table.send(table.white.reply(text)).outcome == "refused"
    assert len({m["Message-ID"] for m in table.white.inbox
                if m["X-Pbem-Kind"] == "refusal"}) == 4
