"""Open anomalies and false-alarm marks, kept across restarts with HA's Store.

Store format (version 1):
- minor 1: ``{"open": [...], "false_alarms": [signature, ...]}``.
- minor 2: also ``"false_alarm_marks": [{"signature", "magnitude", "rule", "evidence",
  "reasoning", "anomaly_type", "marked_at"}, ...]``, the marks with their degree. The
  signature list is still written, so an older version of the integration keeps reading
  the file (and suppresses by signature, as it always did). Minor 1 files are migrated:
  each signature becomes a mark without a magnitude, which suppresses that pattern at
  any degree, exactly as before.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict, dataclass
from datetime import datetime
import hashlib
from typing import Any, NotRequired, TypedDict, cast

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util

from .const import DOMAIN, STORAGE_VERSION
from .core.feedback import FalseAlarm, FalseAlarms
from .core.models import Finding

# Write at most this often; a burst of analyses causes one write.
_SAVE_DELAY = 5.0
# Minor 2 added the marks' magnitudes (see the module docstring).
STORAGE_MINOR_VERSION = 2


@dataclass(slots=True)
class OpenAnomaly:
    """A finding that is currently happening, and what the homeowner did about it."""

    signature: str
    rule: str
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

    @property
    def key(self) -> str:
        """Short stable id, safe for notification and issue ids."""
        return anomaly_key(self.signature)

    @classmethod
    def from_finding(cls, finding: Finding, now: datetime) -> OpenAnomaly:
        """Open an anomaly for a new finding."""
        return cls(
            signature=finding.signature,
            rule=finding.rule,
            evidence=list(finding.evidence),
            reasoning=finding.reasoning,
            anomaly_type=finding.anomaly_type,
            severity=finding.severity.value,
            recommendation=finding.recommendation,
            first_seen=now.isoformat(),
            last_seen=now.isoformat(),
            magnitude=finding.magnitude,
        )

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


class StoredData(TypedDict):
    """What the Store file holds."""

    open: list[dict[str, Any]]
    false_alarms: list[str]  # signatures only: what minor version 1 (and older code) reads
    false_alarm_marks: NotRequired[list[dict[str, Any]]]


class _TrackerStore(Store[StoredData]):
    """The tracker's Store, migrating files written before marks had a magnitude."""

    async def _async_migrate_func(
        self, old_major_version: int, old_minor_version: int, old_data: dict[str, Any]
    ) -> StoredData:
        if old_major_version != 1:
            raise NotImplementedError  # a newer major version: refuse rather than guess
        data = dict(old_data)
        if old_minor_version < 2:
            signatures = data.get("false_alarms")
            data["false_alarm_marks"] = [
                FalseAlarm(signature=s).as_dict()
                for s in (signatures if isinstance(signatures, list) else [])
                if isinstance(s, str) and s
            ]
        return cast(StoredData, data)


def anomaly_key(signature: str) -> str:
    """Short stable id of a signature."""
    return hashlib.sha256(signature.encode()).hexdigest()[:16]


@dataclass(slots=True)
class Changes:
    """What one analysis changed: anomalies that opened, stayed open, or cleared."""

    opened: list[OpenAnomaly]
    cleared: list[OpenAnomaly]


class AnomalyTracker:
    """Tracks which anomalies are open and which patterns are false alarms."""

    def __init__(self, hass: HomeAssistant, entry_id: str) -> None:
        self._store: Store[StoredData] = _TrackerStore(
            hass,
            STORAGE_VERSION,
            f"{DOMAIN}.{entry_id}",
            minor_version=STORAGE_MINOR_VERSION,
            atomic_writes=True,
        )
        self.open: dict[str, OpenAnomaly] = {}
        # Signature -> mark; pass it to ``core.feedback.suppress`` or a detector as is.
        self.false_alarms = FalseAlarms()

    async def async_load(self) -> None:
        """Restore open anomalies and false-alarm marks."""
        data = await self._store.async_load()
        if not data:
            return
        for item in data.get("open", []):
            try:
                anomaly = OpenAnomaly(**item)
            except TypeError:
                continue  # written by a different version: drop rather than fail setup
            self.open[anomaly.signature] = anomaly
        self.false_alarms = _load_marks(data)

    async def async_remove(self) -> None:
        """Delete the stored file (the entry is being removed)."""
        await self._store.async_remove()

    def update(
        self,
        findings: list[Finding] | tuple[Finding, ...],
        now: datetime,
        keep: Collection[str] = (),
    ) -> Changes:
        """Reconcile the open anomalies with the findings of a new analysis.

        Open anomalies whose signature is in ``keep`` stay open even if not found (an
        urgent finding announced after the analysed window was built).
        """
        current = {f.signature: f for f in findings if not self.false_alarms.covers(f)}
        opened = []
        for signature, finding in current.items():
            if (anomaly := self.open.get(signature)) is not None:
                anomaly.last_seen = now.isoformat()
                anomaly.reasoning = finding.reasoning
                anomaly.magnitude = finding.magnitude
                continue
            anomaly = OpenAnomaly.from_finding(finding, now)
            self.open[signature] = anomaly
            opened.append(anomaly)
        cleared = [a for s, a in self.open.items() if s not in current and s not in keep]
        for anomaly in cleared:
            del self.open[anomaly.signature]
        if opened or cleared or current:
            self._schedule_save()
        return Changes(opened=opened, cleared=cleared)

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
        """Suppress this pattern up to this degree from now on, and close the anomaly."""
        if (anomaly := self.by_key(key)) is None:
            return None
        self.false_alarms.add(anomaly.false_alarm(dt_util.utcnow()))
        del self.open[anomaly.signature]
        self._schedule_save()
        return anomaly

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
        return {
            "open": [asdict(a) for a in self.open.values()],
            "false_alarms": sorted(self.false_alarms),
            "false_alarm_marks": [
                self.false_alarms[s].as_dict() for s in sorted(self.false_alarms)
            ],
        }


def _load_marks(data: StoredData | dict[str, Any]) -> FalseAlarms:
    """The marks of a stored file; damaged entries are dropped, not fatal.

    A signature in ``false_alarms`` without a mark (written by an older version after
    this one) becomes a mark without a magnitude: suppressed at any degree, as it asked.
    """
    marks = FalseAlarms()
    stored = data.get("false_alarm_marks")
    for item in stored if isinstance(stored, list) else []:
        if (mark := FalseAlarm.from_stored(item)) is not None:
            marks.add(mark)
    signatures = data.get("false_alarms")
    for signature in signatures if isinstance(signatures, list) else []:
        if isinstance(signature, str) and signature and signature not in marks:
            marks.add(signature)
    return marks
