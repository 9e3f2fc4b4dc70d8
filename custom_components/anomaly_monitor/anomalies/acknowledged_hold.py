"""An acknowledged problem is not told again under another rule's name.

Held-out set 3 (issue 27): the boiler locked out, the hallway stayed cold, the homeowner
acknowledged "heating not warming" at 07:20, and was told four times more that day: "room
colder than kept" on the same thermostat and thermometer, then "heating not warming" again
after it had closed for a while. One failure, acknowledged, told five times.

A new anomaly whose shown evidence is all within an acknowledged anomaly's (open, or
ended less than ``HOLD`` ago), no more severe, opens acknowledged: it is shown, not
pushed, like an anomaly that reopens (``reopening``). An ended one whose evidence reads
another word since (the window it was about closed, the thermostat switched off) really
ended: the next time is news. A reading that only drifts (the hall cooling on) does not
end it. Never so for a safety hazard, nor
for a security event or motion while away: the door opening again is a new event, told
("Opened again"), whatever was acknowledged before (a meter drawing on is none).
Stored with the tracker (``already_told``): a restart does not forget an acknowledgement.

An acknowledged hazard holds too, what is no hazard itself (set 5: the hot-water
cylinder's thermostat stuck, "water left running" acknowledged, then "running far longer
than usual" on the same switch and its power meter, pushed), but never a device going
offline (a smoke detector that drops out after its smoke was acknowledged is told). One
acknowledged after it ended (the homeowner read it late) holds as one acknowledged before
its end, for ``HOLD`` from the answer (read two days on, it still keeps the trouble it
names quiet: set 27's water heater element, its switch on since, drawing again).
An appliance acknowledged drawing while nobody is home holds the same load drawing while
away again (``APPLIANCE_RULES``: a load left on is no sign of anybody inside), as long as
its switch reads as it did; a switch turned off since ends it (``watch``).
An entity named as one device with an acknowledged one
(``core.device_roles.named_as_one``: the switch and its power meter) is within its
evidence, its subject too (the heat pump's alarm acknowledged, then the heat pump idling: set 9).

An acknowledged problem also holds its own consequences (``Seen.follows``, sets 1, 5, 7,
8, 9, 10: the CO alarm acknowledged, then the terrace door opened to air the room out
"left open"; the tank overflowing, then the pump that fills it "on far longer than
usual"; the forced window, then the back door the intruder left by): a new anomaly, no
hazard and no graver, whose subject changed (a door opened, a switch turned on) since the
acknowledged one began, while it lasted, in its area or on its device, or anywhere within
``RESPONSE`` of the onset of an acknowledged hazard or entry. Never a sign of somebody
inside, nor a finding "while nobody is home" held by anything but an entry while nobody
is home (an entry while a leak is acknowledged is told), nor a reading that merely moves
(a thermometer's last change says nothing of when it began).
A door opened within ``RESPONSE`` of a hazard's onset and shut within ``airing.AIRING``
after it was over is its answer too (the CO aired out: blind set 17), and a hazard the
homeowner called a false alarm holds its answers so (``dismissed``: set 16's frying pans).
A meter cut (no draw, unchanged since) within ``RESPONSE`` of a hazard's onset is such a
change (set 13: the dehumidifier unplugged 3 min after its smoke), held after the smoke
cleared too, and before the hazard is acknowledged (``hazard_answer``): in the hazard's
room, or elsewhere when its meter moved as the hazard began (the dehumidifier drawing
486 W with its smoke, the detector in the corridor). A steady load in another room
switched off then (the bedroom's mattress pump, 75 s after the kitchen's smoke: walk of
session 32) is told. After a
hazard, its sensor's reading going off is held; a device going offline is told.
A device fault acknowledged holds no such changes: nobody answers it by opening doors. While
it is open, an acknowledged problem (a device gone offline excepted) also holds a reading
of its area going off (``reading_consequence``: the cooler's thermometer after its
compressor stopped).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ..core.baselines.away_habits import APPLIANCE_RULES
from ..core.baselines.drop_judge import DROP_RULES
from ..core.device_roles import named_as_one
from ..core.escalation import INTRUSION_RULES
from ..core.models import (
    AnomalyType,
    EntityState,
    Severity,
    Transition,
    entity_domain,
    parse_number,
)
from ..core.state_blips import is_no_state
from ..core.verdict import about_a_whole
from .airing import aired_hazard, aired_out, held_open_to_air
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly
from .reading_consequence import reading_consequence
from .store import parse_time
from .told_times import stored_time

# How long after an acknowledged anomaly ended the same problem stays acknowledged (the
# heating that fails in the morning is still the failure the homeowner saw in the evening).
HOLD = timedelta(hours=12)
# Told anew each time: a new opening or movement is a new event, not the acknowledged one.
SECURITY = AnomalyType.SECURITY
_TOLD_ANEW = frozenset({SECURITY, AnomalyType.OCCUPANCY_MISMATCH})
# What the household does in answer to a hazard, or an intruder after an entry, happens
# within this of its onset (the door opened to air out the CO, the intruder leaving by the
# back door): anywhere in the home.
RESPONSE = timedelta(minutes=15)
# What a door left open is told by (not an entry: an opening event).
LEFT_OPEN_RULES = frozenset({"entry_left_open", "state_longer_than_usual"})
# A change this much before the onset was told is the same start (the pump switched on
# with the overflow it causes, found in the same analysis or the one before).
_LEAD = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Seen:
    subject: str
    evidence: frozenset[str]
    rank: int
    ended: datetime
    # Its evidence's word states when it ended (a number may drift: not kept).
    words: tuple[tuple[str, str], ...] = ()

    hazard: bool = False
    # When it was first told, and the kind it was (``None``/"" in an older memory: it
    # holds no consequences).
    began: datetime | None = None
    anomaly_type: str = ""
    while_away: bool = False
    # A hazard whose evidence read another word since (the smoke cleared): it holds no
    # more of the same, only what the household did while it lasted (``follows``).
    over: bool = False
    # Acknowledged after it ended: when (it holds for ``HOLD`` from then).
    answered: datetime | None = None
    # A stillness of the whole home (nobody moving anywhere): no room is its own.
    roomless: bool = False

    @property
    def held_from(self) -> datetime:
        """Since when it holds: its end, or the homeowner's later answer."""
        return max(self.ended, self.answered) if self.answered else self.ended

    @property
    def load_while_away(self) -> bool:
        """A load drawing while nobody is home, acknowledged (its rule is its kind)."""
        return self.anomaly_type == AnomalyType.OCCUPANCY_MISMATCH and self.while_away

    def holds(self, anomaly: OpenAnomaly, shown: set[str]) -> bool:
        """About the same thing (each one's subject in the other's evidence, or one
        device's), nothing shown that this one did not show (but the same device's), no
        graver; after a hazard, no device going offline."""
        if self.over or (
            self.hazard
            and anomaly.anomaly_type == AnomalyType.DEVICE_MALFUNCTION
            and not _still_reading(anomaly)
        ):
            return False
        # The home as a whole is no device: what it showed is (the radiator it showed).
        about = anomaly.subject if about_a_whole(self.subject) else self.subject
        # About the same room or home as a whole as this one (its loads within this one's).
        same_whole = about_a_whole(self.subject) and anomaly.subject == self.subject
        return (
            all(self._within(e) for e in shown)
            and (same_whole or self._within(anomaly.subject))
            and (same_whole or any(e == about or named_as_one(e, about) for e in shown))
            and _rank(anomaly.severity) <= self.rank
        )

    @property
    def offline(self) -> bool:
        """Its evidence read no state (a device gone offline): it has no consequences."""
        return any(is_no_state(w) for _, w in self.words)

    def follows(
        self,
        anomaly: OpenAnomaly,
        entities: Mapping[str, EntityState],
        transitions: Sequence[Transition] = (),
        *,
        response: bool = False,
        now: datetime | None = None,
    ) -> bool:
        """``anomaly`` (new, no hazard) is this acknowledged problem's consequence: its
        subject changed within ``RESPONSE`` of this one's onset, or (not ``response``:
        only that) later while this lasted in its area or on its device; no graver, no
        sign of somebody inside. ``now``: an opening open since before a hazard aired out
        is held while it lasts and ``airing.AIRING`` after (``held_open_to_air``)."""
        # "While nobody is home" only answers a hazard (somebody the trackers do not
        # know, a neighbour, the fire brigade) or follows an entry while away.
        away_answer = anomaly.while_away and not self._entry_while_away
        if (
            self.began is None
            or self.anomaly_type in (AnomalyType.DEVICE_MALFUNCTION, "")
            or _rank(anomaly.severity) > self.rank
            or (away_answer and not self.hazard)
            or any(rule in INTRUSION_RULES for rule in anomaly.rules)
            or anomaly.anomaly_type == AnomalyType.OCCUPANCY_MISMATCH
        ):
            return False
        subject = entities.get(anomaly.subject)
        if subject is None or subject.last_changed is None:
            return False
        cut = self.hazard and cut_meter(subject)
        if subject.number is not None and not cut:
            return False  # a reading's last change is not when its problem began
        changed = subject.last_changed
        # In a hazard's own room, its story began before it was found (the door she
        # left open on her way to the bathroom where she fell: set 15). A stillness of
        # the whole home has no room of its own: every room is "near" it (walk 37: the
        # fridge door left open before "Nobody up yet" was held as its answer); one last
        # seen in a room (set 15's) has.
        began = (
            self._onset(self.began, entities)
            if self.hazard
            and not away_answer
            and not self.roomless
            and self._near(subject, entities)
            else self.began
        )
        if not began - _LEAD <= changed <= self.ended:
            # Opened in answer, shut once the hazard was over: the home aired (``airing``);
            # or open already, held open against smoke or gas.
            answer = (began - _LEAD, self.began + RESPONSE)
            return self.hazard and (
                aired_out(subject, transitions, answer, self.ended)
                or (
                    now is not None
                    and not anomaly.while_away
                    and aired_hazard((self.subject, *self.evidence), entities)
                    and held_open_to_air(subject, self.began, self.ended, now)
                )
            )
        if cut:  # the device unplugged after its smoke: cut since, within RESPONSE
            return changed <= self.began + RESPONSE and (
                self._near(subject, entities) or _moved(subject, transitions, began, changed)
            )
        if self.hazard or self.anomaly_type == SECURITY:
            # The answer to a hazard or an entry (airing out, leaving by a door): opened
            # within RESPONSE of its onset, though shut again since (told "was open").
            times = [changed, *(t.when for t in transitions if t.entity_id == subject.entity_id)]
            if any(began - _LEAD <= t <= self.began + RESPONSE for t in times):
                return True
        near = self._near(subject, entities)
        if response and self.hazard and near and set(anomaly.rules) <= LEFT_OPEN_RULES:
            # A door of the hazard's own room opened while it sounded and left open: held
            # open for it (the bathroom door opened to a burst hose 15 min on, the water
            # mopped out). A door *opened* there long after the onset is told (an entry).
            return True
        return not (away_answer or response) and near

    @property
    def _entry_while_away(self) -> bool:
        """An entry while nobody is home: what follows it while away is its episode."""
        return self.anomaly_type == SECURITY and self.while_away

    def _onset(self, found: datetime, entities: Mapping[str, EntityState]) -> datetime:
        """When this problem (``found`` then) began: the last change before it was found
        of a device it shows (the person last seen, the door shut behind them)."""
        before = [
            state.last_changed
            for entity_id in self.evidence
            if (state := entities.get(entity_id)) is not None
            and state.last_changed is not None
            and state.last_changed <= found
        ]
        return max(before, default=found)

    def _near(self, subject: EntityState, entities: Mapping[str, EntityState]) -> bool:
        """In the area of, or one device with, an entity this one showed."""
        for entity_id in self.evidence:
            if named_as_one(entity_id, subject.entity_id):
                return True
            other = entities.get(entity_id)
            if other is None:
                continue
            if subject.info.area and other.info.area == subject.info.area:
                return True
            if subject.info.device and other.info.device == subject.info.device:
                return True
        return False

    def _within(self, entity_id: str) -> bool:
        return entity_id in self.evidence or any(named_as_one(entity_id, e) for e in self.evidence)


