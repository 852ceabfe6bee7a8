"""`pbem poll` takes a Maildir's mail in the order it arrived, also within one second."""

from __future__ import annotations

import mailbox
from pathlib import Path

from pbem.referee.intake.sources import MaildirSource

# (name, arrival rank): the same second; microseconds of different lengths; counters
# past 9, which compare wrongly as text
NAMES = [
    ("1700000000.M99999P7Q1.host", 0),
    ("1700000000.M100000P7Q9.host", 1),
    ("1700000000.M100000P7Q10.host", 2),
    ("1700000000.M100000P7Q11.host", 3),
    ("1700000001.M5P7Q12.host", 4),
]


def test_mail_delivered_in_one_second_is_read_in_delivery_order(tmp_path: Path) -> None:
    mailbox.Maildir(str(tmp_path / "md"))  # makes new/, cur/, tmp/
    for name, rank in reversed(NAMES):
        (tmp_path / "md" / "new" / name).write_bytes(f"Subject: {rank}\n\nbody\n".encode())
    source = MaildirSource(tmp_path / "md")
    ranks = [int(raw.split(b"\n", 1)[0].split()[1]) for _, raw in source.messages()]
    assert ranks == [0, 1, 2, 3, 4]
