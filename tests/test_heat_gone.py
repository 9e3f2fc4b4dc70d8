"""A place a fire keeps hot gone cold (core, no HA).

Set 14's Ulaanbaatar house: a briquette stove's water loop, 36-76 °C every day, fell to
27, 19, 12 °C when the fire went out on a −34 °C night; set 12's Šumava farmhouse: a wood
boiler's buffer tank, 63-82 °C, down to 52 and 46 °C on an evening nobody lit it. Neither
was told: a loop is no room, no steady place, and a level below all it read is no spell.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.heat_gone import heat_source_gone_cold
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, home, steps

DAY0 = datetime(2026, 12, 7, tzinfo=UTC)
LOOP = "sensor.kitchen_water"
# A stove loop's day: stoked at dawn and dusk, banked for the night.
DAY = [(6.5, 52.0), (7.5, 71.0), (10, 58.0), (14, 44.0), (17.5, 36.0), (19, 76.0), (23, 64.0)]


def _learned(days: int, day: list[tuple[float, float]] = DAY) -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(LOOP, "", device_class="temperature", unit="°C", area="K")])
    baselines.watching([LOOP], DAY0)
    baselines.observe(DAY0, LOOP, "40")
    for d in range(days):
        for hour, value in day:
            baselines.observe(DAY0 + timedelta(days=d, hours=hour), LOOP, f"{value:g}")
    return baselines


OUT = [(0.0, "34"), (60.0, "27"), (150.0, "19"), (250.0, "12")]


def _told(baselines: HomeBaselines, day: int, at: float, outdoor: float | None = -34.0):
    start = DAY0 + timedelta(days=day, hours=0, minutes=10)
    transitions = steps(start, [(m, LOOP, v) for m, v in OUT if m <= at])
    for t in transitions:
        baselines.observe(t.when, t.entity_id, t.state)
    state = entity(LOOP, transitions[-1].state, area="K", device_class="temperature", unit="°C")
    env = environment(start + timedelta(minutes=at), outdoor_temperature=outdoor)
    return list(heat_source_gone_cold(home([state], env, transitions), baselines))


def test_a_stove_loop_gone_cold_on_a_frozen_night_is_told() -> None:
    """Before: nothing told it (no rule judged a thermometer kept hot going cold)."""
    assert not _told(_learned(4), 4, at=0)  # 34: within its wobble below 36
    assert not _told(_learned(4), 4, at=75)  # 27 for 15 min only
    (finding,) = _told(_learned(4), 4, at=100)
    assert finding.rule == "heat_source_gone_cold"
    assert finding.evidence == (LOOP,)


def test_not_while_it_is_warm_outside() -> None:
    """A stove let go out in a mild spell is somebody's choice."""
    assert not _told(_learned(4), 4, at=200, outdoor=16.0)


def test_a_place_that_is_sometimes_room_warm_is_not_judged() -> None:
    """A thermometer whose lowest is a room's (a kitchen by the stove) is no kept heat."""
    day = [(hour, value if value > 40 else 21.0) for hour, value in DAY]
    assert not _told(_learned(4, day), 4, at=250)


def test_not_before_three_days_learned() -> None:
    assert not _told(_learned(2), 2, at=250)
