"""Golden files: rendered output compared byte for byte with ``tests/golden/NAME``.

Set ``PBEM_UPDATE_GOLDEN=1`` to rewrite the files instead of comparing (then read
the diff before committing it): renderers are deterministic, so any difference is
a change someone must look at.
"""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = "PBEM_UPDATE_GOLDEN"


def updating() -> bool:
    return os.environ.get(UPDATE, "") not in ("", "0")


def check_golden(name: str, text: str) -> None:
    """Fail unless ``text`` is exactly ``tests/golden/<name>`` (UTF-8, no newline
    translation); with ``PBEM_UPDATE_GOLDEN=1`` write it there instead."""
    path = GOLDEN / name
    data = text.encode("utf-8")
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        return
    if not path.exists():
        raise AssertionError(f"no golden file {path}; run with {UPDATE}=1 to create it")
    expected = path.read_bytes()
    if expected == data:
        return
    at = next(
        (i for i, (a, b) in enumerate(zip(expected, data, strict=False)) if a != b),
        min(len(expected), len(data)),
    )
    lo = max(0, at - 60)
    raise AssertionError(
        f"{name} differs from {path} at byte {at} "
        f"(golden {len(expected)} bytes, got {len(data)}):\n"
        f"  golden: {expected[lo : at + 60]!r}\n"
        f"  got:    {data[lo : at + 60]!r}\n"
        f"If the change is intended, rerun with {UPDATE}=1 and review the diff."
    )
