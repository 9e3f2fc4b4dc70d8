"""A state blip: an entity reads no state for a few seconds and comes back as it was.

Home Assistant writes ``unknown`` (template entities) or ``unavailable`` (many
integrations) for each entity for a moment while it starts, and a radio can lose a device
for a few seconds: the garage door reads ``on`` -> ``unknown`` (1 s) -> ``on`` across a
restart. Nothing happened to the door. Taken as two changes, every "how long" was cut
there (seen in a live hass: the door open since 06:34 was told after a restart as the
spell *before* it, without "and still is"; a plug that stopped cycling began its idle
spell again at each restart). So a blip is not a state change for spells, durations,
cycles and stays: the spell goes on across it.

*A blip*: a run of no-states (``unknown``, ``unavailable``, ``none``, an empty state)
lasting at most ``BLIP_LIMIT``, between the same state, or between two readings of a
numeric sensor (its spells, idle or running, are judged on the readings themselves: a
reading missing for seconds changes none of them). A no-state that ends in another state
(the door closed while HA restarted) or is still on now is kept: it is not a blip.

``BLIP_LIMIT`` is 60 s: HA's start-up writes the real state once the integration has read
the device, within a second for template and helper entities and within its first update
for polled ones (HA itself started in 1-11 s in the live walks, under load). In the real
homes' recordings of the development data, no-state runs between the same state last
1.5-18 s or 64 s and more (minutes: outages, the offline grace's business): 60 s parts the
two. A radio drop that short cannot hide what matters to a spell. Longer gaps stay changes.

Two places apply it, with this one notion: ``HomeView.history`` (the analysed window: the
watcher's record and the recorder's read-back after a restart) and ``BlipHold`` (the
baselines' stream, learned from the recorder's rows and the live changes). Device health
does not: it reads the record as it was (``HomeView.recorded``), where a few-second drop
is a drop; it is told only as one of ``FLAPPING_SPELLS`` drops in a window (a failing
device or a jammed radio), never on its own, being far within the offline grace
(``core/offline.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from .models import Transition, parse_number

# At most this long without a state is a blip (see the module's text for why 60 s).
BLIP_LIMIT = timedelta(seconds=60)
# What HA (and the datasets) write for "no state".
NO_STATES = frozenset({"unknown", "unavailable", "none", ""})


def is_no_state(state: str | None) -> bool:
    """``unknown``, ``unavailable``, ``none``, empty or missing: the device says nothing."""
    if state is None:
        return True
    said = _SAID.get(state)  # asked of every transition of every window: kept per text
    if said is None:
        if len(_SAID) >= _SAID_KEPT:
            _SAID.clear()
        said = _SAID[state] = state.strip().lower() in NO_STATES
    return said


_SAID: dict[str, bool] = {}
_SAID_KEPT = 4096  # then forgotten at once: a bound, not a policy


def continues(before: str, after: str) -> bool:
    """Whether a spell in ``before`` goes on as ``after`` across a blip: the same state, or
    two readings of a numeric sensor."""
    if before == after:
        return True
    return parse_number(before) is not None and parse_number(after) is not None


def without_blips(transitions: Sequence[Transition]) -> list[Transition]:
    """One entity's transitions (time order) without the no-states of its blips."""
    if not any(is_no_state(t.state) for t in transitions):
        return list(transitions)  # nearly every entity: nothing to look at
    kept: list[Transition] = []
    gap: list[Transition] = []  # the no-states since the last real state
    for transition in transitions:
        if is_no_state(transition.state):
            gap.append(transition)
            continue
        before = kept[-1].state if kept else None
        blip = (
            bool(gap)
            and before is not None
            and transition.when - gap[0].when <= BLIP_LIMIT
            and continues(before, transition.state)
        )
        if not blip:
            kept.extend(gap)
        gap = []
        kept.append(transition)
    kept.extend(gap)  # no state now: not a blip (yet)
    return kept


class BlipHold:
    """For a stream learned one change at a time: each entity's no-state is held back
    until it proves longer than a blip (then it is learned at its own time), or the
    entity comes back as it was (then it is dropped). In memory only: a no-state begun
    within ``BLIP_LIMIT`` of a shutdown is not learned."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[datetime, str]] = {}

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, entity_id: object) -> bool:
        """Whether a no-state of ``entity_id`` is held back now."""
        return entity_id in self._held

    def feed(
        self,
        when: datetime,
        entity_id: str,
        state: str,
        before: str | None,
        *,
        held_back: bool | None = None,
    ) -> list[tuple[datetime, str]]:
        """What to learn now, in order, of ``entity_id`` reading ``state`` at ``when``
        (``before``: the state learned last, if any; ``held_back``: whether ``state`` is
        held back like a no-state, by default when it is one)."""
        held = self._held.get(entity_id)
        if is_no_state(state) if held_back is None else held_back:
            if held is None and before is not None and not is_no_state(before):
                self._held[entity_id] = (when, state)
                return []
            return [] if held is not None else [(when, state)]  # a run is held from its first
        if held is None:
            return [(when, state)]
        del self._held[entity_id]
        if before is not None and when - held[0] <= BLIP_LIMIT and continues(before, state):
            return [(when, state)]
        return [held, (when, state)]

    def due(self, now: datetime) -> list[tuple[str, datetime, str]]:
        """(entity, time, state) of every no-state held longer than a blip by ``now``:
        no longer held, to be learned."""
        over = [(e, w, s) for e, (w, s) in self._held.items() if now - w > BLIP_LIMIT]
        for entity_id, _, _ in over:
            del self._held[entity_id]
        return over
