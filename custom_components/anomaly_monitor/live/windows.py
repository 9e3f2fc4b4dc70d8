"""The window an analysis judges, built from the watcher and Home Assistant's states."""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant

from ..core.models import ContextWindow
from ..core.window import build_window
from .context_builder import SnapshotCache, build_environment, build_snapshot, located_only
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
        snapshot,
        build_environment(hass, weather_entity, started=started),
        located_only(hass, watcher.buffer.snapshot(now)) if events else [],
        profile=profile,
        start=now - length,
        phoneless_residents=phoneless_residents,
    )
