"""A plug that reports only its current (A) is read as a power meter (issue 27).

A heater plug reporting ``device_class: current`` and no power went unseen by every check
that expects a power meter: the heater switched on in the empty home was not told. It is
read as W = A x the voltage of a voltage sensor on its device, else the mains voltage of
the home's unit system (230 V metric, 120 V US customary).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.current_as_power import read_as_power
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState
from custom_components.anomaly_monitor.live.coverage import resolve_watched

from .helpers import (
    ALICE,
    LIVING_TEMP,
    analyze,
    in_area,
    monitor_options,
    pass_time,
    set_calm_home,
    setup_monitor,
)

PLUG = "sensor.heater_plug_current"
AMPS = {"device_class": "current", "unit_of_measurement": "A", "friendly_name": "Heater plug"}


async def test_a_heater_on_a_current_only_plug_while_away_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    in_area(hass, PLUG, "Bedroom")
    set_calm_home(hass)
    hass.states.async_set(PLUG, "0.0", AMPS)
    entry = await setup_monitor(hass, learned=True, include_entities=[PLUG, ALICE, LIVING_TEMP])
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    await pass_time(hass, freezer, timedelta(minutes=30))
    hass.states.async_set(PLUG, "6.5", AMPS)  # a 1.5 kW heater
    await pass_time(hass, freezer, timedelta(minutes=5))
    response = await analyze(hass, entry)
    (finding,) = [
        f for f in response["verdict"]["findings"] if f["rule"] == "appliance_active_while_away"
    ]
    assert PLUG in finding["evidence"]
    await hass.async_block_till_done()
    # Told: a plug without a switch drawing in the empty home is news, not the past.
    titles = [n["title"] for n in _async_get_or_create_notifications(hass).values()]
    assert titles == ["Appliance running in Bedroom while nobody is home"], titles
    # The window reads it in watts: 6.5 A x 230 V.
    window = entry.runtime_data.coordinator.build_window()
    (plug,) = [s for s in window.snapshot if s.entity_id == PLUG]
    assert (plug.info.device_class, plug.state) == ("power", "1495.0")


def _sensor(entity_id: str, state: str, device_class: str, unit: str, device: str) -> EntityState:
    info = EntityInfo(entity_id, entity_id, device_class=device_class, unit=unit, device=device)
    return EntityState(info=info, state=state)


def test_the_voltage_of_its_device_or_the_home_s_mains() -> None:
    plug = _sensor("sensor.plug_current", "2.0", "current", "A", "dev-1")
    volts = _sensor("sensor.plug_voltage", "240.0", "voltage", "V", "dev-1")
    (read, _), _ = read_as_power([plug, volts], [], "°C")
    assert (read.info.device_class, read.info.unit, read.state) == ("power", "W", "480.0")
    (us,), _ = read_as_power([plug], [], "°F")
    assert us.state == "240.0"  # 120 V
    milli = _sensor("sensor.plug_current", "500", "current", "mA", "dev-1")
    (eu,), _ = read_as_power([milli], [], "°C")
    assert eu.state == "115.0"
    # A device with its own power meter: its current is left as it is.
    power = _sensor("sensor.plug_power", "460.0", "power", "W", "dev-1")
    states, _ = read_as_power([plug, power], [], "°C")
    assert states[0].info.device_class == "current"


def test_the_baselines_learn_it_in_watts_as_the_window_reads_it() -> None:
    """Learned in amps and judged in watts, a learned range would call every run far
    above its usual draw: the baselines learn the same watts (at 230 V)."""
    baselines = HomeBaselines(None)
    info = EntityInfo(PLUG, "Heater plug", area="Bedroom", device_class="current", unit="A")
    baselines.describe([info])
    start = datetime(2026, 1, 5, tzinfo=UTC)
    baselines.observe(start, PLUG, "0.0")
    baselines.observe(start + timedelta(minutes=1), PLUG, "6.5")
    assert baselines.as_dict()["ranges"]  # learned
    assert "1495.0" in str(baselines.as_dict()["ranges"])
    assert baselines.durations.current[PLUG][0] == "running"  # its cycle, as a power meter's


async def test_a_heater_s_current_only_plug_is_watched_by_default(hass: HomeAssistant) -> None:
    """As a heater's power meter is (walk 11: added with defaults, it was not watched)."""
    hass.states.async_set(PLUG, "0.0", AMPS | {"friendly_name": "Heater plug current"})
    watched = resolve_watched(hass, monitor_options())
    assert PLUG in watched


def test_the_baselines_read_a_meter_as_it_is_described_now() -> None:
    """A current meter described anew as a power meter (its unit changed, the description
    the same size) is read as it is now: the cache follows ``describe_one``, not the
    description's id and size."""
    baselines = HomeBaselines(UTC)
    plug = EntityInfo("sensor.heater_plug", "Heater plug", device_class="current", unit="A")
    baselines.describe([plug])
    start = datetime(2026, 1, 5, tzinfo=UTC)
    baselines.observe(start, "sensor.heater_plug", "2.0")
    assert baselines.ranges.usual("sensor.heater_plug")[4] == 460.0  # 2 A at 230 V
    baselines.describe_one(EntityInfo("sensor.heater_plug", "Heater plug", None, "power", "W"))
    baselines.observe(start + timedelta(minutes=1), "sensor.heater_plug", "3.0")
    assert baselines.ranges.usual("sensor.heater_plug")[3] == 3.0  # read as the watts it is
