"""Conditional turns by mail, end to end: sets that fire several levels deep (and answer
each other), sets that miss, refusals with line and column, ``conditions``, ``conditions
cancel``, a newer set, takeback and rollback, the clock; records the same as when every
turn is mailed one by one, and not one word of a set in any mail to the opponent."""

from __future__ import annotations

import io
import sys
from datetime import timedelta
from email.message import Message
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.referee.store import accounts, transaction
from pbem.referee.store import standing_conditions as conditions
from pbem.referee.store.games import load_game
from pbem.rules.pieces import Side
from tests.referee.conftest import (
    MailPlayer,
    SmtpSink,
    init_home,
    outbox_mails,
    run_pbem,
    text_of,
)
from tests.referee.helpers import Table, new_table, play_setup
from tests.referee.test_sample_by_mail import sample_turns

TURNS = dict(sample_turns())
ORDER = [label for label, _ in sample_turns()]

#: Black's set, sent with 7b: line 2 does not match 8w, line 3 does (8w written in another
#: order), and so do the lines nested under it; line 6 matches 8w too, but comes after
BLACK_SET = """\
if Pi6j6(Bk5),Pg4g8,Ei4d4 then Ed2c2,Pd1l1(Bk2)
if Pg4g9(Bh8),Pi6j6(Bk5),Ei4d4 then Pd3a3(Bb2),Pd1l1(Bk2),Ed2c2
  if Pg9l9(Bk8),Pj6j7(El7W) then Pc9c10(Bb11),Pa3a12(Ec12S)
    if Pf7f12(Be11),Ed4d10 then Pc10c6,Pa12a6,Ec2c4(xBb5)
if Pg4g9(Bh8),Ei4d4,Pi6j6(Bk5) then Ed2c2,Pd1l1(Bk2)
"""
#: what only Black wrote: White's turns in Black's order, lines that never fired, the
#: set's words
BLACK_SECRETS = ("Pi6j6(Bk5),Pg4g8,Ei4d4", "Pg4g9(Bh8),Pi6j6(Bk5)", "Ed2c2,Pd1l1",
                 "Pg4g9(Bh8),Ei4d4,Pi6j6", "Pf7f12(Be11),Ed4d10", "if Pi6j6", "if Pg4g9",
                 "if Pg9l9", "if Pf7f12", "line 3", "line 4")
#: White's set, sent with 9w: it answers 9b, which Black's set plays at once
WHITE_SET = "if Pc9c10(Bb11),Pa3a12(Ec12S) then Ed4d10,Pf7f12(Be11)\n"
WHITE_SECRETS = ("if Pc9c10", "if Pl10l4", "line 2")
#: the answers as the sets write them (a record keeps a turn's actions in the order
#: written); the game mailed one by one mails them so too
AS_ANSWERED = {"8b": "Pd3a3(Bb2),Pd1l1(Bk2),Ed2c2", "10w": "Ed4d10,Pf7f12(Be11)",
               "10b": "Pc10c6,Pa12a6,Ec2c4(xBb5)"}


def everything(msg: Message) -> str:
    """A mail as its reader can see it: the subject and every text part, decoded."""
    parts = [str(msg["Subject"])]
    for part in msg.walk():
        if part.get_content_maintype() == "text":
            parts.append(part.get_content())
    return "\n".join(parts)


def assert_secret(player: MailPlayer, secrets: tuple[str, ...]) -> None:
    assert player.inbox
    for msg in player.inbox:
        seen = everything(msg)
        for secret in secrets:
            assert secret not in seen, (secret, msg["Subject"])


def _pbem(args: list[str], stdin: bytes = b"") -> tuple[int, str]:
    out = io.StringIO()
    old_stdin, old_stdout = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    sys.stdout = out
    try:
        code = main(args)
    finally:
        sys.stdin, sys.stdout = old_stdin, old_stdout
    return code, out.getvalue()


