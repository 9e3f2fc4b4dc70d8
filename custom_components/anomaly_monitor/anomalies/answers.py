"""The homeowner's answers to the anomalies told: acknowledge, false alarm, the marks.

"Acknowledge" keeps an anomaly open and stops asking (an ended one is forgotten). "False
alarm" closes it: on a safety hazard (``core.feedback.is_hazard``) for this occurrence
only, else with one mark per rule that told it (``core.feedback``), and the occurrence
remembered so that no other rule tells it again (``marked_occurrence``). Marks are listed,
removed and cleared one false alarm at a time (every mark it left). An anomaly over for
longer than its repair issue lasts (``past``: the notification read days later) still
takes both answers, through the public actions (``actions/answer.py``). One acknowledged
and over since is forgotten; acknowledging it again (its notice read on another screen,
or a second finding told in it) is an answer already taken, not an unknown id
(``answered``: set 32 Leicester, the walk-out told in the open "front door on the latch"
notice, acknowledged at 05:40, then the latch by the same id at 06:30). Mixed into
``tracker.AnomalyTracker``, which holds the anomalies and writes them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.util import dt as dt_util

from ..core.feedback import FalseAlarm, FalseAlarms
from .already_told import AlreadyTold
from .incident_parts import parts_of
from .open_anomaly import OpenAnomaly, anomaly_key
from .reopening import RecentlyOver
from .unmarked import MarkedTold

# An acknowledgement is remembered this long (as long as an anomaly over is answerable).
ANSWERED_FOR = timedelta(days=7)


class HomeownerAnswers:
    """What the homeowner said about the anomalies (``AnomalyTracker``'s state)."""

    # Short id -> when the homeowner acknowledged it, and what it named (not stored: a
    # restart forgets).
    _acknowledged_at: dict[str, tuple[datetime, tuple[str, ...]]]

    open: dict[str, OpenAnomaly]
    dismissed: dict[str, OpenAnomaly]
    ended: dict[str, OpenAnomaly]
    # Over, told and not answered, past ``FEEDBACK_AFTER_END``: no repair issue any more,
    # still answerable by its id (``tracker.ANSWERABLE_FOR``).
    past: dict[str, OpenAnomaly]
    false_alarms: FalseAlarms
    already_told: AlreadyTold
    recently_over: RecentlyOver
    marked_told: MarkedTold
    # Somebody was known home at the latest analysis (a false alarm judged with the home
    # empty covers "while nobody is home": ``marked_occurrence``).
    someone_home: bool

    def _schedule_save(self) -> None:
        raise NotImplementedError

    def by_key(self, key: str) -> OpenAnomaly | None:
        """The open anomaly with this short id."""
        return next((a for a in self.open.values() if a.key == key), None)

    def ended_by_key(self, key: str) -> OpenAnomaly | None:
        """The ended anomaly, still taking feedback, with this short id (its repair issue
        shown, or gone and the anomaly kept in ``past``)."""
        over = (*self.ended.values(), *self.past.values())
        return next((a for a in over if a.key == key), None)

    def _drop_over(self, anomaly: OpenAnomaly) -> None:
        """An ended anomaly answered: no longer kept for feedback."""
        self.ended.pop(anomaly.signature, None)
        self.past.pop(anomaly.signature, None)

    def answered(self, key: str) -> tuple[str, ...] | None:
        """What the anomaly with this short id named (its subject and shown evidence), if
        it was acknowledged within ``ANSWERED_FOR``; else None."""
        found = self._acknowledged_at.get(key)
        if found is None or dt_util.utcnow() - found[0] >= ANSWERED_FOR:
            return None
        return found[1]

    def _remember_acknowledged(self, anomaly: OpenAnomaly) -> None:
        now = dt_util.utcnow()
        kept = self._acknowledged_at
        self._acknowledged_at = {k: v for k, v in kept.items() if now - v[0] < ANSWERED_FOR}
        named = tuple(dict.fromkeys((anomaly.subject, *anomaly.shown_evidence)))
        self._acknowledged_at[anomaly.key] = (now, named)

    def acknowledge(self, key: str) -> OpenAnomaly | None:
        """The homeowner has seen it: keep it open, stop asking (ended: forget it)."""
        if (anomaly := self.by_key(key)) is not None:
            anomaly.acknowledged = True
        elif (anomaly := self.ended_by_key(key)) is not None:
            self._drop_over(anomaly)
        if anomaly is not None:
            self._remember_acknowledged(anomaly)
            self.already_told.acknowledged(anomaly, dt_util.utcnow())
            self._answer_parts(anomaly)
            self._schedule_save()
        return anomaly

    def parts(self, anomaly: OpenAnomaly) -> list[OpenAnomaly]:
        """What was shown as its consequence (its heat, a device cut after its smoke) or
        in its notification (``incident_parts``), open or over; not one that stands alone
        since (``incident_parts.orphans``: it outlasted the incident and has its own
        notice): a false alarm given on "Nobody up yet" an hour after it ended took the
        fridge door and the lock told on their own since (walk 37)."""
        signatures = {*self.already_told.consequences(anomaly.signature)}
        signatures |= {a.signature for a in parts_of(anomaly.signature, self._all())}
        return [
            a
            for s in sorted(signatures)
            if (a := self.open.get(s) or self.ended.get(s) or self.past.get(s))
            and a.part_of == anomaly.signature
        ]

    def _all(self) -> list[OpenAnomaly]:
        return [*self.open.values(), *self.ended.values(), *self.past.values()]

    def _answer_parts(self, anomaly: OpenAnomaly) -> None:
        """The homeowner answered ``anomaly``: what it showed as its parts is answered
        with it, acknowledged (an open one is told again only if graver); an over one
        leaves no reminder."""
        for part in self.parts(anomaly):
            if part.signature in self.open:
                part.acknowledged = True
            else:
                self._drop_over(part)
            self.already_told.acknowledged(part, dt_util.utcnow())

    def notice_dismissed(self, key: str) -> OpenAnomaly | None:
        """The homeowner dismissed its notification: read, not written again at a restart."""
        anomaly = self.by_key(key) or next((a for a in self.ended.values() if a.key == key), None)
        if anomaly is not None and not anomaly.notice_dismissed:
            anomaly.notice_dismissed = True
            self._schedule_save()
        return anomaly

    def mark_false_alarm(self, key: str) -> OpenAnomaly | None:
        """Close the anomaly: a hazard for this occurrence only, else with marks. An
        ended one leaves its marks too; an ended hazard has no occurrence to dismiss."""
        if (anomaly := self.by_key(key)) is not None:
            del self.open[anomaly.signature]
        elif (anomaly := self.ended_by_key(key)) is not None:
            self._drop_over(anomaly)
        else:
            return None
        if anomaly.hazard:
            if anomaly.ended is None:
                self.dismissed[anomaly.signature] = anomaly
            # Answered: the door opened to air it out is still its answer (``airing``).
            self.already_told.acknowledged_hold.dismissed(anomaly, dt_util.utcnow())
        else:  # every rule that told this incident: none tells it again
            now = dt_util.utcnow()
            for mark in anomaly.false_alarms(now):
                self.false_alarms.add(mark)
            # Nor another rule this occurrence (``marked_occurrence``).
            self.already_told.marked_occurrences.marked_false(
                anomaly, now, empty=not self.someone_home
            )
            self.marked_told.marked(anomaly, now)  # taken back while it lasts: shown
        # Its parts are what the household did about it, or its devices: not marked (a
        # false smoke alarm says nothing of the door opened in answer), answered with it.
        self._answer_parts(anomaly)
        self._schedule_save()
        return anomaly

    def marks(self) -> list[FalseAlarm]:
        """One mark per false alarm the homeowner made, newest first: the one on the rule
        the incident opened with (``marked_with`` gives the others)."""
        groups = self._mark_groups()
        return sorted(
            (marks[0] for marks in groups.values()),
            key=lambda m: m.marked_at or "",
            reverse=True,
        )

    def marked_with(self, mark: FalseAlarm) -> list[FalseAlarm]:
        """Every mark the false alarm of ``mark`` left (one per rule of its incident)."""
        return self._mark_groups().get(mark_key(mark), [mark])

    def _mark_groups(self) -> dict[str, list[FalseAlarm]]:
        groups: dict[str, list[FalseAlarm]] = {}
        for signature in sorted(self.false_alarms):
            mark = self.false_alarms[signature]
            group = groups.setdefault(mark_key(mark), [])
            if signature == mark.incident:
                group.insert(0, mark)  # the rule the incident opened with leads
            else:
                group.append(mark)
        return groups

    def remove_mark(self, key: str) -> FalseAlarm | None:
        """Forget the false alarm with this short id (every mark it left): its pattern is
        reported again. The id of one rule's mark (older versions listed those) works too."""
        removed = [
            self.false_alarms.remove(signature)
            for signature, mark in list(self.false_alarms.items())
            if key in (mark_key(mark), anomaly_key(signature))
        ]
        occurrences = self.already_told.marked_occurrences.marked
        for mark in removed:
            if mark is not None:
                occurrences.pop(mark.incident or mark.signature, None)
        taken_back = [m.incident or m.signature for m in removed if m is not None]
        self.marked_told.unmarked(taken_back, self.recently_over, dt_util.utcnow())
        if removed:
            self._schedule_save()
        return removed[0] if removed else None

    def clear_false_alarms(self) -> None:
        """Forget every false-alarm mark."""
        self.false_alarms.clear()
        self.already_told.marked_occurrences.marked.clear()
        self._schedule_save()


def mark_key(mark: FalseAlarm) -> str:
    """Short id of the false alarm that left ``mark`` (its incident's anomaly id)."""
    return anomaly_key(mark.incident or mark.signature)
