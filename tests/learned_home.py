"""A small home with a learned normal, in a real hass: its baselines built from a list of
events (``learned_home``, ``up_all_day``, ``observe_until``), the monitor set up on it
(``watch_learned_home``), and the day's changes played in time order (``play``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo

from .helpers import put_in_area, setup_monitor_learned

Events = list[tuple[datetime, str, str]]


def learned_home(
    zone: str,
    attrs: dict[str, dict[str, str]],
    areas: dict[str, str],
    person: str,
    start: datetime,
) -> HomeBaselines:
    """Baselines of a small home watched since ``start``, ``person`` at home."""
    baselines = HomeBaselines(ZoneInfo(zone))
    baselines.describe(
        EntityInfo(e, "", area=areas[e], device_class=a["device_class"]) for e, a in attrs.items()
    )
    baselines.watching(list(areas), start)
    baselines.observe(start, person, "home")
    return baselines


def up_all_day(midnight: datetime, motion: str) -> Events:
    """Somebody up 07:00-23:00, seen by ``motion`` every 15 min."""
    events: Events = []
    moment = midnight + timedelta(hours=7)
    while moment <= midnight + timedelta(hours=23):
        events += [(moment, motion, "on"), (moment + timedelta(minutes=1), motion, "off")]
        moment += timedelta(minutes=15)
    return events


def door_seen_opening(opened: datetime, door: str, motion: str) -> Events:
    """``door`` open for 2 min from ``opened``, ``motion`` seeing somebody a minute in."""
    return [
        (opened, door, "on"),
        (opened + timedelta(minutes=1), motion, "on"),
        (opened + timedelta(minutes=2), door, "off"),
        (opened + timedelta(minutes=3), motion, "off"),
    ]


def observe_until(
    baselines: HomeBaselines,
    events: list[tuple[datetime, str, str]],
    areas: dict[str, str],
    end: datetime,
) -> None:
    """Learn ``events`` in time order, up to ``end``."""
    for when, entity_id, state in sorted(events):
        if when <= end:
            baselines.observe(when, entity_id, state, areas[entity_id])


async def watch_learned_home(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    at: datetime,
    learned: HomeBaselines,
    *,
    attrs: Mapping[str, Mapping[str, str]],
    areas: Mapping[str, str],
    person: tuple[str, str],
) -> MockConfigEntry:
    """The monitor set up at ``at`` with ``learned`` stored: each entity of ``attrs``
    reading "off" in its area, the person (entity id, name) at home."""
    for area in sorted(set(areas.values())):
        put_in_area(hass, area, *[e for e, a in areas.items() if a == area])
    freezer.move_to(at)
    for entity_id, attributes in attrs.items():
        hass.states.async_set(entity_id, "off", attributes)
    hass.states.async_set(person[0], "home", {"friendly_name": person[1]})
    return await setup_monitor_learned(
        hass, learned.as_dict(), include_entities=[*areas, person[0]]
    )


async def play(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    attrs: Mapping[str, Mapping[str, str]],
    changes: Iterable[tuple[datetime, str, str]],
    until: datetime | None = None,
) -> None:
    """Each change set in time order at its moment (those after ``until`` left out)."""
    for when, entity_id, state in sorted(changes):
        if until is not None and when > until:
            break
        freezer.move_to(when)
        hass.states.async_set(entity_id, state, attrs[entity_id])
        await hass.async_block_till_done()
