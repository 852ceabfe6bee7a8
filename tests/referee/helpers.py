"""A small game by mail for the referee's tests: a store, two players, their replies."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.records.rulesets import load_ruleset
from pbem.referee.config.home import Home
from pbem.referee.entry.service import Handled, Referee
from pbem.referee.outgoing.delivery import deliver
from pbem.referee.store import connect
from tests.referee.conftest import MailPlayer, outbox_mails


@dataclass
class Table:
    home: Path
    referee: Referee
    game_id: int
    white: MailPlayer
    black: MailPlayer

    @property
    def conn(self):
        return self.referee.conn

    def deliver(self) -> None:
        h = Home(self.home)
        assert deliver(self.conn, h.load_config(), h.outbox_path).failed == 0
        mails = outbox_mails(self.home)
        self.white.receive(mails)
        self.black.receive(mails)

    def send(self, raw: bytes) -> Handled:
        handled = self.referee.handle(raw)
        self.deliver()
        return handled

    def turns(self) -> list[str]:
        return [r[0] for r in self.conn.execute(
            "SELECT label FROM turns WHERE game_id = ? AND seq > 0 ORDER BY seq", (self.game_id,))]

    def token(self, side: str) -> str:
        return self.conn.execute("SELECT token FROM players WHERE game_id = ? AND side = ?",
                                 (self.game_id, side)).fetchone()[0]


def new_table(home: Path, ruleset: str = "featured") -> Table:
    h = Home(home)
    referee = Referee(connect(h.store_target(h.load_config())), h.load_config())
    white, black = MailPlayer("white@players.test"), MailPlayer("black@players.test")
    game_id = referee.new_game(white.address, black.address, load_ruleset(ruleset), name="T")
    table = Table(home, referee, game_id, white, black)
    table.deliver()
    return table


def play_setup(table: Table, turns: list[tuple[str, str]]) -> None:
    for label, text in turns:
        player = table.white if label.endswith("w") else table.black
        assert table.send(player.reply(text)).outcome == "accepted", label
