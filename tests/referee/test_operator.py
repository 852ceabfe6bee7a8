"""The game master's commands on the command line: each in one transaction, each mailed
to both players, each refused in plain words when it cannot be done."""

from __future__ import annotations

from pathlib import Path

from tests.referee.conftest import MailPlayer, outbox_mails, run_pbem, text_of

T0 = "2026-12-01T10:00:00Z"


def _game(home: Path, clock: str = "days 3, claim") -> tuple[MailPlayer, MailPlayer]:
    proc = run_pbem(home, "new", "--white", "w@p.test", "--black", "b@p.test", "--clock", clock,
                    env={"PBEM_NOW": T0})
    assert proc.returncode == 0, proc.stderr
    w, b = MailPlayer("w@p.test"), MailPlayer("b@p.test")
    mails = outbox_mails(home)
    w.receive(mails)
    b.receive(mails)
    return w, b


def _op(home: Path, *args: str, now: str = T0):
    return run_pbem(home, *args, env={"PBEM_NOW": now})


def _last(home: Path, to: str):
    return [m for m in outbox_mails(home) if m["To"] == to][-1]


def test_pause_and_resume_move_the_deadline_and_tell_both(home: Path) -> None:
    _game(home)
    proc = _op(home, "pause", "1", now="2026-12-02T10:00:00Z")
    assert proc.returncode == 0, proc.stderr
    assert b"no deadline while the game is paused" in proc.stdout
    for who in ("w@p.test", "b@p.test"):
        mail = _last(home, who)
        assert mail["X-Pbem-Kind"] == "operator" and "paused" in text_of(mail)
    again = _op(home, "pause", "1", now="2026-12-02T11:00:00Z")
    assert again.returncode == 1 and b"already paused" in again.stderr
    # a tick far past the old deadline does nothing while paused
    assert b"0 claim(s)" in _op(home, "tick", now="2026-12-09T00:00:00Z").stdout
    proc = _op(home, "resume", "1", now="2026-12-04T10:00:00Z")
    assert proc.returncode == 0
    assert b"Sun 2026-12-06 10:00 UTC" in proc.stdout  # pushed back by the 2-day pause
    assert _op(home, "resume", "1").returncode == 1


def test_set_deadline(home: Path) -> None:
    _game(home)
    proc = _op(home, "set-deadline", "1", "2026-12-10 18:00")
    assert proc.returncode == 0, proc.stderr
    assert "Thu 2026-12-10 18:00 UTC" in text_of(_last(home, "b@p.test"))
    assert _op(home, "set-deadline", "1", "2026-11-01").returncode == 1
    assert _op(home, "set-deadline", "1", "soon").returncode == 2  # not a date: a usage error
    assert _op(home, "set-deadline", "9", "2026-12-10").returncode == 2


def test_adjudicate_ends_the_game_with_result_mails(home: Path) -> None:
    _game(home)
    assert _op(home, "adjudicate", "1", "maybe").returncode == 2  # not a result: a usage error
    proc = _op(home, "adjudicate", "1", "draw")
    assert proc.returncode == 0 and b"1/2-1/2" in proc.stdout
    assert _last(home, "w@p.test")["X-Pbem-Kind"] == "result"
    shown = run_pbem(home, "show", "1").stdout
    assert b"1/2-1/2 {adjudicated by the referee}" in shown
    assert _op(home, "adjudicate", "1", "1-0").returncode == 1
    assert _op(home, "pause", "1").returncode == 1  # over: nothing to pause


def test_rollback_removes_later_turns_and_tells_both(home: Path) -> None:
    w, b = _game(home)
    for player, turn in ((w, "Bh11"), (b, "Bh8"), (w, "Be8")):
        proc = run_pbem(home, "mail", stdin=player.reply(turn), env={"PBEM_NOW": T0})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        mails = outbox_mails(home)
        w.receive(mails)
        b.receive(mails)
    assert _op(home, "rollback", "1", "7w").returncode == 1  # no such turn
    assert _op(home, "rollback", "1", "2w").returncode == 1  # already there
    proc = _op(home, "rollback", "1", "1w")
    assert proc.returncode == 0, proc.stderr
    shown = run_pbem(home, "show", "1").stdout.decode()
    assert "1.Bh11" in shown and "Bh8" not in shown
    mail = _last(home, "b@p.test")
    assert mail["X-Pbem-Kind"] == "operator" and "rolled back to after #1w" in (
        text_of(mail))
    # Black moves again, from where the game now is
    mails = outbox_mails(home)
    b.receive(mails)
    proc = run_pbem(home, "mail", stdin=b.reply("Bb2"), env={"PBEM_NOW": T0})
    assert proc.returncode == 0, proc.stdout
    assert "1.Bh11 Bb2" in run_pbem(home, "show", "1").stdout.decode()


def test_a_rollback_can_be_undone_until_play_goes_on(home: Path) -> None:
    w, b = _game(home)
    for player, turn in ((w, "Bh11"), (b, "Bh8"), (w, "Be8")):
        assert run_pbem(home, "mail", stdin=player.reply(turn),
                        env={"PBEM_NOW": T0}).returncode == 0
        mails = outbox_mails(home)
        w.receive(mails)
        b.receive(mails)
    before = run_pbem(home, "show", "1").stdout.decode()
    rolled = _op(home, "rollback", "1", "start")
    assert rolled.returncode == 0
    assert b"the game is rolled back to the start (" in rolled.stdout  # not 'after the start'
    assert "Bh11" not in run_pbem(home, "show", "1").stdout.decode()
    proc = _op(home, "rollback", "1", "--undo")
    assert proc.returncode == 0, proc.stderr
    assert run_pbem(home, "show", "1").stdout.decode() == before
    mail = _last(home, "b@p.test")
    assert "is undone" in " ".join(text_of(mail).split()) and "l  k  j" in text_of(mail).replace(
        "   ", "  ")  # Black's board, from Black's side
    assert _op(home, "rollback", "1", "--undo").returncode == 1  # nothing left to undo
    # once the game goes on from a rollback, it cannot be undone any more
    assert _op(home, "rollback", "1", "1w").returncode == 0
    b.receive(outbox_mails(home))
    assert run_pbem(home, "mail", stdin=b.reply("Bb2"), env={"PBEM_NOW": T0}).returncode == 0
    refused = _op(home, "rollback", "1", "--undo")
    assert refused.returncode == 1 and b"played since" in refused.stderr


def test_rolling_back_a_finished_game_needs_force(home: Path) -> None:
    w, _ = _game(home)
    assert run_pbem(home, "mail", stdin=w.reply("Bh11"), env={"PBEM_NOW": T0}).returncode == 0
    assert _op(home, "adjudicate", "1", "1-0").returncode == 0
    refused = _op(home, "rollback", "1", "1w")
    assert refused.returncode == 1 and b"--force" in refused.stderr
    assert b"1-0" in run_pbem(home, "show", "1").stdout
    assert _op(home, "rollback", "1", "1w", "--force").returncode == 0
    shown = run_pbem(home, "show", "1").stdout.decode()
    assert "1-0" not in shown and "1.Bh11" in shown
    assert _op(home, "rollback", "1", "--undo").returncode == 0
    assert "1-0" in run_pbem(home, "show", "1").stdout.decode()


def test_game_master_commands_have_help(home: Path) -> None:
    for name in ("tick", "pause", "resume", "set-deadline", "adjudicate", "rollback"):
        proc = run_pbem(home, name, "--help")
        assert proc.returncode == 0 and b"usage" in proc.stdout
