"""Mail about a player rather than a game: vacation, games, digest, observe, challenges;
and the game conveniences moves and takeback. Keys guard all of it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
import yaml

from tests.referee.clocked import FakeNow, clocked_table, game_row, kinds, referee_at, tick
from tests.referee.conftest import MailPlayer, outbox_mails, text_of
from tests.referee.helpers import Table


@pytest.fixture
def now() -> FakeNow:
    return FakeNow()


def bare(sender: str, body: str, subject: str = "hello") -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "referee@pbem.test", subject
    msg["Message-ID"] = make_msgid(domain="x.test")
    msg.set_content(body)
    return msg.as_bytes()


def test_vacation_by_mail_stops_the_clock_and_tells_the_opponent(home: Path,
                                                                 now: FakeNow) -> None:
    table = clocked_table(home, now)
    handled = table.send(table.black.reply("vacation 2026-12-02 to 2026-12-04"))
    assert handled.outcome == "accepted", handled.reason
    assert "Vacation booked: 2026-12-02 to 2026-12-04" in text_of(table.black.last)
    told = text_of(table.white.last)
    assert table.white.last["X-Pbem-Kind"] == "notice"
    assert "Black (black@players.test) will be on vacation 2026-12-02 to 2026-12-04" in told
    # White's deadline moved back by the 3 days of Black's vacation
    assert "White to move by Mon 2026-12-07 10:00 UTC" in told
    assert told.count("2026-12-02") == 1  # the dates are said once, not again by the clock
    now.set(datetime(2026, 12, 3, 12, tzinfo=UTC))
    assert table.send(table.white.reply("board")).outcome == "info"
    assert "Black is on vacation until 2026-12-04; the clock is stopped." in text_of(
        table.white.last)
    now.set(datetime(2026, 12, 5, 12, tzinfo=UTC))  # past the old deadline
    assert tick(table).claims_opened == 0


def test_vacation_refusals_and_overlaps(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    late = table.send(table.white.reply("vacation 2026-12-01"))
    assert late.outcome == "refused" and "tomorrow" in (late.reason or "")
    assert table.send(table.white.reply("vacation 2026-12-10 to 2026-12-20")).outcome == \
        "accepted"
    # overlapping: merged, the shared days counted once
    assert table.send(table.white.reply("vacation 2026-12-15 to 2026-12-25")).outcome == \
        "accepted"
    assert "2026-12-10 to 2026-12-25" in text_of(table.white.last)
    assert "14 day(s) of 2026 left" in text_of(table.white.last)
    too_much = table.send(table.white.reply("vacation 2026-12-26 to 2027-01-31"))
    assert too_much.outcome == "refused"
    assert table.send(table.white.reply("vacation cancel")).outcome == "accepted"
    assert "16 day(s) given back" in text_of(table.white.last)


def test_a_forged_vacation_is_refused(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    before = kinds(table).count(("notice", "white@players.test"))
    handled = table.send(bare("black@players.test", "vacation 2026-12-02 to 2026-12-30"))
    assert handled.outcome == "refused" and "key" in (handled.reason or "")
    assert "forgery" in text_of(table.black.last)  # the real player hears of it
    assert kinds(table).count(("notice", "white@players.test")) == before  # nothing told
    assert table.conn.execute("SELECT vacations FROM accounts WHERE email = ?",
                              ("black@players.test",)).fetchone()[0] == '{"vacations": []}'
    assert table.send(bare("nobody@else.test", "vacation 2026-12-02")).outcome == \
        "unknown-sender"


def test_a_key_line_works_without_a_game_tag(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    handled = table.send(bare("white@players.test", f"games\nkey {table.token('w')}"))
    assert handled.outcome == "info", handled.reason
    listing = text_of(table.white.last)
    assert f"game {table.game_id} (T): you play White v black@players.test; your move" in \
        listing
    # the reply carries the player's own key, so replying to it works too
    assert table.send(table.white.reply("games")).outcome == "info"


def test_player_commands_do_not_mix_with_turns(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    handled = table.send(table.white.reply("Bh11\nvacation 2026-12-10"))
    assert handled.outcome == "refused" and "mail of its own" in (handled.reason or "")
    assert table.turns() == []


def test_moves_lists_the_legal_actions(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    assert table.send(table.white.reply("moves")).outcome == "info"
    text = text_of(table.white.last)
    assert "set-up, White places a Base: Bb2 Be2" in text and "(16)" in text


def test_moves_in_play_are_grouped_by_piece_as_pbem_moves_prints_them(home: Path, now: FakeNow):
    table = clocked_table(home, now)
    setup = ["Bh11", "Bh2", "Be8", "Be5", "Bb5", "Bb8", "Pi10", "Pg3", "Pf7", "Pd6", "Pc4", "Pc9"]
    for i, text in enumerate(setup):
        player = table.white if i % 2 == 0 else table.black
        assert table.send(player.reply(text)).outcome == "accepted", text
    assert table.send(table.white.reply("moves")).outcome == "info"
    text = text_of(table.white.last)
    assert "Legal moves" in text  # per piece, as a player thinks (issue 23.7)
    assert "Power on i10 (Pi10...): " in text and "Pi10i6(Bh5)" in text
    assert "Rearrangement of the b5 Realm (Rb5(...)): 7 ways" in text


def test_takeback_needs_the_opponents_consent(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("accept takeback")).outcome == "refused"
    assert table.send(table.white.reply("takeback")).outcome == "accepted"
    assert "asks to take back the last turn played (#1w)" in text_of(table.black.last)
    assert table.send(table.white.reply("accept takeback")).outcome == "refused"
    now.advance(hours=2)
    assert table.send(table.black.reply("accept takeback")).outcome == "accepted"
    assert table.turns() == []
    assert "1w is taken back" in text_of(table.white.last)
    record = game_row(table)["record"]
    assert "Bh11" not in record
    # White moves again, with a fresh clock from the takeback
    assert table.send(table.white.reply("Be8")).outcome == "accepted"
    assert "Black to move by Fri 2026-12-04 12:00 UTC" in text_of(table.black.last)


def test_a_takeback_in_a_refused_mail_leaves_no_trace(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.white.reply("takeback")).outcome == "accepted"
    handled = table.send(table.black.reply("accept takeback\nresign\nresign"))
    assert handled.outcome == "refused"
    assert table.turns() == ["1w"]  # the takeback was undone with the rest


def test_observers_get_reports_and_not_refusals(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    other = clocked_table(home, now, white="carol@players.test", black="dave@players.test")
    carol = other.white
    assert other.send(carol.reply(f"observe {table.game_id}")).outcome == "accepted"
    assert other.send(carol.reply(f"observe {other.game_id}")).outcome == "refused"
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    mine = [m for m in outbox_mails(home) if m["To"] == "carol@players.test"]
    assert mine[-1]["X-Pbem-Kind"] == "report"
    assert f"(you observe game {table.game_id})" in mine[-1]["Subject"]
    assert table.send(table.white.reply("Bh11")).outcome == "refused"
    assert len([m for m in outbox_mails(home) if m["To"] == "carol@players.test"]) == len(mine)
    carol.receive(outbox_mails(home))
    assert other.send(carol.reply("unobserve")).outcome == "accepted"
    assert table.send(table.black.reply("Bh8")).outcome == "accepted"
    assert len([m for m in outbox_mails(home) if m["To"] == "carol@players.test"]) == \
        len(mine) + 1  # only the unobserve reply


def test_digest_holds_reports_and_tick_sends_one_a_day(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    assert table.send(table.black.reply("digest on")).outcome == "accepted"
    before = [k for k in kinds(table) if k[1] == "black@players.test"]
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert table.send(table.black.reply("Bh8")).outcome == "accepted"
    assert table.send(table.white.reply("Be8")).outcome == "accepted"
    black_mails = [k for k in kinds(table) if k[1] == "black@players.test"]
    assert [k for k in black_mails[len(before):] if k[0] == "report"] == []
    now.set(datetime(2026, 12, 1, 17, 59, tzinfo=UTC))
    assert tick(table).digests == 0  # before the digest hour (18)
    now.set(datetime(2026, 12, 1, 18, 0, tzinfo=UTC))
    assert tick(table).digests == 1
    assert tick(table).digests == 0
    digest = table.black.last
    assert digest["X-Pbem-Kind"] == "digest"
    assert "3 reports since" in text_of(digest) and "#1w played" in text_of(digest)
    game = table.conn.execute("SELECT name FROM games WHERE id = ?",
                              (table.game_id,)).fetchone()[0]
    assert f"\n  {game}: #1w played; " in text_of(digest)  # which game, for a player of several
    # refusals are never held (prose after a turn is left aside; a second turn refuses)
    assert table.send(table.black.reply("Bk11 then Be5", quote=False)).outcome == "refused"
    assert table.black.last["X-Pbem-Kind"] == "refusal"
    now.advance(hours=1)
    handled = table.send(table.black.reply("Be5"))
    assert handled.outcome == "accepted", handled.reason
    assert table.send(table.white.reply("Bb5")).outcome == "accepted"
    assert tick(table).digests == 0  # one a day
    now.set(datetime(2026, 12, 2, 18, 0, tzinfo=UTC))
    assert tick(table).digests == 1


def _open_registration(home: Path) -> None:
    cfg = home / "config.yaml"
    data = yaml.safe_load(cfg.read_text())
    data["challenges"]["open_registration"] = True
    data["challenges"]["max_open"] = 1
    cfg.write_text(yaml.safe_dump(data))


def test_challenge_accept_starts_a_game(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now)
    white = table.white
    handled = table.send(white.reply("challenge newbie@fresh.test ruleset featured days 5"))
    assert handled.outcome == "accepted", handled.reason
    said = " ".join(text_of(white.last).split())  # not '(featured; Time control: ... Rated.)'
    assert "Challenge 1 sent to newbie@fresh.test: featured. Time control: 5 days a turn" in said
    assert said.endswith("Rated. You play White if it is accepted.")
    newbie = MailPlayer("newbie@fresh.test")
    newbie.receive(outbox_mails(home))
    invite = newbie.last
    assert invite["X-Pbem-Kind"] == "challenge" and "accept challenge 1" in text_of(invite)
    # a forged acceptance (no key) starts nothing
    forged = table.send(bare("newbie@fresh.test", "accept challenge 1"))
    assert forged.outcome == "refused"
    assert table.send(newbie.reply("accept challenge 1")).outcome == "accepted"
    game = table.conn.execute("SELECT * FROM games WHERE name = 'Challenge 1'").fetchone()
    assert game is not None and game["status"] == "playing"
    assert '"days": 5' in game["clock_settings"]
    newbie.receive(outbox_mails(home))
    white.receive(outbox_mails(home))
    invitations = list({m["Message-ID"]: m for m in outbox_mails(home)
                        if m["X-Pbem-Kind"] == "invitation" and "Challenge 1" in m["Subject"]
                        }.values())
    assert len(invitations) == 2
    assert all("5 days a turn" in text_of(m) for m in invitations)
    assert "You play: White" in text_of(next(m for m in invitations if m["To"] == white.address))
    assert "accepted by newbie@fresh.test" in text_of(white.last)
    again = table.send(newbie.reply("accept challenge 1", to=invite))
    assert again.outcome == "refused"


def test_challenge_decline_limits_and_registration(home: Path, now: FakeNow) -> None:
    _open_registration(home)
    table = clocked_table(home, now)
    table = Table(home, referee_at(home, now), table.game_id, table.white, table.black)
    assert table.send(table.white.reply("challenge a@x.test")).outcome == "accepted"
    over = table.send(table.white.reply("challenge b@x.test"))
    assert over.outcome == "refused" and "most this referee allows" in (over.reason or "")
    assert table.send(table.white.reply("challenge white@players.test")).outcome == "refused"
    for own in ("referee@pbem.test", "Referee+g1@PBEM.test"):  # the referee, plus-address too
        refused = table.send(table.white.reply(f"challenge {own}"))
        assert refused.outcome == "refused" and "the referee does not play" in (
            refused.reason or ""), refused.reason
    a = MailPlayer("a@x.test")
    a.receive(outbox_mails(home))
    assert table.send(a.reply("decline challenge")).outcome == "accepted"
    assert "declined" in text_of(table.white.last)
    # open registration: a stranger gets a key, and nothing else happens
    stranger = MailPlayer("s@new.test")
    assert table.send(bare("s@new.test", "challenge white@players.test")).outcome == \
        "unknown-sender"
    stranger.receive(outbox_mails(home))
    assert stranger.last["X-Pbem-Kind"] == "welcome"
    assert table.conn.execute("SELECT COUNT(*) FROM challenges").fetchone()[0] == 1
    assert table.send(stranger.reply("challenge white@players.test")).outcome == "accepted"


def test_existing_games_without_a_clock_keep_working(home: Path, now: FakeNow) -> None:
    table = clocked_table(home, now, clock=None)
    assert table.send(table.white.reply("claim")).outcome == "refused"
    now.advance(days=30)
    assert table.send(table.white.reply("Bh11")).outcome == "accepted"
    assert "no deadlines" in text_of(table.black.last)
    _ = timedelta
