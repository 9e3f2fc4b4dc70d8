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
A device fault acknowledged holds, past ``HOLD`` and its switch turned off and on again,
as long as its meter has not drawn since (``not_working``: the pump not mended).

Its consequences (what the household did about it) are held by
``acknowledged_seen.Seen.follows``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from ..core.baselines.away_habits import APPLIANCE_RULES
from ..core.models import (
    AnomalyType,
    EntityState,
    Transition,
)
from .acknowledged_seen import (
    SECURITY,
    Seen,
    reads_still,
    seen_as,
    severity_rank,
)
from .not_working import NotWorking, gone_offline
from .open_anomaly import OpenAnomaly
from .reading_consequence import reading_consequence
from .store import parse_time
from .told_times import stored_time

# How long after an acknowledged anomaly ended the same problem stays acknowledged (the
# heating that fails in the morning is still the failure the homeowner saw in the evening).
HOLD = timedelta(hours=12)
# Told anew each time: a new opening or movement is a new event, not the acknowledged one.
_TOLD_ANEW = frozenset({SECURITY, AnomalyType.OCCUPANCY_MISMATCH})


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
        self.not_working = NotWorking()  # stored apart by ``already_told``

    def ended(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """``anomaly`` is over at ``now``: kept if the homeowner had acknowledged it.
        Over since its detector read clear, not since its hysteresis confirmed that (a
        detector's hazard waits a quarter of an hour: ``DETECTOR_CLEAR_AFTER``)."""
        if anomaly.acknowledged and anomaly.shown_evidence:
            since = parse_time(anomaly.missing_since) if anomaly.hazard else None
            self.seen[anomaly.signature] = seen_as(anomaly, min(since or now, now))
            self.not_working.follow(anomaly)

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
            self.not_working.follow(anomaly)

    def watch(
        self, states: Mapping[str, str], entities: Mapping[str, EntityState] | None = None
    ) -> None:
        """An analysis reads ``states``: an ended one whose evidence reads another word
        really ended, unless it is a device fault not mended since (``entities``:
        its meter still at rest, ``not_working``)."""
        if entities is not None:
            self.not_working.watch(entities)
        seen = {}
        for signature, v in self.seen.items():
            if signature in self.not_working or all(
                reads_still(states.get(e), w) for e, w in v.words
            ):
                seen[signature] = v
            elif v.hazard and v.began is not None:  # what was done about it still follows it
                seen[signature] = replace(v, over=True)
        self.seen = seen
        self.not_working.retain(seen)

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
        self.seen = {
            s: v for s, v in self.seen.items() if now - v.held_from < HOLD or s in self.not_working
        }
        shown = set(anomaly.shown_evidence)
        if not shown or anomaly.hazard:
            return False
        acknowledged = [
            seen_as(a, now)
            for a in open_now
            if a.acknowledged and a.signature != anomaly.signature and a.shown_evidence
        ]
        # A device fault not mended since holds the fault, not the device going offline.
        offline = gone_offline(anomaly)
        every = (
            *acknowledged,
            *(v for s, v in self.seen.items() if not (offline and s in self.not_working)),
        )
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
            s.rank >= severity_rank(anomaly.severity)
            and not s.offline
            and reading_consequence(anomaly, s.evidence, entities)
            for s in acknowledged  # open: while it lasts
        ):
            return True
        return any(s.follows(anomaly, entities, transitions, now=now) for s in every)

    def as_dict(self) -> dict[str, Any]:
        """The stored form: signature -> what was acknowledged, and when it ended."""
        return {signature: v.as_stored() for signature, v in self.seen.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AcknowledgedHold:
        """Rebuild the stored form; a wrong shape raises ``ValueError``/``TypeError``."""
        hold = cls()
        for signature, v in data.items():
            hold.seen[signature] = Seen.from_stored(signature, v)
        return hold
