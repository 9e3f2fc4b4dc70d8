"""A supply-status sensor off far longer than this home's supply ever is (core, no HA).

Set 14's Upwey house: a Powerwall's grid status (``binary_sensor`` of device class
``power``) off for eight hours in a storm, the battery run down to its reserve: nothing
judged a binary supply status, so it was never told. Its spells off are now learned
(``SupplyOutages``) and ``supply_off_far_longer`` tells one past this home's usual.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.supply_off import supply_off_far_longer
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity, environment, home, steps

DAY0 = datetime(2027, 1, 18, tzinfo=UTC)
GRID = "binary_sensor.gateway_status"
CHARGE = "sensor.home_battery_charge"


def _baselines(outage_minutes: list[float]) -> HomeBaselines:
    """The supply watched from DAY0; off at 19:00 each day for its minutes (0: none)."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(GRID, "", device_class="power", area="Garage")])
    baselines.watching([GRID], DAY0)
    baselines.observe(DAY0, GRID, "on")
    for day, minutes in enumerate(outage_minutes):
        off = DAY0 + timedelta(days=day, hours=19)
        if minutes:
            baselines.observe(off, GRID, "off")
            baselines.observe(off + timedelta(minutes=minutes), GRID, "on")
    return baselines


def _told(baselines: HomeBaselines, day: int, off_for: float, charge: list[str] | None = None):
    """The grid off at 14:00 of ``day``, judged ``off_for`` minutes later."""
    start = DAY0 + timedelta(days=day, hours=14)
    events = [(0.0, GRID, "off")]
    events += [(60.0 * i, CHARGE, c) for i, c in enumerate(charge or [])]
    transitions = [t for t in steps(start, events) if start + timedelta(minutes=off_for) >= t.when]
    for t in transitions:
        baselines.observe(t.when, t.entity_id, t.state)
    states = [entity(GRID, "off", area="Garage", device_class="power")]
    if charge:
        now_charge = [t.state for t in transitions if t.entity_id == CHARGE][-1]
        states.append(entity(CHARGE, now_charge, area="Garage", device_class="battery", unit="%"))
    now = start + timedelta(minutes=off_for)
    return list(supply_off_far_longer(home(states, environment(now), transitions), baselines))


def test_a_supply_never_off_is_told_once_off_past_the_minimum() -> None:
    """Before: nothing judged a ``power`` binary sensor; the grid off 8 h went untold."""
    baselines = _baselines([0, 0, 0, 0])
    assert not _told(_baselines([0, 0, 0, 0]), 4, off_for=5)
    (finding,) = _told(baselines, 4, off_for=15)
    assert finding.rule == "supply_off_far_longer_than_usual"
    assert finding.evidence == (GRID,)
    assert "never off before" in finding.reasoning


def test_a_home_battery_running_down_is_named_with_it() -> None:
    (finding,) = _told(_baselines([0, 0, 0]), 3, off_for=300, charge=["74", "61", "44", "26", "12"])
    assert finding.evidence == (GRID, CHARGE)
    assert "74 % to 12 %" in finding.reasoning
    assert "nearly empty" in finding.reasoning


def test_a_sensor_battery_in_the_same_room_is_not_the_home_battery() -> None:
    """A door sensor's cell in the garage, 87 % then 86 %: it carries nothing."""
    (finding,) = _told(_baselines([0, 0, 0]), 3, off_for=120, charge=["87", "86"])
    assert finding.evidence == (GRID,)


def test_a_supply_off_every_evening_is_told_only_far_past_its_longest() -> None:
    """Load-shedding: off 2 h each evening. An outage of 3 h is its normal; 5 h is not."""
    baselines = _baselines([120, 120, 120, 120])
    assert not _told(baselines, 4, off_for=180)
    assert _told(_baselines([120, 120, 120, 120]), 4, off_for=300)


def test_not_judged_before_it_is_read_two_days() -> None:
    assert not _told(_baselines([0]), 1, off_for=120)


def test_a_power_state_off_most_of_the_day_is_no_supply() -> None:
    """An appliance's ``power`` binary sensor (a television on 4 h an evening) is off 20 h
    a day: its long spell off while the family is away is no outage."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(GRID, "", device_class="power", area="Garage")])
    baselines.watching([GRID], DAY0)
    baselines.observe(DAY0, GRID, "off")
    for day in range(4):
        baselines.observe(DAY0 + timedelta(days=day, hours=19), GRID, "on")
        baselines.observe(DAY0 + timedelta(days=day, hours=23), GRID, "off")
    baselines.observe(DAY0 + timedelta(days=4, hours=14), GRID, "on")
    assert not _told(baselines, 4, off_for=60 * 40)
