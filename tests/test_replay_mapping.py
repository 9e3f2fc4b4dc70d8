"""Device names and values become the entities a real HA home has, reversibly."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmark_replay.direct import window_for
from benchmark_replay.home_mapping import HomeMapping
from benchmark_replay.home_scene import scene_for
from benchmark_replay.smartbench_loader import load_smartbench

FIXTURES = Path(__file__).parent / "fixtures" / "smartbench"


def _one(device: str, *values: str) -> list[tuple[str, str, dict[str, object]]]:
    mapping = HomeMapping.build({device: values})
    return [
        (spec.entity_id, spec.state, dict(spec.attributes))
        for spec in (mapping.spec(device, v) for v in values)
    ]


@pytest.mark.parametrize(
    ("device", "values", "entity_id", "states", "device_class", "unit"),
    [
        (
            "Kitchen Gas Leak Sensor",
            ("clear", "gas_detected"),
            "binary_sensor.kitchen_gas_leak_sensor",
            ["off", "on"],
            "gas",
            None,
        ),
        (
            "Bathroom Water Leak Sensor",
            ("dry", "leak_detected"),
            "binary_sensor.bathroom_water_leak_sensor",
            ["off", "on"],
            "moisture",
            None,
        ),
        (
            "Garage Motion Sensor",
            ("no_motion", "motion_detected"),
            "binary_sensor.garage_motion_sensor",
            ["off", "on"],
            "motion",
            None,
        ),
        (
            "Bedroom Temperature",
            ("19.5", "—"),
            "sensor.bedroom_temperature",
            ["19.5", "unknown"],
            "temperature",
            "°C",
        ),
        (
            "bedroom_temp_sensor",
            ("20.4C", "OFFLINE"),
            "sensor.bedroom_temp_sensor",
            ["20.4", "unavailable"],
            "temperature",
            "°C",
        ),
        ("kitchen_power_meter", ("2120W",), "sensor.kitchen_power_meter", ["2120"], "power", "W"),
        (
            "bedroom_co2_sensor",
            ("400ppm",),
            "sensor.bedroom_co2_sensor",
            ["400"],
            "carbon_dioxide",
            "ppm",
        ),
        (
            "kitchen_motion_sensor",
            ("MOTION", "NO_MOTION"),
            "binary_sensor.kitchen_motion_sensor",
            ["on", "off"],
            "motion",
            None,
        ),
        (
            "entrance_smart_lock_connectivity",
            ("ONLINE", "OFFLINE"),
            "binary_sensor.entrance_smart_lock_connectivity",
            ["on", "off"],
            "connectivity",
            None,
        ),
        (
            "hue.motionSensor.motion",
            ("on", "off"),
            "binary_sensor.hue_motion_sensor_motion",
            ["on", "off"],
            "motion",
            None,
        ),
        ("phone.sleepConfidence", ("95",), "sensor.phone_sleep_confidence", ["95"], None, "%"),
        ("door", ("on", "off"), "binary_sensor.door", ["on", "off"], "door", None),
        (
            "Front Door Smart Lock",
            ("locked", "unlocked"),
            "lock.front_door_smart_lock",
            ["locked", "unlocked"],
            None,
            None,
        ),
        (
            "Home Alarm System",
            ("armed", "triggered"),
            "alarm_control_panel.home_alarm_system",
            ["armed_away", "triggered"],
            None,
            None,
        ),
        (
            "Front Door Security Camera",
            ("standby", "recording", "offline"),
            "camera.front_door_security_camera",
            ["idle", "recording", "unavailable"],
            None,
            None,
        ),
        (
            "living_room_thermostat",
            ("SETPOINT:21.0C",),
            "number.living_room_thermostat",
            ["21"],
            "temperature",
            "°C",
        ),
        ("sun", ("below_horizon",), "sun.sun", ["below_horizon"], None, None),
        (
            "weather.town",
            ("partlycloudy", "unavailable"),
            "weather.town",
            ["partlycloudy", "unavailable"],
            None,
            None,
        ),
    ],
)
def test_mapping_table(  # noqa: PLR0917 - parametrized
    device: str,
    values: tuple[str, ...],
    entity_id: str,
    states: list[str],
    device_class: str | None,
    unit: str | None,
) -> None:
    """Name patterns and value kinds decide domain, device_class, unit and state."""
    mapped = _one(device, *values)
    assert {m[0] for m in mapped} == {entity_id}
    assert [m[1] for m in mapped] == states
    for _, _, attributes in mapped:
        assert attributes.get("device_class") == device_class
        assert attributes.get("unit_of_measurement") == unit


def test_fault_markers_keep_the_raw_text() -> None:
    """A fault marker becomes HA's unavailable/unknown and stays readable as raw_state."""
    ((_, state, attributes),) = _one("kitchen_co2_sensor", "FAILURE_START:OFFLINE")
    assert state == "unavailable"
    assert attributes["raw_state"] == "FAILURE_START:OFFLINE"


