"""A motion sensor that stayed "on" for hours while people were seen moving elsewhere.

A PIR motion sensor reports "on" when it sees movement and clears a minute or so later;
it holds "on" only while movement goes on in front of it. When this home's motion
sensors usually clear within minutes, one that holds "on" for hours while the other
rooms' sensors keep seeing the household come and go is not watching somebody: it is
stuck (a failed sensor, a curtain or a heater moving in front of it, a cover over it)
and its room's automations and alarms now believe somebody is there. Presence (mmWave)
sensors that hold for hours by design show it in their own ended spells and are not
judged. `presence_stuck_on` is the other case: a sensor held while nothing else moved.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from statistics import median

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import Interval, intervals, real_changes

# Held this long: past a long film or a morning at a desk in front of the sensor (a real
# home's PIR sensors held at most about 2.6 h in the development data).
LONG_HOLD = timedelta(hours=4)
# ...and this many times the sensor's usual "on" spell (its own, or the home's).
HOLD_FACTOR = 50.0
# The usual spell comes from this many ended spells (the sensor's own, else the home's).
MIN_SPELLS = 3
# Motion started this often, in other areas, during the hold: the household was elsewhere.
MIN_MOVES_ELSEWHERE = 2


def _on_spells(home: HomeView, entity_id: str) -> list[Interval]:
    start = home.window.start
    return [
        spell
        for spell in intervals(home, entity_id)
        if spell.state.lower() == "on" and (start is None or spell.start > start)
    ]


def _usual(spells: list[Interval]) -> float | None:
    ended = [spell.duration.total_seconds() for spell in spells if not spell.ongoing]
    return median(ended) if len(ended) >= MIN_SPELLS else None


MOTION_HELD_ON = FindingKind("motion_held_on", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM)


def motion_held_on(home: HomeView) -> Iterator[Finding]:
    """A motion sensor held "on" for hours while motion was seen in other rooms.

    Magnitude: the hold, in hours.
    """
    motions = [
        e
        for e in home.history
        if home.domain(e) == "binary_sensor" and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
    ]
    spells = {m: _on_spells(home, m) for m in motions}
    home_usual = _usual([spell for found in spells.values() for spell in found])
    for motion, found in spells.items():
        usual = _usual(found) or home_usual
        if usual is None:
            continue  # nothing tells how long this home's sensors usually hold
        for spell in found:
            if spell.duration < LONG_HOLD or spell.duration.total_seconds() < HOLD_FACTOR * usual:
                continue
            area = home.area(motion)
            elsewhere = [
                change.when
                for other in motions
                if other != motion and home.area(other) != area
                for change in real_changes(home, other)
                if change.state.lower() == "on" and spell.start < change.when < spell.end
            ]
            if len(elsewhere) < MIN_MOVES_ELSEWHERE:
                continue
            hours = spell.duration.total_seconds() / 3600
            still = "and still is" if spell.ongoing else f"until {spell.end:%H:%M}"
            yield MOTION_HELD_ON.finding(
                evidence=(motion,),
                reasoning=f"{motion} has reported motion since {spell.start:%Y-%m-%d %H:%M} "
                f"({hours:.1f} h, {still}) while this home's motion sensors usually clear "
                f"within {usual:.0f} s, and {len(elsewhere)} times motion was seen in other "
                "rooms meanwhile: the sensor is stuck or something in front of it moves.",
                recommendation="Check the sensor and what it faces (curtains, heaters, pets).",
                magnitude=round(hours, 1),
            )
            break