class ByMail:
    """Two games in one referee home, mailed through ``pbem mail`` over SMTP: one with
    conditional turns, one with every turn mailed one by one."""

    def __init__(self, home: Path, smtp: SmtpSink, monkeypatch: pytest.MonkeyPatch) -> None:
        self.home, self.smtp, self.monkeypatch = home, smtp, monkeypatch
        self.players: dict[int, tuple[MailPlayer, MailPlayer]] = {}

    def new(self, tag: str) -> int:
        white, black = MailPlayer(f"w{tag}@players.test"), MailPlayer(f"b{tag}@players.test")
        code, out = _pbem(["new", "--home", str(self.home), "--white", white.address,
                           "--black", black.address, "--name", "Conditional",
                           "--white-name", "Alice", "--black-name", "Bob",
                           "--clock", "bank 10+1 cap 20"])
        assert code == 0, out
        game_id = int(out.split()[-1])
        self.players[game_id] = (white, black)
        self.fetch()
        return game_id

    def fetch(self) -> None:
        mails = self.smtp.messages()
        for white, black in self.players.values():
            white.receive(mails)
            black.receive(mails)

    def mail(self, game_id: int, side: str, body: str, day: int) -> str:
        self.monkeypatch.setenv("PBEM_NOW", f"2026-12-{day:02d}T10:00:00Z")
        player = self.players[game_id][0 if side == "w" else 1]
        code, out = _pbem(["mail", "--home", str(self.home)], player.reply(body))
        assert code == 0, out
        self.fetch()
        return out

    def record(self, game_id: int) -> str:
        code, out = _pbem(["show", "--home", str(self.home), str(game_id)])
        assert code == 0
        return out


def test_conditions_fire_several_levels_deep_as_if_mailed_one_by_one(
        tmp_path: Path, smtp: SmtpSink, monkeypatch: pytest.MonkeyPatch) -> None:
    home = init_home(tmp_path / "home", smtp={"host": "127.0.0.1", "port": smtp.port})
    games = ByMail(home, smtp, monkeypatch)
    cond, plain = games.new("1"), games.new("2")
    white, black = games.players[cond]
    for label in ORDER[:13]:  # the set-up and 7w, one by one in both games
        for game_id in (cond, plain):
            assert games.mail(game_id, label[-1], TURNS[label], 1).startswith("accepted")
    for label in ORDER[13:31]:  # the game one by one, to its end (16w)
        text = AS_ANSWERED.get(label, TURNS[label])
        assert games.mail(plain, label[-1], text, 2).startswith("accepted")

    # Black's 7b with five conditional lines, three levels deep
    games.mail(cond, "b", TURNS["7b"] + "\n" + BLACK_SET, 2)
    assert "Your conditional turns stand (5 lines, secret)" in text_of(black.last)
    assert "conditional" not in text_of(white.last)
    conn_state = load_game(_conn(home), cond).clock()
    assert conn_state is not None
    black_reserve = conn_state[1].reserves[1]  # type: ignore[index]

    # 8w, two days later: 8b is played at once, one report to each covering both turns
    out = games.mail(cond, "w", TURNS["8w"], 4)
    assert out.startswith("accepted") and "8w, 8b" in out
    assert white.last["Subject"].endswith("#8w to #8b played; your move (#9w)")
    assert black.last["Subject"].endswith("#8w to #8b played; White to move")
    # folded at 78
    assert "Black answered at once with #8b" in " ".join(text_of(white.last).split())
    assert "line 3 of the mail that sent it fired" in text_of(black.last)
    said = " ".join(text_of(black.last).split())
    assert "1 line nested under it stands for" in said or (
        "2 lines nested under it stand for" in said)
    # White, who has sent no set yet, has read nothing of one
    assert_secret(white, (*BLACK_SECRETS, "fired", "conditional turns stand"))
    # the answer took none of Black's time: his reserve only gained the increment
    state = load_game(_conn(home), cond).clock()
    assert state is not None and state[1].reserves is not None
    assert black_reserve is not None
    assert state[1].reserves[1] - black_reserve == timedelta(days=state[0].increment)

    # 9w with White's own set: Black's 9b answers it, White's 10w answers that, and
    # Black's last level answers 10w, all in one mail
    out = games.mail(cond, "w", TURNS["9w"] + "\n" + WHITE_SET, 5)
    assert out.startswith("accepted") and "9w, 9b, 10w, 10b" in out
    assert white.last["Subject"].endswith("#9w to #10b played; your move (#11w)")
    assert "line 2 of the mail that sent it fired" in text_of(white.last)
    assert "line 4 of the mail that sent it fired" in text_of(black.last)
    assert conditions.load(_conn(home), cond, Side.BLACK) is None
    assert conditions.load(_conn(home), cond, Side.WHITE) is None

    # 11w to 14b one by one; White's 15w comes with the answer that ends the game
    for label in ORDER[20:28]:
        assert games.mail(cond, label[-1], TURNS[label], 6).startswith("accepted")
    out = games.mail(cond, "w", f"{TURNS['15w']}\nif {TURNS['15b']} then {TURNS['16w']}\n", 7)
    assert out.startswith("accepted"), (out, text_of(white.last))
    out = games.mail(cond, "b", TURNS["15b"], 8)
    for p in (white, black):
        assert "game over" in p.last["Subject"]
    assert conditions.load(_conn(home), cond, Side.WHITE) is None

    # the same record and position as the game mailed one by one
    mine, theirs = load_game(_conn(home), cond), load_game(_conn(home), plain)
    assert mine.record == theirs.record and "1-0" in mine.record
    assert mine.position == theirs.position and mine.seq == theirs.seq
    # nothing of a set in any mail to the opponent, nor in pbem show
    assert_secret(white, BLACK_SECRETS)
    assert_secret(black, WHITE_SECRETS)
    shown = games.record(cond) + _pbem(["show", "--home", str(home), "--log", str(cond)])[1]
    for secret in (*BLACK_SECRETS[:9], *WHITE_SECRETS[:2], "if "):
        assert secret not in shown


