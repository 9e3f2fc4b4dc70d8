"""A door's stay told while nobody was home, once it has ended, is no incident of its own.

Walk of session 45: everybody out, the front door left open and unlocked, told "Front
door unlocked and open while nobody is home". The door was shut and locked from outside
(nobody home), then the household came home: the while-away finding was no longer found,
but ``entry_left_open`` still found the same stay in its two-hour window ("Front door
stayed open for 32 min (from 02:11). ... It is shut now; if nobody in the household left
it open, check who did."), led the incident under the kept title "... while nobody is
home" with both home, and kept it open until the stay left the window, hours on.

That recall is the stay already told, over: once the told entry while away is no longer
found (the door shut and locked, or somebody home) and its door reads shut, a finding
that a door was left open (``LEFT_OPEN_RULES``) about that door, every device of it read
shut (a lock still unlocked is a stay going on), recalls the told stay: it
neither keeps the incident open (it is over after its hysteresis, as any) nor opens one
again. The stay is known by when it began (``Finding.since``): the start of each of the
incident's devices seen open while it is told (the door, its lock), and that of a left-open
finding about the door once it has ended. Known by its minutes, a second outing's stay
was never learned when, shut, the rule's limit (three times the window's usual stay) found
neither of two long stays, and it was pushed as "Front door left open" once a passage of
the household home lowered the limit (walk of session 48). A later stay of that door
begins later: judged as any. Stored with the tracker's memories (``already_told``): not
stored, the recall was pushed again after a restart as "Front door left open", "stayed
open for 18 min (from 02:32)", the household home and the door shut (walk of session 48).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from ..core.models import AnomalyType, EntityState, Finding
from .acknowledged_seen import LEFT_OPEN_RULES
from .entered_again import is_open
from .open_anomaly import OpenAnomaly


def _entry_while_away(anomaly: OpenAnomaly) -> bool:
    return not anomaly.hazard and any(
        m.while_away and m.anomaly_type == AnomalyType.SECURITY.value for m in anomaly.members
    )


def _entry_found(subject: str, findings: Iterable[Finding], someone_home: bool) -> bool:
    """An entry while nobody is home about ``subject`` still found (none with somebody
    home: an arrival ends them)."""
    return not someone_home and any(
        f.while_away
        and f.anomaly_type == AnomalyType.SECURITY
        and (f.subject == subject or subject in f.evidence)
        for f in findings
    )


def _left_open(finding: Finding, subject: str) -> bool:
    return finding.rule in LEFT_OPEN_RULES and finding.subject == subject


def _ended(finding: Finding, door: str, states: Mapping[str, str]) -> bool:
    """A door left open about ``door`` whose every device reads shut now: a stay that has
    ended (a lock still unlocked is a stay going on, set 41: "unlocked for 2 h 34 min")."""
    return (
        _left_open(finding, door)
        and finding.magnitude is not None
        and not any(is_open(states.get(e)) for e in finding.evidence)
    )


# The starts kept per door: the last outings' stays (a stay leaves the rules' windows in hours).
_KEPT = 8
# The same start read from the state machine and from the recorder's history.
_SAME_START = 1.0


def _devices(anomaly: OpenAnomaly) -> list[str]:
    """The incident's door and the devices its members show (the door, its lock)."""
    devices = [anomaly.subject]
    for member in anomaly.members:
        devices.extend(e for e in member.evidence if e not in devices)
    return devices


