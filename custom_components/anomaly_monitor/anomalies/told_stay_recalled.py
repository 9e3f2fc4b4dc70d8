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
again. The stay is known by its length (a stay that has ended keeps its minutes): a
later stay of that door, of another length, is judged as any. Stored with the tracker's
memories (``already_told``): not stored, the recall was pushed again after a restart as
"Front door left open", "stayed open for 18 min (from 02:32)", the household home and the
door shut, under evidence "Open" (walk of session 48).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..core.models import AnomalyType, Finding
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


class RecalledStays:
    """The stays told while nobody was home that have ended, by door: their minutes."""

    def __init__(self) -> None:
        self._ended: dict[str, float] = {}

    def left(
        self,
        findings: Iterable[Finding],
        open_now: Iterable[OpenAnomaly],
        states: Mapping[str, str] | None,
        someone_home: bool,
    ) -> list[Finding]:
        """``findings`` less those recalling a told stay that has ended."""
        found = list(findings)
        if states is None:
            return found
        for anomaly in open_now:
            door = anomaly.subject
            if (
                _entry_while_away(anomaly)
                and not is_open(states.get(door))
                and not _entry_found(door, found, someone_home)
            ):
                for finding in found:
                    if _ended(finding, door, states):
                        self._ended[door] = finding.magnitude or 0.0
        return [f for f in found if not self._recalls(f)]

    def as_dict(self) -> dict[str, float]:
        """The stored form: door -> the told stay's minutes."""
        return dict(self._ended)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecalledStays:
        """Rebuild the stored form; a wrong shape raises ``TypeError``."""
        stays = cls()
        for door, minutes in data.items():
            if not isinstance(door, str) or isinstance(minutes, bool):
                raise TypeError("recalled stay")
            stays._ended[door] = float(minutes)
        return stays

    def _recalls(self, finding: Finding) -> bool:
        minutes = self._ended.get(finding.subject)
        return (
            minutes is not None
            and _left_open(finding, finding.subject)
            and finding.magnitude is not None
            and abs(finding.magnitude - minutes) < 0.01
        )