def _moved(
    meter: EntityState, transitions: Sequence[Transition], began: datetime, cut: datetime
) -> bool:
    """``meter`` changed as the hazard began, before its cut: the device acting up with it
    (set 13: the dehumidifier drawing 486 W with the corridor's smoke, unplugged 3 min on),
    not a steady load elsewhere switched off (walk of session 32: the bedroom's mattress
    pump, off 75 s after the kitchen's smoke, its notice only a line in the smoke's)."""
    return any(
        t.entity_id == meter.entity_id and began - _LEAD <= t.when < cut for t in transitions
    )


def _reads(state: str | None, word: str) -> bool:
    """Reads ``word`` still, or nothing to judge by (a radio drop is not a change)."""
    return state is None or is_no_state(state) or state.strip().lower() == word


# The rule of a stillness of the whole home (its signature's rule, as stored).
_ROOMLESS = "no_movement_while_home"


def seen_as(anomaly: OpenAnomaly, when: datetime) -> Seen:
    words = tuple(
        (e, v.strip().lower()) for e, v in anomaly.readings.items() if parse_number(v) is None
    )
    # About the home or an area, all it showed while it lasted: its evidence drifts.
    shown = {*anomaly.shown_evidence}
    if about_a_whole(anomaly.subject):
        shown.update(e for m in anomaly.members for e in m.evidence if e not in m.context)
    return Seen(
        anomaly.subject,
        frozenset(shown),
        _rank(anomaly.severity),
        when,
        words,
        anomaly.hazard,
        parse_time(anomaly.first_seen),
        anomaly.anomaly_type,
        anomaly.while_away,
        roomless=_ROOMLESS in anomaly.rules,
    )


