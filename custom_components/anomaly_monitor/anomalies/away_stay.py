"""Somebody untracked in the home while everybody tracked is away: one situation, told once.

Guests of a holiday let with a keypad code, a carer, a cleaner, a teenager without a
phone tracker: once the homeowner has been told that somebody is in the home while
nobody is (motion, a door unlocked), every later sign of the same stay (motion in another
room an hour later, the door unlocked again as they go out for lunch) is that stay, not
news. Each closed and opened again as a new anomaly, one weekend of guests rang the
phone fifty times. An anomaly that is a sign of presence while away (``STAY_RULES``)
opening while such a stay is going on (one was told in this away spell, and signs of it
were found less than ``STAY_GAP`` ago) is shown, not told (like ``reopening``), and it
keeps the stay's acknowledgement.

What ends a stay: somebody tracked coming home, the home quiet for ``STAY_GAP`` (the next
signs are another story: a break-in the night after the guests left is told). Stored with
the tracker (``already_told``): a restart does not end it. Never a safety hazard, a
window opened while away (how a burglar comes in, whoever is inside), a kind of sign
not told yet for the stay (an entry after motion alone, perhaps a pet: ``core.episodes``;
motion after a door told unlocked: somebody came in, ``core.escalation``) or anything
graver than what was told for the stay; a sign shown so that such a finding joins later
(a window forced minutes after the guests' door was unlocked) is told then (``broke_out``).

Once the homeowner acknowledged the stay (one of its signs, open or ended), a milder
security finding about an entry already shown for it is that stay too ("the back door
opened with nobody seen", 18 minutes into a break-in the homeowner had acknowledged, set
3). A new kind of sign is still told: a door acknowledged as left unlocked, then motion
inside, is somebody coming in.

A stay is held going by its own signs: somebody moving inside, an entrance told or shown
for it (a door opened again as the guests go out). An entry's anomaly only staying open
(motion joined to it, a door still unlocked) is no new use of a way in: else a break-in
told at 11:20 and acknowledged, kept open by the rooms it went through, held the nanny's
key in the front door at 15:18 as "the same break-in" (set 20). An entry by another way
in than the stay's, more than ``VISIT_REACH`` after the stay's last entry, is somebody
else arriving: told on its own (whether it is pushed is the away judge's matter).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..core.baselines.away_spans import STILL_ABOUT, VISIT_REACH
from ..core.models import AnomalyType
from .open_anomaly import OpenAnomaly, rank
from .told_times import stored_time

# Signs that somebody is inside while everybody tracked is away.
STAY_RULES = frozenset(
    {
        "motion_while_away",
        "activity_while_away",
        "entry_unsecured_while_away",
        "appliance_active_while_away",  # the guests' shower runs the well pump
    }
)
# Signs that say only that an appliance runs: no sign that anybody is in.
LEFT_ON_RULES = frozenset({"appliance_active_while_away"})
# Signs of somebody moving about inside.
MOVING_RULES = frozenset({"motion_while_away", "activity_while_away"})
# A home quiet this long since the last sign: the stay is over...
STAY_GAP = timedelta(hours=4)
# ...unless its last signs were somebody moving inside and no entrance was used since:
# the guests slept, and whoever moves in the morning is who was inside (up to this long).
STAY_NIGHT = timedelta(hours=14)


def is_stay_sign(anomaly: OpenAnomaly) -> bool:
    """An anomaly that only says somebody is in the home while nobody tracked is."""
    return (
        anomaly.while_away
        and not anomaly.hazard
        and bool(anomaly.rules)
        and all(rule in STAY_RULES for rule in anomaly.rules)
    )


def _left_on(anomaly: OpenAnomaly) -> bool:
    """Only an appliance running while away (left on, a timer): it keeps a stay of
    appliances going, never one of people (an air conditioner left on all weekend would
    hold a break-in that night as the stay's)."""
    return all(rule in LEFT_ON_RULES for rule in anomaly.rules)


def _person(value: object) -> datetime | None:
    return None if value is None else stored_time(value)


def _kinds(anomaly: OpenAnomaly) -> set[str]:
    return {m.anomaly_type for m in anomaly.members}


def _came_in(anomaly: OpenAnomaly) -> bool:
    """An entry told with its door opening (a contact, not a lock alone): whoever opened
    it came in, and their moving about inside is the same stay."""
    return any(
        m.anomaly_type == AnomalyType.SECURITY
        and any(e.partition(".")[0] == "binary_sensor" for e in m.evidence)
        for m in anomaly.members
    )


def _another_entry(anomaly: OpenAnomaly) -> bool:
    """An entry the learned away normal counts as one more from outside in this empty
    spell (``away_judge.judge_entry``: nobody it knows inside opened it)."""
    return any(
        m.anomaly_type == AnomalyType.SECURITY and (m.magnitude or 0.0) > 1.0
        for m in anomaly.members
    )


def _ways_in(anomaly: OpenAnomaly) -> set[str]:
    """The entrances the entry findings of ``anomaly`` are about (their subject: the door
    or its lock; the motion they cite is no way in): the way somebody came in."""
    return {
        m.subject or anomaly.subject
        for m in anomaly.members
        if m.anomaly_type == AnomalyType.SECURITY
    }


def _moving_only(anomaly: OpenAnomaly) -> bool:
    """Only somebody moving (motion, activity): what whoever slept there does in the
    morning. An appliance switching on after the night may be a timer: the 4 h gap judges."""
    return all(rule in MOVING_RULES for rule in anomaly.rules)


def _inside_only(anomalies: Iterable[OpenAnomaly]) -> bool:
    """Signs of somebody moving inside, no entrance used among them."""
    kinds = {k for a in anomalies for k in _kinds(a)}
    return bool(kinds) and kinds <= {AnomalyType.OCCUPANCY_MISMATCH}


@dataclass(slots=True)
class _Stay:
    told_at: datetime
    last_sign: datetime
    severity: int
    acknowledged: bool
    # The kinds of sign told for it (an entry, somebody moving inside): motion alone
    # (perhaps a pet) hides no door opening after it, and a door left unlocked hides no
    # motion hours later (somebody came in: ``core.escalation``'s intrusion, told once).
    kinds: set[str]
    # Its last signs were only somebody moving inside (nobody went out by an entrance).
    inside: bool = False
    # The entities its signs showed (an entry told for it).
    entities: set[str] = field(default_factory=set)
    # The last sign of people (not an appliance running): what a sign of people continues.
    last_person: datetime | None = None
    # The last time an entrance was part of its signs: a visitor inside keeps moving
    # (a pet too), but an entrance opened hours after its last use is somebody else.
    last_entry: datetime | None = None
    # The ways in its entries used: another one, past a visit's reach, is another arrival.
    ways_in: set[str] = field(default_factory=set)
    # The last time one of its signs was somebody moving inside (found now, not only open).
    last_moving: datetime | None = None

    def entered(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """An entrance told or shown for the stay now: a new use of a way in."""
        if ways := _ways_in(anomaly):
            self.last_entry = now
            self.ways_in |= ways


def _about_its_entry(anomaly: OpenAnomaly, stay: _Stay) -> bool:
    """A security finding, no hazard, only about entities the acknowledged stay showed."""
    shown = set(anomaly.shown_evidence)
    return (
        stay.acknowledged
        and not anomaly.hazard
        and anomaly.anomaly_type == AnomalyType.SECURITY
        and bool(shown)
        and shown <= stay.entities
    )


def _another_way_in(anomaly: OpenAnomaly, stay: _Stay, now: datetime) -> bool:
    """An entry by a way in the stay's entries did not use, past a visit's reach from
    its last entry: somebody else arriving (the household, a carer, a second intruder).
    Not while the stay's visitor still moves about (``STILL_ABOUT``): whoever is inside
    opens the balcony door to hang the washing."""
    ways = _ways_in(anomaly)
    moving = stay.last_moving is not None and now - stay.last_moving <= STILL_ABOUT
    return (
        bool(ways)
        and stay.last_entry is not None
        and now - stay.last_entry > VISIT_REACH
        and not ways <= stay.ways_in
        and not moving
    )


class AwayStays:
    """The stay of somebody untracked going on now, if one was told."""

    def __init__(self) -> None:
        self._stay: _Stay | None = None
        # The anomalies shown, not told, as signs of the stay.
        self._quiet: set[str] = set()

    def continues(self, anomaly: OpenAnomaly, now: datetime) -> bool | None:
        """Whether ``anomaly`` (just opened) is a further sign of the stay already told;
        None when it is not (then it is told). True: acknowledged with the stay."""
        stay = self._stay
        if stay is None:
            return None
        sign = is_stay_sign(anomaly)
        if not sign and not _about_its_entry(anomaly, stay):
            return None
        person = not _left_on(anomaly)
        last = stay.last_person if person else stay.last_sign
        if last is None:
            return None  # only appliances so far: somebody inside is news
        quiet = now - last
        slept = stay.inside and _moving_only(anomaly) and quiet <= STAY_NIGHT
        if (quiet > STAY_GAP and not slept) or rank(anomaly.severity) > stay.severity:
            return None
        if not _kinds(anomaly) <= stay.kinds:
            return None
        if _another_entry(anomaly) and stay.last_entry and now - stay.last_entry > STAY_GAP:
            return None  # a new arrival: the cat moving all evening kept no visitor in
        if _another_way_in(anomaly, stay, now):
            return None  # somebody else arriving, not the visit going in and out
        stay.entered(anomaly, now)
        stay.last_sign = now
        if person:
            stay.last_person = now
        if sign:  # another finding joining it is news (``broke_out``)
            self._quiet.add(anomaly.signature)
        return stay.acknowledged

    def broke_out(self, anomaly: OpenAnomaly) -> bool:
        """Whether ``anomaly``, shown as a sign of the stay, is no longer only that (a window
        opened while away joined it): then it must be told."""
        if anomaly.signature not in self._quiet or is_stay_sign(anomaly):
            return False
        self._quiet.discard(anomaly.signature)
        return True

    def observe(
        self, open_now: Iterable[OpenAnomaly], told: Iterable[OpenAnomaly], now: datetime
    ) -> None:
        """After an analysis: the stay's signs still open (and newly told) keep it going."""
        signs = [a for a in open_now if is_stay_sign(a)]
        self._quiet &= {a.signature for a in signs}
        stay = self._stay
        if stay is not None and now - stay.last_sign > (STAY_NIGHT if stay.inside else STAY_GAP):
            stay = self._stay = None
        for anomaly in told:
            if is_stay_sign(anomaly):
                if stay is None:
                    stay = self._stay = _Stay(now, now, rank(anomaly.severity), False, set())
                stay.severity = max(stay.severity, rank(anomaly.severity))
                stay.kinds |= _kinds(anomaly)
                if _came_in(anomaly):
                    stay.kinds.add(AnomalyType.OCCUPANCY_MISMATCH)
            if stay is not None and (is_stay_sign(anomaly) or _about_its_entry(anomaly, stay)):
                stay.entered(anomaly, now)  # told, or shown as the stay's: a way in used now
        if stay is not None and signs:
            stay.last_sign = now
            if people := [a for a in signs if not _left_on(a)]:
                stay.last_person = now
                stay.inside = _inside_only(people)  # an appliance says nothing of who
            stay.entities.update(e for a in signs for e in a.shown_evidence)
            if any(m.active and m.rule in MOVING_RULES for a in signs for m in a.members):
                stay.last_moving = now
            stay.acknowledged = stay.acknowledged or any(a.acknowledged for a in signs)

    def acknowledged(self, anomaly: OpenAnomaly) -> None:
        """The homeowner acknowledged ``anomaly`` (perhaps ended): if a sign of the stay
        going on, the stay is acknowledged."""
        if self._stay is not None and is_stay_sign(anomaly):
            self._stay.acknowledged = True

    def end(self) -> None:
        """Somebody tracked is home: the next signs while away are another stay."""
        self._stay = None
        self._quiet.clear()

    def as_dict(self) -> dict[str, Any]:
        """The stored form (``already_told``)."""
        stay = self._stay
        if stay is None:
            return {}
        return {
            "told_at": stay.told_at.isoformat(),
            "last_sign": stay.last_sign.isoformat(),
            "severity": stay.severity,
            "acknowledged": stay.acknowledged,
            "kinds": sorted(stay.kinds),
            "inside": stay.inside,
            "entities": sorted(stay.entities),
            "last_person": stay.last_person.isoformat() if stay.last_person else None,
            "last_entry": stay.last_entry.isoformat() if stay.last_entry else None,
            "ways_in": sorted(stay.ways_in),
            "last_moving": stay.last_moving.isoformat() if stay.last_moving else None,
            "quiet": sorted(self._quiet),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AwayStays:
        """Rebuild the stored form; a wrong shape raises ``ValueError``/``TypeError``."""
        stays = cls()
        if not data:
            return stays
        severity, acknowledged = data["severity"], data["acknowledged"]
        if not isinstance(severity, int) or not isinstance(acknowledged, bool):
            raise TypeError("stay")
        kinds, quiet = data["kinds"], data["quiet"]
        entities, ways_in = data.get("entities", []), data.get("ways_in", [])
        if not all(isinstance(v, str) for v in (*kinds, *quiet, *entities, *ways_in)):
            raise TypeError("stay")
        stays._stay = _Stay(
            stored_time(data["told_at"]),
            stored_time(data["last_sign"]),
            severity,
            acknowledged,
            set(kinds),
            data.get("inside") is True,
            set(entities),
            # Stored before it was kept: the last sign was a person's, as it was read then.
            _person(data.get("last_person", data["last_sign"])),
            _person(data.get("last_entry")),  # stored before it was kept: no bound
            set(ways_in),  # stored before they were kept: the next entry's way is another
            _person(data.get("last_moving")),
        )
        stays._quiet = set(quiet)
        return stays
