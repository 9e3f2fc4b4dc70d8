"""A door left open while the household sleeps, longer than it has ever stood open.

``state_longer_than_usual`` tells an opening open ``FACTOR`` (3) times its longest learned
stay: one long evening with the patio door open (a barbecue) triples the margin, and the
ranch slider left open after letting the cat in stays open all night untold; doors
without an entrance role ("opening" sensors) are not "left open" either. While the
household sleeps nobody comes and goes, so the margin is the stay itself: a door (HA's
``door``, ``garage_door`` or ``opening`` class; not a window, often left open for the
night) open since before the household went to rest, longer than it has ever stood open
here (and than ``FLOOR``), after an hour of rest in the small hours, someone home,
watched for ``MIN_DAYS``, is told. A door that stands open through the night here (a
bedroom door) has learned stays that long, or is open most of the time
(``stands_open``), and is not told; one whose learned stays are
few is judged by them all the same: it has never been open this long.

An entrance (``device_roles.is_entry``: a door to the outside, a garage door, a lock's
door) that this home shuts by night (a shut stay learned that covered the small hours,
``shut_through_a_night``) is judged after one day watched (``ENTRANCE_MIN_DAYS``), not
seven: a shed or back door open past bedtime on the second night, in the north wind,
cannot wait for the week's learning (its finding is judged against the door's own stays,
so the learning gate does not hold it). A window on a ``door`` contact (Zigbee2MQTT's
default class) opened for the night has no such stay.
The first night is never judged (no night seen), and a door left open every night has
that stay learned by the next.

"Asleep" is this home's own rest (``DailyRhythm``); no id word is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..device_roles import is_entry
from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..occupancy import Occupancy
from ..statistics.night import SMALL_HOURS_END
from .clock import local
from .home_baselines import HomeBaselines
from .household_asleep import asleep_since
from .long_stays import FLOOR, duration_text, learned_from, stay_since
from .stands_open import stands_open

# Days watched before "never open this long" means anything.
MIN_DAYS = 7
# An entrance shut through a night here is judged after this (one night seen).
ENTRANCE_MIN_DAYS = 1
# Hours in a quarter of the day (``StateDurations``' buckets).
QUARTER_HOURS = 6
DOOR_CLASSES = frozenset({"door", "garage_door", "opening"})

OPEN_WHILE_ASLEEP = FindingKind("open_while_asleep", AnomalyType.SECURITY, Severity.MEDIUM)


def open_while_asleep(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A door open since before the household's rest, longer than ever learned.

    Magnitude: minutes the door has been open.
    """
    if home.occupancy is not Occupancy.OCCUPIED:
        return  # nobody home: the away checks judge an open door
    now = home.end
    zone = baselines.zone
    if (rest := asleep_since(home, baselines)) is None:
        return
    for door in home.of("binary_sensor", *DOOR_CLASSES):
        if door.state != "on" or not _judged(home, baselines, door.entity_id):
            continue
        if stands_open(baselines.durations, door.entity_id):
            continue  # open is where it rests (``stands_open``): no news at night either
        since = stay_since(home, baselines, door)
        if since is None or since > rest:
            continue  # opened during the rest: somebody up
        count, longest = baselines.durations.whole_record(door.entity_id, "on")
        longest = max(longest, baselines.usual.taught_value(door.entity_id, "stay") or 0.0)
        stayed = now - since
        if stayed <= max(FLOOR, timedelta(minutes=longest)):
            continue
        stays = "stay" if count == 1 else "stays"
        before = (
            f"here it has never stood open longer than "
            f"{duration_text(timedelta(minutes=longest))} {learned_from(count, stays)}"
            if count
            else "it has not stood open before in the days learned"
        )
        yield OPEN_WHILE_ASLEEP.finding(
            evidence=(door.entity_id,),
            reasoning=f"{door.info.name} has been open for {duration_text(stayed)}, since "
            f"{local(since, zone):%H:%M}, and the household has been asleep since "
            f"{local(rest, zone):%H:%M}; {before}.",
            recommendation="Check the door: it may have been left open for the night.",
            magnitude=round(stayed.total_seconds() / 60, 1),
        )


def _judged(home: HomeView, baselines: HomeBaselines, door: str) -> bool:
    """Watched long enough for "never open this long" to mean anything (``MIN_DAYS``; an
    entrance shut through a night here, ``ENTRANCE_MIN_DAYS``)."""
    watched = baselines.usual.days_watched(door, home.end)
    if watched >= MIN_DAYS:
        return True
    if watched < ENTRANCE_MIN_DAYS or not is_entry(home, door):
        return False
    return shut_through_a_night(baselines, door)


def shut_through_a_night(baselines: HomeBaselines, door: str) -> bool:
    """A shut stay learned that covered the small hours (to ``SMALL_HOURS_END``) whenever
    in its quarter of the day it began: begun in the evening (18-24), 11 h or more; in the
    afternoon, 17 h; in the morning, 23 h (``StateDurations`` keeps the longest per quarter
    of the day begun in). A window or a cupboard shut all day and open at night has none."""
    quarters = baselines.durations.stays.get(door, {}).get("off") or []
    for quarter, bucket in enumerate(quarters):
        if quarter == 0:
            continue  # begun in the small hours: whether it covered them is not known
        needed = 24 + SMALL_HOURS_END - QUARTER_HOURS * quarter
        if bucket[2] >= needed * 60:
            return True
    return False
