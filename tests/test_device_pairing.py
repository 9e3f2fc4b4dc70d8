"""Entities of one HA device pair without words in their ids (issue #16 part 4).

A plug's switch and its power sensor, a smoke detector and its ppm level: HA's device
registry links them. The checks that paired them by id words pair them by device first.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState
from custom_components.anomaly_monitor.core.rules.device_health import (
    outlet_off_but_drawing_power,
)
from custom_components.anomaly_monitor.core.rules.occupancy import appliance_active_while_away
from custom_components.anomaly_monitor.core.rules.safety import hazard_level_without_alarm
from custom_components.anomaly_monitor.core.statistics.battery import battery_draining_fast

from .core_factories import NOON, environment, steps, window
from .helpers import ALICE, analyze, set_calm_home, setup_monitor


def _state(
    entity_id: str,
    state: str,
    *,
    device: str | None,
    device_class: str | None = None,
    unit: str | None = None,
    area: str = "Office",
) -> EntityState:
    info = EntityInfo(
        entity_id, "Device", area=area, device_class=device_class, unit=unit, device=device
    )
    return EntityState(info=info, state=state)


def _outlets(device_of_meter: str | None) -> list[tuple[str, ...]]:
    home = HomeView(
        window(
            [
                _state("switch.device_0001", "off", device="plug"),
                _state(
                    "sensor.device_0002",
                    "40",
                    device=device_of_meter,
                    device_class="power",
                    unit="W",
                ),
            ]
        )
    )
    return [f.evidence for f in outlet_off_but_drawing_power(home)]


def test_an_off_plug_drawing_power_is_told_when_its_meter_is_on_its_device() -> None:
    assert _outlets("plug") == [("switch.device_0001", "sensor.device_0002")]
    assert _outlets("another") == []  # an unrelated meter in the same room is not its meter
    assert _outlets(None) == []


def _hazard_levels(smoke_level_device: str | None) -> list[tuple[str, ...]]:
    kitchen = "Kitchen"
    states = [
        _state(
            "binary_sensor.device_0001", "off", device="smoke", device_class="smoke", area=kitchen
        ),
        _state("binary_sensor.device_0002", "off", device="gas", device_class="gas", area=kitchen),
        _state("sensor.device_0003", "180", device=smoke_level_device, unit="ppm", area=kitchen),
        _state("sensor.device_0004", "2", device="gas", unit="ppm", area=kitchen),
    ]
    home = HomeView(window(states))
    return [f.evidence[:2] for f in hazard_level_without_alarm(home)]


def test_a_raised_level_on_a_clear_detectors_own_device_is_told() -> None:
    """Two unclassed ppm sensors in one kitchen: only the device says which is smoke."""
    assert _hazard_levels("smoke") == [("binary_sensor.device_0001", "sensor.device_0003")]
    assert _hazard_levels(None) == []  # area and unit alone cannot pair them


def test_a_meter_names_the_media_player_of_its_device_while_away() -> None:
    states = [
        _state("media_player.device_0001", "off", device="tv", area="Living"),
        _state("media_player.device_0002", "off", device="radio", area="Living"),
        _state(
            "sensor.device_0003", "40", device="tv", device_class="power", unit="W", area="Living"
        ),
    ]
    home = HomeView(window(states, environment(persons_home=0)))
    (finding,) = appliance_active_while_away(home)
    assert "media_player.device_0001" in finding.evidence
    assert "sensor.device_0003" in finding.evidence


def _battery_findings(sibling: str, *, device: str | None, area: str | None) -> list[str]:
    battery = "sensor.device_0002"
    states = [
        EntityState(info=EntityInfo(sibling, "Device", area=area, device="d1"), state="off"),
        EntityState(
            info=EntityInfo(
                battery, "Device", area=area, device_class="battery", unit="%", device=device
            ),
            state="28",
        ),
    ]
    trace = steps(
        NOON - timedelta(days=1),
        [(i * 360, battery, str(p)) for i, p in enumerate((100, 76, 52, 28))],
    )
    view = HomeView(window(states, environment(NOON), trace))
    return [f.evidence[0] for f in battery_draining_fast(view)]


def test_a_battery_is_judged_by_what_its_device_is() -> None:
    """A door contact's battery is a fixed sensor's; a phone's is not, even placed in a room."""
    door = "binary_sensor.device_0001"
    phone = "device_tracker.device_0001"
    assert _battery_findings(door, device="d1", area=None) == ["sensor.device_0002"]
    assert _battery_findings(door, device=None, area=None) == []  # no name, no room: unknown
    assert _battery_findings(phone, device="d1", area="Bedroom") == []
    assert _battery_findings(phone, device=None, area="Bedroom") == ["sensor.device_0002"]


async def test_the_monitor_reads_the_device_registry(hass: HomeAssistant) -> None:
    """In HA: a plug whose ids share no words is paired through its registry device."""
    owner = MockConfigEntry(domain="test")
    owner.add_to_hass(hass)
    devices = dr.async_get(hass)
    device = devices.async_get_or_create(
        config_entry_id=owner.entry_id, identifiers={("test", "plug-1")}
    )
    # The area sits on the device (newer HA refuses it on an entity without a name).
    area_id = ar.async_get(hass).async_get_or_create("Office").id
    devices.async_update_device(device.id, area_id=area_id)
    registry = er.async_get(hass)
    for entity_id in ("switch.a7", "sensor.q3"):
        domain, _, object_id = entity_id.partition(".")
        entry = registry.async_get_or_create(
            domain, "test", object_id, suggested_object_id=object_id, device_id=device.id
        )
        assert entry.entity_id == entity_id
    set_calm_home(hass)
    hass.states.async_set("switch.a7", "off", {"friendly_name": "Desk"})
    hass.states.async_set(
        "sensor.q3",
        "45",
        {"device_class": "power", "unit_of_measurement": "W", "friendly_name": "Desk meter"},
    )
    entry = await setup_monitor(hass, include_entities=["switch.a7", "sensor.q3", ALICE])
    response = await analyze(hass, entry)
    (finding,) = [
        f for f in response["verdict"]["findings"] if f["rule"] == "outlet_off_but_drawing_power"
    ]
    assert set(finding["evidence"]) == {"switch.a7", "sensor.q3"}
