"""Open anomalies and false-alarm marks, kept across restarts with HA's Store."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
import hashlib
from typing import Any, TypedDict

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from .const import DOMAIN, STORAGE_VERSION
from .core.models import Finding

# Write at most this often; a burst of analyses causes one write.
_SAVE_DELAY = 5.0


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
        )


class StoredData(TypedDict):
    """What the Store file holds."""

    open: list[dict[str, Any]]
    false_alarms: list[str]


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
        self._store: Store[StoredData] = Store(
            hass, STORAGE_VERSION, f"{DOMAIN}.{entry_id}", atomic_writes=True
        )
        self.open: dict[str, OpenAnomaly] = {}
        self.false_alarms: set[str] = set()

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
        self.false_alarms = set(data.get("false_alarms", []))

    async def async_remove(self) -> None:
        """Delete the stored file (the entry is being removed)."""
        await self._store.async_remove()

    def update(self, findings: list[Finding] | tuple[Finding, ...], now: datetime) -> Changes:
        """Reconcile the open anomalies with the findings of a new analysis."""
        current = {f.signature: f for f in findings if f.signature not in self.false_alarms}
        opened = []
        for signature, finding in current.items():
            if (anomaly := self.open.get(signature)) is not None:
                anomaly.last_seen = now.isoformat()
                anomaly.reasoning = finding.reasoning
                continue
            anomaly = OpenAnomaly.from_finding(finding, now)
            self.open[signature] = anomaly
            opened.append(anomaly)
        cleared = [a for s, a in self.open.items() if s not in current]
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
        """Suppress this pattern from now on and close the anomaly."""
        if (anomaly := self.by_key(key)) is None:
            return None
        self.false_alarms.add(anomaly.signature)
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
        }
