"""A home battery and its supply, known by what they show (core, no Home Assistant).

Set 19's Kyiv flat: an EcoFlow (a ``battery`` % sensor) and its AC-input meter in the
corridor, no registry device; scheduled outages of four hours twice a day take the charge
to about half. An unscheduled outage from 03:00 ran it to 1 %: no rule knew a home
battery, so it was told hours later through its consequences; and the water heater, dark
in every outage, widened every device's offline limit (the front door's contact told 14 h
after it went).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.battery_supply import battery_running_out
from custom_components.anomaly_monitor.core.baselines.detectors import explained_by_baselines
from custom_components.anomaly_monitor.core.baselines.drop_judge import drop_limit, judged_drop
from custom_components.anomaly_monitor.core.baselines.home_batteries import HomeBatteries
from custom_components.anomaly_monitor.core.baselines.rechargeable_drain import (
    worded_as_rechargeable,
)
from custom_components.anomaly_monitor.core.baselines.usual_drops import UsualDrops
from custom_components.anomaly_monitor.core.models import (
    EntityInfo,
    Finding,
    Severity,
    Transition,
)

from .core_factories import entity, environment, home

DAY0 = datetime(2026, 11, 16, tzinfo=UTC)
CHARGE = "sensor.delta_battery_level"
AC_IN = "sensor.delta_ac_in_power"
FREEZER = "sensor.freezer_power"
HEATER = "switch.water_heater"
DOOR = "binary_sensor.front_door"
MESH = ["sensor.hall_temperature", "sensor.bath_humidity", "binary_sensor.hall_motion"]
INFOS = [
    EntityInfo(CHARGE, "Delta Battery", device_class="battery", unit="%", area="Hall"),
    EntityInfo(AC_IN, "Delta AC In", device_class="power", unit="W", area="Hall"),
    EntityInfo(FREEZER, "Freezer", device_class="power", unit="W", area="Hall"),
    EntityInfo(HEATER, "Water heater", area="Bath"),
    EntityInfo(DOOR, "Front door", device_class="door", area="Hall"),
    *(EntityInfo(e, "", area="Hall") for e in MESH),
]


def _outage(baselines: HomeBaselines, start: datetime, hours: int, bottom: float = 50) -> None:
    """The grid off from ``start`` for ``hours``: the input reads nothing, the heater drops
    with it, the battery falls evenly to ``bottom`` and is charged back after."""
    baselines.observe(start, AC_IN, "0")
    baselines.observe(start + timedelta(seconds=6), HEATER, "unavailable")
    for step in range(1, hours + 1):
        charge = 100 - (100 - bottom) * step / hours
        baselines.observe(start + timedelta(hours=step, minutes=-2), CHARGE, f"{charge:g}")
    back = start + timedelta(hours=hours)
    baselines.observe(back, AC_IN, "780")
    baselines.observe(back + timedelta(seconds=30), HEATER, "on")
    baselines.observe(back + timedelta(hours=1), CHARGE, "80")
    baselines.observe(back + timedelta(hours=2), CHARGE, "100")
    baselines.observe(back + timedelta(hours=2, minutes=2), AC_IN, "140")


def _home_of(days: int) -> HomeBaselines:
    """``days`` days of two 4-hour outages (08:00 and 18:00), the freezer cycling all day
    (running as the charge is read), the mesh's devices dropping for minutes."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    ids = [i.entity_id for i in INFOS]
    baselines.watching(ids, DAY0)
    for entity_id, state in [(CHARGE, "100"), (AC_IN, "140"), (HEATER, "on"), (DOOR, "off")]:
        baselines.observe(DAY0, entity_id, state)
    for entity_id in MESH:
        baselines.observe(DAY0, entity_id, "20")
    for day in range(days):
        midnight = DAY0 + timedelta(days=day)
        for hour in range(24):  # the freezer: 20 min running from each hour's 3/4
            baselines.observe(midnight + timedelta(hours=hour, minutes=45), FREEZER, "90")
            baselines.observe(midnight + timedelta(hours=hour, minutes=65), FREEZER, "0")
            if hour in (8, 18):
                _outage(baselines, midnight + timedelta(hours=hour), 4)
        for i, entity_id in enumerate(MESH):  # the mesh: a few minutes' drops each day
            for hour in (2, 14, 23):
                gone = midnight + timedelta(hours=hour, minutes=10 * i)
                baselines.observe(gone, entity_id, "unavailable")
                baselines.observe(gone + timedelta(minutes=5 + i), entity_id, "20")
    return baselines


