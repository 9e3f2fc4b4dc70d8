"""How often, and for how long, each device usually drops off the radio.

A cheap Zigbee mesh, a plug at the edge of the Wi-Fi, a sensor behind a fridge: some
devices go ``unavailable`` for a few minutes several times a day, every day, and are back
by themselves. Learned per device from the recorder's history at set-up and from the
live stream after (``HomeBaselines`` feeds each change): each drop's length (minutes) and
its day, the newest ``KEPT_DROPS``. A drop is a spell ``unavailable`` or ``unknown`` (a
connectivity sensor: ``off``); a blip of seconds never reaches here
(``core/state_blips.py``). The spell under way is remembered (``down_since``), so an
outage longer than the analysis window is still measured from its start.

"It usually drops for at most 6 min" is an upper quantile of the kept lengths
(``usual``), once ``MIN_DROPS`` are known: one long outage among many short drops does not
make itself normal, and a device that never dropped has no such normal (its prior judges,
``core/offline.py``). A device that has dropped, but fewer than ``MIN_DROPS`` times, is
judged by the drops of its own device's other entities (``named_as_one``: a plug's
switch drops with its power meter, one radio), else by the home's drops pooled
(``pooled``: the same mesh drops all its devices alike). ``longest`` is the longest drop
kept of the normal that judges it: a drop no longer than one the device (or the mesh) made
and came back from is not news, however seldom (a mesh whose drops last 1 to 45 minutes
at random). An outage far past the usual teaches slowly: it is kept as at most
``OUTLIER_FACTOR`` times the usual that judges it (its own, else its device's or the
home's: a dead battery for three days must not make three days normal, even on a device
that had dropped too seldom to have a normal of its own; a habit that really grew raises
it again each time).

Bounded (``MAX_ENTITIES``, ``KEPT_DROPS`` each); the stored form is versioned, packed
(``packed.py``), and a damaged part is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
import math
from typing import Any

from ..device_roles import named_as_one
from .clock import day_number, format_time, parse_time
from .packed import pack, unpack
from .stored_values import is_stored_number, stored_per_entity

USUAL_DROPS_VERSION = 1
MAX_ENTITIES = 400
# Drops kept per device (the newest): a fortnight of a device that drops twice a day.
KEPT_DROPS = 24
# Drops needed before the device's drops are its normal.
MIN_DROPS = 3
# "Usually": the upper quantile of the kept lengths.
MOST = 0.8
# The home's drops judge a device with fewer of its own, once this many of this many
# devices are known.
POOL_MIN = 6
POOL_DEVICES = 3
# The longest of the home's drops pooled: this quantile of them.
POOLED_TOP = 0.95
# A drop this many times the usual is kept as that much only.
OUTLIER_FACTOR = 3.0
# A spell longer than this is a gap in the record or a device removed, not a drop.
MAX_DROP = timedelta(days=7)
# The states a device reads while it is away; a connectivity sensor is away when ``off``.
AWAY_STATES = frozenset({"unavailable", "unknown"})
_MAX_MINUTES = MAX_DROP.total_seconds() / 60
# A drop that began this close to a supply going to nothing went with the supply (a Wi-Fi
# device's drop is seen a few minutes after its power went, or before the meter says so).
SUPPLY_LINK = timedelta(minutes=5)


def away_state(state: str, device_class: str | None) -> bool:
    """Whether a device reading ``state`` is off the network."""
    text = state.lower()
    return text in AWAY_STATES or (device_class == "connectivity" and text == "off")


class UsualDrops:
    """Per device: the newest drops (day, minutes), and the drop under way."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        # entity -> [[day ordinal, minutes], ...] oldest first
        self.drops: dict[str, list[list[float]]] = {}
        self.down: dict[str, datetime] = {}  # the drop under way, since when
        self.last: dict[str, float] = {}  # minutes of the last drop, as it was (not capped)
        # Drops that began with a supply loss (``supply_lost``): the one under way, and for
        # each kept drop whether it did (as ``drops``); none of them is the mesh's.
        self.with_supply: set[str] = set()
        self.flags: dict[str, list[bool]] = {}

    # --- learning ----------------------------------------------------------------------

    def went_away(self, entity_id: str, when: datetime) -> None:
        """``entity_id`` stopped reading at ``when`` (a drop begins)."""
        if entity_id in self.down:
            return
        known = self.drops.keys() | self.down.keys()
        if entity_id not in known and len(known) >= MAX_ENTITIES:
            return
        self.down[entity_id] = when

    def supply_lost(self, when: datetime) -> None:
        """A supply went to nothing at ``when``: the drops that began within
        ``SUPPLY_LINK`` of it are the supply's, not the devices' radios."""
        for entity_id, since in self.down.items():
            if abs(since - when) <= SUPPLY_LINK:
                self.with_supply.add(entity_id)

    def came_back(self, entity_id: str, when: datetime) -> None:
        """``entity_id`` reads again at ``when``: the drop under way is learned."""
        since = self.down.pop(entity_id, None)
        supplied = entity_id in self.with_supply
        self.with_supply.discard(entity_id)
        if since is None or not timedelta(0) < when - since <= MAX_DROP:
            return
        minutes = (when - since).total_seconds() / 60
        self.last[entity_id] = round(minutes, 1)
        # Capped by the normal that judges it: its own, else its device's or the home's (a
        # plug's first drops on a mesh of 5-minute drops: its 8-hour outage must not make
        # its own normal 8 hours once it has three drops).
        usual = self.normal(entity_id) or self.pooled()
        if usual is not None:
            minutes = min(minutes, OUTLIER_FACTOR * max(usual[0], 1.0))
        kept = self.drops.setdefault(entity_id, [])
        kept.append([float(day_number(since, self.zone)), round(minutes, 1)])
        earlier = self.flags.pop(entity_id, [])  # one per kept drop, when any is set
        flags = [*([False] * (len(kept) - 1 - len(earlier))), *earlier, supplied]
        del kept[:-KEPT_DROPS]
        if any(flags := flags[-len(kept) :]):
            self.flags[entity_id] = flags

    # --- reading -----------------------------------------------------------------------

    def usual(self, entity_id: str) -> tuple[float, int] | None:
        """(minutes it usually drops for at most, drops learned); None below ``MIN_DROPS``."""
        kept = self.drops.get(entity_id)
        if not kept or len(kept) < MIN_DROPS:
            return None
        lengths = sorted(minutes for _, minutes in kept)
        return lengths[max(0, math.ceil(MOST * len(lengths)) - 1)], len(lengths)

    def normal(self, entity_id: str) -> tuple[float, int, int] | None:
        """(minutes, drops, devices) of the normal that judges its drops: its own
        (``usual``, devices 1), else, for a device that has dropped before, the home's
        (``pooled``); None for a device that never dropped (its prior judges)."""
        own = self.usual(entity_id)
        if own is not None:
            return own[0], own[1], 1
        if (sibling := self._sibling(entity_id)) is not None:
            usual = self.usual(sibling)
            return None if usual is None else (usual[0], usual[1], 1)
        return self.pooled() if self.drops.get(entity_id) else None

    def _sibling(self, entity_id: str) -> str | None:
        """Another entity of its device whose drops are its normal (the same radio)."""
        return next(
            (e for e in self.drops if named_as_one(entity_id, e) and self.usual(e) is not None),
            None,
        )

    def longest(self, entity_id: str, devices: int) -> float:
        """Minutes of the longest kept drop of the normal that judges it (``normal``:
        ``devices`` 1, its own or its device's; more, the home's, whose ``POOLED_TOP``
        quantile: one device's dead battery is not the mesh's drop)."""
        if devices > 1:
            pooled = sorted(m for _, m in self._home_drops())
            return pooled[max(0, math.ceil(POOLED_TOP * len(pooled)) - 1)] if pooled else 0.0
        own = entity_id if self.usual(entity_id) is not None else self._sibling(entity_id)
        kept = [m for _, m in self.drops.get(own or entity_id, ())]
        return max(kept, default=0.0)

    def pooled(self) -> tuple[float, int, int] | None:
        """(minutes most drops of the home's devices last at most, drops, devices), once
        ``POOL_MIN`` drops of ``POOL_DEVICES`` devices are known: a mesh that drops its
        devices for minutes drops each of them so, though one device alone has dropped
        too seldom to have a normal of its own yet."""
        home = self._home_drops()
        lengths = sorted(m for _, m in home)
        devices = len({entity_id for entity_id, _ in home})
        if len(lengths) < POOL_MIN or devices < POOL_DEVICES:
            return None
        return lengths[max(0, math.ceil(MOST * len(lengths)) - 1)], len(lengths), devices

    def _home_drops(self) -> list[tuple[str, float]]:
        """(device, minutes) of every kept drop but those that began with a supply loss:
        a water heater off with the grid for four hours says nothing of how long a door
        contact's radio drops for."""
        return [
            (entity_id, minutes)
            for entity_id, kept in self.drops.items()
            for (_, minutes), supplied in zip(
                kept, self.flags.get(entity_id) or [False] * len(kept), strict=False
            )
            if not supplied
        ]

    def known(self) -> list[str]:
        """The devices whose drops are learned (``MIN_DROPS`` or more)."""
        return [e for e in self.drops if self.usual(e) is not None]

    def most_in_a_day(self, entity_id: str) -> int:
        """The most drops it made on one day among those kept."""
        counts: dict[float, int] = {}
        for day, _ in self.drops.get(entity_id, ()):
            counts[day] = counts.get(day, 0) + 1
        return max(counts.values(), default=0)

    def per_day(self, entity_id: str, now: datetime) -> float:
        """How many drops a day, over the days since the oldest kept one."""
        kept = self.drops.get(entity_id)
        if not kept:
            return 0.0
        days = day_number(now, self.zone) - int(kept[0][0]) + 1
        return len(kept) / max(days, 1)

    def outage_minutes(self, entity_id: str, now: datetime | None) -> float | None:
        """Minutes of the drop under way at ``now``, else of its last drop (None: none)."""
        since = self.down.get(entity_id)
        if since is not None and now is not None and now > since:
            return (now - since).total_seconds() / 60
        return self.last.get(entity_id)

    def down_since(self, entity_id: str) -> datetime | None:
        """When the drop under way began (None: it reads, or was never seen to drop)."""
        return self.down.get(entity_id)

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form: per device its days and its lengths."""
        stored: dict[str, Any] = {
            "version": USUAL_DROPS_VERSION,
            "drops": {
                e: [pack([d for d, _ in kept], 0), pack([m for _, m in kept], 1)]
                for e, kept in self.drops.items()
                if kept
            },
            "down": {e: format_time(when) for e, when in self.down.items()},
            "last": {e: round(minutes, 1) for e, minutes in self.last.items()},
        }
        # Drops with a supply (``supply_lost``): only when there are any (a form stored
        # before them saves the same).
        if supplied := sorted(self.with_supply & self.down.keys()):
            stored["with_supply"] = supplied
        if self.flags:
            stored["flags"] = {e: "".join("01"[f] for f in fs) for e, fs in self.flags.items()}
        return stored

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> UsualDrops:
        """Rebuild from stored data: another version gives a fresh one, a damaged part is
        dropped."""
        usual = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != USUAL_DROPS_VERSION:
            return usual
        usual.drops.update(stored_per_entity(data.get("drops"), MAX_ENTITIES, _kept))
        usual.down.update(stored_per_entity(data.get("down"), MAX_ENTITIES, parse_time))
        usual.last.update(stored_per_entity(data.get("last"), MAX_ENTITIES, _stored_minutes))
        supplied = data.get("with_supply")
        usual.with_supply = {
            e for e in (supplied if isinstance(supplied, list) else []) if e in usual.down
        }
        for entity_id, flags in stored_per_entity(data.get("flags"), MAX_ENTITIES, _flags).items():
            if len(flags) == len(usual.drops.get(entity_id, ())):
                usual.flags[entity_id] = flags
        return usual


def _flags(value: object) -> list[bool] | None:
    if not isinstance(value, str) or not 0 < len(value) <= KEPT_DROPS or set(value) - {"0", "1"}:
        return None
    return [c == "1" for c in value]


def _stored_minutes(value: object) -> float | None:
    if is_stored_number(value) and isinstance(value, int | float):
        return min(max(float(value), 0.0), _MAX_MINUTES)
    return None


def _kept(pair: object) -> list[list[float]] | None:
    """[days text, lengths text] back into (day, minutes) pairs; None when malformed."""
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(t, str) for t in pair):
        return None
    count = len(pair[0].split(","))
    if not 1 <= count <= KEPT_DROPS or len(pair[1].split(",")) != count:
        return None
    days = unpack(pair[0], count, 1.0, 3_652_059.0)
    lengths = unpack(pair[1], count, 0.0, _MAX_MINUTES)
    if days is None or lengths is None:
        return None
    return [[d, m] for d, m in zip(days, lengths, strict=True)]