def test_hvac_unit_is_a_climate_entity_with_its_action() -> None:
    """A trace's HVAC unit reports what it does: mode implied, action as attribute."""
    mapped = _one("living_room_hvac", "HEATING", "OFF")
    assert [(m[1], m[2]["hvac_action"]) for m in mapped] == [("heat", "heating"), ("off", "off")]


def test_snapshot_thermostat_merges_into_one_climate_entity() -> None:
    """Mode, target and status of one area form the thermostat; evidence maps to all three."""
    states = {
        "Living Room Thermostat Mode": "cool",
        "Living Room Thermostat Target Temperature": "23.5",
        "Living Room HVAC Status": "heating",
        "Living Room Temperature": "24.1",
    }
    mapping = HomeMapping.build({d: (v,) for d, v in states.items()}, merge_thermostats=True)
    specs = {s.entity_id: s for s in mapping.snapshot(states)}
    climate = specs["climate.living_room_thermostat"]
    assert climate.state == "cool"
    assert climate.attributes["hvac_action"] == "heating"
    assert climate.attributes["temperature"] == 23.5
    assert climate.attributes["current_temperature"] == 24.1
    assert climate.area == "Living Room"
    assert "sensor.living_room_temperature" in specs  # the reading stays its own entity
    assert mapping.devices_for(["climate.living_room_thermostat"]) == {
        "Living Room Thermostat Mode",
        "Living Room Thermostat Target Temperature",
        "Living Room HVAC Status",
    }


def test_every_fixture_device_maps_back_exactly() -> None:
    """Reversible: each device's entity maps back to it (and merged thermostat peers only)."""
    for record in load_smartbench(FIXTURES).records:
        scene = scene_for(record.sample)
        mapping = scene.mapping
        for device in mapping.devices:
            back = mapping.devices_for([mapping.entity_of(device)])
            assert device in back
            if not mapping.entity_of(device).startswith("climate.living_room_thermostat"):
                assert back == {device}
        # Every truth device is a mapped device, so a perfect detector can reach AL 1.
        assert record.answer.evidence <= set(mapping.devices)


def test_unknown_evidence_counts_against_al() -> None:
    """An id that is no device stays in the predicted set."""
    mapping = HomeMapping.build({"door": ("on",)})
    assert mapping.devices_for(["binary_sensor.door", "weather.home"]) == {
        "door",
        "entity:weather.home",
    }


def test_snapshot_environment_and_clock() -> None:
    """Weather, sun, light and persons come from environment_context; the clock from its time."""
    record = next(
        r for r in load_smartbench(FIXTURES, ["ci"]).records if r.answer.key == "ci/anomaly_fx03"
    )
    window, _ = window_for(record.sample)
    env = window.environment
    assert (env.local_time.hour, env.local_time.minute, env.weekday) == (19, 42, "thursday")
    assert env.season == "winter"
    assert env.weather == "rainy"
    assert env.outdoor_temperature == 3.5
    assert env.daylight is False
    assert (env.persons_home, env.persons_total) == (0, 3)


def test_trace_window_drops_repeats_like_home_assistant() -> None:
    """A repeated status is no transition; the first one is."""
    record = next(
        r
        for r in load_smartbench(FIXTURES, ["cd-argus"]).records
        if r.answer.key == "cd-argus/ARGUS_PRIME_fx01a"
    )
    window, scene = window_for(record.sample)
    at_home = [t for t in window.transitions if t.entity_id == "device_tracker.phone_at_home"]
    assert [t.state for t in at_home] == ["not_home"]  # three reports, one state
    assert len(scene.steps) == len(record.sample.events)  # type: ignore[union-attr]
    assert window.profile == "one room apartment"
