"""A presence sensor stuck on: it reports somebody for hours while the home stands still.

Motion, occupancy and presence sensors go back to "clear" soon after people leave
the room. When one holds "on" for hours in the daytime while nothing else in the
whole home changes — no other sensor sees anybody, no light, switch, door, lock or
screen is touched — the sensor is stuck (or its hold-time setting is wrong), and
automations that wait for "clear" never run. Holds across the night are left alone:
a sleeper is still for hours.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import intervals

# A person sitting still (reading, a film) holds a room a couple of hours at most
# without any other sign of life in the home.
STUCK_HOLD = timedelta(hours=4)
# Local night hours: a hold that touches them may be a sleeper.
NIGHT_START, NIGHT_END = 23, 6
# Entities people change by being about: lights, appliances, doors, locks, covers.
_TOUCHED_DOMAINS = frozenset(
    {"light", "switch", "fan", "media_player", "lock", "cover", "vacuum", "alarm_control_panel"}
)
# Signs of life in the whole home needed before "nothing changed" means anything.
MIN_SIGNS_OF_LIFE = 4


def _is_presence(home: HomeView, entity_id: str) -> bool:
    return (
        home.domain(entity_id) == "binary_sensor"
        and home.device_class(entity_id) in OCCUPANCY_DEVICE_CLASSES
    )


def _sign_of_life(home: HomeView, entity_id: str) -> bool:
    domain = home.domain(entity_id)
    if domain in _TOUCHED_DOMAINS:
        return True
    return domain == "binary_sensor" and (
        home.device_class(entity_id) in OCCUPANCY_DEVICE_CLASSES | OPENING_DEVICE_CLASSES
    )


def _touches_night(home: HomeView, start: datetime, end: datetime) -> bool:
    zone = home.env.zone
    hour = start.astimezone(zone) if zone and start.tzinfo else start
    stop = end.astimezone(zone) if zone and end.tzinfo else end
    while hour < stop:
        if hour.hour >= NIGHT_START or hour.hour < NIGHT_END:
            return True
        hour = (hour + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    return stop.hour >= NIGHT_START or stop.hour < NIGHT_END


PRESENCE_STUCK_ON = FindingKind(
    "presence_stuck_on", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def presence_stuck_on(home: HomeView) -> Iterator[Finding]:
    """A motion/occupancy sensor held "on" for hours while nothing else in the home moved.

    Magnitude: how long it was held, in hours.
    """
    sensors = [e for e in home.history if _is_presence(home, e)]
    if not sensors:
        return
    for sensor in sensors:
        holds = [
            held
            for held in intervals(home, sensor)
            if held.state.lower() == "on" and held.duration >= STUCK_HOLD
        ]
        if not holds:
            continue  # (most sensors: then the others' changes need not be gathered)
        # Other entities' changes, in time order, to ask "did anything happen between?"
        others = sorted(
            change.when
            for entity_id in home.history
            if entity_id != sensor and _sign_of_life(home, entity_id)
            for change in home.changes(entity_id)
        )
        if len(others) < MIN_SIGNS_OF_LIFE:
            continue
        for held in holds:
            # Anything strictly inside the hold (a minute's slack at both ends).
            first = bisect_right(others, held.start + timedelta(minutes=1))
            if first < len(others) and others[first] < held.end - timedelta(minutes=1):
                continue
            if _touches_night(home, held.start, held.end):
                continue
            hours = held.duration.total_seconds() / 3600
            yield PRESENCE_STUCK_ON.finding(
                evidence=(sensor,),
                reasoning=f"{sensor} reported somebody from {held.start:%H:%M} to "
                f"{held.end:%H:%M} ({hours:.1f} h) while nothing else in the home changed: "
                "no other sensor saw anybody and nothing was switched, opened or locked.",
                recommendation="Check the sensor (stuck, or its hold time set too long); "
                "automations waiting for it to clear will not run.",
                magnitude=round(hours, 2),
            )
            break