def _rank(severity: str) -> int:
    return Severity(severity).rank if severity in Severity.__members__.values() else 0


def _still_reading(anomaly: OpenAnomaly) -> bool:
    """A sensor's reading going off (a thermometer drifting), not a device gone offline
    nor a detector's fault: after a hazard, the hazard's own doing."""
    return entity_domain(anomaly.subject) == "sensor" and not any(
        rule in DROP_RULES for rule in anomaly.rules
    )


def _a_reading(anomaly: OpenAnomaly, entities: Mapping[str, EntityState] | None) -> bool:
    """``anomaly`` is about a device that reads a number (a meter, not a door)."""
    state = entities.get(anomaly.subject) if entities is not None else None
    return state is not None and state.number is not None


def may_be_held(anomaly: OpenAnomaly) -> bool:
    """A new anomaly that an acknowledged one may hold: never a hazard."""
    return not anomaly.hazard and (
        anomaly.anomaly_type not in _TOLD_ANEW or _load_while_away(anomaly)
    )


def _load_while_away(anomaly: OpenAnomaly) -> bool:
    """Only a load drawing while nobody is home (and at an odd hour: walk of session 34,
    the kettle's "drawing at hours it never draws" joined it): no sign of anybody inside."""
    return any(m.rule in APPLIANCE_RULES for m in anomaly.members) and all(
        m.rule in APPLIANCE_RULES or m.anomaly_type == AnomalyType.ENERGY for m in anomaly.members
    )


