"""find_records gives a folder's records in sorted path order without sorting them again:
the walk visits each folder's entries sorted by name, so its order is the sorted one."""

from __future__ import annotations

from pathlib import Path

from pbem.records.search import find_records

NAMES = (
    "b.realm", "a.realm", "a/z.realm", "a/b/c.realm", "a-b/x.realm", "a.b/y.realm",
    "B.realm", "a0/q.realm", "A/a.realm", "a/ä.realm", "z/a/b/c/d.realm", "a/b.realm",
)


def test_the_walk_order_is_the_sorted_order(tmp_path: Path):
    for name in NAMES:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("1.Bb11 Bh2\n")
    (tmp_path / "a" / "notes.txt").write_text("not a record")
    found = find_records([tmp_path])
    assert found.files == sorted(tmp_path / n for n in NAMES) and not found.problems
    assert len(found.files) == len(NAMES)
