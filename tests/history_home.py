"""A short scripted history lived by a real hass with the recorder, shared by the history
replay tests: a smoke alarm while someone is home, the front door left open while away."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
import sqlite3
import subprocess
import sys
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import Context, HomeAssistant
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
)

SMOKE = "binary_sensor.kitchen_smoke"
DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door_lock"
MOTION = "binary_sensor.hall_motion"
TEMPERATURE = "sensor.living_temperature"
ALICE = "person.alice"
ATTRIBUTES: dict[str, dict[str, Any]] = {
    SMOKE: {"friendly_name": "Kitchen smoke", "device_class": "smoke"},
    DOOR: {"friendly_name": "Front door", "device_class": "door"},
    LOCK: {"friendly_name": "Front door lock"},
    MOTION: {"friendly_name": "Hall motion", "device_class": "motion"},
    TEMPERATURE: {
        "friendly_name": "Living temperature",
        "device_class": "temperature",
        "unit_of_measurement": "°C",
    },
    ALICE: {"friendly_name": "Alice"},
}
AREAS = {SMOKE: "Kitchen", DOOR: "Hall", LOCK: "Hall", MOTION: "Hall", TEMPERATURE: "Living room"}
OPTIONS = {CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: sorted(set(ATTRIBUTES) - {ALICE})}
INITIAL = {
    SMOKE: "off",
    DOOR: "off",
    LOCK: "locked",
    MOTION: "off",
    TEMPERATURE: "21.0",
    ALICE: "home",
}
# (minutes after the start, entity, state)
SCRIPT: list[tuple[int, str, str]] = [
    (10, MOTION, "on"),
    (12, MOTION, "off"),
    (20, TEMPERATURE, "21.4"),
    (30, SMOKE, "on"),  # smoke while Alice cooks
    (38, SMOKE, "off"),
    (50, TEMPERATURE, "21.2"),
    (60, ALICE, "not_home"),
    (61, LOCK, "unlocked"),
    (62, DOOR, "on"),  # the door left open behind her
    (100, TEMPERATURE, "20.1"),
    (130, ALICE, "home"),
    (131, DOOR, "off"),
    (132, LOCK, "locked"),
    (140, MOTION, "on"),
    (141, MOTION, "off"),
]
LENGTH = timedelta(minutes=160)
TICK = timedelta(seconds=5)  # how finely the live clock moves (the replay's is exact)


def set_initial(hass: HomeAssistant) -> None:
    """The home at the start."""
    for entity_id, state in INITIAL.items():
        hass.states.async_set(entity_id, state, ATTRIBUTES[entity_id])


async def live(hass: HomeAssistant, freezer: FrozenDateTimeFactory, start: datetime) -> None:
    """The script in a live hass, the clock moving by :data:`TICK`, every timer firing."""
    steps = sorted(SCRIPT)
    now = start
    while now < start + LENGTH:
        now += TICK
        freezer.move_to(now)
        while steps and start + timedelta(minutes=steps[0][0]) <= now:
            _, entity_id, state = steps.pop(0)
            hass.states.async_set(entity_id, state, ATTRIBUTES[entity_id])
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)


def snapshot_database(recorder_db_url: str, folder: Path) -> Path:
    """A consistent copy of the recorder's database file, as a homeowner would take one."""
    source = recorder_db_url.removeprefix("sqlite:///")
    target = folder / "home-assistant_v2.db"
    with (
        sqlite3.connect(f"file:{source}?mode=ro", uri=True) as db,
        sqlite3.connect(target) as copy,
    ):
        db.backup(copy)
    return target


def run_history(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m benchmark_replay history ARGS`` from the repository, in a child process
    (its own simulated clock never touches the test's hass)."""
    return subprocess.run(
        [sys.executable, "-m", "benchmark_replay", "history", *args],
        cwd=Path(__file__).parent.parent,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


async def preview_as(
    hass: HomeAssistant, user_id: str, entry_id: str, days: int = 1
) -> dict[str, Any] | None:
    """The preview action's response for the last ``days``, called by ``user_id``."""
    return await hass.services.async_call(
        DOMAIN,
        "preview",
        {"days": days, "config_entry_id": entry_id},
        blocking=True,
        return_response=True,
        context=Context(user_id=user_id),
    )
