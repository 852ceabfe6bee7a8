"""A game by mail on the referee's clock, with a "now" the test moves by hand."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem.records.rulesets import load_ruleset
from pbem.referee.clock import parse_settings
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Referee
from pbem.referee.entry.tick import TickSummary, run_tick
from pbem.referee.store import connect
from tests.referee.conftest import MailPlayer
from tests.referee.helpers import Table

START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # a Tuesday


@dataclass
class FakeNow:
    at: datetime = START

    def __call__(self) -> datetime:
        return self.at

    def set(self, when: datetime) -> None:
        self.at = when

    def advance(self, **kw: float) -> datetime:
        self.at += timedelta(**kw)
        return self.at


def referee_at(home: Path, now: FakeNow) -> Referee:
    h = Home(home)
    return Referee(connect(h.store_target(h.load_config())), h.load_config(), now=now)


def clocked_table(home: Path, now: FakeNow, clock: str | None = "days 3, claim",
                  white: str = "white@players.test", black: str = "black@players.test"
                  ) -> Table:
    referee = referee_at(home, now)
    w, b = MailPlayer(white), MailPlayer(black)
    settings = parse_settings(clock) if clock else None
    game_id = referee.new_game(w.address, b.address, load_ruleset("featured"), name="T",
                               clock=settings)
    table = Table(home, referee, game_id, w, b)
    table.deliver()
    return table


def tick(table: Table) -> TickSummary:
    summary = run_tick(table.referee)
    table.deliver()
    return summary


def kinds(table: Table) -> list[tuple[str, str]]:
    """(kind, recipient) of every mail queued, in order."""
    return [(r[0], r[1]) for r in table.conn.execute(
        "SELECT kind, recipient FROM outbox ORDER BY id")]


def game_row(table: Table):
    return table.conn.execute("SELECT * FROM games WHERE id = ?", (table.game_id,)).fetchone()
