"""Heating or cooling with a window open: which windows waste which unit, and a window's
daily airing learned as the home's routine.

A room's own unit (a split air conditioner, an oil heater in a bedroom) loses its heat
only through its room's windows; the home's central thermostat through any window. A
window open the same 45 min every evening (a laundry window opened for a gas water
heater) is how the home lives; the same window left open three times as long is told.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.models import (
    EntityInfo,
    EntityState,
    Finding,
    Transition,
)
from custom_components.anomaly_monitor.core.rules.hvac import hvac_with_opening_open
from custom_components.anomaly_monitor.core.statistics.airing import hvac_ran_with_window_open
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment, home, steps

LOUNGE_WINDOW = "binary_sensor.lounge_window"
BEDROOM_WINDOW = "binary_sensor.bedroom_window"
SPLIT = "climate.bedroom_split"
HEATER = "climate.heater"
MIDNIGHT = datetime(2025, 10, 3, 0, 0)
HOUR = 60.0


def _home(central_area: str | None, lounge_window: str, bedroom_window: str) -> list[EntityState]:
    """A bedroom split unit heating; optionally a second, central unit (``central_area``
    "" = none) heating too."""
    states = [
        entity(LOUNGE_WINDOW, lounge_window, area="Lounge", device_class="window"),
        entity(BEDROOM_WINDOW, bedroom_window, area="Bedroom", device_class="window"),
        entity(SPLIT, "heat", area="Bedroom", hvac_action="heating"),
    ]
    if central_area != "":
        states.append(entity("climate.thermostat", "heat", area=central_area, hvac_action="idle"))
    return states


def test_a_window_in_another_room_than_the_split_unit_is_not_told() -> None:
    assert not list(hvac_with_opening_open(home(_home("Hall", "on", "off"))))


def test_a_window_in_the_split_units_own_room_is_told() -> None:
    (finding,) = hvac_with_opening_open(home(_home("Hall", "off", "on")))
    assert finding.subject == BEDROOM_WINDOW


def test_the_homes_only_unit_or_one_with_no_area_heats_through_every_window() -> None:
    for central_area in ("", None):  # the split alone in the home; a unit with no area
        states = _home(central_area, "on", "off")
        if central_area is None:  # the whole-home unit heats, the split rests
            states = [
                entity(SPLIT, "heat", area="Bedroom", hvac_action="idle")
                if s.entity_id == SPLIT
                else entity("climate.thermostat", "heat", area=None, hvac_action="heating")
                if s.entity_id == "climate.thermostat"
                else s
                for s in states
            ]
        (finding,) = hvac_with_opening_open(home(states))
        assert finding.subject == LOUNGE_WINDOW, central_area


def _statistic_day(window: str) -> list[Transition]:
    """``window`` open 08:00-12:00; the bedroom split heats 08:00-12:00."""
    events = [
        (8 * HOUR, window, "on"),
        (12 * HOUR, window, "off"),
        (8 * HOUR, SPLIT, "heat (heating)"),
        (12 * HOUR, SPLIT, "heat (idle)"),
    ]
    return steps(MIDNIGHT, sorted(events))


def test_a_past_open_spell_wastes_only_its_own_rooms_unit() -> None:
    states = _home("Hall", "off", "off")
    now = environment(MIDNIGHT + timedelta(hours=20))
    assert not list(hvac_ran_with_window_open(home(states, now, _statistic_day(LOUNGE_WINDOW))))
    (finding,) = hvac_ran_with_window_open(home(states, now, _statistic_day(BEDROOM_WINDOW)))
    assert finding.subject == BEDROOM_WINDOW
    assert SPLIT in finding.evidence


# --- a daily airing learned --------------------------------------------------------------

DAY0 = datetime(2026, 1, 5, tzinfo=UTC)
LAUNDRY = "binary_sensor.laundry_window"
RULE = "hvac_with_opening_open"


def _evening(day: int, open_for: timedelta) -> list[Transition]:
    """The laundry window opens at 20:00 for ``open_for``; the heater heats 19:30-22:00."""
    start = DAY0 + timedelta(days=day)
    opened = start + timedelta(hours=20)
    return [
        Transition(start + timedelta(hours=19, minutes=30), HEATER, "heat (heating)", "Bedroom"),
        Transition(opened, LAUNDRY, "on", "Laundry"),
        Transition(opened + open_for, LAUNDRY, "off", "Laundry"),
        Transition(start + timedelta(hours=22), HEATER, "heat (idle)", "Bedroom"),
    ]


def _lived(days: int) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe(
        [
            EntityInfo(LAUNDRY, "", area="Laundry", device_class="window"),
            EntityInfo(HEATER, "", area="Bedroom"),
        ]
    )
    baselines.watching({LAUNDRY: "Laundry", HEATER: "Bedroom"}, DAY0)
    for day in range(days):
        for transition in _evening(day, timedelta(minutes=45)):
            baselines.learn(transition)
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def _tonight(baselines: HomeBaselines | None, open_for: timedelta, day: int = 7) -> list[Finding]:
    """At 22:30 of ``day``: the window open at 20:00 for ``open_for``, closed again."""
    now = DAY0 + timedelta(days=day, hours=22, minutes=30)
    today = _evening(day, open_for)
    if baselines is not None:
        for transition in today:
            baselines.learn(transition)
        baselines.advance(now)
    states = [
        entity(LAUNDRY, "off", area="Laundry", device_class="window"),
        entity(HEATER, "heat", area="Bedroom", hvac_action="idle"),
    ]
    detector = CombinedDetector(baselines=(lambda: baselines) if baselines is not None else None)
    window = build_window(
        states, environment(now, persons_home=2), today, start=DAY0 + timedelta(days=day)
    )
    return [f for f in detector.findings(window) if f.rule == RULE]


def test_the_evening_airing_is_told_before_anything_is_learned() -> None:
    (finding,) = _tonight(None, timedelta(minutes=45))
    assert finding.subject == LAUNDRY


def test_the_daily_evening_airing_is_not_told() -> None:
    assert _tonight(_lived(7), timedelta(minutes=45)) == []


def test_the_same_window_left_open_three_times_as_long_is_told() -> None:
    (finding,) = _tonight(_lived(7), timedelta(minutes=135))
    assert finding.subject == LAUNDRY
    assert "On most days it is open at most 45 min" in finding.reasoning
