"""How long each entity usually stays in each state, by time of day.

For every watched entity with discrete states (a door, a light, a lock, a motion
sensor), each state it left is accounted to the quarter of the day it began in (night
00-06, morning 06-12, afternoon 12-18, evening 18-24): how many times, the total and
the longest stay. A door that is open two minutes at a time in the morning and never
more than ten is then a fact of this home rather than a guess.

An outlier teaches slowly: a stay more than ``OUTLIER_FACTOR`` times the longest of a
bucket that has seen ``OUTLIER_AFTER`` stays raises the longest by half, not to its own
length (a door once left open all night must not teach that a night open is normal; a
habit that really grew raises it again each time). A stay told as trouble (``told``: the
homeowner was told of it and did not call it a false alarm) is damped so whatever the
bucket's count, and teaches nothing at a bucket with no stay yet: a door left open while
everybody was out, told at 10 min, must not make 16 min its usual night stay, so that the
next outing's door open as long is not told (walks of sessions 48 and 49); "false alarm"
teaches the normal through ``UsualUse.teach`` instead.

Each state's stays also keep the local hours they began at (one bit an hour, and how many
stays the bits have seen): a heater switched on at 20:25-21:05 on every evening learned has
a routine of hours as well as of length (``start_hours``).

Bounded: ``MAX_ENTITIES`` entities, ``MAX_STATES`` states each; numeric readings are
``NumericRanges``' business (a power meter's running/idle spells are learned here, as
the states ``running`` and ``idle``, see ``HomeBaselines``; a drop of up to
``DROP_BRIDGED`` between two readings of the same spell does not end it).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from ..models import clip
from ..state_blips import is_no_state
from .clock import format_time, hour_of_day, parse_time
from .night_run_minutes import NightRunMinutes
from .packed import pack, unpack
from .power import IDLE, RUNNING
from .stored_values import is_stored_number, stored_items

MAX_ENTITIES = 400
MAX_STATES = 6
QUARTERS = 4
# Stays of a state at a quarter of the day before its longest is taken as known.
MIN_STAYS = 5
# A stay longer than this is a gap in the record (HA stopped), not a duration.
MAX_STAY = timedelta(days=7)
# A stay this many times the bucket's longest (after this many stays) is an outlier...
OUTLIER_FACTOR = 3.0
OUTLIER_AFTER = 10
# ...and raises the longest by this factor only.
OUTLIER_GROWTH = 1.5

# A power meter's running/idle spell goes on across a radio drop this short (the meter
# back in the same spell): a heater left on is not "just switched on" after each drop.
DROP_BRIDGED = timedelta(minutes=15)
BRIDGED = frozenset({RUNNING, IDLE})

# [count, total minutes, longest minutes] per quarter of the day.
type Stays = list[list[float]]


def quarter_of_day(when: datetime, zone: tzinfo | None) -> int:
    """0 night, 1 morning, 2 afternoon, 3 evening (local time)."""
    return hour_of_day(when, zone) // 6


class StateDurations:
    """Per entity and state: counts, total and longest stay per quarter of the day."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.stays: dict[str, dict[str, Stays]] = {}
        self.current: dict[str, tuple[str, datetime]] = {}
        # A power meter's spell a drop (no state) cut, and when: held until it reads again
        # (not stored; a restart forgets it and the drop ends the spell, as before).
        self.before_drop: dict[str, tuple[str, datetime, datetime]] = {}
        # The last stay each entity ended, as it was (state, since, until): how long a door
        # was shut before it was reopened (not stored; unknown after a restart).
        self.last_stay: dict[str, tuple[str, datetime, datetime]] = {}
        # Per entity and state, [the local hours its stays began at (bit n: hour n), how
        # many stays those bits have seen] (a record stored before the hours were kept: 0).
        self.starts: dict[str, dict[str, list[int]]] = {}
        # A meter's running minutes in the small hours, the most of one hour a night.
        self.night = NightRunMinutes(zone)
        # The stays under way told as trouble, by their start (not stored: a restart
        # forgets them, and the stay is learned as any).
        self.told: dict[str, datetime] = {}

    def tell(self, entity_id: str) -> None:
        """The stay ``entity_id`` is in now was told as trouble: it is damped as it ends."""
        current = self.current.get(entity_id)
        if current is not None and (entity_id in self.told or len(self.told) < MAX_ENTITIES):
            self.told[entity_id] = current[1]

    def untell(self, entity_id: str) -> None:
        """The stay told of ``entity_id`` was a false alarm: learned as it is."""
        self.told.pop(entity_id, None)

    def state(self, entity_id: str, state: str, when: datetime) -> None:
        """``entity_id`` is in ``state`` from ``when`` on."""
        previous = self.current.get(entity_id)
        if previous is not None:
            old, since = previous
            if old == state or when < since:
                return
            if old in BRIDGED and is_no_state(state):
                # A meter's spell cut by a drop: held until the meter reads again.
                self.before_drop[entity_id] = (old, since, when)
                self.current[entity_id] = (clip(state, 64), when)
                return
            if (cut := self.before_drop.pop(entity_id, None)) is not None:
                if state == cut[0] and when - cut[2] <= DROP_BRIDGED:
                    self.current[entity_id] = (state, cut[1])  # the spell goes on
                    return
                self._account(entity_id, cut[0], cut[1], cut[2])
            self._account(entity_id, old, since, when)
        elif len(self.current) >= MAX_ENTITIES:
            return
        self.current[entity_id] = (state if len(state) <= 64 else clip(state, 64), when)

    def _account(self, entity_id: str, state: str, since: datetime, until: datetime) -> None:
        self.last_stay[entity_id] = (state, since, until)
        if until - since > MAX_STAY:
            return
        if state == RUNNING and not _derived(entity_id):  # a meter's run (not a part of it)
            self.night.ran(entity_id, since, until)
        per_state = self.stays.setdefault(entity_id, {})
        stays = per_state.get(state)
        if stays is None:
            if len(per_state) >= MAX_STATES:
                return
            stays = per_state[state] = [[0.0, 0.0, 0.0] for _ in range(QUARTERS)]
        minutes = (until - since).total_seconds() / 60
        bucket = stays[quarter_of_day(since, self.zone)]
        longest = bucket[2]
        if self.told.get(entity_id) == since:  # told as trouble: says nothing of normal
            del self.told[entity_id]
            if bucket[0] < 1:
                return
            minutes = min(minutes, max(longest * OUTLIER_GROWTH, 1.0))
        elif bucket[0] >= OUTLIER_AFTER and minutes > OUTLIER_FACTOR * longest:
            minutes = max(longest * OUTLIER_GROWTH, 1.0)  # an outlier teaches slowly
        bucket[0] += 1
        bucket[1] += minutes
        bucket[2] = max(longest, minutes)
        began = self.starts.setdefault(entity_id, {}).setdefault(state, [0, 0])
        began[0] |= 1 << hour_of_day(since, self.zone)
        began[1] += 1

    def start_hours(self, entity_id: str, state: str) -> tuple[int, int]:
        """(the local hours stays of ``state`` began at, one bit an hour; how many stays
        those bits have seen); (0, 0) when none."""
        began = self.starts.get(entity_id, {}).get(state)
        return (began[0], began[1]) if began else (0, 0)

    def usual(self, entity_id: str, state: str, when: datetime) -> tuple[int, float, float] | None:
        """(stays, mean minutes, longest minutes) of ``state`` begun at ``when``'s quarter."""
        stays = self.stays.get(entity_id, {}).get(state)
        if stays is None:
            return None
        count, total, longest = stays[quarter_of_day(when, self.zone)]
        if count < 1:
            return None
        return int(count), total / count, longest

    def longest(self, entity_id: str, state: str, when: datetime) -> tuple[int, float, bool] | None:
        """(stays, longest minutes, pooled) of ``state``, for a stay begun at ``when``.

        The quarter of the day it began in when that quarter has ``MIN_STAYS`` stays;
        otherwise every quarter pooled (the longest of all, the more lenient) when they have
        ``2 * MIN_STAYS``; otherwise None (too little is known).
        """
        stays = self.stays.get(entity_id, {}).get(state)
        if stays is None:
            return None
        count, _, longest = stays[quarter_of_day(when, self.zone)]
        if count >= MIN_STAYS:
            return int(count), longest, False
        total, longest = self.whole_record(entity_id, state)
        if total >= 2 * MIN_STAYS:
            return total, longest, True
        return None

    def whole_record(self, entity_id: str, state: str) -> tuple[int, float]:
        """(stays, longest minutes) of ``state`` at any time of day; (0, 0.0) when none."""
        stays = self.stays.get(entity_id, {}).get(state) or []
        return int(sum(b[0] for b in stays)), max((b[2] for b in stays), default=0.0)

    def whole_mean(self, entity_id: str, state: str) -> tuple[int, float]:
        """(stays, mean minutes) of ``state`` at any time of day; (0, 0.0) when none."""
        stays = self.stays.get(entity_id, {}).get(state) or []
        count = int(sum(b[0] for b in stays))
        return count, (sum(b[1] for b in stays) / count if count else 0.0)

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (the start hours and the nights' minutes only once
        learned: a form stored before them is saved as it was)."""
        stored: dict[str, Any] = {
            "stays": {
                entity: {
                    # one line of text in HA's indented file (``packed.py``)
                    state: pack([number for bucket in stays for number in bucket], 1)
                    for state, stays in per_state.items()
                }
                for entity, per_state in self.stays.items()
            },
            "current": {
                entity: [state, format_time(since)]
                for entity, (state, since) in self.current.items()
            },
        }
        if self.starts:
            stored["starts"] = {
                entity: {state: pack(began, 0) for state, began in per_state.items()}
                for entity, per_state in self.starts.items()
            }
        if night := self.night.as_dict():
            stored["night_most"] = night
        return stored

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> StateDurations:
        """Rebuild from stored data; anything malformed is dropped."""
        durations = cls(zone)
        if not isinstance(data, Mapping):
            return durations
        for entity, per_state in stored_items(data.get("stays"), MAX_ENTITIES):
            if not isinstance(entity, str) or len(entity) > 255:
                continue
            if not isinstance(per_state, Mapping):
                continue
            kept: dict[str, Stays] = {}
            for state, values in list(per_state.items())[:MAX_STATES]:
                parsed = _stays(values)
                if isinstance(state, str) and len(state) <= 64 and parsed is not None:
                    kept[state] = parsed
            if kept:
                durations.stays[entity] = kept
        for entity, pair in stored_items(data.get("current"), MAX_ENTITIES):
            if not isinstance(entity, str) or len(entity) > 255:
                continue
            if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str):
                continue
            if (since := parse_time(pair[1])) is not None:
                durations.current[entity] = (clip(pair[0], 64), since)
        durations.night = NightRunMinutes.from_dict(data.get("night_most"), zone)
        for entity, per_state in stored_items(data.get("starts"), MAX_ENTITIES):
            if not isinstance(per_state, Mapping) or entity not in durations.stays:
                continue
            learned = durations.stays[entity]
            for state, began in per_state.items():
                if state in learned and (hours := _began(began)) is not None:
                    durations.starts.setdefault(entity, {})[state] = hours
        return durations


def _derived(key: str) -> bool:
    """A key the baselines made for a part of a meter ("sensor.x#running"), never a typed id."""
    return "#" in key


def _began(values: object) -> list[int] | None:
    """[hours mask, stays] as stored (packed), or None when malformed."""
    numbers = unpack(values, 2, 0, 1e9)
    if numbers is None or not all(n == int(n) for n in numbers):
        return None
    return [int(numbers[0]) & (1 << 24) - 1, int(numbers[1])]


def _stays(values: object) -> Stays | None:
    if isinstance(values, str):  # the packed form: count, total, longest per quarter
        numbers = unpack(values, QUARTERS * 3, 0.0, 1e9)
        return None if numbers is None else [numbers[i : i + 3] for i in range(0, len(numbers), 3)]
    if not isinstance(values, list) or len(values) != QUARTERS:  # the older form
        return None
    result: Stays = []
    for bucket in values:
        if not isinstance(bucket, list) or len(bucket) != 3:
            return None
        numbers = [float(v) for v in bucket if is_stored_number(v)]
        if len(numbers) != 3 or any(n < 0 for n in numbers):
            return None
        result.append(numbers)
    return result
