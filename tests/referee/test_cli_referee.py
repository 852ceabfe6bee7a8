"""The referee's commands as a player's MTA and an operator run them: new processes."""

from __future__ import annotations

import mailbox
from pathlib import Path

from tests.referee.conftest import (
    MailPlayer,
    SmtpSink,
    free_port,
    init_home,
    outbox_mails,
    run_pbem,
)


def _new(home: Path) -> tuple[int, MailPlayer, MailPlayer]:
    proc = run_pbem(home, "new", "--white", "w@p.test", "--black", "b@p.test", "--name", "Cli")
    assert proc.returncode == 0, proc.stderr
    white, black = MailPlayer("w@p.test"), MailPlayer("b@p.test")
    mails = outbox_mails(home)
    white.receive(mails)
    black.receive(mails)
    return int(proc.stdout), white, black


def test_init_is_idempotent_and_asks_nothing(tmp_path: Path) -> None:
    home = tmp_path / "h"
    first = run_pbem(home, "init")
    assert first.returncode == 0 and (home / "config.yaml").is_file()
    assert (home / "outbox" / "new").is_dir() and (home / "inbox" / "new").is_dir()
    again = run_pbem(home, "init")
    assert again.returncode == 0 and b"already set up" in again.stdout


def test_commands_without_a_home_say_so(tmp_path: Path) -> None:
    proc = run_pbem(tmp_path / "nothing", "games")
    assert proc.returncode == 2 and b"pbem init" in proc.stderr


def test_new_games_show_and_log(home: Path) -> None:
    game_id, white, _ = _new(home)
    games = run_pbem(home, "games")
    listed = games.stdout.decode()
    # names, whose turn, the deadline and the ruleset
    assert f"{game_id:>4}  Cli: w@p.test (White) v b@p.test (Black); White to move (#1w)" in listed
    assert "ruleset featured" in listed and "White to move by " in listed
    assert run_pbem(home, "mail", stdin=white.reply("Bh11")).returncode == 0
    refused = run_pbem(home, "mail", stdin=white.reply("Be8"))
    assert refused.returncode == 1 and refused.stdout.startswith(b"refused")
    show = run_pbem(home, "show", str(game_id))
    assert show.returncode == 0 and b"1.Bh11" in show.stdout and b"ruleset: featured" in show.stdout
    log = run_pbem(home, "show", str(game_id), "--log").stdout.decode()
    assert "accepted" in log and "refused: it is not your turn" in log
    assert "mail report to w@p.test" in log
    assert run_pbem(home, "show", "99").returncode == 2


def test_bad_input_gives_exit_2_and_no_traceback(home: Path) -> None:
    for stdin in (b"", b"just some words\nno headers\n"):
        proc = run_pbem(home, "mail", stdin=stdin)
        assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert run_pbem(home, "new", "--white", "nope", "--black", "b@p.test").returncode == 2
    assert run_pbem(home, "new", "--white", "a@p.test", "--black", "b@p.test",
                    "--ruleset", "nosuch").returncode == 2


def test_mta_mode_answers_zero_for_a_refusal(home: Path) -> None:
    _, white, _ = _new(home)
    proc = run_pbem(home, "mail", "--mta", stdin=white.reply("Pz99"))
    assert proc.returncode == 0 and proc.stdout.startswith(b"refused")


def test_poll_handles_a_maildir_and_marks_each_message_seen(home: Path) -> None:
    _, white, black = _new(home)
    inbox = mailbox.Maildir(str(home / "inbox"))
    inbox.add(white.reply("Bh11"))
    inbox.add(black.reply("Board"))
    inbox.add(b"From: x@y.test\nSubject: hi\nMessage-ID: <s@y.test>\n\nhello\n")
    proc = run_pbem(home, "poll")
    assert proc.returncode == 0, proc.stderr
    assert b"3 messages" in proc.stdout
    assert not list((home / "inbox" / "new").iterdir())
    assert all(":2,S" in p.name for p in (home / "inbox" / "cur").iterdir())
    assert run_pbem(home, "poll").stdout.startswith(b"0 messages")


def test_a_failed_smtp_delivery_stays_queued_and_is_retried(tmp_path: Path) -> None:
    port = free_port()
    home = init_home(tmp_path / "h", smtp={"host": "127.0.0.1", "port": port, "timeout": 5,
                                           "username": "ref", "password": "pw"})
    proc = run_pbem(home, "new", "--white", "w@p.test", "--black", "b@p.test")
    assert proc.returncode == 0 and b"delivery failed, will retry" in proc.stderr
    flush = run_pbem(home, "flush")
    assert flush.returncode == 5 and b"2 still queued" in flush.stdout
    sink = SmtpSink(auth=("ref", "pw"))
    sink.controller.port = port
    sink.start()
    try:
        flush = run_pbem(home, "flush")
        assert flush.returncode == 0, flush.stderr
        assert len(sink.received) == 2
        # each mail's own return path (VERP), on the referee's address
        assert all(r.envelope_from.startswith("referee+bounce-")
                   and r.envelope_from.endswith("@pbem.test") for r in sink.received)
        assert run_pbem(home, "flush").stdout.startswith(b"0 sent")
        assert len(sink.received) == 2
    finally:
        sink.stop()


def test_every_referee_command_has_help() -> None:
    for command in ("init", "new", "games", "show", "mail", "poll", "flush"):
        proc = run_pbem(Path("."), command, "--help")
        assert proc.returncode == 0 and len(proc.stdout) > 200, command
