"""A heat source told first, then the heating it feeds failing: one incident (sets 13, 15).

Odsherred: the heat pump stopped on a fault at 02:00; "Varmepumpe Power has drawn almost
no power" was told at 05:11, then "Varmepumpe is set to heat but idles" pushed at 06:46.
Chicago: the boiler's cutoff tripped at 01:00; the living room "well below what it is
kept at" and the boiler's missing run were pushed in the same second. The later one is
the first one's part: shown in its notification, not pushed. A meter neither of the
heating's device nor found with it, told hours before the rooms cooled, is news.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker

from .tracker_home import Home, finding, outcome, state

PUMP = "climate.living_room"
ROOM = "sensor.living_room_temperature"
METER = "sensor.plug_7_power"


def _home(now: datetime, stopped: datetime, meter_name: str) -> Home:
    return {
        PUMP: state(PUMP, "heat", "Living room", changed=now, name="Heat pump"),
        ROOM: state(ROOM, "16.8", "Living room", "temperature", "°C", changed=now),
        METER: state(METER, "4.0", "Utility", "power", "W", changed=stopped, name=meter_name),
    }


MISSING = finding("meter_run_missing", METER, "device_malfunction")
IDLES = finding("hvac_not_responding", (PUMP, ROOM), "environmental_conflict")
COLDER = finding("room_colder_than_kept", (ROOM, PUMP), "environmental_conflict")


async def test_the_heat_pump_told_then_its_heating_idling_is_one_incident(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "pump")
    now = dt_util.utcnow()
    home = _home(now, now - timedelta(hours=3, minutes=11), "Heat pump Power")
    assert outcome(tracker, [MISSING], now, home) == (["meter_run_missing"], [])
    later = now + timedelta(hours=1, minutes=35)
    # Its meter is named after the heat pump: the heating it feeds, shown in its notice.
    opened, shown = outcome(tracker, [MISSING, IDLES], later, home)
    assert (opened, shown) == ([], ["hvac_not_responding"])
    meter = next(a for a in tracker.open.values() if a.rule == "meter_run_missing")
    failing = next(a for a in tracker.open.values() if a.rule == "hvac_not_responding")
    assert failing.part_of == meter.signature


async def test_an_unrelated_meter_told_hours_before_the_rooms_cooled_is_news(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "apart")
    now = dt_util.utcnow()
    home = _home(now, now - timedelta(hours=5), "Plug 7 power")
    assert outcome(tracker, [MISSING], now, home) == (["meter_run_missing"], [])
    later = now + timedelta(hours=2)
    assert outcome(tracker, [MISSING, IDLES], later, home) == (["hvac_not_responding"], [])


async def test_a_stopped_boiler_and_a_cold_room_found_together_are_one_incident(
    hass: HomeAssistant,
) -> None:
    now = dt_util.utcnow()
    # Stopped six hours before: the missed run and the cooling each took hours to show.
    home = _home(now, now - timedelta(hours=6), "Boiler 1min")
    for number, order in enumerate(([MISSING, COLDER], [COLDER, MISSING])):
        tracker = AnomalyTracker(hass, f"boiler{number}")
        opened, shown = outcome(tracker, order, now, home)
        assert len(opened) == 1, order
        assert len(shown) == 1, order
        assert {*opened, *shown} == {"meter_run_missing", "room_colder_than_kept"}
