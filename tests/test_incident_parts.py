"""An incident's parts as the tracker keeps them (``anomalies/incident_parts``), without HA.

A part names the told incident whose notification shows it; never itself. ``shown_in``
cannot make one a part of itself, and a stored one that names itself (a damaged or
hand-edited file) loads standing alone: shown on its own and counted as an incident.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.incident_parts import (
    former_incidents,
    incidents,
    orphans,
    parts_of,
    root_of,
    shown_in,
)
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.store import parse_anomaly
from custom_components.anomaly_monitor.core.models import Severity

from .tracker_home import finding

NOW = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)
SMOKE = "binary_sensor.kitchen_smoke"
DOOR = "binary_sensor.front_door"


def _smoke_and_door() -> tuple[OpenAnomaly, OpenAnomaly]:
    smoke = OpenAnomaly.from_findings(
        [finding("smoke_detected", SMOKE, "safety_hazard", Severity.CRITICAL)], NOW
    )
    door = OpenAnomaly.from_findings(
        [finding("entry_unsecured_while_away", DOOR, "security", while_away=True)], NOW
    )
    return smoke, door


def test_a_part_reads_in_its_incident_and_counts_with_it() -> None:
    smoke, door = _smoke_and_door()
    shown_in(door, smoke, [smoke, door])
    assert door.part_of == smoke.signature
    assert parts_of(smoke.signature, [smoke, door]) == [door]
    assert root_of(door, {smoke.signature: smoke}, {}) is smoke
    assert incidents([smoke, door]) == [smoke]
    shown_in(smoke, smoke.signature, [smoke, door])  # told as its own: no part of itself
    assert smoke.part_of == ""


def test_a_stored_anomaly_naming_itself_loads_standing_alone() -> None:
    smoke, door = _smoke_and_door()
    stored = asdict(door) | {"part_of": door.signature}
    loaded = OpenAnomaly.from_stored(parse_anomaly(stored))
    assert loaded.part_of == ""
    assert root_of(loaded, {loaded.signature: loaded}, {}) is None  # shown on its own
    assert parts_of(loaded.signature, [loaded]) == []
    assert incidents([smoke, loaded]) == [smoke, loaded]  # counted
    # A part of another incident loads as it was stored.
    kept = OpenAnomaly.from_stored(parse_anomaly(asdict(door) | {"part_of": smoke.signature}))
    assert kept.part_of == smoke.signature


def test_the_parts_still_lasting_once_their_incident_is_over_stay_one_incident() -> None:
    """Walk 38: "Nobody up yet" over, the fridge door, its plug's cycle and its warm fridge
    (its parts) were three notices. The first begun leads; an answered part stays alone."""
    still = OpenAnomaly.from_findings(
        [finding("no_movement_while_home", "home", "safety_hazard", Severity.HIGH)], NOW
    )
    door = OpenAnomaly.from_findings([finding("entry_left_open", DOOR, "security")], NOW)
    plug = OpenAnomaly.from_findings(
        [finding("power_cycle_stopped", "sensor.fridge_plug_power", "device_fault")],
        NOW + timedelta(minutes=1),
    )
    warm = OpenAnomaly.from_findings(
        [finding("reading_out_of_band", "sensor.fridge_temperature", "device_fault")],
        NOW + timedelta(minutes=20),
    )
    lock = OpenAnomaly.from_findings(
        [finding("state_longer_than_usual", "lock.front_door", "security")],
        NOW + timedelta(minutes=2),
    )
    lock.acknowledged = True
    for part in (warm, plug, door, lock):
        shown_in(part, still, [still, part])
    open_now = {a.signature: a for a in (door, plug, warm, lock)}  # the stillness is over
    assert former_incidents(open_now) == {still.signature}
    assert orphans(open_now) == [door]
    assert door.part_of == ""
    assert parts_of(door.signature, open_now.values()) == [plug, warm]
    assert lock.part_of == ""  # answered: shown nowhere, alone
    assert incidents(open_now.values()) == [door, lock]
    assert former_incidents(open_now) == set()
    assert orphans(open_now) == []  # nothing left to regroup
