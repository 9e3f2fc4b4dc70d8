"""On how many nights each door was used in the small hours, and on how many to go out.

Part of ``UsualUse``. A door or a motion sensor used in the small hours (00-05 local) is
counted once per night (``counted``): a door used at 03:00 on most nights is a toilet
trip, a dog let out, a shift. Beside that count, the nights it was used by somebody *not*
coming home (``going_out``): a door opened within ``COMING_HOME`` after a person came
home is the one coming in (a son back from a Saturday night out at 01:40) and says
nothing about whether anybody here goes *out* at night (his grandmother walking out at
04:55 by the same door is still news).

A person is counted too: the nights they were out at night, leaving home or coming back
from 23:00 to 05:00 (``going_out``). A shift worker off at 03:30 has them within a night
or two, and so has a father back from his evening shift at 23:30; a teenager who is home
every night has none, and her phone leaving at 00:40 is news (``night_outings``). Of
those, the nights out *alone* (``nights_out_alone``): a night out with the whole family
says nothing of her going out on her own while they sleep.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from typing import Any

from .clock import day_number, hour_of_day
from .day_returns import DayReturns
from .nights_out_alone import NightsOutAlone
from .packed import pack, unpack
from .stored_values import stored_per_entity

# The small hours (as ``statistics.night``): 00-05 local.
NIGHT_END_HOUR = 5
# A person leaving or coming home from this hour on was out that night (counted with the
# small hours after it): a father back from his evening shift at 23:30 is out at night.
PERSON_NIGHT_FROM = 23
# A door opened this soon after a person came home is them coming in (a phone's tracker
# reports the arrival a minute or so before the door, as ``night_outings.PRESENCE_NEAR``).
COMING_HOME = timedelta(minutes=15)


def _count(table: dict[str, list[float]], entity_id: str, night: float) -> None:
    used = table.setdefault(entity_id, [0.0, 0.0])  # [nights counted, last night's ordinal]
    if used[1] != night:
        used[0] += 1
        used[1] = night


def coming_home(arrivals: Mapping[str, datetime], when: datetime) -> bool:
    """Whether a person came home within ``COMING_HOME`` before ``when``."""
    return any(timedelta(0) <= when - came <= COMING_HOME for came in arrivals.values())


class NightUses:
    """Per entity: nights used in the small hours, and nights used to go out."""

    def __init__(self, zone: tzinfo | None) -> None:
        self.zone = zone
        self.all: dict[str, list[float]] = {}  # [nights, last night's ordinal]
        self.out: dict[str, list[float]] = {}  # the same, somebody going out
        self.alone = NightsOutAlone(self._night)  # a person's nights out on their own
        self.returns = DayReturns(zone)  # when each person comes home from their outings

    def used(
        self,
        entity_id: str,
        when: datetime,
        *,
        coming_in: bool = False,
        person: bool = False,
        left: bool = False,
    ) -> None:
        """``entity_id`` used (or, a ``person``, ``left`` or came home: from ``PERSON_NIGHT_FROM``
        on) at ``when``: counted when it is in the small hours; a use by somebody
        ``coming_in`` is no night out."""
        hour = hour_of_day(when, self.zone)
        at_night = hour < NIGHT_END_HOUR or (person and hour >= PERSON_NIGHT_FROM)
        if person:
            self.alone.moved(entity_id, when, left=left, at_night=at_night)
            self.returns.moved(entity_id, when, left=left)
        if not at_night:
            return
        night = float(self._night(when))
        _count(self.all, entity_id, night)
        if not coming_in:
            _count(self.out, entity_id, night)

    def nights(
        self, entity_id: str, skip: datetime | None = None, *, going_out: bool = False
    ) -> int:
        """Nights counted (only those going out, with ``going_out``), ``skip``'s night
        left out."""
        used = (self.out if going_out else self.all).get(entity_id)
        if used is None:
            return 0
        tonight = skip is not None and used[1] == self._night(skip)
        return int(used[0]) - (1 if tonight else 0)

    def _night(self, when: datetime) -> int:
        """The night ``when`` is in: its day's, from 23:00 the next day's."""
        return day_number(when + timedelta(hours=24 - PERSON_NIGHT_FROM), self.zone)

    def as_dict(self) -> dict[str, Any]:
        return {
            "nights": {e: pack(used, 0) for e, used in self.all.items()},
            "out_nights": {e: pack(used, 0) for e, used in self.out.items()},
            "alone_nights": {e: pack(used, 0) for e, used in self.alone.nights.items()},
            "day_returns": self.returns.as_dict(),
        }

    def load(self, data: Mapping[str, Any], most: int) -> None:
        """From ``as_dict``'s form. Stored before the nights out were kept, every night of
        use counts as one out (nothing is taken for news that was not before)."""

        def parse(text: object) -> list[float] | None:
            return unpack(text, 2, 0.0, 1e7)

        self.all.update(stored_per_entity(data.get("nights"), most, parse))
        if "out_nights" in data:
            self.out.update(stored_per_entity(data.get("out_nights"), most, parse))
        else:
            self.out.update({e: list(used) for e, used in self.all.items()})
        if "alone_nights" in data:
            self.alone.nights.update(stored_per_entity(data.get("alone_nights"), most, parse))
        else:  # stored before they were kept: every night out counts as one alone
            self.alone.nights.update({e: list(used) for e, used in self.out.items()})
        if isinstance(returns := data.get("day_returns"), Mapping):
            self.returns.load(returns)