def _conn(home: Path):
    from tests.referee.conftest import open_store

    return open_store(home)



# -- the same referee in one process, the outbox a Maildir ------------------------------------

SETUP = sample_turns()[:12]


@pytest.fixture
def table(home: Path) -> Table:
    t = new_table(home)
    play_setup(t, SETUP)
    return t


def standing(table: Table, side: Side):
    return conditions.load(table.conn, table.game_id, side)


def test_a_set_that_misses_is_dropped_and_the_player_told(table: Table,
                                                        tmp_path: Path) -> None:
    watcher = MailPlayer("watcher@players.test")
    with transaction(table.conn):
        accounts.ensure_account(table.conn, watcher.address)
        accounts.observe(table.conn, table.game_id, watcher.address)
    body = f"{TURNS['7w']}\nif Pc9c12 then Pi6j6(Bk5)\nif Pd6d2 then Pg4g9(Bh8)\n"
    assert table.send(table.white.reply(body)).outcome == "accepted"
    assert standing(table, Side.WHITE) is not None
    assert table.send(table.black.reply(TURNS["7b"])).outcome == "accepted"
    assert table.turns()[-1] == "7b"
    told = text_of(table.white.last)
    assert "7b matched none of your conditional turns, so they are dropped" in told
    assert "matched none" not in text_of(table.black.last)
    assert standing(table, Side.WHITE) is None
    assert table.send(table.white.reply(TURNS["8w"])).outcome == "accepted"
    assert_secret(table.black, ("Pd6d2", "Pc9c12", "matched none", "dropped"))
    watcher.receive(outbox_mails(table.home))  # an observer's copies: no more than Black's
    assert len(watcher.inbox) >= 3
    assert_secret(watcher, ("Pd6d2", "Pc9c12", "matched none", "dropped", "conditional"))
    # the record is the one the turns make when mailed one by one
    other = new_table(init_home(tmp_path / "other"))
    play_setup(other, SETUP + [(x, TURNS[x]) for x in ("7w", "7b", "8w")])
    assert load_game(table.conn, table.game_id).record == load_game(
        other.conn, other.game_id).record


def test_an_illegal_line_is_refused_with_line_and_column_and_nothing_kept(
        table: Table) -> None:
    body = (f"{TURNS['7w']}\nif Pd6d1(Be2),Pg3d3(Ed2N) then Pi6j6(Bk5),Pg4g9(Bh8)\n"
            "  if Pd3a3(Bb2) then Pa1a2\n")
    handled = table.send(table.white.reply(body))
    assert handled.outcome == "refused"
    text = text_of(table.white.last)
    assert "line 3, column 22" in text, text
    assert "your turn Pa1a2 could not be played there: there is no piece on a1" in text
    assert "    if Pd3a3(Bb2) then Pa1a2\n" + " " * 23 + "^\n" in text  # quoted 2 in
    assert table.turns()[-1] == "6b"  # the turn with it is not played either
    assert standing(table, Side.WHITE) is None
    # the log says a line was refused, never which
    log = run_pbem(table.home, "show", "--log", str(table.game_id)).stdout.decode()
    assert "could not be kept" in log and "Pa1a2" not in log
    # a line that is not a condition at all, and a reply that is no turn there
    for bad, where in (("if Pd6d1(Be2) then", "line 2, column 1"),
                       ("if Pd6d9(Be2) then Pi6j6(Bk5)", "line 2, column 4")):
        assert table.send(table.white.reply(f"{TURNS['7w']}\n{bad}\n")).outcome == "refused"
        assert where in text_of(table.white.last), (bad, text_of(table.white.last))
    assert standing(table, Side.WHITE) is None and table.turns()[-1] == "6b"


