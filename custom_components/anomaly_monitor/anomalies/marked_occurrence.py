"""An occurrence called a false alarm is not told again by another rule.

Held-out set 9: the driveway gate stood open behind the last car out, "opened while
nobody was home" was marked a false alarm at 08:05, and at 09:24 another rule pushed the
same opening of 07:40 ("no motion sensor saw anybody"). A mark covers the rules that told
the incident (``core.feedback``); the homeowner judged the *occurrence*, whatever rule
sees it next.

So a false alarm (never on a safety hazard) also remembers the occurrence: its subject,
its kind, how grave it was, the devices it showed, whether it was about nobody being
home, and the word its subject read then. For at most ``OCCURRENCE_HOLD`` a finding no
graver and no hazard is the occurrence already judged, dropped like a marked one:
- once it is over (the subject reads another word: the gate shut), until the subject
  reads that word anew (opened again: a new occurrence), one of the same kind about the
  same subject, told late;
- while it goes on, one about the devices it showed, none of which changed since the
  homeowner answered: the same situation, whatever rule sees it and however its degree
  grows. The walk of session 17: "Front door lock not locked by its usual time" called a
  false alarm at 45 min late was found again at 76 and 91 min (lateness grows while it
  lasts), and "Front door unlocked while everyone sleeps" told the same unlocked lock
  14 min after. "False alarm" meant tonight. A meter's reading that only drifts (2,040 W,
  then 2,065 W: ``evidence_hold.reads_as``) has not changed (set 14: a washer heating
  for hours called a false alarm at 17:00, told again at 17:31 as drawing at unusual
  hours). The household leaving since (a finding about nobody being home, where the
  marked one was not) is another situation, and a graver finding is news. Each rule's
  mark still judges later occurrences by its degree.
  But a homeowner who answered while nobody was home (``empty``) judged the occurrence
  with the home empty: "open while nobody is home" about the same unchanged door, graver
  only by that (high, no sign of somebody inside), is what was judged (set 14: the back
  slider "left open", called a false alarm at 09:00 with everybody out, pushed again at
  10:15 as "open while nobody is home").
  A device that reads a number and goes on the way the finding says it is off, never
  back since the mark, is the occurrence going on too (set 17: the roof tank told
  falling fast at 26 %, called a false alarm, then "far below anything it read" at 19 %,
  then 8 % past midnight: rationed water running down, one occurrence). While every
  device it showed goes one way so, the memory lasts ``ONE_WAY_HOLD``; back to where it
  read when marked (the washer at rest, drawing again; the tank refilled), or off the
  other way, is news.
Stored with the tracker (``already_told``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ..core.feedback import is_hazard
from ..core.models import EntityState, Finding, Severity, Transition, parse_number
from ..core.state_blips import is_no_state
from .evidence_hold import reads_as
from .open_anomaly import OpenAnomaly, rank
from .told_times import stored_time

# The same occurrence, told late by another rule, is told within hours (set 9: 79 min).
OCCURRENCE_HOLD = timedelta(hours=12)
# A reading that goes on one way since the mark (a rationed roof tank running down over a
# day and a half, a battery draining) is the occurrence judged while it does, this long.
ONE_WAY_HOLD = timedelta(days=3)
# The gravest a finding about an unchanged device is made by nobody being home (a sign of
# somebody inside is critical).
_AWAY_RANK = Severity.HIGH.rank


@dataclass(frozen=True, slots=True)
class _Marked:
    subject: str
    anomaly_type: str
    rank: int
    marked: datetime
    word: str  # what the subject read when marked ("" when it read a number or nothing)
    # The devices it showed, and whether it was about nobody being home (stored before
    # session 18: the subject alone, not about nobody being home).
    evidence: tuple[str, ...] = ()
    away: bool = False
    # What each device it showed read when marked; one read another word since (locked,
    # then unlocked again): the occurrence changed, and no longer goes on unchanged.
    readings: tuple[tuple[str, str], ...] = ()
    changed: bool = False
    # Nobody was home when the homeowner answered (stored before session 22: not known).
    empty: bool = False
    # The least and the most each device it showed that reads a number read since the
    # mark (from its marked reading): which way it went since (stored before session 24:
    # from the load on).
    spans: tuple[tuple[str, float, float], ...] = ()

    def judged(self, finding: Finding) -> bool:
        """As grave as what the homeowner judged: no graver, or graver only by nobody
        being home when the home was empty as they answered (high at most)."""
        if finding.severity.rank <= self.rank:
            return True
        return self.empty and finding.while_away and finding.severity.rank <= _AWAY_RANK


class MarkedOccurrences:
    """The occurrences called false alarms within ``OCCURRENCE_HOLD``."""

    def __init__(self) -> None:
        self.marked: dict[str, _Marked] = {}

    def marked_false(self, anomaly: OpenAnomaly, now: datetime, empty: bool = False) -> None:
        """``anomaly`` (no hazard) was called a false alarm at ``now`` (``empty``: with
        nobody home)."""
        if anomaly.hazard:
            return
        word = anomaly.readings.get(anomaly.subject, "")  # as last found
        readings = tuple(
            (e, r.strip().lower())
            for e, r in anomaly.readings.items()
            if e in anomaly.shown_evidence and not is_no_state(r)
        )
        self.marked[anomaly.signature] = _Marked(
            anomaly.subject,
            anomaly.anomaly_type,
            rank(anomaly.severity),
            now,
            word.strip().lower() if word and parse_number(word) is None else "",
            tuple(anomaly.shown_evidence) or (anomaly.subject,),
            anomaly.while_away,
            readings,
            empty=empty,
            spans=_spans_of(readings),
        )

    def watch(
        self,
        entities: Mapping[str, EntityState],
        now: datetime,
        transitions: Sequence[Transition] = (),
    ) -> None:
        """The subject read its marked word anew since the mark (opened again): a new
        occurrence; a device it showed read another word: changed; and the hold lapses."""
        kept: dict[str, _Marked] = {}
        for signature, marked in self.marked.items():
            if not marked.changed and _changed(marked, entities, transitions):
                marked = replace(marked, changed=True)  # noqa: PLW2901
            if marked.spans:
                spans = _widened(marked, entities, transitions)
                # One went off and came back (the meter at rest, drawing again): changed.
                changed = marked.changed or len(spans) < len(marked.spans)
                marked = replace(marked, spans=spans, changed=changed)  # noqa: PLW2901
            held = ONE_WAY_HOLD if _one_way(marked) else OCCURRENCE_HOLD
            if now - marked.marked >= held:
                continue
            reading = entities.get(marked.subject)
            if (
                reading is not None
                and marked.word
                and reading.state.strip().lower() == marked.word
                and reading.last_changed is not None
                and reading.last_changed > marked.marked
            ):
                continue
            kept[signature] = marked
        self.marked = kept

    def covers(self, finding: Finding, entities: Mapping[str, EntityState]) -> bool:
        """``finding`` is an occurrence already called a false alarm: over (its subject
        reads another word now: the gate shut), or going on unchanged since."""
        if is_hazard(finding.anomaly_type, finding.severity):
            return False
        return any(
            m.judged(finding) and (_over(m, finding, entities) or _goes_on(m, finding, entities))
            for m in self.marked.values()
        )

    def as_dict(self) -> dict[str, Any]:
        """The stored form: signature -> the occurrence."""
        return {
            signature: {
                "subject": m.subject,
                "anomaly_type": m.anomaly_type,
                "rank": m.rank,
                "marked": m.marked.isoformat(),
                "word": m.word,
                "evidence": list(m.evidence),
                "away": m.away,
                "readings": dict(m.readings),
                "changed": m.changed,
                "empty": m.empty,
                "spans": {e: [low, high] for e, low, high in m.spans},
            }
            for signature, m in self.marked.items()
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MarkedOccurrences:
        """Rebuild the stored form; a wrong shape raises ``ValueError``/``TypeError``."""
        memory = cls()
        for signature, m in data.items():
            texts = (signature, m["subject"], m["anomaly_type"], m["word"])
            if not all(isinstance(t, str) for t in texts) or not isinstance(m["rank"], int):
                raise TypeError("marked occurrence")
            evidence = m.get("evidence", [m["subject"]])
            away, changed = m.get("away", False), m.get("changed", True)
            empty = m.get("empty", False)
            readings = m.get("readings", {})
            stored = m.get("spans")
            spans = (
                _spans_of(tuple(readings.items()))
                if stored is None
                else tuple((e, float(low), float(high)) for e, (low, high) in stored.items())
            )
            if (
                not all(isinstance(e, str) for e in evidence)
                or not isinstance(away, bool)
                or not isinstance(changed, bool)
                or not isinstance(empty, bool)
                or not all(isinstance(w, str) for w in (*readings, *readings.values()))
            ):
                raise TypeError("marked occurrence")
            memory.marked[signature] = _Marked(
                m["subject"],
                m["anomaly_type"],
                m["rank"],
                stored_time(m["marked"]),
                m["word"],
                tuple(evidence),
                away,
                tuple(readings.items()),
                changed,
                empty,
                spans,
            )
        return memory


def _changed(
    marked: _Marked, entities: Mapping[str, EntityState], transitions: Sequence[Transition]
) -> bool:
    """A device the marked occurrence showed reads (or read since) another word. A radio
    drop or a restart (no state, then the same word) is no change."""
    # A number is judged by the way it went since (``_went_on``).
    words = {e: w for e, w in marked.readings if parse_number(w) is None}
    for entity_id, word in words.items():
        reading = entities.get(entity_id)
        if (
            reading is not None
            and not is_no_state(reading.state)
            and not reads_as(word, reading.state)
        ):
            return True
    return any(
        t.when > marked.marked
        and t.entity_id in words
        and not is_no_state(t.state)
        and not reads_as(words[t.entity_id], t.state)
        for t in transitions
    )


def _over(marked: _Marked, finding: Finding, entities: Mapping[str, EntityState]) -> bool:
    """Of the same kind about the same subject, which reads another word now."""
    reading = entities.get(finding.subject)
    if reading is None or is_no_state(reading.state) or not marked.word:
        return False
    return (
        marked.subject == finding.subject
        and reading.state.strip().lower() != marked.word
        and marked.anomaly_type == finding.anomaly_type
    )


def _goes_on(marked: _Marked, finding: Finding, entities: Mapping[str, EntityState]) -> bool:
    """About the devices the marked occurrence showed, none changed since it was marked
    (each still reads its marked word), in the same situation (not newly about nobody
    being home: nobody was when it was marked, or it said so)."""
    shown = set(finding.shown_evidence)
    words = dict(marked.readings)
    if marked.changed or not shown or not shown <= words.keys():
        return False
    if finding.while_away and not (marked.away or marked.empty):
        return False  # the household left since the homeowner answered
    spans = {e: (low, high) for e, low, high in marked.spans}
    for entity_id in shown:
        reading = entities.get(entity_id)
        if reading is None:
            return False
        before = parse_number(words[entity_id])
        if before is None or entity_id not in spans:
            if not reads_as(words[entity_id], reading.state):
                return False
        elif not _went_on(before, spans[entity_id], reading.number, finding.magnitude):
            return False
    return True


def _went_on(
    before: float, span: tuple[float, float], now: float | None, side: float | None
) -> bool:
    """A number that read ``before`` when marked, ``span`` since, ``now`` now, only
    drifted, or went only the way the finding says it is off (``side``: negative, too
    low): the tank told falling, still falling. Back the other way since (refilled) is
    news."""
    low, high = (
        min(span[0], now if now is not None else span[0]),
        max(span[1], now if now is not None else span[1]),
    )
    if reads_as(str(before), str(low)) and reads_as(str(before), str(high)):
        return True
    if not side:
        return False
    if side < 0:
        return high <= before or reads_as(str(before), str(high))
    return low >= before or reads_as(str(before), str(low))


def _one_way(marked: _Marked) -> bool:
    """Every device it showed reads a number, each gone one way at most since the mark."""
    before = {e: parse_number(w) for e, w in marked.readings}
    if marked.changed or not before or None in before.values():
        return False
    return all(
        reads_as(str(before[e]), str(low)) or reads_as(str(before[e]), str(high))
        for e, low, high in marked.spans
        if before.get(e) is not None
    ) and len(marked.spans) == len(before)


def _spans_of(readings: tuple[tuple[str, str], ...]) -> tuple[tuple[str, float, float], ...]:
    """The numbers of ``readings``, each its own span."""
    return tuple(
        (e, number, number) for e, w in readings if (number := parse_number(w)) is not None
    )


def _widened(
    marked: _Marked, entities: Mapping[str, EntityState], transitions: Sequence[Transition]
) -> tuple[tuple[str, float, float], ...]:
    """``marked``'s spans with what its devices read now and changed to since the mark. A
    device that went off and came back to read as marked (the tank refilled) loses its
    span: the occurrence changed (``watch``)."""
    before = dict(marked.readings)
    spans = []
    for entity_id, first, last in marked.spans:
        low, high = first, last
        seen = [
            parse_number(t.state)
            for t in sorted(transitions, key=lambda t: t.when)
            if t.entity_id == entity_id and t.when > marked.marked
        ]
        reading = entities.get(entity_id)
        seen.append(reading.number if reading is not None else None)
        back = False
        for number in (n for n in seen if n is not None):
            off = not (
                reads_as(before[entity_id], str(low)) and reads_as(before[entity_id], str(high))
            )
            if off and reads_as(before[entity_id], str(number)):
                back = True
            low, high = min(low, number), max(high, number)
        if not back:
            spans.append((entity_id, low, high))
    return tuple(spans)
