"""A break-in as it unfolds: a forced opening, then somebody moving inside a still home.

A glass-break, tamper or vibration sensor going off is told on its own (``hazard_detected``);
what a homeowner needs to know next is whether it was a break-in. The order of things
says it: a door or window of the same room opened within a minute of the trip, motion
then started inside within minutes, and nothing in the home had moved in the half hour
before (nobody who lives there was up and about, so the movement came in from outside).
A ball through a window while the family plays, or a window slammed by somebody inside,
is preceded by their own movement and stays with the plain trip.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import real_changes

# Binary sensors that trip when a pane breaks or a frame is forced (HA has no
# glass-break class: such sensors are set up as safety, tamper or vibration).
_FORCE_CLASSES = frozenset({"safety", "tamper", "vibration"})
# The opening of the same room moved this close to the trip.
OPENING_REACH = timedelta(minutes=1)
# Motion inside started this soon after the trip...
MOTION_AFTER = timedelta(minutes=5)
# ...in a home where nothing moved for this long before the opening.
STILL_BEFORE = timedelta(minutes=30)
# Domains whose every change is somebody's doing (or an automation acting for them).
_PEOPLE_DOMAINS = frozenset({"light", "switch", "fan", "media_player", "lock", "cover"})


def _onsets(home: HomeView, entity_id: str) -> list[datetime]:
    return [c.when for c in real_changes(home, entity_id) if c.state.lower() == "on"]


def _is(home: HomeView, entity_id: str, classes: frozenset[str]) -> bool:
    return home.domain(entity_id) == "binary_sensor" and home.device_class(entity_id) in classes


BREAK_IN_SEQUENCE = FindingKind("break_in_sequence", AnomalyType.SECURITY, Severity.HIGH)


def break_in_sequence(home: HomeView) -> Iterator[Finding]:
    """A forced-entry sensor tripped as a door or window of its room opened, then motion
    started inside a home that had been still.

    Magnitude: how many areas saw motion start within ``MOTION_AFTER`` of the trip.
    """
    sensors = [e for e in home.history if _is(home, e, _FORCE_CLASSES) and home.area(e) is not None]
    if not sensors:
        return  # most homes: nothing to judge, and nothing more to index
    openings = [e for e in home.history if _is(home, e, OPENING_DEVICE_CLASSES)]
    motions = [e for e in home.history if _is(home, e, OCCUPANCY_DEVICE_CLASSES)]
    if not openings or not motions:
        return
    # Every sign of somebody: motion starting, any opening moving, a light or lock used.
    signs = sorted(
        (c.when, e)
        for e in home.history
        if _is(home, e, OCCUPANCY_DEVICE_CLASSES | OPENING_DEVICE_CLASSES)
        or home.domain(e) in _PEOPLE_DOMAINS
        for c in real_changes(home, e)
        if not _is(home, e, OCCUPANCY_DEVICE_CLASSES) or c.state.lower() == "on"
    )
    for sensor in sensors:
        for trip in _onsets(home, sensor):
            forced = [
                (when, opening)
                for opening in openings
                if home.area(opening) == home.area(sensor)
                for when in _onsets(home, opening)
                if abs(when - trip) <= OPENING_REACH
            ]
            if not forced:
                continue
            opened, opening = min(forced)
            if any(opened - STILL_BEFORE <= when < opened for when, _ in signs):
                continue  # somebody was already about: theirs, not an intruder's
            inside = sorted(
                (when, motion)
                for motion in motions
                for when in _onsets(home, motion)
                if trip <= when <= trip + MOTION_AFTER
            )
            if not inside:
                continue
            walked = list(dict.fromkeys(motion for _, motion in inside))
            areas = list(dict.fromkeys(home.area(m) or m for m in walked))
            yield BREAK_IN_SEQUENCE.finding(
                evidence=(sensor, opening, *walked),
                reasoning=f"{sensor} tripped at {trip:%Y-%m-%d %H:%M:%S} as {opening} of the "
                f"same room opened ({opened:%H:%M:%S}), and motion started within "
                f"{MOTION_AFTER.total_seconds() / 60:.0f} min in {', '.join(areas)}; nothing in "
                f"the home had moved in the {STILL_BEFORE.total_seconds() / 60:.0f} min "
                "before: somebody may have broken in.",
                recommendation="Check the cameras and that room before going in; call for "
                "help if nobody of the household is there.",
                magnitude=float(len(areas)),
            )
            break
