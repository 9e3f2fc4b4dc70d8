"""A room cooled far below anything it read, its cooler running (core, no HA).

A bedroom in a hot city, its air conditioner on a metering plug: kept at 25-28 °C on the
days learned. Its unit left at 16 °C, the room falls to 19 °C, colder than the 25 °C
outdoors, the plug drawing: told. The same fall with the plug off (nothing cooling), a
room falling in a cold snap to no colder than the outdoors (a heated home in winter),
a fall of 2 °C under its lowest, one to 21 °C (cooled, not cold), and a room cooled on
its first hot night (its lows learned without the cooling): not told.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.cooled_rooms import (
    room_cooled_far_below_ever,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 8, 10, tzinfo=UTC)
ROOM = "sensor.bedroom_2_temperature"
PLUG = "sensor.plug_4_power"  # the air conditioner's plug, by a name that says nothing
INFOS = [
    EntityInfo(ROOM, "", area="Bedroom 2", device_class="temperature", unit="°C"),
    EntityInfo(PLUG, "", area="Bedroom 2", device_class="power", unit="W"),
]


def _learned(days: int, *, cooled: bool = True) -> HomeBaselines:
    """The ``days`` days before the fifth: the room 25-28 °C, its unit on at night (880 W)
    from 21:00 to 07:00 (when ``cooled``: never used otherwise)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day in range(4 - days, 4):
        start = DAY0 + timedelta(days=day)
        for hour in range(24):
            warm = 25.0 + (3.0 if 9 <= hour <= 20 else hour % 2 * 0.4)
            baselines.observe(start + timedelta(hours=hour), ROOM, f"{warm:.1f}")
        if cooled:
            baselines.observe(start + timedelta(hours=21), PLUG, "880")
            baselines.observe(start + timedelta(hours=31), PLUG, "0.0")
        baselines.advance(start + timedelta(hours=24))
    return baselines


def _tonight(
    baselines: HomeBaselines, falls_to: float, *, outdoors: float = 25.0, drawing: bool = True
) -> HomeView:
    """Tonight from 21:00: the plug drawing 1,380 W (or off), the room falling a degree
    an hour to ``falls_to``; judged an hour after it got there."""
    start = DAY0 + timedelta(days=4, hours=21)
    if drawing:
        baselines.observe(start, PLUG, "1380")
    else:
        baselines.observe(start, PLUG, "0.0")
    transitions, value, when = [], 25.0, start
    while value > falls_to:
        value, when = round(value - 1.0, 1), when + timedelta(hours=1)
        baselines.observe(when, ROOM, f"{value:.1f}")
        transitions.append(Transition(when, ROOM, f"{value:.1f}", "Bedroom 2"))
    now = when + timedelta(hours=1)
    baselines.advance(now)
    room = replace(
        entity(ROOM, f"{value:.1f}", area="Bedroom 2", device_class="temperature", unit="°C"),
        last_changed=when,
    )
    plug = replace(
        entity(
            PLUG, "1380" if drawing else "0.0", area="Bedroom 2", device_class="power", unit="W"
        ),
        last_changed=start,
    )
    env = environment(now, outdoor_temperature=outdoors)
    return HomeView(window([room, plug], env, transitions))


def test_a_room_cooled_far_below_its_lowest_with_its_cooler_running_is_told() -> None:
    baselines = _learned(4)
    [finding] = room_cooled_far_below_ever(_tonight(baselines, 19.0), baselines)
    assert finding.evidence == (ROOM, PLUG)
    assert "never under 25 °C), and under 20 °C since" in finding.reasoning
    assert "it is 25 °C outdoors" in finding.reasoning
    assert finding.magnitude == -6.0


@pytest.mark.parametrize(
    ("falls_to", "outdoors", "drawing", "days", "cooled"),
    [
        (19.0, 25.0, False, 4, True),  # nothing cools it: not the cooling's doing
        (19.0, 18.0, True, 4, True),  # no colder than the air outside: the weather's
        (23.0, 25.0, True, 4, True),  # two degrees under its lowest: within a room's ways
        (21.0, 25.0, True, 4, True),  # far under its lowest, yet cooled, not cold
        (19.0, 25.0, True, 1, True),  # a day and a night say too little of how it is kept
        (19.0, 25.0, True, 4, False),  # its first night cooled: its lows never were the AC's
    ],
)
def test_a_fall_nothing_cools_the_weather_s_or_small_is_not_told(
    falls_to: float, outdoors: float, drawing: bool, days: int, cooled: bool
) -> None:
    baselines = _learned(days, cooled=cooled)
    home = _tonight(baselines, falls_to, outdoors=outdoors, drawing=drawing)
    assert list(room_cooled_far_below_ever(home, baselines)) == []
