"""A test-only hook: ``PBEM_FAULT=<point>`` kills the process at that point.

The kill tests run ``pbem mail`` with it set and check that a second run loses
nothing and does nothing twice. Unset (always, in real use), it costs one lookup.
"""

from __future__ import annotations

import os
import signal

POINTS = ("before-commit", "after-commit", "after-send")


def fault_point(name: str) -> None:
    if os.environ.get("PBEM_FAULT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


class InjectedFault(RuntimeError):
    """The failure ``PBEM_FAULT=fail-mail:<text>`` asks for."""


def fail_mail(raw: bytes) -> None:
    """``PBEM_FAULT=fail-mail:<text>``: handling a mail that contains ``<text>`` fails, as a
    bug would, so that the tests can see one bad mail put aside and the poll go on."""
    wanted = os.environ.get("PBEM_FAULT", "")
    if wanted.startswith("fail-mail:") and wanted[10:].encode() in raw:
        raise InjectedFault(f"injected failure ({wanted})")
