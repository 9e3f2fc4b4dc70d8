"""A bounded, time-ordered buffer of recent transitions."""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta

from .models import Transition


class TransitionBuffer:
    """Keeps transitions no older than ``window`` and never more than ``max_size``.

    Appending is O(1) amortised: old entries are only ever popped from the left.
    ``dropped`` counts transitions evicted by the hard cap before they aged out,
    which tells the user the window is too long for how busy the home is.
    """

    def __init__(self, window: timedelta, max_size: int) -> None:
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self.window = window
        self.max_size = max_size
        self.dropped = 0
        self._items: deque[Transition] = deque()

    def __len__(self) -> int:
        return len(self._items)

    def append(self, transition: Transition) -> None:
        """Add a transition (expected in time order) and evict what no longer fits."""
        items = self._items
        items.append(transition)
        if len(items) > self.max_size:
            items.popleft()
            self.dropped += 1
        self._expire(transition.when)

    def prepend(self, older: list[Transition]) -> None:
        """Put ``older`` (time order, all before what is held) in front; beyond the cap
        the oldest of them are left out (not counted as dropped: never held)."""
        room = self.max_size - len(self._items)
        if room > 0 and older:
            self._items.extendleft(reversed(older[-room:]))

    def snapshot(self, now: datetime) -> tuple[Transition, ...]:
        """Transitions inside the window ending at ``now``, oldest first."""
        self._expire(now)
        return tuple(self._items)

    def newest(self, count: int) -> list[Transition]:
        """The ``count`` most recent transitions (fewer if the buffer holds fewer), oldest first."""
        items = self._items
        count = min(count, len(items))
        return [items[i] for i in range(len(items) - count, len(items))] if count > 0 else []

    def clear(self) -> None:
        """Forget every transition (the dropped counter is kept)."""
        self._items.clear()

    def _expire(self, now: datetime) -> None:
        cutoff = now - self.window
        items = self._items
        while items and items[0].when < cutoff:
            items.popleft()
