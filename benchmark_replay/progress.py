"""A one-line progress bar on stderr (no dependency, quiet when not a terminal)."""

from __future__ import annotations

import sys
from typing import TextIO

from .wall_clock import wall_clock


class Progress:
    """``[#####.....] 120/1902  6.3%  41.2 it/s  eta 43s``, redrawn at most 10 times a second.

    With ``total`` 0 (not known: a History CSV is read once) it shows only what is done and
    how fast, ``120 done  41.2 it/s``, on one line ended by ``close``.
    """

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self._start = wall_clock()
        self._drawn = 0.0

    def advance(self, count: int = 1) -> None:
        """Count finished items and redraw if due."""
        self.done += count
        now = wall_clock()
        if self.enabled and (now - self._drawn >= 0.1 or self._finished):
            self._drawn = now
            self._draw(now)

    @property
    def _finished(self) -> bool:
        return bool(self.total) and self.done >= self.total

    def _draw(self, now: float) -> None:
        elapsed = max(now - self._start, 1e-9)
        rate = self.done / elapsed
        if not self.total:
            self.stream.write(f"\r{self.done} done {rate:6.1f} it/s")
            self.stream.flush()
            return
        share = self.done / self.total
        eta = (self.total - self.done) / rate if rate else 0.0
        bar = "#" * int(share * 30)
        line = (
            f"\r[{bar:<30}] {self.done}/{self.total} {share:6.1%} {rate:6.1f} it/s eta {eta:4.0f}s"
        )
        self.stream.write(line)
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()

    def close(self) -> None:
        """End the line if it was drawn but not finished (always, when the total is unknown)."""
        if self.enabled and not self.total and self.done:
            self._draw(wall_clock())  # the last count, then the line ends
        if self.enabled and self.done and not self._finished:
            self.stream.write("\n")
            self.stream.flush()
        self.enabled = False  # closed: nothing more is drawn
