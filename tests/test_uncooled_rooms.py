"""A room a machine keeps cool, far warmer than anything it read (core, no HA).

A grandmother's room in a hot city, its air conditioner on a metering plug run every
afternoon and night: 25-26 °C on the days learned. The unit fails at 13:00 on a 38 °C
afternoon (the plug at 0 W) and the room climbs a degree every 20 min to 31 °C: told once
it has been over 29 °C (3 °C over its highest) for half an hour. The same climb in a room
no machine ever cooled (the weather's), a room warmer than the outdoors (a heater's or a
cooker's heat), a climb of 2 °C, one in a room always kept at 22 °C that stays under
28 °C, and a climb on the second day: not told. Judged by the room's own readings, it is
pushed on the third day, while its devices are still being learned.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.uncooled_rooms import (
    room_warmed_far_above_ever,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.learning_gate import held_while_learning
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 12, 1, tzinfo=UTC)
ROOM = "sensor.pieza_2_temperature"
PLUG = "sensor.plug_9_power"  # the air conditioner's plug, by a name that says nothing
INFOS = [
    EntityInfo(ROOM, "", area="Pieza 2", device_class="temperature", unit="°C"),
    EntityInfo(PLUG, "", area="Pieza 2", device_class="power", unit="W"),
]


def _learned(days: int, *, kept: float = 25.0, cooled: bool = True) -> HomeBaselines:
    """The ``days`` days before the fifth: the room ``kept`` to 1 °C over it, its unit on
    (870 W) from 13:00 to 15:30 and from 21:00 to 06:00 (when ``cooled``)."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    for day in range(4 - days, 4):
        start = DAY0 + timedelta(days=day)
        for hour in range(24):
            baselines.observe(start + timedelta(hours=hour), ROOM, f"{kept + hour % 2:.1f}")
        if cooled:
            baselines.observe(start + timedelta(hours=13), PLUG, "870")
            baselines.observe(start + timedelta(hours=15, minutes=30), PLUG, "0.0")
            baselines.observe(start + timedelta(hours=21), PLUG, "870")
            baselines.observe(start + timedelta(hours=30), PLUG, "0.0")
        baselines.advance(start + timedelta(hours=24))
    return baselines


def _afternoon(baselines: HomeBaselines, climbs_to: float, *, outdoors: float = 38.0) -> HomeView:
    """This afternoon from 13:00: the plug at 0 W, the room climbing a degree every 20 min
    from 26 °C to ``climbs_to``; judged 40 min after it got there."""
    start = DAY0 + timedelta(days=4, hours=13)
    baselines.observe(start, PLUG, "0.0")
    transitions, value, when = [], 26.0, start
    while value < climbs_to:
        value, when = round(value + 1.0, 1), when + timedelta(minutes=20)
        baselines.observe(when, ROOM, f"{value:.1f}")
        transitions.append(Transition(when, ROOM, f"{value:.1f}", "Pieza 2"))
    now = when + timedelta(minutes=40)
    baselines.advance(now)
    room = replace(
        entity(ROOM, f"{value:.1f}", area="Pieza 2", device_class="temperature", unit="°C"),
        last_changed=when,
    )
    plug = replace(
        entity(PLUG, "0.0", area="Pieza 2", device_class="power", unit="W"), last_changed=start
    )
    env = environment(now, outdoor_temperature=outdoors)
    return HomeView(window([room, plug], env, transitions))


def test_a_cooled_room_far_over_its_highest_the_heat_coming_in_is_told() -> None:
    baselines = _learned(4)
    [finding] = room_warmed_far_above_ever(_afternoon(baselines, 31.0), baselines)
    assert finding.rule == "room_warmed_far_above_ever"
    assert finding.evidence == (ROOM, PLUG)
    assert "never over 26 °C), and over 29 °C since 14:00 (1 h 20 min)" in finding.reasoning
    assert "it is 38 °C outdoors" in finding.reasoning
    assert finding.magnitude == 5.0


@pytest.mark.parametrize(
    ("climbs_to", "outdoors", "kept", "days", "cooled"),
    [
        (31.0, 38.0, 25.0, 4, False),  # no machine cools it: it follows the weather
        (31.0, 30.0, 25.0, 4, True),  # warmer than outdoors: a heater's or a cooker's heat
        (28.0, 38.0, 25.0, 4, True),  # two degrees over its highest: a room's own ways
        (27.0, 38.0, 22.0, 4, True),  # far over how it is kept, yet under a warm room
        (31.0, 38.0, 25.0, 1, True),  # a day says too little of how it is kept
    ],
)
def test_a_climb_with_no_cooler_from_inside_or_small_is_not_told(
    climbs_to: float, outdoors: float, kept: float, days: int, cooled: bool
) -> None:
    baselines = _learned(days, kept=kept, cooled=cooled)
    home = _afternoon(baselines, climbs_to, outdoors=outdoors)
    assert list(room_warmed_far_above_ever(home, baselines)) == []


def test_judged_by_the_room_s_own_readings_it_is_pushed_while_still_learning() -> None:
    baselines = _learned(2)
    home = _afternoon(baselines, 31.0)
    [finding] = room_warmed_far_above_ever(home, baselines)
    assert baselines.learning(ROOM, home.end)
    assert baselines.learning(PLUG, home.end)
    assert not held_while_learning(finding, baselines, home.end, someone_home=True)
