"""Helpers for integration tests: a configured monitor in a real hass."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_USE_EXPOSED,
    CONF_WINDOW,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.baselines import BASELINE_VERSION
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

SMOKE = "binary_sensor.kitchen_smoke"
FRONT_LOCK = "lock.front_door"
LIVING_TEMP = "sensor.living_room_temperature"
ALICE = "person.alice"


def monitor_options(**overrides: Any) -> dict[str, Any]:
    """Options that watch the test home's entities explicitly."""
    options: dict[str, Any] = {
        CONF_USE_EXPOSED: False,
        CONF_INCLUDE_ENTITIES: [SMOKE, FRONT_LOCK, LIVING_TEMP],
        CONF_INTERVAL: 15,
        CONF_WINDOW: 120,
    }
    options.update(overrides)
    return options


def set_calm_home(hass: HomeAssistant) -> None:
    """A home where nothing is wrong: someone is in, the door locked, no smoke."""
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Kitchen smoke"})
    hass.states.async_set(FRONT_LOCK, "locked", {"friendly_name": "Front door"})
    hass.states.async_set(
        LIVING_TEMP,
        "21.5",
        {"device_class": "temperature", "unit_of_measurement": "°C", "friendly_name": "Living"},
    )
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})


def in_area(hass: HomeAssistant, entity_id: str, area: str) -> None:
    """Register ``entity_id`` (a state the test sets) and put it in ``area``."""
    area_id = ar.async_get(hass).async_get_or_create(area).id
    domain, _, object_id = entity_id.partition(".")
    registry = er.async_get(hass)
    entry = registry.async_get_or_create(domain, "test", object_id, suggested_object_id=object_id)
    assert entry.entity_id == entity_id
    registry.async_update_entity(entity_id, area_id=area_id)


async def setup_monitor(
    hass: HomeAssistant, *, learned: bool = False, **overrides: Any
) -> MockConfigEntry:
    """Add and load a monitor entry (``learned``: in a home it has watched for a week)."""
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=monitor_options(**overrides))
    entry.add_to_hass(hass)
    if learned:
        await store_learned_week(hass, entry.entry_id)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def setup_monitor_learned(
    hass: HomeAssistant, stored: dict[str, Any], **overrides: Any
) -> MockConfigEntry:
    """Add and load a monitor entry whose stored baselines are ``stored`` (a home's learned
    normal built with ``HomeBaselines``, as ``as_dict`` writes it)."""
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=monitor_options(**overrides))
    entry.add_to_hass(hass)
    await baseline_store(hass, entry.entry_id).async_save(stored)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def store_learned_week(hass: HomeAssistant, entry_id: str) -> None:
    """Baselines stored by a monitor that has watched this home for a week (before it
    learned usage by device: every device is known since then). Without it, a fresh
    install pushes only what cannot wait while it learns (``core/learning_gate.py``)."""
    now = dt_util.utcnow()
    await baseline_store(hass, entry_id).async_save(
        {
            "version": BASELINE_VERSION,
            "first_seen": (now - timedelta(days=7)).isoformat(),
            "learned_until": now.isoformat(),
        }
    )


async def analyze(hass: HomeAssistant, entry: MockConfigEntry | None = None) -> dict[str, Any]:
    """Call the analyze action and return its response."""
    data = {"config_entry_id": entry.entry_id} if entry else {}
    response = await hass.services.async_call(
        DOMAIN, "analyze", data, blocking=True, return_response=True
    )
    assert response is not None
    return dict(response)


async def pass_time(hass: HomeAssistant, freezer: FrozenDateTimeFactory, span: timedelta) -> None:
    """Let ``span`` go by in steps of a second, firing every timer that falls due."""
    for _ in range(int(span.total_seconds()) + 1):
        freezer.tick(timedelta(seconds=1))
        async_fire_time_changed(hass)
        # Analyses judge the window in HA's executor: wait for them as for any task.
        await hass.async_block_till_done(wait_background_tasks=True)


async def analyse_every_5_min(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: MockConfigEntry, until: datetime
) -> None:
    """Time moves on 5 min at a time, the timers due fire and the home is analysed, until
    ``until``."""
    while dt_util.utcnow() < until:
        freezer.tick(timedelta(minutes=5))
        async_fire_time_changed(hass)
        await analyze(hass, entry)


async def setup_calm_home_with(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    zone: str,
    at: datetime,
    *,
    sensor: tuple[str, str, str, Mapping[str, Any]],
    learned: Callable[[], dict[str, Any]],
) -> MockConfigEntry:
    """The calm home in ``zone`` at ``at`` and one ``sensor`` more (entity id, area, state,
    attributes), watched by a monitor that stored ``learned()`` (built once the home's
    zone is set)."""
    entity_id, area, state, attributes = sensor
    await hass.config.async_set_time_zone(zone)
    freezer.move_to(at)
    set_calm_home(hass)
    in_area(hass, entity_id, area)
    hass.states.async_set(entity_id, state, attributes)
    return await setup_monitor_learned(hass, learned(), include_entities=[SMOKE, entity_id, ALICE])


def put_in_area(hass: HomeAssistant, area: str, *entity_ids: str) -> str:
    """Create ``area`` and register each entity in it (the rules read areas from the
    registry); the area's id."""
    area_id = ar.async_get(hass).async_create(area).id
    registry = er.async_get(hass)
    for entity_id in entity_ids:
        domain, _, object_id = entity_id.partition(".")
        created = registry.async_get_or_create(
            domain, "test_home", object_id, suggested_object_id=object_id
        )
        registry.async_update_entity(created.entity_id, area_id=area_id)
    return area_id
