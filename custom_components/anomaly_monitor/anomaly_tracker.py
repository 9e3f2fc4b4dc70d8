"""Open anomalies and false-alarm marks: what is wrong now, and what the homeowner said.

An anomaly is identified by its rule and its subject, the entity or area that is wrong
(``Finding.signature``), never by its context: the smoke in the kitchen stays the same
anomaly, with one notification, while everyone leaves and the door is unlocked. Its
evidence and reasoning follow the latest analysis.

It clears only when its own condition no longer holds, with hysteresis: absent from
``CLEAR_AFTER_ANALYSES`` analyses in a row *and* for at least ``CLEAR_AFTER`` since the
first of them (the coordinator schedules the confirming analysis). A detector that misses
it once, or a sensor that flickers, neither closes nor re-announces it. One exception: a
"while nobody is home" anomaly (``Finding.while_away``) ends as soon as someone is known
to be home, since an arrival is not a flicker. Acknowledged
stays acknowledged while it lasts.

"False alarm" on a safety hazard (``core.feedback.is_hazard``) dismisses this occurrence
only: it moves to ``dismissed`` until the condition is over, and the next occurrence is
announced again. On anything else it leaves a mark that suppresses the pattern up to its
degree, for ``mark_lifetime`` (30 days by default). The file format is documented in
``anomaly_store.py``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
import hashlib
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from .anomaly_store import (
    STORAGE_MINOR_VERSION,
    StoredData,
    TrackerStore,
    load_anomalies,
    load_marks,
    parse_time,
    warn_once,
)
from .const import DOMAIN, LOGGER, STORAGE_VERSION
from .core.feedback import FalseAlarm, FalseAlarms, is_hazard
from .core.models import Finding, Severity

# Write at most this often; a burst of analyses causes one write.
_SAVE_DELAY = 5.0
# Hysteresis: an anomaly clears after this many analyses in a row without it...
CLEAR_AFTER_ANALYSES = 2
# ...and this long after the first of them. Long enough for a flickering sensor or a
# detector's one-off miss, short enough that "while nobody is home" clears soon after
# someone arrives.
CLEAR_AFTER = timedelta(minutes=2)
DEFAULT_MARK_LIFETIME = timedelta(days=30)


def anomaly_key(signature: str) -> str:
    """Short stable id of a signature, safe for notification, issue and mark ids."""
    return hashlib.sha256(signature.encode()).hexdigest()[:16]


def _rank(severity: str) -> int:
    return Severity(severity).rank if severity in Severity.__members__.values() else 0


@dataclass(slots=True)
class OpenAnomaly:
    """A finding that is currently happening, and what the homeowner did about it."""

    signature: str
    rule: str
    subject: str
    evidence: list[str]
    reasoning: str
    anomaly_type: str
    severity: str
    recommendation: str
    first_seen: str
    last_seen: str
    acknowledged: bool = False
    # The finding's degree at the latest analysis, like ``reasoning`` (see Finding).
    magnitude: float | None = None
    context: list[str] = field(default_factory=list)
    # Hysteresis: analyses in a row without it, and the time of the first of them.
    missed: int = 0
    missing_since: str | None = None
    # Holds only while nobody is home: someone coming home ends it at once.
    while_away: bool = False

    @property
    def key(self) -> str:
        """Short stable id, safe for notification and issue ids."""
        return anomaly_key(self.signature)

    @property
    def hazard(self) -> bool:
        """A safety hazard: a false alarm dismisses this occurrence only."""
        return is_hazard(self.anomaly_type, self.severity)

    @property
    def shown_evidence(self) -> list[str]:
        """The evidence entities that show the problem (context left out)."""
        return [e for e in self.evidence if e not in self.context]

    @classmethod
    def from_finding(cls, finding: Finding, now: datetime) -> OpenAnomaly:
        """Open an anomaly for a new finding."""
        return cls(
            signature=finding.signature,
            rule=finding.rule,
            subject=finding.subject,
            evidence=list(finding.evidence),
            context=list(finding.context),
            reasoning=finding.reasoning,
            anomaly_type=finding.anomaly_type,
            severity=finding.severity.value,
            recommendation=finding.recommendation,
            first_seen=now.isoformat(),
            last_seen=now.isoformat(),
            magnitude=finding.magnitude,
            while_away=finding.while_away,
        )

    def refresh(self, finding: Finding, now: datetime) -> None:
        """Still happening: the latest evidence and words; severity never drops."""
        self.last_seen = now.isoformat()
        self.evidence = list(finding.evidence)
        self.context = list(finding.context)
        self.reasoning = finding.reasoning
        self.recommendation = finding.recommendation or self.recommendation
        self.magnitude = finding.magnitude
        self.while_away = finding.while_away
        if finding.severity.rank > _rank(self.severity):
            self.severity = finding.severity.value
        self.missed, self.missing_since = 0, None

    def miss(self, now: datetime) -> bool:
        """Absent from an analysis; whether it is now over (see the hysteresis above)."""
        self.missed += 1
        self.missing_since = self.missing_since or now.isoformat()
        since = parse_time(self.missing_since) or now
        return self.missed >= CLEAR_AFTER_ANALYSES and now - since >= CLEAR_AFTER

    def false_alarm(self, marked_at: datetime) -> FalseAlarm:
        """The mark that says this anomaly, at this degree, is normal here."""
        return FalseAlarm(
            signature=self.signature,
            magnitude=self.magnitude,
            rule=self.rule,
            evidence=tuple(self.evidence),
            reasoning=self.reasoning,
            anomaly_type=self.anomaly_type,
            marked_at=marked_at.isoformat(),
        )


@dataclass(slots=True)
class Changes:
    """What one analysis changed: anomalies that opened, and that are over."""

    opened: list[OpenAnomaly]
    cleared: list[OpenAnomaly]


class AnomalyTracker:
    """Tracks which anomalies are open and which patterns are false alarms."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry_id: str,
        mark_lifetime: timedelta = DEFAULT_MARK_LIFETIME,
    ) -> None:
        self._store = TrackerStore(
            hass,
            STORAGE_VERSION,
            f"{DOMAIN}.{entry_id}",
            minor_version=STORAGE_MINOR_VERSION,
            atomic_writes=True,
        )
        self._entry_id = entry_id
        self.mark_lifetime = mark_lifetime
        self.open: dict[str, OpenAnomaly] = {}
        # Hazards called a false alarm: kept, silent, until this occurrence is over.
        self.dismissed: dict[str, OpenAnomaly] = {}
        # Signature -> mark; pass it to ``core.feedback.suppress`` or a detector as is.
        self.false_alarms = FalseAlarms()

    async def async_load(self) -> None:
        """Restore open anomalies and marks; damaged entries are dropped, never fatal."""
        try:
            data = await self._store.async_load()
        except Exception as err:  # a damaged or foreign file must not stop setup
            LOGGER.warning(
                "Stored anomalies of %s are unreadable (%s); starting afresh",
                self._entry_id,
                type(err).__name__,
            )
            LOGGER.debug("Unreadable store", exc_info=True)
            return
        if data is None:
            return
        if not isinstance(data, Mapping):
            warn_once(self._entry_id, ["the file holds no mapping"])
            return
        warnings: list[str] = []
        self.open = _by_signature(load_anomalies(data, "open", warnings))
        self.dismissed = _by_signature(load_anomalies(data, "dismissed", warnings))
        self.false_alarms = load_marks(data, warnings)
        warn_once(self._entry_id, warnings)
        self.false_alarms.expire(dt_util.utcnow(), self.mark_lifetime)

    async def async_remove(self) -> None:
        """Delete the stored file (the entry is being removed)."""
        await self._store.async_remove()

    async def async_stored_anomalies(self) -> list[OpenAnomaly]:
        """The anomalies in the file, without loading the tracker (entry removal)."""
        await self.async_load()
        return [*self.open.values(), *self.dismissed.values()]

    def expire_marks(self, now: datetime) -> bool:
        """Forget marks past their lifetime; whether any went."""
        if expired := self.false_alarms.expire(now, self.mark_lifetime):
            self._schedule_save()
        return bool(expired)

    def update(
        self,
        findings: Iterable[Finding],
        now: datetime,
        someone_home: bool = False,
        keep: Collection[str] = (),
    ) -> Changes:
        """Reconcile the open anomalies with the findings of a new analysis.

        ``someone_home``: occupancy is known and not zero, which ends every "while nobody
        is home" anomaly at once (no hysteresis: the arrival is not a flicker). Anomalies
        whose signature is in ``keep`` are left as they are if not found (an urgent finding
        announced after the analysed window was built; a safety check judging only
        urgent findings): this update does not count as an analysis without them.
        """
        changed = self.expire_marks(now)
        current: dict[str, Finding] = {}
        for finding in findings:  # the most severe first (Verdict.from_findings)
            if not self.false_alarms.covers(finding):
                current.setdefault(finding.signature, finding)
        opened = []
        for signature, finding in current.items():
            if (anomaly := self.open.get(signature) or self.dismissed.get(signature)) is None:
                anomaly = OpenAnomaly.from_finding(finding, now)
                self.open[signature] = anomaly
                opened.append(anomaly)
            else:
                anomaly.refresh(finding, now)
        seen = {*current, *keep}
        cleared = self._missed(self.open, seen, now, someone_home)
        self._missed(self.dismissed, seen, now, someone_home)  # over: forgotten silently
        if changed or opened or cleared or current or self.pending_since() is not None:
            self._schedule_save()
        return Changes(opened=opened, cleared=cleared)

    @staticmethod
    def _missed(
        anomalies: dict[str, OpenAnomaly],
        seen: Collection[str],
        now: datetime,
        someone_home: bool,
    ) -> list[OpenAnomaly]:
        over = [
            a
            for s, a in anomalies.items()
            if s not in seen and (a.miss(now) or (a.while_away and someone_home))
        ]
        for anomaly in over:
            del anomalies[anomaly.signature]
        return over

    def pending_since(self) -> datetime | None:
        """The earliest time an anomaly went missing without being over yet."""
        times = [
            parse_time(a.missing_since)
            for a in (*self.open.values(), *self.dismissed.values())
            if a.missing_since
        ]
        return min((t for t in times if t is not None), default=None)

    def by_key(self, key: str) -> OpenAnomaly | None:
        """The open anomaly with this short id."""
        return next((a for a in self.open.values() if a.key == key), None)

    def acknowledge(self, key: str) -> OpenAnomaly | None:
        """The homeowner has seen it: keep it open, stop asking."""
        if (anomaly := self.by_key(key)) is not None:
            anomaly.acknowledged = True
            self._schedule_save()
        return anomaly

    def mark_false_alarm(self, key: str) -> OpenAnomaly | None:
        """Close the anomaly: a hazard for this occurrence only, else with a mark."""
        if (anomaly := self.by_key(key)) is None:
            return None
        del self.open[anomaly.signature]
        if anomaly.hazard:
            self.dismissed[anomaly.signature] = anomaly
        else:
            self.false_alarms.add(anomaly.false_alarm(dt_util.utcnow()))
        self._schedule_save()
        return anomaly

    def marks(self) -> list[FalseAlarm]:
        """Every false-alarm mark, newest first."""
        return sorted(self.false_alarms.values(), key=lambda m: m.marked_at or "", reverse=True)

    def remove_mark(self, key: str) -> FalseAlarm | None:
        """Forget the mark with this short id: its pattern is reported again."""
        for signature in list(self.false_alarms):
            if anomaly_key(signature) == key:
                mark = self.false_alarms.remove(signature)
                self._schedule_save()
                return mark
        return None

    def clear_false_alarms(self) -> None:
        """Forget every false-alarm mark."""
        self.false_alarms.clear()
        self._schedule_save()

    async def async_flush(self) -> None:
        """Write pending changes now (on unload), cancelling the delayed write."""
        await self._store.async_save(self._data())

    def _schedule_save(self) -> None:
        self._store.async_delay_save(self._data, _SAVE_DELAY)

    def _data(self) -> StoredData:
        marks = [self.false_alarms[s] for s in sorted(self.false_alarms)]
        return {
            "open": [asdict(a) for a in self.open.values()],
            "dismissed": [asdict(a) for a in self.dismissed.values()],
            "false_alarms": [m.signature for m in marks],
            "false_alarm_marks": [m.as_dict() for m in marks],
        }


def _by_signature(items: list[dict[str, Any]]) -> dict[str, OpenAnomaly]:
    return {item["signature"]: OpenAnomaly(**item) for item in items}