def test_list_replace_cancel_and_sets_alone(table: Table) -> None:
    first = "if Pd6d1(Be2) then Pi6j6(Bk5)"
    second = "if Pd6d2 then Pg4g9(Bh8)\n  if Pc9c12 then Pi6j6(Bk5)"
    # on his own turn, a set alone is refused: it answers the opponent's next turn
    assert table.send(table.white.reply(first)).outcome == "refused"
    assert "it is your turn" in text_of(table.white.last)
    assert table.send(table.white.reply(f"{TURNS['7w']}\n{first}")).outcome == "accepted"
    black_mails = {m["Message-ID"] for m in table.black.inbox}
    # while Black is to move, a set alone replaces the one that stood
    assert table.send(table.white.reply(second)).outcome == "accepted"
    assert "Pc9c12" in text_of(table.white.last)
    # Black asking 'conditions' hears of his own (none), never of White's
    assert table.send(table.black.reply("conditions")).outcome == "info"
    assert "You have no conditional turns standing." in text_of(table.black.last)
    assert "Pc9c12" not in text_of(table.black.last)
    black_mails.add(table.black.last["Message-ID"])  # the answer to his own 'conditions'
    assert table.send(table.white.reply("conditions")).outcome == "info"
    listed = text_of(table.white.last)
    assert "  if Pc9c12 then Pi6j6(Bk5)" in listed and "Pd6d1" not in listed
    assert table.send(table.white.reply("conditions cancel")).outcome == "accepted"
    assert "withdrawn" in text_of(table.white.last)
    table.send(table.white.reply("conditions"))
    assert "no conditional turns standing" in text_of(table.white.last)
    assert {m["Message-ID"] for m in table.black.inbox} == black_mails  # he heard of none
    assert table.send(table.black.reply(TURNS["7b"])).outcome == "accepted"
    assert table.turns()[-1] == "7b"  # nothing answered it


def test_a_takeback_clears_the_sets(table: Table) -> None:
    body = f"{TURNS['7w']}\n{TURNS['7b'].join(['if ', ' then '])}{TURNS['8w']}\n"
    assert table.send(table.white.reply(body)).outcome == "accepted"
    assert table.send(table.white.reply("takeback")).outcome == "accepted"
    assert table.send(table.black.reply("accept takeback")).outcome == "accepted"
    assert standing(table, Side.WHITE) is None
    assert table.turns()[-1] == "6b"
    assert_secret(table.black, ("if 7b", "if Pd6d1(Be2),Pg3d3", "conditional turns stand"))


def test_a_rollback_clears_the_sets(table: Table) -> None:
    body = f"{TURNS['7w']}\n{TURNS['7b'].join(['if ', ' then '])}{TURNS['8w']}\n"
    assert table.send(table.white.reply(body)).outcome == "accepted"
    proc = run_pbem(table.home, "rollback", str(table.game_id), "6b")
    assert proc.returncode == 0, proc.stderr
    assert standing(table, Side.WHITE) is None
    # Black plays 7b against a White who has no set any more: nothing is answered
    assert table.send(table.white.reply(TURNS["7w"])).outcome == "accepted"
    assert table.send(table.black.reply(TURNS["7b"])).outcome == "accepted"
    assert table.turns()[-1] == "7b"


def test_condition_lines_are_read_with_their_indentation_and_chatter_is_not() -> None:
    from pbem.referee.intake.extract import BodyLine
    from pbem.referee.intake.orders import find_orders

    lines = ["12.Pi10i6(Bh5)", "If you like, then we can talk later.",
             "if Pd6d1(Be2) then Pi6j6(Bk5)", "\t if Ee4g4(xEi6) THEN Rh5(Pg4,Pi6)",
             "if bad then Pc4c9", "if Pd6d2 then"]
    orders = find_orders("", tuple(BodyLine(n, t) for n, t in enumerate(lines, 1)))
    assert [(o.name, o.line) for o in orders] == [
        ("turn", 1), ("if", 3), ("if", 4), ("if", 5), ("if", 6)]
    assert orders[2].text == "\t if Ee4g4(xEi6) THEN Rh5(Pg4,Pi6)" and orders[2].column == 1