class RecalledStays:
    """The stays told while nobody was home, by door: when each began."""

    def __init__(self) -> None:
        self._began: dict[str, list[datetime]] = {}
        # Stored by session 48 by their minutes: still known so (a start cannot be read
        # from them), else the upgrade pushed the told stay again as "Front door left open".
        self._minutes: dict[str, list[float]] = {}

    def left(
        self,
        findings: Iterable[Finding],
        open_now: Iterable[OpenAnomaly],
        states: Mapping[str, str] | None,
        someone_home: bool,
        entities: Mapping[str, EntityState] | None = None,
    ) -> list[Finding]:
        """``findings`` less those recalling a told stay that has ended."""
        found = list(findings)
        if states is None:
            return found
        open_now = list(open_now)
        self.told(open_now, states, entities)
        for anomaly in open_now:
            if not _entry_while_away(anomaly):
                continue
            door = anomaly.subject
            if not is_open(states.get(door)) and not _entry_found(door, found, someone_home):
                for finding in found:
                    if _ended(finding, door, states) and finding.since is not None:
                        self._remember(door, finding.since)
        return [f for f in found if not self._recalls(f, states, entities)]

    def told(
        self,
        open_now: Iterable[OpenAnomaly],
        states: Mapping[str, str],
        entities: Mapping[str, EntityState] | None,
    ) -> None:
        """The stays of the entry incidents told while nobody is home, going on: their
        starts (an incident opened as the door shuts is seen open only as it opens)."""
        for anomaly in open_now:
            if not _entry_while_away(anomaly):
                continue
            for device in _devices(anomaly):
                entity = (entities or {}).get(device)
                if is_open(states.get(device)) and entity and entity.last_changed:
                    self._remember(anomaly.subject, entity.last_changed)

    def as_dict(self) -> dict[str, list[str | float]]:
        """The stored form: door -> when its told stays began (ISO), and the minutes of
        those stored by session 48."""
        stored: dict[str, list[str | float]] = {}
        for door in {**self._began, **self._minutes}:
            stored[door] = [
                *(t.isoformat() for t in self._began.get(door, ())),
                *self._minutes.get(door, ()),
            ]
        return stored

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecalledStays:
        """Rebuild the stored form (session 48's: door -> minutes); a wrong shape raises
        ``TypeError`` or ``ValueError``."""
        stays = cls()
        for door, stored in data.items():
            told = stored if isinstance(stored, list) else [stored]
            if not isinstance(door, str) or not all(_stored(t) for t in told):
                raise TypeError("recalled stay")
            began = [datetime.fromisoformat(t) for t in told if isinstance(t, str)]
            minutes = [float(t) for t in told if not isinstance(t, str)]
            if began:
                stays._began[door] = began[-_KEPT:]
            if minutes:
                stays._minutes[door] = minutes[-_KEPT:]
        return stays

    def _remember(self, door: str, began: datetime) -> None:
        known = self._began.setdefault(door, [])
        if not any(_same(began, t) for t in known):
            known.append(began)
            del known[:-_KEPT]

    def _recalls(
        self,
        finding: Finding,
        states: Mapping[str, str],
        entities: Mapping[str, EntityState] | None,
    ) -> bool:
        """A left-open finding about a told stay that has ended (the stay going on is news;
        the door open again since is another stay)."""
        began, minutes = finding.since, finding.magnitude
        if began is None or not _left_open(finding, finding.subject):
            return False
        by_start = any(_same(began, t) for t in self._began.get(finding.subject, ()))
        by_minutes = minutes is not None and any(
            abs(minutes - m) < 0.01 for m in self._minutes.get(finding.subject, ())
        )
        return (by_start or by_minutes) and not _going_on(finding, began, states, entities)


def _stored(value: object) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _going_on(
    finding: Finding,
    began: datetime,
    states: Mapping[str, str],
    entities: Mapping[str, EntityState] | None,
) -> bool:
    """A device of ``finding`` open now in the stay that began at ``began`` (without the
    devices' last changes: any of them open)."""
    for entity_id in finding.evidence:
        if not is_open(states.get(entity_id)):
            continue
        entity = (entities or {}).get(entity_id)
        if entities is None or entity is None or entity.last_changed is None:
            return True
        if _same(entity.last_changed, began):
            return True
    return False


def _same(one: datetime, other: datetime) -> bool:
    try:
        return abs((one - other).total_seconds()) <= _SAME_START
    except TypeError:  # a naive time stored by hand against an aware one
        return False
