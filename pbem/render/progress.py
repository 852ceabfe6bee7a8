"""A one-line progress bar for long batches, redrawn in place on a terminal.

It is drawn only on a terminal and never more often than ten times a second, so a
batch of 10,000 files pays for at most a few hundred redraws; piped output gets
nothing. ``clear`` before writing other lines to the same terminal keeps them apart.
"""

from __future__ import annotations

import shutil
import time
from typing import TextIO

#: seconds between redraws at most
INTERVAL = 0.1


class ProgressBar:
    """Files and games done, rate and ETA; a no-op when ``enabled`` is false."""

    def __init__(
        self, stream: TextIO, total_files: int, *, enabled: bool, unit: str = "files"
    ) -> None:
        self.stream = stream
        self.total = total_files
        #: what is counted: files, or parts when a big file is cut into pieces
        self.unit = unit
        self.enabled = enabled
        self.started = time.monotonic()
        self.last_draw = 0.0
        self.drawn = 0  # width of what is on the line now, 0 when nothing is
        self.files = 0
        self.games = 0

    def update(self, files: int, games: int) -> None:
        """Record how far the batch is; redraw if enough time has passed."""
        self.files, self.games = files, games
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last_draw >= INTERVAL:
            self.last_draw = now
            self._draw(now)

    def clear(self) -> None:
        """Erase the bar (if drawn), so that other text starts on a clean line."""
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0

    def close(self) -> None:
        self.clear()
        self.last_draw = 0.0

    def _draw(self, now: float) -> None:
        width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
        line = format_bar(self.files, self.total, self.games, now - self.started, width,
                          self.unit)
        pad = " " * max(0, self.drawn - len(line))
        self.stream.write("\r" + line + pad)
        self.stream.flush()
        self.drawn = len(line)


def format_bar(
    files: int, total: int, games: int, seconds: float, width: int, unit: str = "files"
) -> str:
    """``[#####.....] 1,234/10,000 files  2,345 games  512 games/s  ETA 0:12``, fit to width."""
    done = files / total if total else 1.0
    rate = games / seconds if seconds > 0 else 0.0
    eta = seconds * (total - files) / files if files else None
    tail = (
        f" {files:,}/{total:,} {unit}  {games:,} games  {rate:,.0f} games/s"
        f"  ETA {_clock(eta) if eta is not None else '?'}"
    )
    bar_width = min(30, width - len(tail) - 2)
    if bar_width < 5:
        return tail.strip()[:width]
    filled = int(bar_width * done)
    return f"[{'#' * filled}{'.' * (bar_width - filled)}]{tail}"


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
