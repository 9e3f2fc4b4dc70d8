"""A later entry by another way in is somebody else arriving, not the break-in (set 20).

A break-in through the balcony door of an empty flat was told at 11:20 and acknowledged;
the rooms it went through kept its anomaly open. At 15:18 the nanny let herself in at the
front door with her key: held as "a further sign of the acknowledged break-in" (shown,
never pushed), because every analysis while the break-in's anomaly stayed open counted as
a fresh entry. A second intruder, or somebody of the household finding the break-in,
would have been as silent.

A stay is held going by its own signs (motion inside, an entrance told or shown for it),
not by an anomaly only staying open; an entry by another way in, more than
``VISIT_REACH`` after the stay's last entry, is told on its own. The visitors' own door,
or another door soon after they came in, is still their stay.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.already_told import AlreadyTold
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.baselines.away_spans import VISIT_REACH
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Severity

BALCONY = "binary_sensor.balcony_door"
FRONT = "binary_sensor.front_door"
HALL = "binary_sensor.hall_motion"


def _door(door: str) -> Finding:
    return Finding(
        "entry_unsecured_while_away",
        (door,),
        f"{door} opened while nobody is home.",
        AnomalyType.SECURITY,
        Severity.HIGH,
        subject=door,
        while_away=True,
    )


def _moving_after(door: str) -> Finding:
    """Motion after the door, cited with it (``away_judge``): the door's incident."""
    finding = Finding(
        "activity_while_away",
        (HALL, door),
        "Somebody moves in the hall while nobody is home.",
        AnomalyType.OCCUPANCY_MISMATCH,
        Severity.HIGH,
        subject=door,
        while_away=True,
    )
    return replace(finding, magnitude=1.0)


def _break_in_kept_open(tracker: AnomalyTracker, hours: float) -> datetime:
    """The balcony door forced (told, acknowledged), its rooms moving for ``hours``
    (the motion joined to it keeps it open)."""
    now = dt_util.utcnow()
    (told,) = tracker.update([_door(BALCONY), _moving_after(BALCONY)], now).opened
    tracker.acknowledge(told.key)
    end = now + timedelta(hours=hours)
    while now < end:
        now += timedelta(minutes=10)
        assert tracker.update([_moving_after(BALCONY)], now).opened == []
    assert told.signature in tracker.open  # still open: the motion joined to it
    return now


def _quiet(tracker: AnomalyTracker, now: datetime, hours: float) -> datetime:
    """Nothing found for ``hours``: the break-in's anomaly ends."""
    for _ in range(3):
        now += timedelta(minutes=2)
        tracker.update([], now)
    assert tracker.open == {}
    return now + timedelta(hours=hours)


async def test_a_front_door_hours_after_an_acknowledged_break_in_is_told(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = _break_in_kept_open(tracker, hours=1.5)
    now = _quiet(tracker, now, hours=2)  # less than a stay's gap, past a visit's reach
    arrival = tracker.update([_door(FRONT)], now)
    # Before: the break-in's anomaly staying open had moved its last entry on, and the
    # front door was held as the break-in (shown, not pushed).
    assert len(arrival.opened) == 1
    assert not arrival.opened[0].acknowledged


async def test_another_door_while_the_visitor_still_moves_about_is_their_stay(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = _break_in_kept_open(tracker, hours=3.5)  # moving about until 10 minutes ago
    out = tracker.update([_door(FRONT)], now + timedelta(minutes=10))
    assert out.opened == []  # whoever moves inside opened it: shown, not pushed


async def test_another_door_soon_after_the_visitor_came_in_is_their_stay(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = _break_in_kept_open(tracker, hours=1)
    assert timedelta(hours=1, minutes=5) < VISIT_REACH
    out = tracker.update([_door(FRONT)], now + timedelta(minutes=5))
    assert out.opened == []  # leaving by the front door: the same visit
    assert len(out.reopened) == 1


async def test_the_visitors_own_door_hours_later_is_still_their_stay(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = _break_in_kept_open(tracker, hours=1.5)
    now = _quiet(tracker, now, hours=2)
    again = tracker.update([_door(BALCONY)], now)
    assert again.opened == []  # the same way in, no count of another arrival: shown


async def test_the_ways_in_of_a_stay_survive_a_restart(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "home")
    now = _break_in_kept_open(tracker, hours=1)
    warnings: list[str] = []
    restored = AlreadyTold.from_stored(tracker.already_told.as_dict(), warnings)
    assert warnings == []
    later = now + VISIT_REACH  # nothing moved since
    front = OpenAnomaly.from_findings([_door(FRONT)], later)
    balcony = OpenAnomaly.from_findings([_door(BALCONY)], later)
    assert restored.away_stays.continues(front, later) is None  # somebody else: told
    assert restored.away_stays.continues(balcony, later) is True  # its own way in