def _judge(baselines: HomeBaselines, start: datetime, charges: list[str], at: float):
    """An outage from ``start``, the charge read hourly from ``charges``; judged ``at``
    hours in."""
    now = start + timedelta(hours=at)
    baselines.observe(start, AC_IN, "0")
    baselines.observe(start + timedelta(seconds=6), HEATER, "unavailable")
    for hour, charge in enumerate(charges):
        if start + timedelta(hours=hour) <= now:
            baselines.observe(start + timedelta(hours=hour), CHARGE, charge)
    charge = [c for h, c in enumerate(charges) if start + timedelta(hours=h) <= now][-1]
    states = [
        entity(CHARGE, charge, area="Hall", device_class="battery", unit="%"),
        entity(AC_IN, "0", area="Hall", device_class="power", unit="W"),
        entity(HEATER, "unavailable", area="Bath"),
    ]
    history = [t for t in _transitions(start, charges) if t.when <= now]
    return list(battery_running_out(home(states, environment(now), history), baselines))


def _transitions(start: datetime, charges: list[str]) -> Iterator[Transition]:
    yield Transition(start - timedelta(hours=1), CHARGE, "100", "Hall")
    yield Transition(start, AC_IN, "0", "Hall")
    for hour, charge in enumerate(charges):
        yield Transition(start + timedelta(hours=hour), CHARGE, charge, "Hall")


def test_the_battery_input_is_known_by_what_it_shows_not_the_freezer_beside_it() -> None:
    baselines = _home_of(3)
    assert baselines.batteries.input_of(CHARGE) == AC_IN
    assert not baselines.batteries.is_input(FREEZER)
    assert baselines.batteries.lowest[CHARGE] == 50
    assert 230 <= baselines.supply.longest(AC_IN) <= 241  # its outages, learned from the meter


def test_a_bank_charged_while_the_meter_reads_nothing_is_not_charged_by_it() -> None:
    """Set 5 d: a solar-charged BYD bank beside an EV charger that reads nothing most of
    the day (and draws now and then): it falls at night and rises by day with the charger
    at nothing; the charger is no supply input."""
    batteries = HomeBatteries()
    charger = "sensor.wall_connector_power"
    for day in range(5):
        for charge in (80, 70, 60):  # the night: falls, the charger idle
            batteries.reading("sensor.bank", charge, {charger: 0.0})
        batteries.reading("sensor.bank", 75, {charger: 7000.0 if day == 2 else 0.0})
        batteries.reading("sensor.bank", 90, {charger: 0.0})  # the sun charges it
    assert batteries.input_of("sensor.bank") is None


def test_a_door_sensor_cell_that_never_charges_has_no_input() -> None:
    batteries = HomeBatteries()
    for step in range(10):  # a coin cell falling a point now and then, the meter at 0
        batteries.reading("sensor.door_battery", 90 - step, {FREEZER: 0.0})
    assert batteries.input_of("sensor.door_battery") is None


def test_an_outage_at_an_hour_the_supply_never_goes_is_told_once_it_falls() -> None:
    """The outages come at 08:00 and 18:00: one from 03:00 is told once the charge falls."""
    start = DAY0 + timedelta(days=6, hours=3)
    charges = ["100", "88", "76"]
    assert not _judge(_home_of(6), start, charges, at=0.9)  # nothing drawn yet
    (finding,) = _judge(_home_of(6), start, charges, at=1.1)
    assert finding.evidence == (CHARGE, AC_IN)
    assert "never out at this hour" in finding.reasoning
    assert "100 % to 88 %" in finding.reasoning


def test_a_long_outage_at_its_usual_hour_is_told_once_the_charge_passes_its_lowest() -> None:
    baselines = _home_of(6)
    start = DAY0 + timedelta(days=6, hours=8)
    charges = ["100", "88", "76", "64", "52", "40", "27", "15"]
    assert not _judge(_home_of(6), start, charges, at=4.1)  # 52 %: as every outage did
    (finding,) = _judge(baselines, start, charges, at=5.1)
    assert finding.rule == "supply_off_far_longer_than_usual"
    assert finding.severity == Severity.HIGH
    assert finding.evidence == (CHARGE, AC_IN)
    assert "100 % to 40 %" in finding.reasoning
    assert "no outage here took it below 50 %" in finding.reasoning
    assert "empty by about 16:" in finding.reasoning  # 12 points an hour from 40 %


def test_a_usual_outage_is_not_told() -> None:
    start = DAY0 + timedelta(days=6, hours=8)
    assert not _judge(_home_of(6), start, ["100", "88", "76", "64", "52"], at=4.0)


