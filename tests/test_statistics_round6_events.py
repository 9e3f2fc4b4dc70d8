"""Round 6 event statistics: night-time contact blips, lights switched off the second they
came on, motion sensors held on while people move elsewhere, and slow lights judged on
three responses."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.statistics import ALL_STATISTICS
from custom_components.anomaly_monitor.core.statistics.blips import opening_blip_at_night
from custom_components.anomaly_monitor.core.statistics.climate import hvac_against_the_room
from custom_components.anomaly_monitor.core.statistics.conflicts import switched_off_at_once
from custom_components.anomaly_monitor.core.statistics.held import motion_held_on
from custom_components.anomaly_monitor.core.statistics.responses import slow_light_response

from .core_factories import entity, environment, home, steps

MIDNIGHT = datetime(2025, 1, 14, 0, 0)
HOUR = 60.0
SECOND = 1 / 60


def test_the_new_statistics_are_registered() -> None:
    names = {check.__name__ for check in ALL_STATISTICS}
    assert {
        "opening_blip_at_night",
        "switched_off_at_once",
        "motion_held_on",
    } <= names


# --- a contact that blips at night -------------------------------------------------------


def _garage_home() -> list[EntityState]:
    return [
        entity("binary_sensor.garage_door", "off", area="Garage", device_class="door"),
        entity("binary_sensor.garage_motion", "off", area="Garage", device_class="motion"),
        entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion"),
        entity("light.hallway", "off", area="Hallway"),
    ]


def _day(night_events: list[tuple[float, str, str]]) -> list[Transition]:
    evening = [
        (-5 * HOUR, "binary_sensor.hallway_motion", "on"),
        (-5 * HOUR + 0.5, "binary_sensor.hallway_motion", "off"),
        (-5 * HOUR, "light.hallway", "on"),
        (-4 * HOUR, "light.hallway", "off"),
    ]
    morning = [
        (7 * HOUR, "binary_sensor.hallway_motion", "on"),
        (7 * HOUR + 0.5, "binary_sensor.hallway_motion", "off"),
    ]
    return steps(MIDNIGHT, [*evening, *night_events, *morning])


def test_garage_door_open_five_seconds_at_3am_with_the_home_still() -> None:
    blip = [
        (3.5 * HOUR, "binary_sensor.garage_door", "on"),
        (3.5 * HOUR, "binary_sensor.garage_motion", "off"),  # a "clear" report, nobody there
        (3.5 * HOUR + 5 * SECOND, "binary_sensor.garage_door", "off"),
    ]
    view = home(_garage_home(), environment(MIDNIGHT + timedelta(hours=8)), _day(blip))
    (finding,) = opening_blip_at_night(view)
    assert finding.evidence == ("binary_sensor.garage_door", "binary_sensor.garage_motion")
    assert finding.magnitude == 1.0
    assert "03:30:00" in finding.reasoning


def test_somebody_going_out_at_3am_is_seen_on_the_way() -> None:
    # The same five seconds, but the hallway sensor and light show a person two minutes before.
    walk = [
        (3.5 * HOUR - 2, "binary_sensor.hallway_motion", "on"),
        (3.5 * HOUR - 2, "light.hallway", "on"),
        (3.5 * HOUR, "binary_sensor.garage_door", "on"),
        (3.5 * HOUR + 5 * SECOND, "binary_sensor.garage_door", "off"),
    ]
    view = home(_garage_home(), environment(MIDNIGHT + timedelta(hours=8)), _day(walk))
    assert not list(opening_blip_at_night(view))


def test_a_door_open_five_seconds_in_the_afternoon_is_everyday_life() -> None:
    afternoon = [
        (15 * HOUR, "binary_sensor.garage_door", "on"),
        (15 * HOUR + 5 * SECOND, "binary_sensor.garage_door", "off"),
    ]
    view = home(_garage_home(), environment(MIDNIGHT + timedelta(hours=16)), _day(afternoon))
    assert not list(opening_blip_at_night(view))


def test_a_window_opened_for_air_at_night_stays_open_for_minutes() -> None:
    airing = [
        (2 * HOUR, "binary_sensor.garage_door", "on"),
        (2 * HOUR + 4, "binary_sensor.garage_door", "off"),
    ]
    view = home(_garage_home(), environment(MIDNIGHT + timedelta(hours=8)), _day(airing))
    assert not list(opening_blip_at_night(view))


# --- a light switched off the second it came on ------------------------------------------


def _lounge(flicker: bool) -> tuple[list, list]:
    motion, light = "binary_sensor.lounge_motion", "light.lounge"
    events: list[tuple[float, str, str]] = [
        (18 * HOUR, motion, "on"),
        (18 * HOUR, light, "on"),
        (18 * HOUR + 0.1, motion, "off"),
        (18 * HOUR + 30, light, "off"),
        (20 * HOUR, motion, "on"),
        (20 * HOUR, light, "on"),
        (20 * HOUR + 0.1, motion, "off"),
    ]
    if flicker:
        events += [(20 * HOUR, light, "off"), (20 * HOUR + 0.5, motion, "on")]
    else:
        events += [(20 * HOUR + 45, light, "off")]
    states = [
        entity(motion, "off", area="Lounge", device_class="motion"),
        entity(light, "off", area="Lounge"),
    ]
    return states, steps(MIDNIGHT, events)


def test_lounge_light_turned_off_the_second_motion_turned_it_on() -> None:
    states, trace = _lounge(flicker=True)
    view = home(states, environment(MIDNIGHT + timedelta(hours=22)), trace)
    (finding,) = switched_off_at_once(view)
    assert finding.evidence == ("light.lounge", "binary_sensor.lounge_motion")
    assert "20:00:00" in finding.reasoning


def test_lounge_light_on_for_the_evening_is_normal() -> None:
    states, trace = _lounge(flicker=False)
    view = home(states, environment(MIDNIGHT + timedelta(hours=22)), trace)
    assert not list(switched_off_at_once(view))


# --- slow lights, with three responses ---------------------------------------------------


def _morning(kitchen_lag_seconds: float) -> tuple[list, list]:
    # The window opens at midnight (the hall door's report): the bedroom motion is a change.
    events: list[tuple[float, str, str]] = [(0, "binary_sensor.hall_door", "off")]
    states = [entity("binary_sensor.hall_door", "off", area="Hall", device_class="door")]
    for start, room, lag in (
        (7 * HOUR, "Bedroom", 0.0),
        (7.5 * HOUR, "Kitchen", kitchen_lag_seconds),
        (19 * HOUR, "Lounge", 0.0),
    ):
        motion, light = f"binary_sensor.{room.lower()}_motion", f"light.{room.lower()}"
        states += [
            entity(motion, "off", area=room, device_class="motion"),
            entity(light, "off", area=room),
        ]
        events += [(start, motion, "on"), (start + lag * SECOND, light, "on")]
        events += [(start + 0.1, motion, "off"), (start + 20, light, "off")]
    return states, steps(MIDNIGHT, events)


def test_kitchen_light_thirty_seconds_late_among_three_responses() -> None:
    states, trace = _morning(kitchen_lag_seconds=30)
    view = home(states, environment(MIDNIGHT + timedelta(hours=21)), trace)
    (finding,) = slow_light_response(view)
    assert finding.evidence == ("light.kitchen",)


def test_three_prompt_responses_are_the_habit() -> None:
    states, trace = _morning(kitchen_lag_seconds=0.5)
    view = home(states, environment(MIDNIGHT + timedelta(hours=21)), trace)
    assert not list(slow_light_response(view))


def test_a_light_answers_the_nearest_motion_of_its_room() -> None:
    """Set 20: a camera sees the kitchen 30 s before the kitchen's own sensor, whose light
    comes on half a second after that sensor: no slow answer to the camera. The same light
    30 s after the camera, with no nearer onset, is slow."""
    states, trace = _morning(kitchen_lag_seconds=0.5)
    camera = "binary_sensor.kitchen_camera_motion"
    states.append(entity(camera, "off", area="Kitchen", device_class="motion"))
    at = 12 * HOUR
    seen = [(at, camera, "on"), (at + 0.2, camera, "off"), (at + 20, "light.kitchen", "off")]
    sensor = [(at + 29.5 * SECOND, "binary_sensor.kitchen_motion", "on")]
    sensor.append((at + 1, "binary_sensor.kitchen_motion", "off"))
    lit = [(at + 30 * SECOND, "light.kitchen", "on")]
    evening = environment(MIDNIGHT + timedelta(hours=21))
    view = home(states, evening, trace + steps(MIDNIGHT, seen + sensor + lit))
    assert not list(slow_light_response(view))
    view = home(states, evening, trace + steps(MIDNIGHT, seen + lit))
    (finding,) = slow_light_response(view)
    assert finding.evidence == ("light.kitchen",)
    assert finding.candidates == (camera,)


# --- a motion sensor held "on" for hours while people move elsewhere ---------------------


def _afternoon(stuck_hours: float, kitchen_visits: int) -> tuple[list, list]:
    lounge, kitchen, hall = (
        "binary_sensor.lounge_motion",
        "binary_sensor.kitchen_motion",
        "binary_sensor.hall_motion",
    )
    events: list[tuple[float, str, str]] = [(0, hall, "off")]
    for hour in (7, 8, 9, 12):  # ordinary passes: each sensor clears within seconds
        events += [(hour * HOUR, hall, "on"), (hour * HOUR + 0.1, hall, "off")]
    events += [(14 * HOUR, lounge, "on"), ((14 + stuck_hours) * HOUR, lounge, "off")]
    for visit in range(kitchen_visits):
        at = (15 + visit) * HOUR
        events += [(at, kitchen, "on"), (at + 0.1, kitchen, "off")]
    states = [
        entity(lounge, "off", area="Lounge", device_class="motion"),
        entity(kitchen, "off", area="Kitchen", device_class="motion"),
        entity(hall, "off", area="Hall", device_class="motion"),
    ]
    return states, steps(MIDNIGHT, events)


def test_lounge_motion_held_six_hours_while_the_kitchen_sees_the_household() -> None:
    states, trace = _afternoon(stuck_hours=6, kitchen_visits=3)
    view = home(states, environment(MIDNIGHT + timedelta(hours=22)), trace)
    (finding,) = motion_held_on(view)
    assert finding.evidence == ("binary_sensor.lounge_motion",)
    assert finding.magnitude == 6.0


def test_a_two_hour_film_in_front_of_the_sensor_is_not_stuck() -> None:
    states, trace = _afternoon(stuck_hours=2, kitchen_visits=1)
    view = home(states, environment(MIDNIGHT + timedelta(hours=22)), trace)
    assert not list(motion_held_on(view))


def test_held_while_nobody_moved_elsewhere_is_left_to_presence_stuck_on() -> None:
    states, trace = _afternoon(stuck_hours=6, kitchen_visits=0)
    view = home(states, environment(MIDNIGHT + timedelta(hours=22)), trace)
    assert not list(motion_held_on(view))


# --- heating a warm room: the unit's own power meter is cited with it --------------------


def _warm_study(meter_steps_with_the_unit: bool) -> tuple[list, list]:
    unit, sensor, meter = "climate.study", "sensor.study_temperature", "sensor.study_power"
    events: list[tuple[float, str, str]] = [(0, meter, "5"), (10 * HOUR, unit, "heat (heating)")]
    events.append((10 * HOUR if meter_steps_with_the_unit else 3 * HOUR, meter, "2000"))
    for hour, value in enumerate([26.8, 28.0, 28.6], start=11):
        events.append((hour * HOUR, sensor, f"{value:g}"))
    states = [
        entity(unit, "heat", area="Study"),
        entity(sensor, "27", area="Study", device_class="temperature", unit="°C"),
        entity(meter, "2000", area="Study", device_class="power", unit="W"),
    ]
    return states, steps(MIDNIGHT, events)


def test_heating_a_warm_study_cites_the_meter_that_stepped_with_the_unit() -> None:
    states, trace = _warm_study(meter_steps_with_the_unit=True)
    view = home(states, environment(MIDNIGHT + timedelta(hours=15)), trace)
    (finding,) = hvac_against_the_room(view)
    assert finding.evidence == ("climate.study", "sensor.study_temperature", "sensor.study_power")


def test_a_meter_that_moved_hours_before_the_run_is_not_the_unit() -> None:
    states, trace = _warm_study(meter_steps_with_the_unit=False)
    view = home(states, environment(MIDNIGHT + timedelta(hours=15)), trace)
    (finding,) = hvac_against_the_room(view)
    assert finding.evidence == ("climate.study", "sensor.study_temperature")
