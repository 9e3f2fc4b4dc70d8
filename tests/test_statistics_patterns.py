"""Statistics that learn a baseline from the window: rates, levels, twins, responses."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.models import Transition
from custom_components.anomaly_monitor.core.statistics.alarms import hazard_alarm_sounded
from custom_components.anomaly_monitor.core.statistics.armed import activation_while_armed_away
from custom_components.anomaly_monitor.core.statistics.climate import hvac_against_the_room
from custom_components.anomaly_monitor.core.statistics.health import reading_spike
from custom_components.anomaly_monitor.core.statistics.levels import (
    level_shift,
    twin_sensors_disagree,
)
from custom_components.anomaly_monitor.core.statistics.openings import unaccompanied_opening
from custom_components.anomaly_monitor.core.statistics.rates import (
    event_rate_burst,
    hvac_short_cycling,
)
from custom_components.anomaly_monitor.core.statistics.responses import slow_light_response

from .core_factories import entity, environment, home, steps

MIDNIGHT = datetime(2025, 1, 20, 0, 0)


def _at(minutes: float) -> datetime:
    return MIDNIGHT + timedelta(minutes=minutes)


def _hours(hours: float) -> float:
    return hours * 60


# --- alarms -----------------------------------------------------------------------------


def test_smoke_alarm_going_off_again_and_again_is_reported() -> None:
    smoke = entity("binary_sensor.kitchen_smoke", "off", area="Kitchen", device_class="smoke")
    events = [(0.0, smoke.entity_id, "off")]
    for hour in (2, 6, 18):  # ten-second alarms through the day and night, each clearing
        events += [
            (_hours(hour), smoke.entity_id, "on"),
            (_hours(hour) + 0.2, smoke.entity_id, "off"),
        ]
    trace = steps(MIDNIGHT, events)
    (finding,) = hazard_alarm_sounded(home([smoke], environment(_at(_hours(20))), trace))
    assert finding.evidence == ("binary_sensor.kitchen_smoke",)
    assert "went off 3 times (" in finding.reasoning


def test_one_smoke_alarm_that_cleared_is_left_to_the_live_rules() -> None:
    smoke = entity("binary_sensor.kitchen_smoke", "off", area="Kitchen", device_class="smoke")
    trace = steps(
        MIDNIGHT,
        [
            (0, smoke.entity_id, "off"),
            (_hours(18), smoke.entity_id, "on"),
            (_hours(18) + 0.2, smoke.entity_id, "off"),
        ],
    )
    assert not list(hazard_alarm_sounded(home([smoke], environment(_at(_hours(20))), trace)))


def test_a_smoke_alarm_sounding_now_is_told_once_by_the_live_rule() -> None:
    """Off, on, off, on again: while it sounds, hazard_detected tells it; no second finding."""
    smoke = entity("binary_sensor.kitchen_smoke", "on", area="Kitchen", device_class="smoke")
    trace = steps(
        MIDNIGHT,
        [
            (0, smoke.entity_id, "off"),
            (60, smoke.entity_id, "on"),
            (61, smoke.entity_id, "off"),
            (65, smoke.entity_id, "on"),
        ],
    )
    assert not list(hazard_alarm_sounded(home([smoke], environment(_at(70)), trace)))
    cleared = replace(smoke, state="off")
    (finding,) = hazard_alarm_sounded(home([cleared], environment(_at(70)), trace))
    assert finding.evidence == (smoke.entity_id,)


def test_a_quiet_smoke_alarm_and_a_wet_floor_sensor_are_not_sounded_alarms() -> None:
    smoke = entity("binary_sensor.kitchen_smoke", "off", area="Kitchen", device_class="smoke")
    leak = entity("binary_sensor.bath_leak", "off", area="Bathroom", device_class="moisture")
    trace = steps(
        MIDNIGHT,
        [(0, smoke.entity_id, "off"), (0, leak.entity_id, "off"), (60, leak.entity_id, "on")],
    )
    assert not list(hazard_alarm_sounded(home([smoke, leak], environment(_at(120)), trace)))


# --- event rate bursts ------------------------------------------------------------------


def _front_door_day(burst: bool) -> list[Transition]:
    door = "binary_sensor.front_door"
    events: list[tuple[float, str, str]] = []
    # Leaving and coming back, a delivery and an evening walk: a few passages a day.
    for hour in (8, 12, 17, 19, 20):
        events += [(_hours(hour), door, "on"), (_hours(hour) + 1, door, "off")]
    if burst:  # at 2 am the door "opens" every 90 seconds for an hour
        for i in range(40):
            events += [(_hours(2) + 1.5 * i, door, "on"), (_hours(2) + 1.5 * i + 0.5, door, "off")]
    return steps(MIDNIGHT, events, area="Hallway")


def test_door_flapping_all_night_is_a_burst() -> None:
    door = entity("binary_sensor.front_door", "off", area="Hallway", device_class="door")
    view = home([door], environment(_at(_hours(23))), _front_door_day(burst=True))
    (finding,) = event_rate_burst(view)
    assert finding.evidence == ("binary_sensor.front_door",)
    assert "02:00" in finding.reasoning


def test_a_busy_but_ordinary_day_at_the_door_is_no_burst() -> None:
    door = entity("binary_sensor.front_door", "off", area="Hallway", device_class="door")
    assert not list(
        event_rate_burst(home([door], environment(_at(_hours(23))), _front_door_day(burst=False)))
    )


def test_a_short_window_has_no_baseline_for_bursts() -> None:
    door = entity("binary_sensor.front_door", "off", area="Hallway", device_class="door")
    burst = [t for t in _front_door_day(burst=True) if t.when < _at(_hours(3))]
    assert not list(event_rate_burst(home([door], environment(_at(_hours(3))), burst)))


# --- HVAC short cycling -----------------------------------------------------------------


def _heat_pump(cycle_minutes: list[tuple[float, float]]) -> list[Transition]:
    unit, meter = "climate.lounge_heat_pump", "sensor.lounge_heat_pump_power"
    events: list[tuple[float, str, str]] = [(0, unit, "heat (idle)"), (0, meter, "5")]
    start = _hours(6)
    for on, off in cycle_minutes:
        events += [(start, unit, "heat (heating)"), (start, meter, "1200")]
        events += [(start + on, unit, "heat (idle)"), (start + on, meter, "5")]
        start += on + off
    return steps(MIDNIGHT, events, area="Lounge")


def _lounge() -> list:
    return [
        entity("climate.lounge_heat_pump", "heat", area="Lounge"),
        entity("sensor.lounge_heat_pump_power", "5", area="Lounge", device_class="power", unit="W"),
    ]


def test_heat_pump_short_cycling_with_its_power_meter() -> None:
    view = home(_lounge(), environment(_at(_hours(10))), _heat_pump([(3, 5)] * 6))
    (finding,) = hvac_short_cycling(view)
    assert finding.evidence == ("climate.lounge_heat_pump", "sensor.lounge_heat_pump_power")


def test_long_heating_runs_are_normal_cycling() -> None:
    view = home(_lounge(), environment(_at(_hours(23))), _heat_pump([(40, 60)] * 6))
    assert not list(hvac_short_cycling(view))


# --- openings nobody made ---------------------------------------------------------------


def _garage(ghost: bool) -> tuple[list, list[Transition]]:
    door = entity("binary_sensor.garage_door", "off", area="Garage", device_class="garage_door")
    motion = entity("binary_sensor.garage_motion", "off", area="Garage", device_class="motion")
    hall = entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion")
    events: list[tuple[float, str, str]] = [(0, hall.entity_id, "off")]
    for hour in (7.5, 18.0):  # driving out and back: motion around the door each time
        events += [(_hours(hour) - 1, motion.entity_id, "on"), (_hours(hour), door.entity_id, "on")]
        events += [
            (_hours(hour) + 2, door.entity_id, "off"),
            (_hours(hour) + 3, motion.entity_id, "off"),
        ]
        events += [
            (_hours(hour) + 4, hall.entity_id, "on"),
            (_hours(hour) + 5, hall.entity_id, "off"),
        ]
    if ghost:  # 03:30, the door opens for a few seconds and the garage sensor sees nobody
        # (it last moved at 01:00: its report of "clear" at 03:30 repeats its state)
        events += [(_hours(1), motion.entity_id, "on"), (_hours(1) + 2, motion.entity_id, "off")]
        events += [(_hours(3.5), door.entity_id, "on"), (_hours(3.5), motion.entity_id, "off")]
        events += [(_hours(3.5) + 0.1, door.entity_id, "off")]
    return [door, motion, hall], steps(MIDNIGHT, events, area="Garage")


def test_garage_door_opening_at_night_with_nobody_around() -> None:
    states, trace = _garage(ghost=True)
    (finding,) = unaccompanied_opening(home(states, environment(_at(_hours(22))), trace))
    assert finding.evidence == ("binary_sensor.garage_door", "binary_sensor.garage_motion")
    assert "03:30" in finding.reasoning


def test_garage_door_used_by_people_is_accompanied() -> None:
    states, trace = _garage(ghost=False)
    assert not list(unaccompanied_opening(home(states, environment(_at(_hours(22))), trace)))


# --- level shift over days --------------------------------------------------------------


def _bedroom_days(days: int, shift_from_day: int | None) -> list[Transition]:
    sensor = "sensor.bedroom_temperature"
    events = []
    for hour in range(days * 24):
        daily = 0.6 if 8 <= hour % 24 <= 20 else -0.4  # warmer by day, cooler at night
        value = 19.8 + daily + (0.1 if hour % 3 == 0 else 0.0)
        if shift_from_day is not None and hour >= shift_from_day * 24:
            value += 4.5  # the room now sits at almost 25 °C, day and night
        events.append((_hours(hour), sensor, f"{value:.1f}"))
    return steps(MIDNIGHT, events, area="Bedroom")


def _bedroom() -> list:
    return [
        entity(
            "sensor.bedroom_temperature",
            "20",
            area="Bedroom",
            device_class="temperature",
            unit="°C",
        )
    ]


def test_bedroom_temperature_moved_to_a_new_level_for_days() -> None:
    trace = _bedroom_days(8, shift_from_day=4)
    (finding,) = level_shift(home(_bedroom(), environment(trace[-1].when), trace))
    assert finding.evidence == ("sensor.bedroom_temperature",)


def test_daily_temperature_rhythm_is_no_level_shift() -> None:
    trace = _bedroom_days(8, shift_from_day=None)
    assert not list(level_shift(home(_bedroom(), environment(trace[-1].when), trace)))


def test_one_day_has_no_baseline_for_a_level_shift() -> None:
    trace = _bedroom_days(1, shift_from_day=None)
    # Even a jump within a single day: without a whole day before it, no baseline.
    jumped = _bedroom_days(2, shift_from_day=1)[:30]
    assert not list(level_shift(home(_bedroom(), environment(trace[-1].when), trace)))
    assert not list(level_shift(home(_bedroom(), environment(jumped[-1].when), jumped)))


# --- twin sensors -----------------------------------------------------------------------


def _twins(drift_from_hour: int | None) -> tuple[list, list[Transition]]:
    wall = "sensor.lounge_temperature"
    thermostat = "sensor.lounge_thermostat_temperature"
    events = []
    for hour in range(24):
        base = 20.5 + (0.8 if 9 <= hour <= 18 else 0.0)
        drift = 0.0
        if drift_from_hour is not None and hour >= drift_from_hour:
            drift = min(13.0, 3.0 * (hour - drift_from_hour + 1))
        events.append((_hours(hour), wall, f"{base + drift:.1f}"))
        events.append((_hours(hour) + 2, thermostat, f"{base - 0.3:.1f}"))
    states = [
        entity(wall, "20", area="Lounge", device_class="temperature", unit="°C"),
        entity(thermostat, "20", area="Lounge", device_class="temperature", unit="°C"),
    ]
    return states, steps(MIDNIGHT, events, area="Lounge")


def test_one_of_two_lounge_thermometers_drifting_away() -> None:
    states, trace = _twins(drift_from_hour=8)
    (finding,) = twin_sensors_disagree(home(states, environment(_at(_hours(23))), trace))
    assert finding.evidence == ("sensor.lounge_temperature",)


def test_two_lounge_thermometers_warming_together_agree() -> None:
    states, trace = _twins(drift_from_hour=None)
    assert not list(twin_sensors_disagree(home(states, environment(_at(_hours(23))), trace)))


# --- slow light response ----------------------------------------------------------------


def _evening(slow_seconds: float | None) -> tuple[list, list[Transition]]:
    rooms = ("Hallway", "Kitchen", "Lounge")
    states = []
    events: list[tuple[float, str, str]] = []
    for index, room in enumerate(rooms):
        slug = room.lower()
        motion, light = f"binary_sensor.{slug}_motion", f"light.{slug}"
        states += [
            entity(motion, "off", area=room, device_class="motion"),
            entity(light, "off", area=room),
        ]
        for visit in range(3):
            start = _hours(17) + 40 * visit + 7 * index
            lag = 0.5 / 60  # automations answer within a second
            if slow_seconds is not None and room == "Kitchen" and visit == 2:
                lag = slow_seconds / 60
            events += [(start, motion, "on"), (start + lag, light, "on")]
            events += [(start + 1, motion, "off"), (start + 10, light, "off")]
    return states, sorted(
        (
            Transition(MIDNIGHT + timedelta(minutes=m), e, s, e.split(".")[1].split("_")[0].title())
            for m, e, s in events
        ),
        key=lambda t: t.when,
    )


def test_kitchen_light_answering_motion_half_a_minute_late() -> None:
    states, trace = _evening(slow_seconds=30)
    (finding,) = slow_light_response(home(states, environment(_at(_hours(20))), trace))
    assert finding.evidence == ("light.kitchen",)


def test_lights_all_answering_promptly() -> None:
    states, trace = _evening(slow_seconds=None)
    assert not list(slow_light_response(home(states, environment(_at(_hours(20))), trace)))


# --- heating against the room -----------------------------------------------------------


def _study_afternoon(room_temperatures: list[float]) -> tuple[list, list[Transition]]:
    unit, sensor, target = "climate.study", "sensor.study_temperature", "number.study_setpoint"
    events: list[tuple[float, str, str]] = [(0, target, "21"), (0, unit, "heat (heating)")]
    for hour, value in enumerate(room_temperatures):
        events.append((_hours(12 + hour), sensor, f"{value:g}"))
    states = [
        entity(unit, "heat", area="Study"),
        entity(sensor, "21", area="Study", device_class="temperature", unit="°C"),
        entity(target, "21", area="Study", device_class="temperature", unit="°C"),
    ]
    return states, steps(MIDNIGHT, events, area="Study")


def test_heating_a_study_that_is_already_28_degrees() -> None:
    states, trace = _study_afternoon([24.5, 26.8, 28.0, 28.6])
    (finding,) = hvac_against_the_room(home(states, environment(_at(_hours(17))), trace))
    assert finding.evidence == ("climate.study", "sensor.study_temperature")


def test_heating_a_cool_study_up_to_its_set_point() -> None:
    states, trace = _study_afternoon([18.5, 19.6, 20.4, 21.1])
    assert not list(hvac_against_the_room(home(states, environment(_at(_hours(17))), trace)))


# --- activity in an armed, empty home ---------------------------------------------------


def _workday(ghost_light: bool) -> tuple[list, list[Transition]]:
    panel, door = "alarm_control_panel.house", "binary_sensor.front_door"
    lounge = "light.lounge"
    events: list[tuple[float, str, str]] = [
        (_hours(7), lounge, "on"),
        (_hours(8) - 5, lounge, "off"),
        (_hours(8) - 1, door, "on"),
        (_hours(8), door, "off"),
        (_hours(8), panel, "armed_away"),
        # Coming home: the porch light greets the car, then the door and the disarm.
        (_hours(18) - 2, "light.porch", "on"),
        (_hours(18), door, "on"),
        (_hours(18) + 0.5, door, "off"),
        (_hours(18) + 1, panel, "disarmed"),
    ]
    if ghost_light:
        events.append((_hours(14.5), lounge, "on"))
    states = [
        entity(panel, "disarmed"),
        entity(door, "off", area="Hallway", device_class="door"),
        entity(lounge, "off", area="Lounge"),
        entity("light.porch", "on", area="Porch"),
    ]
    return states, steps(MIDNIGHT, events)


def test_lounge_light_switching_on_in_the_armed_empty_home() -> None:
    states, trace = _workday(ghost_light=True)
    (finding,) = activation_while_armed_away(home(states, environment(_at(_hours(19))), trace))
    assert finding.evidence == ("light.lounge",)
    assert "14:30" in finding.reasoning


def test_porch_light_greeting_the_homecoming_is_no_intrusion() -> None:
    states, trace = _workday(ghost_light=False)
    assert not list(activation_while_armed_away(home(states, environment(_at(_hours(19))), trace)))


# --- extreme readings -------------------------------------------------------------------


def test_house_meter_reading_eighteen_kilowatts_once() -> None:
    meter = entity("sensor.house_power", "120", device_class="power", unit="W")
    cycling = [120, 2620, 120, 2620, 18000, 120, 2620, 120, 2620, 120, 2620, 120]
    trace = steps(MIDNIGHT, [(_hours(h), meter.entity_id, str(v)) for h, v in enumerate(cycling)])
    (finding,) = reading_spike(home([meter], environment(_at(_hours(12))), trace))
    assert "18000" in finding.reasoning
    ordinary = [v for v in cycling if v != 18000]
    calm = steps(MIDNIGHT, [(_hours(h), meter.entity_id, str(v)) for h, v in enumerate(ordinary)])
    assert not list(reading_spike(home([meter], environment(_at(_hours(12))), calm)))