def test_a_set_lapses_when_the_game_ends(table: Table) -> None:
    body = f"{TURNS['7w']}\n{TURNS['7b'].join(['if ', ' then '])}{TURNS['8w']}\n"
    assert table.send(table.white.reply(body)).outcome == "accepted"
    assert standing(table, Side.WHITE) is not None
    assert table.send(table.black.reply("resign")).outcome == "accepted"
    assert standing(table, Side.WHITE) is None
    # in a finished game a set is refused
    assert table.send(table.white.reply("if Pd6d2 then Pg4g9(Bh8)")).outcome == "refused"
    assert "the game is over" in text_of(table.white.last)


def test_forced_passes_an_answer_may_force_one_a_reply_may_not(tmp_path: Path) -> None:
    """Medieval Realm, where a side with no legal turn passes (the referee writes it)."""
    from pbem.notation.format import format_turn
    from pbem.notation.syntax import TurnText
    from pbem.rules.written import PassText
    from tests.referee.test_center_games_by_mail import shortest_game

    played = shortest_game("medieval")
    texts = [format_turn(TurnText(t)) for _, t in played.turns]
    sides = [s.letter for s, _ in played.turns]
    p = next(i for i, (_, t) in enumerate(played.turns) if isinstance(t[0], PassText))
    assert p >= 3 and sides[p - 3] == sides[p - 1] != sides[p - 2] == sides[p]
    owner, passer = sides[p - 1], sides[p]

    def table_at(name: str) -> Table:
        t = new_table(init_home(tmp_path / name), "medieval")
        for side, text in zip(sides[:p - 3], texts[:p - 3], strict=True):
            player = t.white if side == "w" else t.black
            assert t.send(player.reply(text)).outcome == "accepted", text
        return t

    table = table_at("cond")
    mine = table.white if owner == "w" else table.black
    theirs = table.white if passer == "w" else table.black
    body = f"{texts[p - 3]}\nif {texts[p - 2]} then {texts[p - 1]}\n"
    assert table.send(mine.reply(body)).outcome == "accepted"  # his answer forces a pass
    # a reply after which the player himself must pass cannot be answered: refused
    bad = f"{texts[p - 2]}\nif {texts[p - 1]} then {texts[p - 2]}\n"
    assert table.send(theirs.reply(bad)).outcome == "refused"
    assert "no legal turn and must pass, so no answer can follow it" in " ".join(
        text_of(theirs.last).split())
    assert table.send(theirs.reply(texts[p - 2])).outcome == "accepted"
    # the answer was played at once, and the referee wrote the pass after it
    labels = table.turns()
    assert len(labels) == p + 1 and standing(table, Side.WHITE) is None
    other = table_at("plain")
    for side, text in zip(sides[p - 3:p], texts[p - 3:p], strict=True):
        player = other.white if side == "w" else other.black
        assert other.send(player.reply(text)).outcome == "accepted"
    assert other.turns() == labels
    assert load_game(table.conn, table.game_id).record == load_game(
        other.conn, other.game_id).record


def test_one_line_left_standing_is_told_in_the_singular(home: Path) -> None:
    """'The 1 line nested under it stand for ...' read wrong."""
    table = new_table(home, "classic")
    assert table.send(table.white.reply("Eb5b2e2h2k2k5h5e5e8(xEd8)")).outcome == "accepted"
    black_set = ("Eh8k8k11h11e11e8(xEd9)\n"
                 "if Eh5h2e2e5e8(xEf9) then Ee11h11k11k8k5(xEk6)\n"
                 "  if Ee8e5e2h2k2k5(+Ed9,xEj5) then Eh11k11k8k5(xEl6)\n")
    assert table.send(table.black.reply(black_set)).outcome == "accepted"
    assert table.send(table.white.reply("Eh5h2e2e5e8(xEf9)")).outcome == "accepted"
    said = " ".join(text_of(table.black.last).split())
    assert "The 1 line nested under it stands for White's next turn." in said
