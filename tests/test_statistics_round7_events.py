"""Round 7, events: small hand-written homes for each change (fires on the shape, silent
on an ordinary day)."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Transition
from custom_components.anomaly_monitor.core.statistics.armed import activation_while_armed_away
from custom_components.anomaly_monitor.core.statistics.health import device_went_offline
from custom_components.anomaly_monitor.core.statistics.intrusion import break_in_sequence

from .core_factories import entity, environment, home, steps

MORNING = datetime(2025, 5, 20, 0, 0)


def _at(minutes: float) -> datetime:
    return MORNING + timedelta(minutes=minutes)


def _hours(hours: float) -> float:
    return hours * 60


# --- a light switched on in the armed home, behind the household that left ---------------

PANEL, DOOR, HALL = "alarm_control_panel.house", "binary_sensor.front_door", "binary_sensor.hall"
LOUNGE = "light.lounge"


def _leaving(extra: list[tuple[float, str, str]]) -> tuple[list, list[Transition]]:
    """The household leaves at 08:00 and arms the panel as the door shuts behind them."""
    events: list[tuple[float, str, str]] = [
        (_hours(8), DOOR, "on"),
        (_hours(8), HALL, "on"),
        (_hours(8), PANEL, "armed_away"),
        (_hours(8) + 0.2, HALL, "off"),
        (_hours(8) + 0.5, DOOR, "off"),
        *extra,
    ]
    states = [
        entity(PANEL, "armed_away"),
        entity(DOOR, "off", area="Hallway", device_class="door"),
        entity(HALL, "off", area="Hallway", device_class="motion"),
        entity(LOUNGE, "on", area="Lounge"),
    ]
    return states, steps(MORNING, events)


def test_lounge_light_on_ten_minutes_after_the_household_left_and_armed() -> None:
    # The door and the hall motion at 08:00 were the household leaving, not an arrival.
    states, trace = _leaving([(_hours(8) + 10, LOUNGE, "on")])
    (finding,) = activation_while_armed_away(home(states, environment(_at(_hours(12))), trace))
    assert finding.evidence == (LOUNGE,)
    assert "08:10" in finding.reasoning


def test_somebody_back_for_the_keys_switching_the_light_on_is_no_intrusion() -> None:
    # Back 20 minutes later: the door opens after the arming, then the light.
    states, trace = _leaving(
        [
            (_hours(8) + 20, DOOR, "on"),
            (_hours(8) + 20.5, DOOR, "off"),
            (_hours(8) + 21, LOUNGE, "on"),
        ]
    )
    assert not list(activation_while_armed_away(home(states, environment(_at(_hours(12))), trace)))


# --- ...unless the home switches it on at that time every day (a routine) -------------


def _week_with_an_armed_day(porch_hour: float) -> tuple[list, list[Transition]]:
    """Five days; on day 3 the household is away and armed from 08:00 to the next day.
    Every day the porch light switches on at ``porch_hour`` (an automation); on day 3 at
    18:05 it switches on in the armed home."""
    porch = "light.porch"
    events: list[tuple[float, str, str]] = []
    for day in range(5):
        if day != 2:
            events += [
                (_hours(24 * day + porch_hour), porch, "on"),
                (_hours(24 * day + porch_hour) + 60, porch, "off"),
            ]
    events += [
        (_hours(48 + 8), DOOR, "on"),
        (_hours(48 + 8), PANEL, "armed_away"),
        (_hours(48 + 8) + 0.5, DOOR, "off"),
        (_hours(48 + 18) + 5, porch, "on"),
        (_hours(48 + 18) + 65, porch, "off"),
        (_hours(72 + 9), DOOR, "on"),
        (_hours(72 + 9), PANEL, "disarmed"),
        (_hours(72 + 9) + 0.5, DOOR, "off"),
    ]
    states = [
        entity(PANEL, "disarmed"),
        entity(DOOR, "off", area="Hallway", device_class="door"),
        entity(porch, "off", area="Porch"),
    ]
    return states, steps(MORNING, events)


def test_porch_light_on_its_daily_dusk_routine_in_the_armed_home_is_no_intrusion() -> None:
    states, trace = _week_with_an_armed_day(porch_hour=18)
    assert not list(
        activation_while_armed_away(home(states, environment(_at(_hours(5 * 24))), trace))
    )


def test_porch_light_on_at_an_hour_it_never_uses_in_the_armed_home_is_told() -> None:
    states, trace = _week_with_an_armed_day(porch_hour=7)
    (finding,) = activation_while_armed_away(home(states, environment(_at(_hours(5 * 24))), trace))
    assert finding.evidence == ("light.porch",)
    assert "18:05" in finding.reasoning


# --- a break-in as it unfolds ---------------------------------------------------------

GLASS, WINDOW = "binary_sensor.lounge_glass", "binary_sensor.lounge_window"
LANDING, BEDROOM = "binary_sensor.landing_motion", "binary_sensor.bedroom_motion"


def _night(extra: list[tuple[float, str, str]]) -> HomeView:
    """02:05: the lounge window opens, its glass sensor trips, motion on the landing and in
    the bedroom follows within seconds."""
    events: list[tuple[float, str, str]] = [
        (0, GLASS, "off"),
        (0, WINDOW, "off"),
        (0, LANDING, "off"),
        (0, BEDROOM, "off"),
        (_hours(2) + 5, WINDOW, "on"),
        (_hours(2) + 5 + 4 / 60, GLASS, "on"),
        (_hours(2) + 5 + 5 / 60, WINDOW, "off"),
        (_hours(2) + 5 + 12 / 60, LANDING, "on"),
        (_hours(2) + 5 + 18 / 60, LANDING, "off"),
        (_hours(2) + 5 + 18 / 60, BEDROOM, "on"),
        (_hours(2) + 5 + 24 / 60, BEDROOM, "off"),
        *extra,
    ]
    states = [
        entity(GLASS, "on", area="Lounge", device_class="safety"),
        entity(WINDOW, "off", area="Lounge", device_class="window"),
        entity(LANDING, "off", area="Landing", device_class="motion"),
        entity(BEDROOM, "off", area="Bedroom", device_class="motion"),
    ]
    return home(states, environment(_at(_hours(3))), steps(MORNING, events))


def test_glass_broken_window_opened_and_somebody_walking_in_a_still_home() -> None:
    (finding,) = break_in_sequence(_night([]))
    assert finding.evidence == (GLASS, WINDOW, LANDING, BEDROOM)
    assert finding.magnitude == 2.0
    assert "Landing, Bedroom" in finding.reasoning


def test_somebody_up_before_the_glass_broke_is_the_household() -> None:
    # Somebody walked the landing 10 minutes earlier: they were up (a window slammed).
    up = [(_hours(2) - 5, LANDING, "on"), (_hours(2) - 5 + 0.1, LANDING, "off")]
    assert not list(break_in_sequence(_night(up)))


# --- devices that dropped off together: a shared hub ----------------------------------


def _hub_drop(with_others: bool) -> HomeView:
    """The lounge thermostat's link drops at 22:00 for an hour; with ``with_others`` the
    alarm panel's link (no area) and a hall sensor drop in the same minute."""
    thermostat = "binary_sensor.lounge_thermostat_link"
    panel = "binary_sensor.alarm_panel_link"
    hall = "sensor.hall_temperature"
    events: list[tuple[float, str, str]] = [
        (0, thermostat, "on"),
        (0, panel, "on"),
        (0, hall, "20.5"),
        (_hours(22), thermostat, "off"),
        (_hours(23), thermostat, "on"),
    ]
    if with_others:
        events += [
            (_hours(22), panel, "off"),
            (_hours(22) + 0.5, hall, "unavailable"),
            (_hours(22) + 6, panel, "on"),
            (_hours(22) + 6, hall, "20.4"),
        ]
    states = [
        entity(thermostat, "on", area="Lounge", device_class="connectivity"),
        entity(panel, "on", device_class="connectivity"),
        entity(hall, "20.4", area="Hall", device_class="temperature", unit="°C"),
    ]
    return home(states, environment(_at(_hours(23.5))), steps(MORNING, events))


def test_devices_dropping_in_the_same_minute_are_cited_together() -> None:
    (finding,) = device_went_offline(_hub_drop(with_others=True))
    assert finding.evidence == (
        "binary_sensor.lounge_thermostat_link",
        "binary_sensor.alarm_panel_link",
        "sensor.hall_temperature",
    )
    assert "a shared hub" in finding.reasoning


def test_a_device_dropping_alone_is_cited_alone() -> None:
    (finding,) = device_went_offline(_hub_drop(with_others=False))
    assert finding.evidence == ("binary_sensor.lounge_thermostat_link",)
    assert "shared" not in finding.reasoning
