"""A door or window that opened for a few seconds in the small hours, with nobody about.

Somebody who opens a door or a window at night is up: a light, a motion sensor, a lock
or another door moves within minutes, and a window opened for air stays open for more
than a few seconds. A contact that opens and closes within seconds while the rest of the
home stays still is a false trigger (a failing reed contact, a magnet knocked loose,
radio interference) or somebody trying the door from outside: worth telling either way.
Daytime blips are left alone: in a lived-in home doors open for a few seconds all day
with nobody passing a sensor (a real home's front door does, in the development data).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..home_clock import on_home_clock
from ..models import AnomalyType, Finding, Severity
from .night import SMALL_HOURS_END, SMALL_HOURS_START
from .timeline import area_motion_reporting, intervals, real_changes

# Open for at most this long: nobody walks through, or airs a room, in that time.
BLIP = timedelta(seconds=10)
# A person up at night shows somewhere in the home within this time, before or after.
NOBODY_WITHIN = timedelta(minutes=10)
# A motion sensor reporting "clear" this close to the blip says nobody was there.
CLEAR_REPORT = timedelta(minutes=1)
# Domains whose every change is somebody's doing (or an automation acting for them).
_PEOPLE_DOMAINS = frozenset({"light", "switch", "fan", "media_player", "lock", "cover"})


def _people_signs(home: HomeView) -> list[tuple[datetime, str]]:
    """When something in the home showed a person: motion starting, a door, a switch."""
    signs: list[tuple[datetime, str]] = []
    for entity_id in home.history:
        domain = home.domain(entity_id)
        device_class = home.device_class(entity_id)
        motion = domain == "binary_sensor" and device_class in OCCUPANCY_DEVICE_CLASSES
        opening = domain == "binary_sensor" and device_class in OPENING_DEVICE_CLASSES
        if not (motion or opening or domain in _PEOPLE_DOMAINS):
            continue
        for change in real_changes(home, entity_id):
            if motion and change.state.lower() != "on":
                continue  # a "clear" report is the sensor timing out, not a person
            signs.append((change.when, entity_id))
    signs.sort()
    return signs


def _local_hour(home: HomeView, when: datetime) -> int:
    return on_home_clock(when, home.env.zone).hour


OPENING_BLIP_AT_NIGHT = FindingKind("opening_blip_at_night", AnomalyType.SECURITY, Severity.MEDIUM)


def opening_blip_at_night(home: HomeView) -> Iterator[Finding]:
    """A door or window opened and closed within seconds at night, nobody about.

    Magnitude: how many such blips the opening made.
    """
    # A home without motion sensors or lights still judges the blip by its length alone:
    # nobody opens a window at 3 am for five seconds.
    signs: list[tuple[datetime, str]] | None = None  # read only for a blip in the small hours
    times: list[datetime] = []
    start = home.window.start
    for entity_id in home.history_of("binary_sensor", *OPENING_DEVICE_CLASSES):
        blips: list[datetime] = []
        for spell in intervals(home, entity_id):
            if spell.state.lower() != "on" or spell.ongoing or spell.duration > BLIP:
                continue
            if start is not None and spell.start <= start:
                continue  # the window's first record: when it opened is unknown
            if not SMALL_HOURS_START <= _local_hour(home, spell.start) < SMALL_HOURS_END:
                continue
            if signs is None:
                signs = _people_signs(home)
                times = [when for when, _ in signs]
            index = bisect_left(times, spell.start - NOBODY_WITHIN)
            nearby = {
                who
                for when, who in signs[index:]
                if when <= spell.end + NOBODY_WITHIN and who != entity_id
            }
            if not nearby:
                blips.append(spell.start)
        if not blips:
            continue
        # A motion sensor of the same room that reported "clear" right then is a witness.
        witnesses = area_motion_reporting(home, entity_id, "off", blips[0], CLEAR_REPORT)
        yield OPENING_BLIP_AT_NIGHT.finding(
            evidence=(entity_id, *witnesses),
            reasoning=f"{entity_id} opened at {blips[0]:%Y-%m-%d %H:%M:%S} and closed within "
            f"{BLIP.total_seconds():.0f} s, and nothing else in the home (motion, lights, "
            f"locks, doors) moved within {NOBODY_WITHIN.total_seconds() / 60:.0f} min.",
            recommendation="Check the door or window and its contact sensor (magnet, battery).",
            magnitude=float(len(blips)),
        )
