"""An occurrence called a false alarm is not told again by another rule.

Held-out set 9: the driveway gate stood open behind the last car out, "opened while
nobody was home" was marked a false alarm at 08:05, and at 09:24 another rule pushed the
same opening of 07:40 ("no motion sensor saw anybody"). A mark covers the rules that told
the incident (``core.feedback``); the homeowner judged the *occurrence*, whatever rule
sees it next.

So a false alarm (never on a safety hazard) also remembers the occurrence: its subject,
its kind, how grave it was, and the word its subject read then. Once the occurrence is
over (the subject reads another word: the gate shut), until the subject reads that word
anew (opened again: a new occurrence) and for at most ``OCCURRENCE_HOLD``, a finding of
the same kind about the same subject, no graver and no hazard, is the occurrence already
judged, told late: dropped like a marked one. While it goes on, only the marks judge it,
up to their degree. Stored with the tracker (``already_told``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..core.feedback import is_hazard
from ..core.models import EntityState, Finding
from ..core.state_blips import is_no_state
from .open_anomaly import OpenAnomaly, rank
from .told_times import stored_time

# The same occurrence, told late by another rule, is told within hours (set 9: 79 min).
OCCURRENCE_HOLD = timedelta(hours=12)


@dataclass(frozen=True, slots=True)
class _Marked:
    subject: str
    anomaly_type: str
    rank: int
    marked: datetime
    word: str  # what the subject read when marked ("" when it read a number or nothing)


class MarkedOccurrences:
    """The occurrences called false alarms within ``OCCURRENCE_HOLD``."""

    def __init__(self) -> None:
        self.marked: dict[str, _Marked] = {}

    def marked_false(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """``anomaly`` (no hazard) was called a false alarm at ``now``."""
        if anomaly.hazard:
            return
        word = anomaly.readings.get(anomaly.subject, "")  # as last found
        self.marked[anomaly.signature] = _Marked(
            anomaly.subject,
            anomaly.anomaly_type,
            rank(anomaly.severity),
            now,
            word.strip().lower() if word and not _is_number(word) else "",
        )

    def watch(self, entities: Mapping[str, EntityState], now: datetime) -> None:
        """The subject read its marked word anew since the mark (opened again): a new
        occurrence; and the hold lapses."""
        kept: dict[str, _Marked] = {}
        for signature, marked in self.marked.items():
            if now - marked.marked >= OCCURRENCE_HOLD:
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
        """``finding`` is an occurrence already called a false alarm, and over (its
        subject reads another word now: the gate shut). One that goes on is judged by
        the marks, up to their degree (a door held open 24 min does not hide 3 h)."""
        if is_hazard(finding.anomaly_type, finding.severity):
            return False
        reading = entities.get(finding.subject)
        if reading is None or is_no_state(reading.state):
            return False
        now = reading.state.strip().lower()
        return any(
            m.subject == finding.subject
            and m.word
            and now != m.word
            and m.anomaly_type == finding.anomaly_type
            and finding.severity.rank <= m.rank
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
            memory.marked[signature] = _Marked(
                m["subject"], m["anomaly_type"], m["rank"], stored_time(m["marked"]), m["word"]
            )
        return memory


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
