"""docs/architecture.md is a map: every file it names must exist in the checkout."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_path_the_map_names_exists() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    paths = set(re.findall(r"`((?:pbem|grammar|templates|games|tests)/[^`*]*?)`", text))
    assert len(paths) > 30, "the map names too few files: is the pattern wrong?"
    missing = sorted(p for p in paths if not (ROOT / p.rstrip("/")).exists())
    assert not missing, missing


def test_the_map_shows_where_a_turn_is_checked_and_a_report_written() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert "**Where a mailed turn is checked:** `pbem/referee/commands/turn.py`" in text
    assert "**Where a report is written:**" in text