class AcknowledgedHold:
    """The acknowledged anomalies that ended within ``HOLD``."""

    def __init__(self) -> None:
        self.seen: dict[str, Seen] = {}

    def ended(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """``anomaly`` is over at ``now``: kept if the homeowner had acknowledged it.
        Over since its detector read clear, not since its hysteresis confirmed that (a
        detector's hazard waits a quarter of an hour: ``DETECTOR_CLEAR_AFTER``)."""
        if anomaly.acknowledged and anomaly.shown_evidence:
            since = parse_time(anomaly.missing_since) if anomaly.hazard else None
            self.seen[anomaly.signature] = seen_as(anomaly, min(since or now, now))

    def dismissed(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """A hazard the homeowner called a false alarm (the frying pan's smoke), at
        ``now`` and again once it is over: what the household did about it still follows
        it (the door opened to air it out: ``follows``), and nothing else does (smoke again
        is told)."""
        if anomaly.hazard and anomaly.shown_evidence:
            ended = parse_time(anomaly.ended) or now  # over before it was marked: then
            self.seen[anomaly.signature] = replace(seen_as(anomaly, ended), over=True)

    def acknowledged_after_end(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """``anomaly`` had ended when the homeowner acknowledged it at ``now`` (read
        late): it holds its successors as if acknowledged before its end, counted from
        the answer."""
        try:
            ended = stored_time(anomaly.ended)
        except (TypeError, ValueError):
            return
        if anomaly.shown_evidence:
            self.seen[anomaly.signature] = replace(seen_as(anomaly, ended), answered=now)

    def watch(self, states: Mapping[str, str]) -> None:
        """An analysis reads ``states``: an ended one whose evidence reads another word
        really ended."""
        seen = {}
        for signature, v in self.seen.items():
            if all(_reads(states.get(e), w) for e, w in v.words):
                seen[signature] = v
            elif v.hazard and v.began is not None:  # what was done about it still follows it
                seen[signature] = replace(v, over=True)
        self.seen = seen

    def covers(
        self,
        anomaly: OpenAnomaly,
        open_now: Iterable[OpenAnomaly],
        now: datetime,
        entities: Mapping[str, EntityState] | None = None,
        transitions: Sequence[Transition] = (),
    ) -> bool:
        """``anomaly`` (just opened) is a problem the homeowner already acknowledged, or
        its consequence (``entities``: the watched entities now, ``transitions``: the
        analysed window's changes; without entities, none)."""
        self.seen = {s: v for s, v in self.seen.items() if now - v.held_from < HOLD}
        shown = set(anomaly.shown_evidence)
        if not shown or anomaly.hazard:
            return False
        acknowledged = [
            seen_as(a, now)
            for a in open_now
            if a.acknowledged and a.signature != anomaly.signature and a.shown_evidence
        ]
        every = (*acknowledged, *self.seen.values())
        # A meter drawing on is no new opening or movement: an appliance acknowledged
        # drawing while nobody is home holds the same meter drawing on.
        reading = _a_reading(anomaly, entities)
        load = _load_while_away(anomaly)
        if may_be_held(anomaly) and any(
            s.holds(anomaly, shown)
            for s in every
            if reading or s.anomaly_type not in _TOLD_ANEW or (load and s.load_while_away)
        ):
            return True
        if entities is None:
            return False
        if any(
            s.rank >= _rank(anomaly.severity)
            and not s.offline
            and reading_consequence(anomaly, s.evidence, entities)
            for s in acknowledged  # open: while it lasts
        ):
            return True
        return any(s.follows(anomaly, entities, transitions, now=now) for s in every)

    def as_dict(self) -> dict[str, Any]:
        """The stored form: signature -> what was acknowledged, and when it ended."""
        return {
            signature: {
                "subject": v.subject,
                "evidence": sorted(v.evidence),
                "rank": v.rank,
                "ended": v.ended.isoformat(),
                "words": [list(w) for w in v.words],
                "hazard": v.hazard,
                "began": v.began.isoformat() if v.began else None,
                "anomaly_type": v.anomaly_type,
                "while_away": v.while_away,
                "over": v.over,
                "answered": v.answered.isoformat() if v.answered else None,
            }
            for signature, v in self.seen.items()
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AcknowledgedHold:
        """Rebuild the stored form; a wrong shape raises ``ValueError``/``TypeError``."""
        hold = cls()
        for signature, v in data.items():
            subject, evidence, rank_ = v["subject"], v["evidence"], v["rank"]
            words = tuple((e, w) for e, w in v["words"])
            texts = (signature, subject, *evidence, *(t for pair in words for t in pair))
            # Missing in a memory stored before it was kept: a hazard then (a device going
            # offline after an acknowledged hazard is told rather than held).
            hazard = v.get("hazard", True)
            # Missing before consequences were held: it holds none.
            kind, away = v.get("anomaly_type", ""), v.get("while_away", False)
            over = v.get("over", False)
            began, answered = v.get("began"), v.get("answered")
            if (
                not all(isinstance(t, str) for t in (*texts, kind))
                or not isinstance(rank_, int)
                or not isinstance(hazard, bool)
                or not isinstance(away, bool)
                or not isinstance(over, bool)
            ):
                raise TypeError("acknowledged hold")
            hold.seen[signature] = Seen(
                subject,
                frozenset(evidence),
                rank_,
                stored_time(v["ended"]),
                words,
                hazard,
                stored_time(began) if began is not None else None,
                kind,
                away,
                over,
                stored_time(answered) if answered is not None else None,
                roomless=signature.partition(":")[0] == _ROOMLESS,
            )
        return hold
