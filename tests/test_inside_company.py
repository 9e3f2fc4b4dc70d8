"""An opening no motion sensor saw, made by somebody all the same: another door used a
minute before, or the oven being tended (``statistics.inside_company``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.statistics.openings import unaccompanied_opening

from .core_factories import entity, environment, home, steps

MIDNIGHT = datetime(2025, 1, 20, 0, 0)


def _kitchen(extra: list[tuple[float, str, str]], oven_watts: str = "0") -> list:
    """A kitchen whose oven door opens at 14:58 with no motion sensor seeing anybody
    (the household moved about in the morning); ``extra`` adds what else happened."""
    states = [
        entity("binary_sensor.oven_door", "off", area="Kitchen", device_class="door"),
        entity("binary_sensor.bedroom_door", "off", area="Bedroom", device_class="door"),
        entity("binary_sensor.kitchen_motion", "off", area="Kitchen", device_class="motion"),
        entity("binary_sensor.hall_motion", "off", area="Hall", device_class="motion"),
        entity("sensor.oven_power", oven_watts, area="Kitchen", device_class="power", unit="W"),
    ]
    events: list[tuple[float, str, str]] = [(0, "sensor.oven_power", "0")]
    for hour in (8, 9, 10, 11):  # the household about in the morning: the sensors work
        events += [(hour * 60, "binary_sensor.hall_motion", "on")]
        events += [(hour * 60 + 2, "binary_sensor.hall_motion", "off")]
        events += [(hour * 60 + 3, "binary_sensor.kitchen_motion", "on")]
        events += [(hour * 60 + 5, "binary_sensor.kitchen_motion", "off")]
    events += [(14 * 60 + 58, "binary_sensor.oven_door", "on")]
    events += [(14 * 60 + 58.3, "binary_sensor.oven_door", "off"), *extra]
    trace = steps(MIDNIGHT, events)
    return [home(states, environment(MIDNIGHT + timedelta(hours=16)), trace)]


def _told(extra: list[tuple[float, str, str]]) -> bool:
    (view,) = _kitchen(extra)
    return any(f.evidence[0] == "binary_sensor.oven_door" for f in unaccompanied_opening(view))


def test_an_opening_nobody_made_is_still_told() -> None:
    assert _told([])


def test_an_opening_after_another_door_inside_is_somebody_walking() -> None:
    # The bedroom door at 14:55, the oven's at 14:58: one person from one to the other.
    assert not _told([(14 * 60 + 55, "binary_sensor.bedroom_door", "on")])


def test_a_door_opened_long_before_is_no_company() -> None:
    assert _told([(13 * 60, "binary_sensor.bedroom_door", "on")])


def test_an_oven_baking_in_the_room_shows_somebody_tending_it() -> None:
    # The oven draws 1590 W from 14:48: its door opened to look at the cakes.
    assert not _told([(14 * 60 + 48, "sensor.oven_power", "1590")])


def test_a_fridge_compressor_in_the_room_shows_nobody() -> None:
    assert _told([(14 * 60 + 48, "sensor.oven_power", "85")])


def test_a_meter_in_kilowatts_is_read_in_watts() -> None:
    assert _told([(14 * 60 + 48, "sensor.oven_power", "1.59")])  # W: 1.59 W, nobody
