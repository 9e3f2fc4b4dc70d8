"""Standby load, stuck presence, night-time lights and doors, and fast-draining batteries."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.models import EntityState, Transition
from custom_components.anomaly_monitor.core.statistics.baseload import unexplained_base_load
from custom_components.anomaly_monitor.core.statistics.battery import battery_draining_fast
from custom_components.anomaly_monitor.core.statistics.night import (
    entry_used_in_small_hours,
    light_on_with_nobody_about,
)
from custom_components.anomaly_monitor.core.statistics.stuck import presence_stuck_on

from .core_factories import entity, environment, home, steps

MIDNIGHT = datetime(2025, 2, 3, 0, 0)
HOUR = 60.0


# --- whole-house standby load ------------------------------------------------------------


def _metered_home() -> list[EntityState]:
    return [
        entity("sensor.house_power", "0", device_class="power", unit="W"),
        entity("climate.lounge", "heat", area="Lounge", hvac_action="idle"),
        entity("light.kitchen", "off", area="Kitchen"),
        entity("switch.kettle", "off", area="Kitchen"),
    ]


def _evening(standby_watts: int) -> list[Transition]:
    """Heating runs 06-08 and 17-19, the kettle at 07:00; the meter reports each change."""
    events = [
        (0, "sensor.house_power", str(standby_watts)),
        (6 * HOUR, "climate.lounge", "heat (heating)"),
        (6 * HOUR, "sensor.house_power", str(standby_watts + 2000)),
        (7 * HOUR, "switch.kettle", "on"),
        (7 * HOUR, "sensor.house_power", str(standby_watts + 4000)),
        (7 * HOUR + 3, "switch.kettle", "off"),
        (7 * HOUR + 3, "sensor.house_power", str(standby_watts + 2000)),
        (8 * HOUR, "climate.lounge", "heat (idle)"),
        (8 * HOUR, "sensor.house_power", str(standby_watts)),
        (17 * HOUR, "climate.lounge", "heat (heating)"),
        (17 * HOUR, "sensor.house_power", str(standby_watts + 2000)),
        (19 * HOUR, "climate.lounge", "heat (idle)"),
        (19 * HOUR, "sensor.house_power", str(standby_watts + 15)),
    ]
    return steps(MIDNIGHT, events)


def test_house_meter_that_never_falls_to_a_standby_level_is_reported() -> None:
    # With the heating idle and the kettle off the house still draws 900 W.
    view = home(_metered_home(), environment(MIDNIGHT + timedelta(hours=22)), _evening(900))
    (finding,) = unexplained_base_load(view)
    assert finding.evidence == ("sensor.house_power",)
    assert finding.magnitude == 900.0


def test_house_meter_at_a_fridge_and_router_standby_is_normal() -> None:
    view = home(_metered_home(), environment(MIDNIGHT + timedelta(hours=22)), _evening(140))
    assert not list(unexplained_base_load(view))


# --- presence sensor stuck on ------------------------------------------------------------


def _day_at_home(extra: list[tuple[float, str, str]]) -> list[Transition]:
    events = [
        (7 * HOUR, "light.kitchen", "on"),
        (7 * HOUR + 30, "light.kitchen", "off"),
        (8 * HOUR, "binary_sensor.front_door", "on"),
        (8 * HOUR + 1, "binary_sensor.front_door", "off"),
        (10 * HOUR, "binary_sensor.lounge_occupancy", "on"),
        (16 * HOUR, "binary_sensor.lounge_occupancy", "off"),
        (17 * HOUR, "binary_sensor.front_door", "on"),
        (17 * HOUR + 1, "binary_sensor.front_door", "off"),
        (18 * HOUR, "light.kitchen", "on"),
        (19 * HOUR, "light.kitchen", "off"),
        *extra,
    ]
    return steps(MIDNIGHT, events)


def _occupancy_home() -> list[EntityState]:
    return [
        entity("binary_sensor.lounge_occupancy", "off", area="Lounge", device_class="occupancy"),
        entity("binary_sensor.front_door", "off", area="Hallway", device_class="door"),
        entity("light.kitchen", "off", area="Kitchen"),
        entity("light.lounge", "off", area="Lounge"),
    ]


def test_occupancy_held_through_an_empty_working_day_is_reported() -> None:
    # Everybody left at 08:00; the lounge sensor claims somebody from 10:00 to 16:00.
    view = home(_occupancy_home(), environment(MIDNIGHT + timedelta(hours=22)), _day_at_home([]))
    (finding,) = presence_stuck_on(view)
    assert finding.evidence == ("binary_sensor.lounge_occupancy",)
    assert finding.magnitude == 6.0


def test_occupancy_held_while_the_lounge_light_is_used_is_somebody_there() -> None:
    reading = [(12 * HOUR, "light.lounge", "on"), (13 * HOUR, "light.lounge", "off")]
    view = home(
        _occupancy_home(), environment(MIDNIGHT + timedelta(hours=22)), _day_at_home(reading)
    )
    assert not list(presence_stuck_on(view))


def test_bedroom_presence_held_all_night_is_a_sleeper() -> None:
    states = [
        *_occupancy_home(),
        entity("binary_sensor.bedroom_presence", "off", area="Bedroom", device_class="presence"),
    ]
    night = steps(
        MIDNIGHT,
        [
            (20 * HOUR, "light.kitchen", "on"),
            (20 * HOUR + 5, "light.kitchen", "off"),
            (21 * HOUR, "binary_sensor.front_door", "on"),
            (21 * HOUR + 1, "binary_sensor.front_door", "off"),
            (22 * HOUR + 30, "binary_sensor.bedroom_presence", "on"),
            (31 * HOUR, "binary_sensor.bedroom_presence", "off"),
            (31 * HOUR + 5, "light.kitchen", "on"),
            (31 * HOUR + 20, "light.kitchen", "off"),
        ],
    )
    view = home(states, environment(MIDNIGHT + timedelta(hours=32)), night)
    assert not list(presence_stuck_on(view))


# --- the small hours ---------------------------------------------------------------------


def _night_home() -> list[EntityState]:
    return [
        entity("light.lounge", "off", area="Lounge"),
        entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion"),
        entity("binary_sensor.back_door", "off", area="Kitchen", device_class="door"),
        entity("lock.back_door", "locked", area="Kitchen"),
    ]


def _two_nights(events_per_night: list[tuple[float, str, str]]) -> list[Transition]:
    evenings = [
        (19 * HOUR, "binary_sensor.hallway_motion", "on"),
        (19 * HOUR + 0.5, "binary_sensor.hallway_motion", "off"),
    ]
    events: list[tuple[float, str, str]] = []
    for night in (1, 2):
        base = night * 24 * HOUR
        events += [(base + m - 24 * HOUR, e, s) for m, e, s in evenings]
        events += [(base + m, e, s) for m, e, s in events_per_night]
    return steps(MIDNIGHT, events)


def test_lounge_light_switching_itself_on_at_3am_twice_is_reported() -> None:
    ghost = [(3 * HOUR + 15, "light.lounge", "on"), (3 * HOUR + 18, "light.lounge", "off")]
    view = home(_night_home(), environment(MIDNIGHT + timedelta(days=3)), _two_nights(ghost))
    (finding,) = light_on_with_nobody_about(view)
    assert finding.evidence == ("light.lounge",)
    assert finding.magnitude == 2.0


def test_light_after_walking_down_the_hallway_at_night_is_somebody_up() -> None:
    up = [
        (3 * HOUR + 14, "binary_sensor.hallway_motion", "on"),
        (3 * HOUR + 15, "light.lounge", "on"),
        (3 * HOUR + 15.5, "binary_sensor.hallway_motion", "off"),
        (3 * HOUR + 30, "light.lounge", "off"),
    ]
    view = home(_night_home(), environment(MIDNIGHT + timedelta(days=3)), _two_nights(up))
    assert not list(light_on_with_nobody_about(view))


def _out_the_back(at: float) -> list[tuple[float, str, str]]:
    return [
        (at - 1, "binary_sensor.hallway_motion", "on"),
        (at - 0.5, "binary_sensor.hallway_motion", "off"),
        (at, "lock.back_door", "unlocked"),
        (at + 0.1, "binary_sensor.back_door", "on"),
        (at + 0.2, "binary_sensor.back_door", "off"),
        (at + 0.3, "lock.back_door", "locked"),
    ]


def test_back_door_used_at_half_past_one_on_two_nights_is_reported() -> None:
    trace = _two_nights(_out_the_back(1 * HOUR + 30))
    view = home(_night_home(), environment(MIDNIGHT + timedelta(days=3)), trace)
    (finding,) = entry_used_in_small_hours(view)
    assert set(finding.evidence) == {
        "binary_sensor.back_door",
        "lock.back_door",
        "binary_sensor.hallway_motion",
    }
    assert finding.magnitude == 2.0


def test_one_late_return_is_left_alone() -> None:
    trace = steps(MIDNIGHT, _out_the_back(24 * HOUR + 1 * HOUR + 30))
    view = home(_night_home(), environment(MIDNIGHT + timedelta(days=2)), trace)
    assert not list(entry_used_in_small_hours(view))


# --- batteries ---------------------------------------------------------------------------


def _draining(battery: str, points: list[int]) -> list[Transition]:
    return steps(MIDNIGHT, [(i * 6 * HOUR, battery, str(p)) for i, p in enumerate(points)])


def test_door_sensor_battery_losing_most_of_its_charge_in_a_day_is_reported() -> None:
    states = [
        entity("binary_sensor.back_door", "off", area="Kitchen", device_class="door"),
        entity("sensor.back_door_battery", "28", area="Kitchen", device_class="battery", unit="%"),
    ]
    trace = _draining("sensor.back_door_battery", [100, 76, 52, 28])
    (finding,) = battery_draining_fast(
        home(states, environment(MIDNIGHT + timedelta(days=1)), trace)
    )
    assert finding.evidence == ("sensor.back_door_battery",)
    assert finding.magnitude == 72.0


def test_phone_draining_over_a_day_is_how_phones_work() -> None:
    states = [
        entity("device_tracker.pixel", "home"),
        entity("sensor.pixel_battery_level", "28", device_class="battery", unit="%"),
    ]
    trace = _draining("sensor.pixel_battery_level", [100, 76, 52, 28])
    view = home(states, environment(MIDNIGHT + timedelta(days=1)), trace)
    assert not list(battery_draining_fast(view))


def test_sensor_battery_losing_a_point_a_week_is_normal() -> None:
    states = [
        entity("binary_sensor.back_door", "off", area="Kitchen", device_class="door"),
        entity("sensor.back_door_battery", "96", area="Kitchen", device_class="battery", unit="%"),
    ]
    trace = steps(
        MIDNIGHT, [(d * 7 * 24 * HOUR, "sensor.back_door_battery", str(100 - d)) for d in range(5)]
    )
    view = home(states, environment(MIDNIGHT + timedelta(days=30)), trace)
    assert not list(battery_draining_fast(view))
