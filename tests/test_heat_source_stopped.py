"""A meter that stopped just before a room's heating was told failing is its source (set 13).

Grímsey: the oil ran out, the burner drew nothing from 09:00, "heating but not warming"
was told at 10:43 and "the burner has drawn almost no power" pushed at 11:39. It is shown,
not pushed; a meter that stopped after the heating was found failing (a freezer) is news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Finding, Severity

VALVE = "climate.living_room_valve"
ROOM = "sensor.living_room_temperature"
BURNER = "sensor.plug_1_power"
FREEZER = "sensor.plug_2_power"

NOT_WARMING = Finding(
    "heating_not_warming", (VALVE, ROOM), "The living room has not warmed.",
    "device_malfunction", Severity.MEDIUM, subject=VALVE,
)  # fmt: skip


def _stopped(meter: str) -> Finding:
    return Finding(
        "cycle_stopped", (meter,), "It has drawn almost no power for 2 h 39 min.",
        "device_malfunction", Severity.HIGH, subject=meter,
    )  # fmt: skip


def _home(now: datetime, burner_stop: datetime, freezer_stop: datetime) -> dict[str, EntityState]:
    def meter(entity_id: str, area: str, since: datetime) -> EntityState:
        return EntityState(EntityInfo(entity_id, entity_id, area, "power", "W"), "1.4", {}, since)

    return {
        VALVE: EntityState(EntityInfo(VALVE, "Valve", "Living room"), "heat", {}, now),
        ROOM: EntityState(
            EntityInfo(ROOM, "Room", "Living room", "temperature", "°C"), "17.3", {}, now
        ),
        BURNER: meter(BURNER, "Boiler room", burner_stop),
        FREEZER: meter(FREEZER, "Shed", freezer_stop),
    }


async def test_the_burner_stopped_before_the_heating_failed_is_that_failure(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "oil")
    now = dt_util.utcnow()
    home = _home(now, now - timedelta(hours=1, minutes=43), now + timedelta(minutes=30))
    states = {e: s.state for e, s in home.items()}
    opened = tracker.update([NOT_WARMING], now, True, states=states, entities=home).opened
    assert [a.rule for a in opened] == ["heating_not_warming"]
    later = now + timedelta(hours=1)
    found = [NOT_WARMING, _stopped(BURNER), _stopped(FREEZER)]
    changes = tracker.update(found, later, True, states=states, entities=home)
    # The burner stopped before: its source. The freezer stopped after: news.
    assert [a.subject for a in changes.reopened] == [BURNER]
    assert [a.subject for a in changes.opened] == [FREEZER]
