"""Cause → effect relations of one area, learned: how often the effect follows, how soon.

Four relations a home shows every day, each stated in HA's vocabulary (domain,
device_class, area; never an entity id's words), between a *cause* and an *effect* in the
same area:

- ``opening_motion``: a door/window/opening contact opens → a motion sensor sees someone;
- ``motion_light``: motion starts → a light comes on (an automation, or a hand);
- ``heating_warms``: a climate entity starts heating → a temperature sensor rises by
  ``RISE`` (the heat arrives);
- ``switch_power``: a switch turns on → a power meter rises by ``POWER_RISE`` (its load draws).

For every (cause, effect) pair the learner counts the cause's onsets whose outcome is
known, how many the effect followed within the relation's reach, and the last
``MAX_DELAYS`` delays. An onset of a *held* cause (a switch, the heating) that ends before
the effect is not counted: the cause stopped too soon to say anything; one still on past
the reach is counted as a miss and still followed (``missed``) while the cause lasts. An onset whose
effect was already there (the light already on) is not counted either. A detector then
trusts only a pair that followed (nearly) every time, over enough onsets
(``expectation``); the onsets still waiting for their effect are ``pending``.

Bounded (``MAX_PAIRS`` pairs, ``MAX_EFFECTS`` effects per cause, counts halved past
``MAX_COUNT``) and stored as a versioned dict; stored data is untrusted and a malformed
part is dropped, never raised.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from ..home import UNAVAILABLE_STATES
from ..models import EntityInfo, parse_number
from .clock import format_time, parse_time, slot_of
from .packed import pack
from .power import watts
from .relation_kinds import (
    HEATING_WARMS,
    MOTION_LIGHT,
    RELATIONS,
    RISE,
    SWITCH_POWER,
    cause_active,
    cause_kind,
    is_effect,
    rise_needed,
)
from .relation_pairs import PairStats, new_pair, stored_pair
from .stored_values import is_stored_number, stored_entity_id, stored_items

__all__ = ["MAX_PAIRS", "PairStats", "Relations"]

RELATIONS_VERSION = 1
MAX_PAIRS = 256
# Per relation, so motion and lights (many per area) never crowd out switches and heating.
MAX_PAIRS_PER_KIND = 64
MAX_EFFECTS = 6
MAX_READINGS = 400
# A reading this close before an onset may already be its effect (the same moment,
# reported in either order): the reading before it is the level to rise from.
SAME_MOMENT = timedelta(seconds=2)


class Relations:
    """Per (cause, effect) pair of one area: onsets, followed, delays; onsets pending."""

    def __init__(self, zone: tzinfo | None = None) -> None:
        self.zone = zone
        self.pairs: dict[tuple[str, str], PairStats] = {}
        # (cause, effect) -> (onset, the effect's reading then: None for a binary effect)
        self.pending: dict[tuple[str, str], tuple[datetime, float | None]] = {}
        # Pending onsets of a held cause already counted as a miss (past their reach, the
        # cause still on): kept, so a detector can follow them as long as the cause lasts.
        self.missed: set[tuple[str, str]] = set()
        # effect -> (last reading, when, the reading before it); power in W
        self.readings: dict[str, tuple[float, datetime, float]] = {}
        self._active: dict[str, bool] = {}
        self._kinds: dict[str, str] = {}  # cause -> its relation
        self._effects: dict[str, list[str]] = {}  # cause -> its effects in the area
        self._effect_ids: frozenset[str] = frozenset()
        self._waiting: dict[str, int] = {}  # effect -> how many onsets wait for it
        self._per_kind: dict[str, int] = {}  # pairs per relation (capped)
        self._full: set[str] = set()
        self._indexed: Mapping[str, EntityInfo] | None = None
        self._indexed_size = 0
        self._next_due: datetime | None = None

    def _index(self, infos: Mapping[str, EntityInfo]) -> None:
        """Which effects each cause has in its area (rebuilt when the entities change)."""
        self._indexed, self._indexed_size = infos, len(infos)
        by_area: dict[str, list[EntityInfo]] = {}
        by_device: dict[str, list[EntityInfo]] = {}
        for info in infos.values():
            if info.area:
                by_area.setdefault(info.area, []).append(info)
            if info.device:  # one physical device (a floodlight and its own motion sensor)
                by_device.setdefault(info.device, []).append(info)
        self._kinds, self._effects = {}, {}
        for info in infos.values():
            kind = cause_kind(info)
            if kind is None:
                continue
            near = [*by_area.get(info.area or "", ()), *by_device.get(info.device or "", ())]
            effects = sorted(
                {
                    other.entity_id
                    for other in near
                    if other.entity_id != info.entity_id and is_effect(kind, other)
                }
            )
            if effects:
                self._kinds[info.entity_id] = kind
                self._effects[info.entity_id] = effects[:MAX_EFFECTS]
        self._effect_ids = frozenset(e for effects in self._effects.values() for e in effects)

    def _wait(self, key: tuple[str, str], onset: datetime, reference: float | None) -> None:
        self.pending[key] = (onset, reference)
        self._waiting[key[1]] = self._waiting.get(key[1], 0) + 1

    def _settle(self, key: tuple[str, str]) -> None:
        del self.pending[key]
        self.missed.discard(key)
        left = self._waiting.get(key[1], 1) - 1
        if left > 0:
            self._waiting[key[1]] = left
        else:
            self._waiting.pop(key[1], None)

    def observe(
        self,
        when: datetime,
        info: EntityInfo,
        state: str,
        infos: Mapping[str, EntityInfo],
        occupied: bool | None = None,
    ) -> None:
        """``info``'s entity changed to ``state`` at ``when`` (time order); ``occupied``:
        someone home (True), everybody away (False) or not known (None)."""
        if infos is not self._indexed or len(infos) != self._indexed_size:
            self._index(infos)  # new entities (the keeper adds those the stream brings)
        if self._next_due is not None and when >= self._next_due:
            self.expire(when)
        if state in UNAVAILABLE_STATES:
            return  # a device coming or going is nobody's doing
        entity_id = info.entity_id
        kind = self._kinds.get(entity_id)
        if kind is not None:
            # Motion in an empty home (a pet, a cleaner) is no onset a motion light owes an
            # answer to: automations often run only while someone is home.
            away = kind == MOTION_LIGHT and occupied is False
            self._cause(when, entity_id, kind, cause_active(kind, state), away)
        if entity_id not in self._effect_ids:
            return
        if info.domain == "sensor":
            value = parse_number(state)
            if value is None:
                return
            if info.device_class == "power" and (value := watts(value, info.unit)) is None:
                return
            last = self.readings.get(entity_id)
            if last is not None or len(self.readings) < MAX_READINGS:
                self.readings[entity_id] = (value, when, value if last is None else last[0])
        elif entity_id in self._active or len(self._active) < MAX_READINGS:
            # A motion sensor is both a cause and an effect: ``_cause`` already set it.
            self._active[entity_id] = state == "on"
        if entity_id in self._waiting:
            self._effect(when, info, state)

    def _cause(
        self, when: datetime, cause: str, kind: str, active: bool, away: bool = False
    ) -> None:
        was = self._active.get(cause)
        self._active[cause] = active
        relation = RELATIONS[kind]
        if not active:
            if relation.held:  # stopped before its effect: nothing learned
                for effect in self._effects[cause]:
                    if (cause, effect) in self.pending:
                        self._settle((cause, effect))
            return
        if was is not False or away:
            return  # first sight, or still active: not an onset seen happening
        for effect in self._effects[cause]:
            key = (cause, effect)
            if key in self.pending:
                continue
            if key not in self.pairs and not self._add_pair(key, new_pair(kind)):
                continue
            if kind in (HEATING_WARMS, SWITCH_POWER):
                reading = self.readings.get(effect)
                if reading is None:
                    continue  # no level to rise from
                value, at, before = reading
                if when - at <= SAME_MOMENT:
                    self._wait(key, when, before)
                    rise = rise_needed(kind, self._indexed[effect]) if self._indexed else RISE
                    self._resolve(key, when, value, self.pairs[key], rise)  # it rose already
                else:
                    self._wait(key, when, value)
            elif self._active.get(effect) is False:  # the effect must not be there already
                self._wait(key, when, None)
            due = when + relation.reach
            self._next_due = due if self._next_due is None else min(self._next_due, due)

    def _add_pair(self, key: tuple[str, str], stats: PairStats) -> bool:
        """Keep a new pair if the caps allow (a full relation refuses at once: no count)."""
        if stats.kind in self._full or len(self.pairs) >= MAX_PAIRS:
            return False
        self.pairs[key] = stats
        self._per_kind[stats.kind] = count = self._per_kind.get(stats.kind, 0) + 1
        if count >= MAX_PAIRS_PER_KIND:
            self._full.add(stats.kind)
        return True

    def _effect(self, when: datetime, info: EntityInfo, state: str) -> None:
        entity_id = info.entity_id
        causes = [cause for cause, effects in self._effects.items() if entity_id in effects]
        for key in [(cause, entity_id) for cause in causes if (cause, entity_id) in self.pending]:
            stats = self.pairs[key]
            if self.pending[key][1] is None:
                if state == "on":
                    self._resolve(key, when, None, stats)
            elif (reading := self.readings.get(entity_id)) is not None:
                self._resolve(key, when, reading[0], stats, rise_needed(stats.kind, info))

    def _resolve(
        self,
        key: tuple[str, str],
        when: datetime,
        value: float | None,
        stats: PairStats,
        rise: float = 0.0,
    ) -> None:
        """The effect is there (a binary one), or ``value`` rose enough from the onset's level."""
        onset, reference = self.pending[key]
        if reference is not None and (value is None or value - reference < rise):
            return
        counted = key in self.missed
        self._settle(key)
        if counted:  # counted already: it came, but too late
            return
        delay = (when - onset).total_seconds()
        reach = RELATIONS[stats.kind].reach.total_seconds()
        self._outcome(stats, onset, delay if delay <= reach else None)

    def _outcome(self, stats: PairStats, onset: datetime, delay: float | None) -> None:
        stats.outcome(delay)
        if stats.hours is not None:
            _, hour, day = slot_of(onset, self.zone)
            stats.hours.outcome(onset, hour, day, delay is not None)

    def expire(self, now: datetime) -> None:
        """Onsets whose reach has passed without their effect: a miss each."""
        self._next_due = None
        for key, (onset, _) in list(self.pending.items()):
            if key in self.missed:
                continue
            stats = self.pairs[key]
            relation = RELATIONS[stats.kind]
            due = onset + relation.reach
            if now >= due:
                self._outcome(stats, onset, None)
                if relation.held:
                    self.missed.add(key)
                else:
                    self._settle(key)
            elif self._next_due is None or due < self._next_due:
                self._next_due = due

    # --- reading -----------------------------------------------------------------------

    def expectation(
        self, cause: str, effect: str, min_onsets: int, min_share: float
    ) -> PairStats | None:
        """The pair's statistics when the effect followed at least ``min_share`` of at
        least ``min_onsets`` onsets before the one now waiting, else None (no expectation)."""
        stats = self.pairs.get((cause, effect))
        if stats is None or not stats.delays:
            return None
        onsets = stats.onsets - ((cause, effect) in self.missed)  # not judged by itself
        if onsets < min_onsets:
            return None
        return stats if stats.followed >= min_share * onsets else None

    def waiting(self, kind: str) -> Iterator[tuple[str, str, datetime, float | None]]:
        """(cause, effect, onset, reference) of every onset of ``kind`` still waiting."""
        for (cause, effect), (onset, reference) in self.pending.items():
            if self.pairs[(cause, effect)].kind == kind:
                yield cause, effect, onset, reference

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {
            "version": RELATIONS_VERSION,
            "pairs": [
                # the delays as one line of text in HA's indented file (``packed.py``)
                [cause, effect, s.kind, s.onsets, s.followed, pack(s.delays or (), 1)]
                + ([s.hours.as_dict()] if s.hours is not None else [])
                for (cause, effect), s in self.pairs.items()
            ],
            "pending": [
                [cause, effect, format_time(onset), reference]
                for (cause, effect), (onset, reference) in self.pending.items()
            ],
            "missed": [list(key) for key in self.missed],
            "active": [entity for entity, on in self._active.items() if on],
            "inactive": [entity for entity, on in self._active.items() if not on],
            "readings": {
                entity: [value, format_time(when), before]
                for entity, (value, when, before) in self.readings.items()
            },
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None = None) -> Relations:
        """Rebuild from stored data; anything malformed is dropped, never raised."""
        relations = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != RELATIONS_VERSION:
            return relations
        pairs = data.get("pairs")
        for item in pairs[:MAX_PAIRS] if isinstance(pairs, list) else []:
            parsed = stored_pair(item)
            if parsed is not None and parsed[0] not in relations.pairs:
                relations._add_pair(*parsed)
        pending = data.get("pending")
        for item in pending[:MAX_PAIRS] if isinstance(pending, list) else []:
            if not isinstance(item, list) or len(item) != 4:
                continue
            key, onset, reference = (item[0], item[1]), parse_time(item[2]), item[3]
            if key not in relations.pairs or onset is None:
                continue
            if reference is None or is_stored_number(reference):
                relations._wait(key, onset, None if reference is None else float(reference))
        missed = data.get("missed")
        for item in missed[:MAX_PAIRS] if isinstance(missed, list) else []:
            if isinstance(item, list) and len(item) == 2 and tuple(item) in relations.pending:
                relations.missed.add((item[0], item[1]))
        for name, on in (("active", True), ("inactive", False)):
            entities = data.get(name)
            for entity in entities[:MAX_READINGS] if isinstance(entities, list) else []:
                if stored_entity_id(entity) and len(relations._active) < MAX_READINGS:
                    relations._active[entity] = on
        for entity, item in stored_items(data.get("readings"), MAX_READINGS):
            if not stored_entity_id(entity) or not isinstance(item, list) or len(item) != 3:
                continue
            value, when, before = item[0], parse_time(item[1]), item[2]
            if when is not None and is_stored_number(value) and is_stored_number(before):
                relations.readings[entity] = (float(value), when, float(before))
        relations._next_due = min(
            (onset for key, (onset, _) in relations.pending.items() if key not in relations.missed),
            default=None,
        )
        return relations
