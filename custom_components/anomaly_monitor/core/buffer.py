"""A bounded, time-ordered buffer of recent transitions."""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta
import heapq

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

    def insert(self, transition: Transition) -> None:
        """Add a transition that may be older than the newest held (a state's start, read
        from HA when an entity begins to be watched), in its place in time order."""
        items = self._items
        if not items or items[-1].when <= transition.when:
            self.append(transition)
            return
        index = len(items)
        while index > 0 and items[index - 1].when > transition.when:
            index -= 1  # from the newest: a start is seconds old, rarely more
        if len(items) >= self.max_size:
            if index == 0:
                return  # older than everything held, and no room: never held
            items.popleft()
            self.dropped += 1
            index -= 1
        items.insert(index, transition)

    def merge(self, earlier: list[Transition]) -> None:
        """Put ``earlier`` (time order, from before what the watcher recorded of each of
        its entities, not before everything held) among what is held, in time order;
        beyond the cap the oldest are left out (not counted as dropped)."""
        if not earlier:
            return
        merged = list(heapq.merge(earlier, self._items, key=_when))
        self._items = deque(merged[-self.max_size :])

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


def _when(transition: Transition) -> datetime:
    return transition.when