def test_drops_with_the_supply_do_not_widen_the_homes_drops() -> None:
    """Before: the heater's 4-hour drops were pooled with the mesh's minutes, so a door
    contact that dropped was allowed 8 hours and more. (The heater's drop in the first
    outage, before the battery's input was known, is still pooled: one among many.)"""
    baselines = _home_of(6)
    pooled = baselines.drops.pooled()
    assert pooled is not None
    assert pooled[0] < 15
    assert baselines.drops.usual(HEATER) is not None  # its own drops are still its normal
    assert drop_limit(baselines, DOOR, "binary_sensor", "door", learning=True) < timedelta(hours=1)


def test_a_device_dark_with_the_supply_is_not_told_while_the_supply_is_out() -> None:
    baselines = _home_of(6)
    start = DAY0 + timedelta(days=6, hours=3)
    baselines.observe(start, AC_IN, "0")
    baselines.observe(start + timedelta(minutes=1), HEATER, "unavailable")
    baselines.advance(start + timedelta(minutes=5))  # more than a blip
    now = start + timedelta(hours=10)
    view = home([entity(HEATER, "unavailable", area="Bath")], environment(now), [])
    finding = Finding(
        rule="device_unavailable",
        anomaly_type="device_malfunction",
        severity=Severity.MEDIUM,
        evidence=(HEATER,),
        reasoning="Water heater is unavailable.",
    )
    assert judged_drop(finding, HEATER, baselines, view) is None
    baselines.observe(now, AC_IN, "780")  # the supply back, the heater still dark: its own
    assert judged_drop(finding, HEATER, baselines, view) is not None


def test_the_marks_are_stored_and_read_back() -> None:
    baselines = _home_of(3)
    drops = UsualDrops.from_dict(baselines.drops.as_dict(), UTC)
    assert drops.flags == baselines.drops.flags
    assert drops.flags[HEATER][-1]
    assert drops.pooled() == baselines.drops.pooled()
    batteries = HomeBatteries.from_dict(baselines.batteries.as_dict())
    assert batteries.input_of(CHARGE) == AC_IN
    assert batteries.lowest == baselines.batteries.lowest
    hostile = {"pairs": [["x", "y", -1, 0, 0, 0]], "lowest": {"x": 400}}
    assert HomeBatteries.from_dict(hostile).pairs == {}
    assert HomeBatteries.from_dict(hostile).lowest == {}


def test_a_battery_seen_charged_again_is_not_a_failing_cell_while_it_falls_as_before() -> None:
    """Once watched, the EcoFlow falling 50 points in an outage was told as a sensor's
    battery draining fast (three false alarms on set 19 b). Falling far past anything its
    outages took it to (set 13 d: an AC left on overnight on the inverter) is still told."""
    baselines = _home_of(2)
    finding = Finding(
        rule="battery_draining_fast",
        anomaly_type="device_malfunction",
        evidence=(CHARGE,),
        reasoning="fell",
    )
    now = environment(DAY0 + timedelta(days=2))

    def explained(charge: str) -> bool:
        view = home([entity(CHARGE, charge, device_class="battery", unit="%")], now, [])
        return explained_by_baselines(finding, baselines, view)

    assert explained("52")  # its outages take it to 50 %
    assert not explained("30")
    cell = replace(finding, evidence=("sensor.door_battery",))
    view = home([entity("sensor.door_battery", "60", device_class="battery", unit="%")], now)
    assert not explained_by_baselines(cell, baselines, view)


def test_a_rechargeable_told_past_its_falls_is_not_said_to_be_a_sensor_cell() -> None:
    """Walk of session 27: the EcoFlow at 64 %, its outages stopping at 70 %, read "a
    sensor battery lasts months" and "Replace the battery soon"."""
    baselines = _home_of(2)
    finding = Finding(
        rule="battery_draining_fast",
        anomaly_type="device_malfunction",
        evidence=(CHARGE,),
        reasoning=f"{CHARGE} fell from 96 % to 30 %; a sensor battery lasts months.",
        recommendation="Replace the battery soon.",
        magnitude=66.0,
    )
    now = environment(DAY0 + timedelta(days=2))
    view = home([entity(CHARGE, "30", device_class="battery", unit="%")], now, [])
    said = worded_as_rechargeable(finding, baselines, view)
    assert said.reasoning == (
        f"{CHARGE} reads 30 %, below the 50 % it always came back from here: it has been "
        "drained past anything its use took it to."
    )
    assert "Replace" not in said.recommendation
    assert (said.rule, said.severity, said.magnitude) == (finding.rule, finding.severity, 66.0)
    cell = replace(finding, evidence=("sensor.door_battery",))  # never charged: a cell
    view = home([entity("sensor.door_battery", "30", device_class="battery", unit="%")], now)
    assert worded_as_rechargeable(cell, baselines, view) == cell
