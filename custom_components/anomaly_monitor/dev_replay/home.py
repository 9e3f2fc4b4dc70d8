"""A replay entry's own home: the states a benchmark replay sends, kept out of HA's.

The states of a replayed sample (a fake smoke detector, fake persons at home...) never
enter Home Assistant's state machine, so no automation, recorder, voice assistant,
cloud link or other monitor of the real home ever sees them. This table behaves like
``hass.states`` for what the monitor reads (``get``, ``async_all``) and applies an update
exactly as ``StateMachine.async_set`` does, so a replay judges the windows an in-process
Home Assistant would.

One :class:`ReplaySession` per replay entry holds the table, the sample's areas and clock,
and when it was last used: a replay whose client is gone is stale after
:data:`REPLAY_LEASE` and the next replay removes its entry.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
import time
from typing import Any

from homeassistant.const import MAX_LENGTH_STATE_STATE, STATE_UNKNOWN
from homeassistant.core import HomeAssistant, State, callback
from homeassistant.util import dt as dt_util
from homeassistant.util.hass_dict import HassKey

# An idle replay entry whose client has not called for this long is abandoned.
REPLAY_LEASE = 30.0
# Where the sessions live, by entry id; they outlive the entry's reloads.
REPLAY_SESSIONS: HassKey[dict[str, ReplaySession]] = HassKey("anomaly_monitor_replay_sessions")


class ReplayStates:
    """Entity id -> State, updated with ``StateMachine.async_set``'s rules."""

    def __init__(self) -> None:
        self._states: dict[str, State] = {}

    def get(self, entity_id: str) -> State | None:
        """The state of one entity, if the replay set it."""
        return self._states.get(entity_id.lower())

    def async_all(self, domain_filter: str) -> list[State]:
        """Every state of a domain."""
        return [s for s in self._states.values() if s.domain == domain_filter]

    def clear(self) -> None:
        """Forget every state (a new sample starts)."""
        self._states.clear()

    def set(
        self, entity_id: str, new_state: str, attributes: Mapping[str, Any], timestamp: float
    ) -> tuple[State | None, State] | None:
        """Set a state at ``timestamp``; ``(old, new)`` when HA would fire ``state_changed``.

        Same state and attributes only move ``last_reported``; the same state with other
        attributes keeps ``last_changed``; a state too long becomes ``unknown``.
        """
        entity_id = entity_id.lower()
        now = dt_util.utc_from_timestamp(timestamp)  # the same rounding as async_set
        old = self._states.get(entity_id)
        same_state = old is not None and old.state == new_state
        same_attr = old is not None and old.attributes == attributes
        if old is not None and same_state and same_attr:
            old.last_reported = now
            return None
        if old is not None and same_attr:
            attributes = old.attributes
        if not same_state and len(new_state) > MAX_LENGTH_STATE_STATE:
            new_state = STATE_UNKNOWN
        last_changed = old.last_changed if old is not None and same_state else None
        state = State(
            entity_id,
            new_state,
            attributes,
            last_changed,
            now,
            now,
            None,
            old is None,
            None,
            timestamp,
        )
        self._states[entity_id] = state
        return old, state


@dataclass(slots=True)
class ReplaySession:
    """What a replay entry keeps between its reloads."""

    states: ReplayStates = field(default_factory=ReplayStates)
    areas: dict[str, str | None] = field(default_factory=dict)
    clock: datetime | None = None  # the sample's analysis time
    latitude: float | None = None  # the replayed home's, for the season
    calls: int = 0  # replay calls running or queued now
    # A client may pipeline calls (the next sample's is sent while one runs): they take
    # the entry one at a time, in the order they arrive.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_used: float = field(default_factory=time.monotonic)

    def active(self) -> bool:
        """A client is using this entry (a call runs, or one ended moments ago)."""
        return self.calls > 0 or time.monotonic() - self.last_used < REPLAY_LEASE

    @callback
    def begin(self) -> None:
        """A replay call starts."""
        self.calls += 1
        self.last_used = time.monotonic()

    @callback
    def end(self) -> None:
        """A replay call ended."""
        self.calls -= 1
        self.last_used = time.monotonic()


@callback
def replay_session(hass: HomeAssistant, entry_id: str) -> ReplaySession:
    """The session of a replay entry, created on first use."""
    sessions = hass.data.setdefault(REPLAY_SESSIONS, {})
    if entry_id not in sessions:
        sessions[entry_id] = ReplaySession()
    return sessions[entry_id]


@callback
def forget_replay_session(hass: HomeAssistant, entry_id: str) -> None:
    """The replay entry was removed."""
    hass.data.get(REPLAY_SESSIONS, {}).pop(entry_id, None)
