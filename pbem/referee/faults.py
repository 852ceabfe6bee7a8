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
