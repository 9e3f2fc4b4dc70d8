"""A supply that goes to nothing on most days, learned (core, no Home Assistant).

``SupplyOutages`` learns each spell a supply voltage reads nothing from the baselines'
stream; ``usual_outage`` keeps ``mains_voltage_out_of_band`` from telling an outage as long
as this home's usual ones, and never a voltage that is there but wrong.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.supply_outages import SupplyOutages
from custom_components.anomaly_monitor.core.baselines.usual_outages import usual_outage
from custom_components.anomaly_monitor.core.models import EntityInfo
from custom_components.anomaly_monitor.core.statistics.voltage import mains_voltage_out_of_band

from .core_factories import entity, environment, home, steps

DAY0 = datetime(2026, 6, 8, tzinfo=UTC)
GRID = "sensor.inverter_grid_voltage"


def _baselines(outage_hours: list[float]) -> HomeBaselines:
    """The grid off at 19:00 for each day's hours (0: no outage that day), back at 228 V."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(GRID, "", device_class="voltage", unit="V")])
    baselines.watching([GRID], DAY0)
    baselines.observe(DAY0, GRID, "226.0")
    for day, hours in enumerate(outage_hours):
        off = DAY0 + timedelta(days=day, hours=19)
        if hours:
            baselines.observe(off, GRID, "0.0")
            baselines.observe(off + timedelta(hours=hours), GRID, "228.0")
    return baselines


def _tonight(day: int, events: list[tuple[float, str]]) -> tuple[HomeBaselines, list]:
    """The window of day ``day``'s evening (minutes after 18:00, reading); the baselines
    learn it as the live stream would, before the window is judged."""
    start = DAY0 + timedelta(days=day, hours=18)
    transitions = steps(start, [(m, GRID, v) for m, v in [(0.0, "229.0"), *events]])
    return start, transitions


def _judged(baselines: HomeBaselines, day: int, events: list[tuple[float, str]], hours: float):
    start, transitions = _tonight(day, events)
    for t in transitions:
        baselines.observe(t.when, t.entity_id, t.state)
    now = start + timedelta(hours=hours)
    state = entity(GRID, transitions[-1].state, device_class="voltage", unit="V")
    view = home([state], environment(now), transitions)
    (finding,) = mains_voltage_out_of_band(view)
    return usual_outage(view, baselines, finding)


def test_an_outage_learned_ends_with_the_supply_back() -> None:
    outages = SupplyOutages(UTC)
    outages.reading(GRID, 230.0, DAY0)
    outages.reading(GRID, 0.0, DAY0 + timedelta(hours=1))
    assert outages.down_since(GRID) == DAY0 + timedelta(hours=1)
    outages.reading(GRID, 229.0, DAY0 + timedelta(hours=3))
    assert outages.longest(GRID) == 120.0
    assert outages.outage_days(GRID) == 1
    outages.reading(GRID, 0.0, DAY0 + timedelta(days=1))
    outages.reading(GRID, None, DAY0 + timedelta(days=1, hours=1))  # unreadable: unlearned
    outages.reading(GRID, 229.0, DAY0 + timedelta(days=1, hours=9))
    assert outages.outage_days(GRID) == 1
    stored = SupplyOutages.from_dict(outages.as_dict(), UTC)
    assert stored.longest(GRID) == 120.0
    assert SupplyOutages.from_dict({"x": {"first": "bad"}, GRID: 3}, UTC).longest(GRID) == 0.0


def test_a_far_longer_outage_teaches_slowly() -> None:
    baselines = _baselines([2, 2, 30])  # a 30-hour outage after two of 2 hours
    assert baselines.supply.longest(GRID) == 180.0  # kept as 1.5 times the longest before


def test_the_grid_off_as_on_most_days_is_not_told() -> None:
    baselines = _baselines([3, 2.5, 3, 2, 3])
    # Day 5, the grid off at 19:00 for an hour so far: as on every day here.
    assert _judged(baselines, 5, [(60.0, "0.0")], hours=2)


def test_an_outage_far_longer_than_ever_is_told() -> None:
    baselines = _baselines([3, 2.5, 3, 2, 3])
    assert not _judged(baselines, 5, [(10.0, "0.0")], hours=5.5)  # 5 h 20 > 1.5 x 3 h


def test_a_supply_seldom_off_is_told_when_it_goes() -> None:
    baselines = _baselines([3, 0, 0, 0, 0, 0, 0])  # one outage in a week: no habit
    assert not _judged(baselines, 7, [(60.0, "0.0")], hours=2)


def test_overvoltage_is_told_however_often_the_grid_goes() -> None:
    baselines = _baselines([3, 2.5, 3, 2, 3])
    assert not _judged(baselines, 5, [(30.0, "0.0"), (60.0, "262.0")], hours=2)


def test_the_first_days_judge_as_any_home() -> None:
    baselines = _baselines([3, 2.5])
    assert not _judged(baselines, 2, [(60.0, "0.0")], hours=2)


def test_a_window_mostly_without_supply_is_still_judged_as_mains() -> None:
    transitions = steps(DAY0, [(0.0, GRID, "229.0"), (10.0, GRID, "0.0"), (20.0, GRID, "0.0")])
    state = entity(GRID, "0.0", device_class="voltage", unit="V")
    view = home([state], environment(DAY0 + timedelta(hours=1)), transitions)
    (finding,) = mains_voltage_out_of_band(view)
    assert "207-253 V" in finding.reasoning
