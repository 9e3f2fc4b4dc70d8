"""Contacts used from inside, learned: an appliance's or a cupboard's door, not a way in.

HA gives a fridge's, a microwave's or a dishwasher's contact the class ``door`` (the
default of most contact sensors), the same as the front door's. The away and opening
checks (``entry_unsecured_while_away``, ``unaccompanied_opening``,
``entry_at_an_unused_hour``) take every ``door`` as an entrance, and a fridge opened
three minutes after the household left (the phone's tracker reports the departure before
the last one out has shut the fridge) is told as an entry into an empty home.

How such a door is used tells it from an entrance, whatever its class or name:

- it is opened on most days of use several times (``PER_DAY``): meals, snacks, a cup;
- nearly every stay is short (``SHORT``: a look into the fridge, a plate put away);
- most of its openings come within ``TOGETHER`` of another contact of its own area
  opening (the kitchen's cupboards, fridge and microwave used together while cooking);
- it is seldom the way anybody came or went: few of its openings fall within
  ``WAY_REACH`` of a person's arrival or departure (``WAY_SHARE``).

All four over ``MIN_DAYS`` days of use and ``MIN_OPENS`` openings: a front door is the way
in and out; a back door or balcony door is not used in a burst with the kitchen's cupboards
on most of its openings. A door used from inside that opens while the home is empty shows
somebody inside (the away motion checks judge that), not a way in left open.

The same counts tell the ways the household comes and goes (``came_and_went_by``): a
contact opened within ``WAY_REACH`` of most of the tracked arrivals and departures here
(``WAYS_SHARE`` of them, over ``MIN_CHANGES``). A WC's or a bathroom's door, opened by
whoever is in, whatever the trackers say, comes with a few of them by chance; the house
door with nearly all.

An ``opening`` contact (ZHA's and many makers' class for every contact) says nothing of
what it is; the same counts tell it. Opened briefly nearly every time (``SHORT_SHARE``),
over ``MIN_DAYS`` days and ``DOOR_OPENS`` openings, it is a door shut after each use (a
gate, a fridge, a cupboard: ``shut_after_use``); one open for long stays (a window aired)
is not.

Per contact: [openings, short stays, with another of its area, near a presence change,
days of use, last day of use, presence changes it came with, presence changes counted
since it was first seen]. Bounded (``MAX_CONTACTS``), stored versioned (a version-1 item,
without the last two, reads as none counted yet); stored data is untrusted and a
malformed item is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .clock import day_number
from .first_uses import FirstUses
from .stored_values import is_stored_number, stored_entity_id, stored_items

USED_FROM_INSIDE_VERSION = 1
MAX_CONTACTS = 300
SHORT = timedelta(minutes=2)
TOGETHER = timedelta(minutes=5)
WAY_REACH = timedelta(minutes=15)
MIN_DAYS = 3
MIN_OPENS = 12
PER_DAY = 3.0
SHORT_SHARE = 0.85
TOGETHER_SHARE = 0.5
WAY_SHARE = 0.25
# The ways in and out: a contact opened near this share of the presence changes, over this many.
WAYS_SHARE = 0.5
MIN_CHANGES = 6
# A door shut after use: over this many openings.
DOOR_OPENS = 3
# An inner contact read cold: opened this many times, never near a coming or going.
INNER_OPENS = 2
# A count past this is halved with the others of its contact (the newest weeks weigh).
MAX_COUNT = 2_000.0

_OPENS, _SHORT, _TOGETHER, _WAY, _DAYS, _LAST_DAY, _CAME_WITH, _CHANGES = range(8)
_STORED_LENGTHS = (6, 8)  # version 1 counted no presence changes


class UsedFromInside:
    """Per opening contact: how it is used (counts), to know one used from inside."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.counts: dict[str, list[float]] = {}
        # Not stored: each contact's opening under way, its latest opening (and whether that
        # one was counted with another of its area, and near a presence change), the
        # latest opening per area, and the latest presence change.
        self._open: dict[str, datetime] = {}
        self._latest: dict[str, tuple[datetime, str | None]] = {}
        self._together: set[tuple[str, datetime]] = set()
        self._way: set[tuple[str, datetime]] = set()
        self._presence: datetime | None = None
        self._came_with: set[tuple[str, datetime]] = set()  # (contact, presence change)
        self.first = FirstUses()  # the first uses, read before the days are learned

    def opened(self, entity_id: str, when: datetime, area: str | None) -> None:
        """The contact ``entity_id`` (in ``area``) opened at ``when``."""
        counts = self._counts(entity_id)
        if counts is None:
            return
        counts[_OPENS] += 1
        day = float(day_number(when, self.zone))
        if counts[_LAST_DAY] != day:
            counts[_DAYS] += 1
            counts[_LAST_DAY] = day
        self._open[entity_id] = when
        after = (  # a burst under way: an opening of itself or of its area just before
            when - at <= TOGETHER and (other == entity_id or (area is not None and near == area))
            for other, (at, near) in self._latest.items()
        )
        self.first.opened(entity_id, begins_a_burst=not any(after))
        if area is not None:
            for other, (at, other_area) in self._latest.items():
                if other != entity_id and other_area == area and when - at <= TOGETHER:
                    self._mark(self._together, other, at, _TOGETHER)
                    self._mark(self._together, entity_id, when, _TOGETHER)
        if self._presence is not None and timedelta(0) <= when - self._presence <= WAY_REACH:
            self._mark(self._way, entity_id, when, _WAY)
            self._mark(self._came_with, entity_id, self._presence, _CAME_WITH)
        self._latest[entity_id] = (when, area)
        if len(self._together) + len(self._way) + len(self._came_with) > 4 * MAX_CONTACTS:
            self._forget_marks(when)
        if max(counts[:_DAYS]) > MAX_COUNT:
            for index in range(_DAYS + 1):
                counts[index] = round(counts[index] / 2)

    def closed(self, entity_id: str, when: datetime) -> None:
        """The contact shut at ``when``: a short stay counts as one."""
        opened = self._open.pop(entity_id, None)
        counts = self.counts.get(entity_id)
        if opened is not None:
            self.first.closed(entity_id, when - opened <= SHORT)
        if opened is not None and counts is not None and when - opened <= SHORT:
            counts[_SHORT] += 1

    def presence(self, when: datetime) -> None:
        """Somebody tracked arrived or left at ``when``: contacts opened just before were
        (maybe) the way they came or went."""
        self._presence = when
        for counts in self.counts.values():
            counts[_CHANGES] += 1
            if counts[_CHANGES] > MAX_COUNT:
                counts[_CAME_WITH], counts[_CHANGES] = (
                    round(counts[_CAME_WITH] / 2),
                    round(counts[_CHANGES] / 2),
                )
        for entity_id, (at, _) in self._latest.items():
            if timedelta(0) <= when - at <= WAY_REACH:
                self._mark(self._way, entity_id, at, _WAY)
                self._mark(self._came_with, entity_id, when, _CAME_WITH)

    def used_from_inside(self, entity_id: str) -> bool:
        """Whether ``entity_id`` is used as an appliance's or a cupboard's door here."""
        counts = self.counts.get(entity_id)
        if counts is None:
            return False
        opens, days = counts[_OPENS], counts[_DAYS]
        if days < MIN_DAYS or opens < MIN_OPENS or opens < PER_DAY * days:
            return False
        return (
            counts[_SHORT] >= SHORT_SHARE * opens
            and counts[_TOGETHER] >= TOGETHER_SHARE * opens
            and counts[_WAY] <= WAY_SHARE * opens
        )

    def shut_after_use(self, entity_id: str) -> bool:
        """Whether ``entity_id`` is opened briefly nearly every time and shut again (a
        gate, a fridge, a cupboard; not a window aired): a door, whatever its class."""
        counts = self.counts.get(entity_id)
        if counts is None:
            return False
        opens = self._ended(entity_id, counts)
        if counts[_DAYS] < MIN_DAYS or opens < DOOR_OPENS:
            return False
        return counts[_SHORT] >= SHORT_SHARE * opens

    def _ended(self, entity_id: str, counts: list[float]) -> float:
        # The opening under way is no stay yet: a gate left open would unlearn itself.
        return counts[_OPENS] - (1 if entity_id in self._open else 0)

    def read_cold(self, entity_id: str) -> bool:
        """Before ``used_from_inside`` has its days and openings: whether the first uses
        read as used from inside (``FirstUses``: looks in bursts, never a way)."""
        counts = self.counts.get(entity_id)
        if counts is not None and counts[_DAYS] >= MIN_DAYS and counts[_OPENS] >= MIN_OPENS:
            return False  # learned: ``used_from_inside`` judges it
        return self.first.read_inside(entity_id)

    def came_and_went_by(self, entity_id: str) -> bool:
        """Whether the tracked household comes and goes by ``entity_id`` (the house door,
        not a WC's): it opened near most of the presence changes counted for it."""
        counts = self.counts.get(entity_id)
        if counts is None or counts[_CHANGES] < MIN_CHANGES:
            return False
        return counts[_CAME_WITH] >= WAYS_SHARE * counts[_CHANGES]

    def seldom_a_way(
        self, entity_id: str, skip: datetime | None = None, *, share: float = WAY_SHARE
    ) -> bool:
        """Whether ``entity_id``, used on ``MIN_DAYS`` days or more, was seldom opened near
        a tracked arrival or departure (``WAY_SHARE`` of its openings at most): a bedroom
        door or a drawer, not a gate the household comes and goes by. The opening at
        ``skip`` (the one being judged) is left out: the phone of whoever went out by it,
        leaving minutes later, is no sign of the door's ways before."""
        counts = self.counts.get(entity_id)
        if counts is None or counts[_DAYS] < MIN_DAYS:
            return False
        opens, way = counts[_OPENS], counts[_WAY]
        latest = self._latest.get(entity_id)
        if skip is not None and latest is not None and latest[0] >= skip and opens > 1:
            opens -= 1
            way -= 1 if (entity_id, skip) in self._way else 0
        return way <= share * opens

    def ever_a_way(self, entity_id: str) -> bool:
        """Whether ``entity_id`` was ever opened near a tracked arrival or departure (within
        ``WAY_REACH``): the household may come and go by it."""
        counts = self.counts.get(entity_id)
        return counts is not None and counts[_WAY] > 0

    def never_a_way(self, entity_id: str) -> bool:
        """Whether ``entity_id`` was opened ``INNER_OPENS`` times or more, none of them near
        a tracked arrival or departure (a grandmother's room door, a drawer): in the first
        days, before ``seldom_a_way`` has its days. One opened once near a coming or going
        may be a way in: never read so."""
        counts = self.counts.get(entity_id)
        if counts is None or counts[_WAY] > 0:
            return False
        return self._ended(entity_id, counts) >= INNER_OPENS

    def known(self) -> list[str]:
        """The contacts learned as used from inside (diagnostics)."""
        return sorted(e for e in self.counts if self.used_from_inside(e))

    def _counts(self, entity_id: str) -> list[float] | None:
        counts = self.counts.get(entity_id)
        if counts is None and len(self.counts) < MAX_CONTACTS:
            counts = self.counts[entity_id] = [0.0] * 8
        return counts

    def _mark(
        self, marks: set[tuple[str, datetime]], entity_id: str, at: datetime, index: int
    ) -> None:
        # Each opening counts once, however many others it came with.
        if (entity_id, at) in marks or (counts := self.counts.get(entity_id)) is None:
            return
        marks.add((entity_id, at))
        counts[index] += 1
        if index == _WAY:
            self.first.near_presence(entity_id)

    def _forget_marks(self, now: datetime) -> None:
        reach = max(TOGETHER, WAY_REACH)
        self._together = {m for m in self._together if now - m[1] <= reach}
        self._way = {m for m in self._way if now - m[1] <= reach}
        self._came_with = {m for m in self._came_with if now - m[1] <= reach}

    # --- storage -----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        """JSON-serialisable, versioned form."""
        return {
            "version": USED_FROM_INSIDE_VERSION,
            "contacts": {e: list(counts) for e, counts in self.counts.items()},
        }

    @classmethod
    def from_dict(cls, data: object, zone: tzinfo | None) -> UsedFromInside:
        """Rebuild from stored data; another version or garbage gives an empty one."""
        learned = cls(zone)
        if not isinstance(data, Mapping) or data.get("version") != USED_FROM_INSIDE_VERSION:
            return learned
        for entity_id, numbers in stored_items(data.get("contacts"), MAX_CONTACTS):
            if not stored_entity_id(entity_id) or not isinstance(numbers, list):
                continue
            if len(numbers) in _STORED_LENGTHS and all(
                is_stored_number(n) and n >= 0 for n in numbers
            ):
                learned.counts[entity_id] = [*map(float, numbers), 0.0, 0.0][:8]
        return learned
