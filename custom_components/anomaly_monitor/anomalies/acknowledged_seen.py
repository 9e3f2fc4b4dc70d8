"""What an acknowledged problem was, and what it holds as its own consequences.

An acknowledged problem also holds its own consequences (``Seen.follows``, sets 1, 5, 7,
8, 9, 10: the CO alarm acknowledged, then the terrace door opened to air the room out
"left open"; the tank overflowing, then the pump that fills it "on far longer than
usual"; the forced window, then the back door the intruder left by): a new anomaly, no
hazard and no graver, whose subject changed (a door opened, a switch turned on) since the
acknowledged one began, while it lasted, in its area or on its device, or anywhere within
``RESPONSE`` of the onset of an acknowledged hazard or entry (of a stillness of the whole
home, "Nobody up yet", from when it was told: nothing done before answers nobody moving).
Never a sign of somebody inside, nor a finding "while nobody is home" held by anything but
an entry while nobody is home (an entry while a leak is acknowledged is told), nor a
reading that merely moves (a thermometer's last change says nothing of when it began).
A door opened within ``RESPONSE`` of a hazard's onset and shut within ``airing.AIRING``
after it was over is its answer too (the CO aired out: blind set 17), and a hazard the
homeowner called a false alarm holds its answers so (``dismissed``: set 16's frying pans).
A meter cut (no draw, unchanged since) within ``RESPONSE`` of a hazard's onset is such a
change (set 13: the dehumidifier unplugged 3 min after its smoke), held after the smoke
cleared too, and before the hazard is acknowledged (``hazard_answer``): in the hazard's
room, or elsewhere when its meter moved as the hazard began. A steady load in another room
switched off then (a mattress pump 75 s after the kitchen's smoke: walk 32) is told. After
a hazard, its sensor's reading going off is held; a device going offline is told (in
another room, whenever it dropped off: walk 54b's smoke detector, 33 s before the leak).
A device fault acknowledged holds no such changes: nobody answers it by opening doors. While
it is open, an acknowledged problem (a device gone offline excepted) also holds a reading
of its area going off (``reading_consequence``: the cooler's thermometer after its
compressor stopped). An acknowledged door left open (``LEFT_OPEN_RULES``) is no entry:
nobody answers it by opening another door (walk 37: the fridge door acknowledged, the
front door opened 14 min later and left open was never shown).
Stored with the hold (``acknowledged_hold``) as ``Seen.as_stored``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..core.device_roles import named_as_one
from ..core.escalation import INTRUSION_RULES
from ..core.home import OCCUPANCY_DEVICE_CLASSES
from ..core.models import (
    AnomalyType,
    EntityState,
    Severity,
    Transition,
    entity_domain,
    parse_number,
)
from ..core.open_states import is_opening
from ..core.state_blips import is_no_state
from ..core.stillness import WHOLE_HOME_STILLNESS
from ..core.verdict import about_a_whole
from .airing import aired_hazard, aired_out, held_open_to_air
from .meter_cut import cut_meter
from .not_working import gone_offline
from .open_anomaly import OpenAnomaly
from .store import parse_time
from .told_times import stored_time

# A device's own report of a fault is news whatever it follows: no answer to a hazard
# makes a lock say it jammed.
OWN_REPORTS = frozenset({"lock_jammed"})

# A security event (told anew each time: a new opening is a new event).
SECURITY = AnomalyType.SECURITY
# What the household does in answer to a hazard, or an intruder after an entry, happens
# within this of its onset (the door opened to air out the CO, the intruder leaving by the
# back door): anywhere in the home.
RESPONSE = timedelta(minutes=15)
# What a door left open is told by (not an entry: an opening event).
LEFT_OPEN_RULES = frozenset({"entry_left_open", "state_longer_than_usual"})
# Somebody lying still in a room: the stillness whose end is the rescue at its door.
STILL_IN_A_ROOM = "still_in_room_far_longer"
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
    # When first told, and its kind (``None``/"" in an older memory: no consequences).
    began: datetime | None = None
    anomaly_type: str = ""
    while_away: bool = False
    # A hazard whose evidence read another word since (the smoke cleared): it holds only
    # what the household did while it lasted (``follows``).
    over: bool = False
    # Acknowledged after it ended: when (it holds for ``HOLD`` from then).
    answered: datetime | None = None
    roomless: bool = False  # a stillness of the whole home: no room is its own
    left_open: bool = False  # a door left open: no entry
    # Somebody lying still in a room (``still_in_room_far_longer``): its end is somebody
    # coming, who opens the door of that room next (``_rescue``).
    in_a_room: bool = False

    def as_stored(self) -> dict[str, Any]:
        """The stored form (its signature is the key)."""
        return {
            "subject": self.subject,
            "evidence": sorted(self.evidence),
            "rank": self.rank,
            "ended": self.ended.isoformat(),
            "words": [list(w) for w in self.words],
            "hazard": self.hazard,
            "began": self.began.isoformat() if self.began else None,
            "anomaly_type": self.anomaly_type,
            "while_away": self.while_away,
            "over": self.over,
            "answered": self.answered.isoformat() if self.answered else None,
        }

    @classmethod
    def from_stored(cls, signature: str, v: Mapping[str, Any]) -> Seen:
        """One stored; a wrong shape raises ``ValueError``/``TypeError``."""
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
        rule = signature.partition(":")[0]  # the rule its incident opened with
        return cls(
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
            roomless=rule == WHOLE_HOME_STILLNESS,
            left_open=rule in LEFT_OPEN_RULES,
            in_a_room=rule == STILL_IN_A_ROOM,
        )

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
            and severity_rank(anomaly.severity) <= self.rank
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
            or severity_rank(anomaly.severity) > self.rank
            or (away_answer and not self.hazard)
            or any(rule in INTRUSION_RULES or rule in OWN_REPORTS for rule in anomaly.rules)
            or anomaly.anomaly_type == AnomalyType.OCCUPANCY_MISMATCH
        ):
            return False
        subject = entities.get(anomaly.subject)
        if subject is None or subject.last_changed is None:
            return False
        if gone_offline(anomaly) and not self._near(subject, entities):
            return False  # a device gone offline elsewhere: its own fault (walk 54b)
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
            and (self._near(subject, entities) or self._on_the_way(subject, entities))
            else self.began
        )
        # Nobody moving anywhere is answered once it is told: what changed before (a door
        # read afresh as HA started, two minutes before "Nobody up yet") is the home's own.
        earliest = began if self.roomless else began - _LEAD
        if not earliest <= changed <= self.ended:
            # Opened in answer, shut once the hazard was over: the home aired (``airing``);
            # or open already, held open against smoke or gas.
            answer = (earliest, self.began + RESPONSE)
            return self.hazard and (
                aired_out(subject, transitions, answer, self.ended)
                or (
                    now is not None
                    and not anomaly.while_away
                    and aired_hazard((self.subject, *self.evidence), entities)
                    and held_open_to_air(subject, self.began, self.ended, now)
                )
                or self._rescue(anomaly, subject)
            )
        if cut:  # the device unplugged after its smoke: cut since, within RESPONSE
            return changed <= self.began + RESPONSE and (
                self._near(subject, entities) or _moved(subject, transitions, began, changed)
            )
        if self.hazard or (self.anomaly_type == SECURITY and not self.left_open):
            # The answer to a hazard or an entry (airing out, leaving by a door): opened
            # within RESPONSE of its onset, though shut again since (told "was open"). A
            # door left open is no entry: nobody answers it by opening another door.
            times = [changed, *(t.when for t in transitions if t.entity_id == subject.entity_id)]
            if any(earliest <= t <= self.began + RESPONSE for t in times):
                return True
        near = self._near(subject, entities)
        if response and self.hazard and near and set(anomaly.rules) <= LEFT_OPEN_RULES:
            # A door of the hazard's own room opened while it sounded and left open: held
            # open for it (the bathroom door opened to a burst hose 15 min on, the water
            # mopped out). A door *opened* there long after the onset is told (an entry).
            return True
        return not (away_answer or response) and near

    def _rescue(self, anomaly: OpenAnomaly, subject: EntityState) -> bool:
        """The door of the room somebody lay still in (one it showed: the way they went
        in), opened within ``RESPONSE`` after the stillness ended and left open: whoever
        came found them there (set 35 c: the mother home at 11:49, the bathroom door open
        at 11:52 and left so, was told "left open" as news a quarter of an hour later).
        Another door of the home opened then is told as ever."""
        changed = subject.last_changed
        return (
            self.in_a_room
            and subject.entity_id in self.evidence
            and set(anomaly.rules) <= LEFT_OPEN_RULES
            and changed is not None
            and self.ended < changed <= self.ended + RESPONSE
        )

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

    def _on_the_way(self, subject: EntityState, entities: Mapping[str, EntityState]) -> bool:
        """An opening moved within ``_LEAD`` before somebody lay still in a room (its
        onset), with a motion sensor changed after it (they walked on): the way they went,
        wherever it is (her bedroom's door, opened a minute before she shut herself in the
        bathroom where she fell: set 15). The stillness shows its own room's door only
        (walk 42), so the door she left by is in no area it shows. One moved then with
        nothing moving after it (a window opened elsewhere) is not hers."""
        moved = subject.last_changed
        if not self.in_a_room or self.began is None or moved is None:
            return False
        if not is_opening(subject.domain, subject.info.device_class):
            return False
        onset = self._onset(self.began, entities)
        return onset - _LEAD <= moved <= onset and any(
            s.domain == "binary_sensor"
            and s.info.device_class in OCCUPANCY_DEVICE_CLASSES
            and s.last_changed is not None
            and moved < s.last_changed <= self.began
            for s in entities.values()
        )

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
    (a dehumidifier drawing with the smoke, unplugged minutes on), not a steady load
    elsewhere switched off (a mattress pump: its notice only a line in the smoke's)."""
    return any(
        t.entity_id == meter.entity_id and began - _LEAD <= t.when < cut for t in transitions
    )


def reads_still(state: str | None, word: str) -> bool:
    """Reads ``word`` still, or nothing to judge by (a radio drop is not a change)."""
    return state is None or is_no_state(state) or state.strip().lower() == word


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
        severity_rank(anomaly.severity),
        when,
        words,
        anomaly.hazard,
        parse_time(anomaly.first_seen),
        anomaly.anomaly_type,
        anomaly.while_away,
        roomless=WHOLE_HOME_STILLNESS in anomaly.rules,
        left_open=anomaly.signature.partition(":")[0] in LEFT_OPEN_RULES,
        in_a_room=STILL_IN_A_ROOM in anomaly.rules and WHOLE_HOME_STILLNESS not in anomaly.rules,
    )


def severity_rank(severity: str) -> int:
    return Severity(severity).rank if severity in Severity.__members__.values() else 0


def _still_reading(anomaly: OpenAnomaly) -> bool:
    """A sensor's reading going off (a thermometer drifting), not a device gone offline
    nor a detector's fault: after a hazard, the hazard's own doing."""
    return entity_domain(anomaly.subject) == "sensor" and not gone_offline(anomaly)
