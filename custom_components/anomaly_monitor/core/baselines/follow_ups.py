"""What usually follows what, learned from the home's own co-occurrences.

A *cause* is a meter starting to draw (a ``power`` sensor from idle to running) or a
supply coming back (a ``voltage`` sensor from none to mains); an *effect* is a level or a
temperature moving (a sensor in % or of device_class ``temperature``) by a step (2 points,
0.5 °C) within ``REACH`` of the cause. Pairs are not declared: any effect that moved
after a cause's onset, anywhere in the home, becomes a candidate pair (a well pump in the
yard and the roof tank's level; the grid back and the home battery charging), and every
later onset of the cause counts whether it rose, fell, or neither. By HA's vocabulary
only (domain, device_class, unit), never an entity id's words.

A pair is an expectation (``direction``) only when the effect moved the same way after
nearly every onset (``share`` of at least ``min_onsets``) *and* seldom moved that way
without the cause (``ALONE_SHARE``): a room that warms every morning is not the coffee
machine's effect because both happen at seven. An onset at a level the effect cannot move
from (within a step of the highest it ever rose to: a full tank, a charged battery) is no
miss; nor is one begun a step past anything the cause ever took it to (``beyond_its_reach``:
a room colder than it ever fell to after a radiator started). An expected effect that did not
come marks the pair *broken* (``broken``: the onset, the level then, the lowest level
since for a rising effect, the highest for a falling one) until the effect moves that way
again from there; the miss is counted once, however often the cause tries again.

Bounded: ``MAX_PAIRS`` pairs, ``MAX_EFFECTS`` per cause (a pair that can never be an
expectation makes room), counts halved past ``MAX_COUNT``. Stored: the pairs, the broken
ones and the paired effects' last readings; onsets in flight are not (a restart loses at
most one onset per cause). Stored data is untrusted: a malformed item is dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from ..models import EntityInfo
from ..power_units import RUNNING_WATTS, watts
from ..temperatures import span_in_unit
from .clock import format_time, parse_time
from .follow_up_pair import REACH, FollowUp, Onset, Waiting, beyond_its_reach, could_move
from .stored_values import is_stored_number, stored_entity_id

VERSION = 1
MAX_PAIRS = 48
MAX_EFFECTS = 4
MAX_READINGS = 300
BROKEN_FOR = timedelta(hours=24)
PERCENT_STEP = 2.0
TEMPERATURE_STEP = 0.5  # °C
# A supply (V) reads under the first when cut, over the second when back.
SUPPLY_CUT, SUPPLY_ON = 20.0, 80.0


def cause_level(info: EntityInfo, value: float) -> bool | None:
    """Whether a cause reads active (drawing, supplied); None: not a cause, or in between."""
    if info.domain != "sensor":
        return None
    if info.device_class == "power":
        reading = watts(value, info.unit)
        return None if reading is None else reading >= RUNNING_WATTS
    if info.device_class == "voltage" and info.unit == "V":
        return True if value >= SUPPLY_ON else False if value < SUPPLY_CUT else None
    return None


# A cause's role (an effect's is its step, a sensor's of neither None).
_CAUSE = -1.0
MAX_ROLES = 2_000


def _role(info: EntityInfo) -> float | None:
    if info.domain != "sensor":
        return None
    if info.device_class == "power" or (info.device_class == "voltage" and info.unit == "V"):
        return _CAUSE
    return effect_step(info)


def effect_step(info: EntityInfo) -> float | None:
    """How far an effect must move to count, in its own unit; None: not an effect."""
    if info.domain != "sensor":
        return None
    if info.device_class == "temperature":
        return span_in_unit(TEMPERATURE_STEP, info.unit)
    return PERCENT_STEP if info.unit == "%" else None


class FollowUps:
    """Cause → effect pairs of one home, learned from what followed what."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], FollowUp] = {}
        self.open: dict[str, Onset] = {}
        # The onsets followed: those of a cause at rest for a reach before (the next of a
        # compressor cycling within the reach teaches nothing, see ``_close``: not followed)
        self._followed: dict[str, Onset] = {}
        # (cause, effect) -> the onset whose effect did not come
        self.broken: dict[tuple[str, str], Waiting] = {}
        self.readings: dict[str, float] = {}
        self._on: dict[str, bool] = {}
        self._trend: dict[str, tuple[int, float]] = {}  # effect -> (way, extreme so far)
        self._steps: dict[str, float] = {}
        self._roles: dict[str, tuple[EntityInfo, float | None]] = {}  # see ``_role``
        self._causes: dict[str, list[str]] = {}  # effect -> its paired causes
        self._next_due: datetime | None = None

    def _index(self) -> None:
        self._causes = {}
        for cause, effect in self.pairs:
            self._causes.setdefault(effect, []).append(cause)

    def observe(self, when: datetime, info: EntityInfo, value: float) -> None:
        """``info``'s entity reads the number ``value`` at ``when`` (time order)."""
        if self._next_due is not None and when >= self._next_due:
            self.expire(when)
        entity_id = info.entity_id
        known = self._roles.get(entity_id)
        if known is None or known[0] is not info:  # described anew: its role again
            known = (info, _role(info))
            if len(self._roles) < MAX_ROLES:
                self._roles[entity_id] = known
        role = known[1]
        if role is None:
            return
        if role == _CAUSE:
            active = cause_level(info, value)
            if active is None:
                return
            was = self._on.get(entity_id)
            if was is not None or len(self._on) < MAX_READINGS:
                self._on[entity_id] = active
            if active and was is False:
                self._onset(when, entity_id)
            return
        if entity_id not in self._steps and len(self._steps) < MAX_READINGS:
            self._steps[entity_id] = role
        self._reading(when, entity_id, value, role)

    def _onset(self, when: datetime, cause: str) -> None:
        followed = cause not in self.open
        if not followed:
            self._close(cause, when)
        self.open[cause] = onset = Onset(when)
        if followed:
            self._followed[cause] = onset
        due = when + REACH
        self._next_due = due if self._next_due is None else min(self._next_due, due)

    def _reading(self, when: datetime, effect: str, value: float, step: float) -> None:
        before = self.readings.get(effect)
        if before is None and len(self.readings) >= MAX_READINGS:
            return
        self.readings[effect] = value
        if before is None:
            return
        way = self._turn(effect, value, step) if effect in self._causes else 0
        for cause in self._causes.get(effect, ()):
            pair = self.pairs[(cause, effect)]
            if way and cause not in self.open:  # it moved that way with no onset of the cause
                if way > 0:
                    pair.ups_alone += 1
                else:
                    pair.downs_alone += 1
            broken = self.broken.get((cause, effect))
            if broken is not None:
                if broken.way * (value - broken.extreme) >= step:
                    del self.broken[(cause, effect)]  # it came after all
                elif broken.way * (value - broken.extreme) < 0:
                    self.broken[(cause, effect)] = broken._replace(extreme=value)
        for onset in self._followed.values():
            reference = onset.refs.setdefault(effect, before)
            delay = (when - onset.when).total_seconds()
            onset.high[effect] = max(onset.high.get(effect, value), value)
            onset.low[effect] = min(onset.low.get(effect, value), value)
            if value - reference >= step:
                onset.rose.setdefault(effect, delay)
            elif reference - value >= step:
                onset.fell.setdefault(effect, delay)

    def _turn(self, effect: str, value: float, step: float) -> int:
        """+1/-1 when the effect's reading starts moving up/down by a step (a zigzag over
        its readings: the extreme of the current way, turned at a step back from it)."""
        way, extreme = self._trend.get(effect, (0, value))
        turned = 0
        if way >= 0 and value <= extreme - step:
            turned, extreme = -1, value
        elif way <= 0 and value >= extreme + step:
            turned, extreme = 1, value
        elif way:
            extreme = max(extreme, value) if way > 0 else min(extreme, value)
        self._trend[effect] = (turned or way, extreme)
        return turned

    def _close(self, cause: str, now: datetime) -> None:
        """The onset's reach has passed (or the cause started again): count its outcome."""
        onset = self.open.pop(cause)
        if self._followed.pop(cause, None) is None:
            return  # not followed: nothing known of it
        complete = now >= onset.when + REACH
        moved = onset.rose.keys() | onset.fell.keys()
        known = [effect for (c, effect) in self.pairs if c == cause]
        for effect in sorted(set(known) | moved):
            key = (cause, effect)
            reference = onset.refs.get(effect, self.readings.get(effect))
            if reference is None:
                continue  # never read
            pair = self.pairs.get(key)
            if not complete:
                # Cut short by the cause starting again: nothing learned from it (a cycling
                # compressor's onsets would count only the times something moved); an
                # expected effect not yet come waits on, from this first onset.
                if pair is not None and key not in self.broken:
                    self._missing(onset, key, pair, reference, counted=False)
                continue
            if pair is None and (pair := self._add(key)) is None:
                continue
            if self._missing(onset, key, pair, reference, counted=True) is False:
                continue  # it could not move, or its break is counted already
            pair.outcome(onset, effect)

    def _missing(
        self, onset: Onset, key: tuple[str, str], pair: FollowUp, reference: float, *, counted: bool
    ) -> bool | None:
        """Mark an expected effect that did not come as broken. None: it came, or nothing
        was expected; False: not to be counted (it could not move from where it was: a full
        tank; or this break is counted already); True: a miss to count."""
        way = pair.direction(1, 0.9)
        effect = key[1]
        if not way or effect in (onset.rose if way > 0 else onset.fell):
            return None
        level = self.readings.get(effect, reference)
        extreme = min(reference, level) if way > 0 else max(reference, level)
        step = self._steps.get(effect, 0.0)
        if not could_move(pair, extreme, step) or beyond_its_reach(pair, reference, step):
            return False  # it could not move, or began past where the cause ever took it
        broken = self.broken.get(key)
        if broken is not None:
            if broken.counted:
                return False
            self.broken[key] = broken._replace(counted=counted)
        elif _trusted(pair):
            self.broken[key] = Waiting(key[0], effect, onset.when, reference, extreme, way, counted)
        return True

    def _add(self, key: tuple[str, str]) -> FollowUp | None:
        cause = key[0]
        mine = [k for k in self.pairs if k[0] == cause]
        if len(mine) >= MAX_EFFECTS or len(self.pairs) >= MAX_PAIRS:
            among = mine if len(mine) >= MAX_EFFECTS else list(self.pairs)
            spare = [k for k in among if self.pairs[k].hopeless()]
            if not spare:
                return None
            del self.pairs[spare[0]]
            self.broken.pop(spare[0], None)
        self.pairs[key] = pair = FollowUp()
        self._index()
        return pair

    def expire(self, now: datetime) -> None:
        """Close the onsets whose reach has passed; forget breaks older than a day."""
        self._next_due = None
        for cause, onset in list(self.open.items()):
            due = onset.when + REACH
            if now >= due:
                self._close(cause, now)
            elif self._next_due is None or due < self._next_due:
                self._next_due = due
        for key, broken in list(self.broken.items()):
            if now - broken.since > BROKEN_FOR:
                del self.broken[key]

    # --- reading -----------------------------------------------------------------------

    def waiting(self) -> Iterator[Waiting]:
        """Every effect expected and not yet come: broken pairs, and onsets in reach whose
        effect has not moved its way (from the level then: the judge reads the level now)."""
        yield from self.broken.values()
        for (cause, effect), pair in self.pairs.items():
            onset = self._followed.get(cause)
            if onset is None or (cause, effect) in self.broken:
                continue
            way = pair.direction(1, 0.9)
            if not way or effect in (onset.rose if way > 0 else onset.fell):
                continue
            level = onset.refs.get(effect, self.readings.get(effect))
            if level is not None:
                yield Waiting(cause, effect, onset.when, level, level, way)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form: pairs, breaks, the paired effects' last readings."""
        paired = {effect for _, effect in self.pairs}
        return {
            "version": VERSION,
            "pairs": [[cause, effect, *p.as_list()] for (cause, effect), p in self.pairs.items()],
            "broken": [
                [w.cause, w.effect, format_time(w.since), w.level, w.extreme, w.way, w.counted]
                for w in self.broken.values()
            ],
            "on": sorted(cause for cause, on in self._on.items() if on),
            "off": sorted(cause for cause, on in self._on.items() if not on),
            "readings": {e: v for e, v in self.readings.items() if e in paired},
        }

    @classmethod
    def from_dict(cls, data: object) -> FollowUps:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        follow = cls()
        if not isinstance(data, Mapping) or data.get("version") != VERSION:
            return follow
        pairs = data.get("pairs")
        for item in pairs[:MAX_PAIRS] if isinstance(pairs, list) else []:
            if not (isinstance(item, list) and len(item) == 11 and _ids(item[0], item[1])):
                continue
            if (pair := FollowUp.from_list(item[2:])) is not None:
                follow.pairs[(item[0], item[1])] = pair
        follow._index()
        broken = data.get("broken")
        for item in broken[:MAX_PAIRS] if isinstance(broken, list) else []:
            if not isinstance(item, list) or len(item) != 7 or tuple(item[:2]) not in follow.pairs:
                continue
            since, levels, way, counted = parse_time(item[2]), item[3:5], item[5], item[6]
            if since is None or way not in (1, -1) or not all(map(is_stored_number, levels)):
                continue
            if not isinstance(counted, bool):
                continue
            level, extreme = float(levels[0]), float(levels[1])
            waiting = Waiting(item[0], item[1], since, level, extreme, way, counted)
            follow.broken[(item[0], item[1])] = waiting
        for name, on in (("on", True), ("off", False)):
            causes = data.get(name)
            for cause in causes[:MAX_READINGS] if isinstance(causes, list) else []:
                if stored_entity_id(cause) and len(follow._on) < MAX_READINGS:
                    follow._on[cause] = on
        readings = data.get("readings")
        if isinstance(readings, Mapping):
            for effect, value in list(readings.items())[:MAX_PAIRS]:
                if stored_entity_id(effect) and is_stored_number(value):
                    follow.readings[effect] = float(value)
        return follow


def _ids(cause: object, effect: object) -> bool:
    return stored_entity_id(cause) and stored_entity_id(effect)


def _trusted(pair: FollowUp) -> bool:
    """Seen often enough to be judged at all (the judge asks for more, by device)."""
    return pair.direction(MIN_ONSETS_ANY, 0.9) != 0


# The fewest onsets of any pair judged (a cause and effect on one device, ``follow_up_missing``).
MIN_ONSETS_ANY = 5
