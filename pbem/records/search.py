"""Finding record files: the paths given, and folders searched for ``*.realm``.

What cannot be searched is said, never skipped in silence: a folder that cannot be
read, a loop of symbolic links, a link to nothing, a path that is not there. Linked
folders are followed once; a link back into a folder being searched is a loop.
"""

from __future__ import annotations

import errno
import operator
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

SUFFIX = ".realm"
_NAME = operator.attrgetter("name")


@dataclass(slots=True)
class Found:
    """The record files found, in sorted order, and what was skipped (one line each)."""

    files: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def find_records(paths: Sequence[Path]) -> Found:
    """Files as given, and folders searched recursively for ``*.realm``, in sorted order."""
    found = Found()
    for path in paths:
        info = _stat(path, found, given=True)
        if info is None:
            continue
        if stat.S_ISDIR(info.st_mode):
            files: list[Path] = []
            _walk(path, {(info.st_dev, info.st_ino)}, files, found)
            # already in sorted order: each folder's entries are walked sorted by name, a
            # folder's files where its name sorts (sorting the paths again cost about a third
            # of finding 300 files: a path's comparison is a call of pathlib's own)
            found.files.extend(files)
        else:
            found.files.append(path)
    return found


def _walk(folder: Path, stack: set[tuple[int, int]], files: list[Path], found: Found) -> None:
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=_NAME)
    except OSError as exc:
        found.problems.append(f"{folder}: cannot read the folder: {exc.strerror or exc}")
        return
    for entry in entries:
        path = folder / entry.name
        plain = not entry.is_symlink()
        if plain and not entry.is_dir() and not entry.name.endswith(SUFFIX):
            continue  # another kind of file: not looked at
        if plain and entry.is_file(follow_symlinks=False):
            files.append(path)  # the folder's listing says what it is: no stat (10,000 files
            continue  # of an archive took 50 ms to find, half of it in stat)
        info = _stat(path, found, given=False)
        if info is None:
            continue
        if stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            if key in stack:
                found.problems.append(
                    f"{path}: a loop of symbolic links (it leads back to a folder above it); "
                    "skipped"
                )
                continue
            _walk(path, stack | {key}, files, found)
        elif entry.name.endswith(SUFFIX) and stat.S_ISREG(info.st_mode):
            files.append(path)


def _stat(path: Path, found: Found, *, given: bool) -> os.stat_result | None:
    """The file's status after links, or None with the reason noted (quietly for a
    dangling link whose name is no record's)."""
    try:
        return path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            found.problems.append(f"{path}: a loop of symbolic links; skipped")
        elif exc.errno == errno.ENOENT and given:
            found.problems.append(f"{path}: no such file or folder")
        elif exc.errno == errno.ENOENT:
            if path.name.endswith(SUFFIX):
                found.problems.append(f"{path}: a symbolic link to nothing; skipped")
        else:
            found.problems.append(f"{path}: cannot read it: {exc.strerror or exc}")
        return None
