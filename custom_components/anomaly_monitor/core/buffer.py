"""A bounded, time-ordered buffer of recent transitions."""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta
import heapq

from .home import UNAVAILABLE_STATES
from .models import Transition
from .state_blips import BLIP_LIMIT

# A state back after no state this soon (a restart's moment of ``unknown``) is the same
# run: the door open before HA restarted is open since then, not since it came back. A
# longer drop is a real gap, as the window reads it (``state_blips``).
BRIDGED = BLIP_LIMIT

# An entity's newest real state, when it began, and since when it reads no state (None
# while it reads that state).
type Run = tuple[str, datetime, datetime | None]


class TransitionBuffer:
    """Keeps transitions no older than ``window`` and never more than ``max_size``.

    Appending is O(1) amortised: old entries are only ever popped from the left.
    ``dropped`` counts transitions evicted by the hard cap before they aged out,
    which tells the user the window is too long for how busy the home is.

    ``began`` keeps, past the window, when each entity's newest state began: a door open
    since before the window has no change in it, and HA's ``last_changed`` is its restart
    (walk 38: "open for 37 min (from 11:17)" of a door the recorder had open since 09:47).
    """

    def __init__(self, window: timedelta, max_size: int) -> None:
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self.window = window
        self.max_size = max_size
        self.dropped = 0
        self._items: deque[Transition] = deque()
        self._runs: dict[str, Run] = {}

    def __len__(self) -> int:
        return len(self._items)

    def append(self, transition: Transition) -> None:
        """Add a transition (expected in time order) and evict what no longer fits."""
        items = self._items
        items.append(transition)
        if (run := _next_run(self._runs.get(transition.entity_id), transition)) is not None:
            self._runs[transition.entity_id] = run
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
        self._rerun({transition.entity_id})

    def merge(self, earlier: list[Transition]) -> None:
        """Put ``earlier`` (time order, from before what the watcher recorded of each of
        its entities, not before everything held) among what is held, in time order;
        beyond the cap the oldest are left out (not counted as dropped)."""
        if not earlier:
            return
        merged = list(heapq.merge(earlier, self._items, key=_when))
        self._items = deque(merged[-self.max_size :])
        self._rerun({t.entity_id for t in earlier})

    def began(self, entity_id: str) -> tuple[str, datetime] | None:
        """The entity's state as recorded and when it began (the first of an unbroken run of
        it, a short spell of no state within), though that change has left the window; None
        if none was recorded or it reads no state now."""
        run = self._runs.get(entity_id)
        return None if run is None or run[2] is not None else (run[0], run[1])

    def _rerun(self, entity_ids: set[str]) -> None:
        """Each entity's run again from what is held, after a change put among older ones.
        What is held decides where it shows the state changing; where it shows one state
        only, the run kept may be older (its start aged out) and stays."""
        held: dict[str, Run] = {}
        changed: set[str] = set()
        for transition in self._items:
            if (entity_id := transition.entity_id) not in entity_ids:
                continue
            before = held.get(entity_id)
            if (run := _next_run(before, transition)) is None:
                continue
            if before is not None and run[1] != before[1]:
                changed.add(entity_id)
            held[entity_id] = run
        for entity_id, run in held.items():
            kept = self._runs.get(entity_id)
            if entity_id in changed or kept is None or kept[0] != run[0] or run[1] < kept[1]:
                self._runs[entity_id] = run
            else:
                self._runs[entity_id] = (kept[0], kept[1], run[2])

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
        self._runs.clear()

    def _expire(self, now: datetime) -> None:
        cutoff = now - self.window
        items = self._items
        while items and items[0].when < cutoff:
            items.popleft()


def _when(transition: Transition) -> datetime:
    return transition.when


def _next_run(run: Run | None, transition: Transition) -> Run | None:
    """The run after ``transition``: no state keeps it (noting since when), its state again
    soon after goes on with it, any other state begins a new one."""
    if transition.state in UNAVAILABLE_STATES:
        if run is None:
            return None
        return run if run[2] is not None else (run[0], run[1], transition.when)
    soon = run is not None and (run[2] is None or transition.when - run[2] <= BRIDGED)
    if run is not None and soon and run[0] == transition.state:
        return (run[0], run[1], None)
    return (transition.state, transition.when, None)
