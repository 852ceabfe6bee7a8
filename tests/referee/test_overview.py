"""The referee's words for the operator's terminal are made by the referee (issue 24 part 4):
``pbem games``, ``show``, ``poll``, ``flush`` and ``check-mail`` only print them."""

from __future__ import annotations

from pbem.referee.entry.overview import NO_GAMES, poll_line
from pbem.referee.outgoing.delivery import Delivery
from pbem.referee.outgoing.signing import MailCheck


def test_poll_line_counts_by_outcome_and_in_number() -> None:
    assert poll_line({}, 0) == "0 messages"
    assert poll_line({"played": 1}, 0) == "1 message: 1 played"
    assert poll_line({"refused": 1, "played": 2}, 1) == (
        "3 messages: 2 played, 1 refused; 1 not handled")


def test_flush_line_names_given_up_only_when_some_were() -> None:
    assert Delivery(sent=2, failed=1).describe() == "2 sent, 1 still queued"
    assert Delivery(sent=0, failed=0, given_up=["a", "b"]).describe() == (
        "0 sent, 0 still queued, 2 given up")


def test_check_mail_lines_problems_records_then_notes() -> None:
    ok = MailCheck(problems=[], records=[("d._domainkey.x.test", "TXT", "v=DKIM1")],
                   notes=["n"])
    assert ok.lines("r@x.test", "x.test") == [
        "ok: mail from r@x.test is DKIM-signed for x.test", "", "Publish in DNS:",
        'd._domainkey.x.test. IN TXT "v=DKIM1"', "", "note: n"]
    bad = MailCheck(problems=["p"], records=[], notes=[])
    assert bad.lines("r@x.test", "")[:2] == ["problem: p", ""]


def test_no_games_says_how_to_start_one() -> None:
    assert "pbem new --white" in NO_GAMES
