"""A one-line progress bar on stderr (no dependency, quiet when not a terminal)."""

from __future__ import annotations

import sys
from typing import TextIO

from .wall_clock import wall_clock


class Progress:
    """``[#####.....] 120/1902  6.3%  41.2 it/s  eta 43s``, redrawn at most 10 times a second."""

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
        if self.enabled and (now - self._drawn >= 0.1 or self.done >= self.total):
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self._start, 1e-9)
        rate = self.done / elapsed
        share = self.done / self.total if self.total else 1.0
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
        """End the line if the bar was drawn but not finished."""
        if self.enabled and 0 < self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()
        self.enabled = False  # closed: nothing more is drawn
