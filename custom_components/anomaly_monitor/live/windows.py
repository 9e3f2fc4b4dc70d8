"""The window an analysis judges, built from the watcher and Home Assistant's states."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from homeassistant.const import STATE_UNAVAILABLE, STATE_UNKNOWN
from homeassistant.core import HomeAssistant

from ..core.buffer import TransitionBuffer
from ..core.models import ContextWindow, EntityState
from ..core.window import build_window
from .context_builder import SnapshotCache, build_environment, build_snapshot, located_only
from .state_summary import summarize_state
from .watcher import StateWatcher


def live_window(
    hass: HomeAssistant,
    watcher: StateWatcher,
    *,
    now: datetime,
    length: timedelta,
    profile: str,
    phoneless_residents: int | None = None,
    weather_entity: str | None,
    known: SnapshotCache,
    events: bool = True,
    started: tuple[datetime, datetime | None] | None = None,
) -> ContextWindow:
    """The watched entities' states (with their areas, devices and homeowner's roles), the
    environment and, with ``events``, the buffered transitions of the window ending ``now``.

    Without them (a safety check) the window costs the same during a storm of buffered
    transitions. ``known`` keeps the last snapshot's views (``build_snapshot``);
    ``started``: HA's start, when the monitor came up with it (``build_environment``).
    """
    snapshot = build_snapshot(
        hass,
        watcher.entity_ids,
        watcher.areas,
        devices=watcher.devices,
        roles=watcher.roles,
        services=watcher.services,
        known=known,
    )
    return build_window(
        with_recorded_starts(hass, snapshot, watcher.buffer),
        build_environment(hass, weather_entity, started=started),
        located_only(hass, watcher.buffer.snapshot(now)) if events else [],
        profile=profile,
        start=now - length,
        phoneless_residents=phoneless_residents,
    )


def with_recorded_starts(
    hass: HomeAssistant, snapshot: list[EntityState], buffer: TransitionBuffer
) -> list[EntityState]:
    """Each state since when it truly began, where the watcher's record says earlier than
    HA's ``last_changed``: HA sets it anew when it restarts, and once the window has passed
    the change the state said "since the restart" (walk 38: a fridge door open since 09:47
    read "open for 37 min (from 11:17)", HA's start). No state (unavailable, unknown) is
    dated back: a device's offline grace counts from HA's start (``StateWatcher``)."""
    dated = []
    for view in snapshot:
        began = buffer.began(view.entity_id)
        if (
            began is not None
            and view.last_changed is not None
            and began[1] < view.last_changed
            and began[0] not in (STATE_UNAVAILABLE, STATE_UNKNOWN)
            and (state := hass.states.get(view.entity_id)) is not None
            and summarize_state(state.domain, state.state, state.attributes) == began[0]
        ):
            dated.append(replace(view, last_changed=began[1]))
        else:
            dated.append(view)
    return dated
