"""An entry while nobody is home lasts while its opening stands open.

A window levered open in an empty home: ``window_opened_while_away`` sees the opening in
its two-hour window and, once that ages out, the anomaly ended while the window still
stood open; 2.5 h on, "heating with the window open" found that same window and was
pushed as news. So:

- an entry while away (security, about the empty home, not a hazard) whose subject still
  reads open is not missed by an analysis without it (``holds_open``): it lasts until the
  opening closes or somebody comes home (an arrival ends it as before); a lock among its
  entry's evidence still reading unlocked holds it too, whichever device leads it (walk of
  session 19: the lock left unlocked was told "Over" when the door, its subject, was
  closed behind the last one out; a door closed is no entrance secured while its lock is
  not);
- a new incident that shows the open entry's subject (the heating beside that window)
  joins it (``entry_shown``) rather than being told apart; a safety hazard never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.feedback import is_hazard
from ..core.models import AnomalyType, Finding
from .entered_again import is_open
from .open_anomaly import OpenAnomaly


def _entry_while_away(anomaly: OpenAnomaly) -> bool:
    """An entry while nobody is home is a member (the heating that joined it may lead)."""
    return not anomaly.hazard and any(
        m.while_away and m.anomaly_type == AnomalyType.SECURITY.value for m in anomaly.members
    )


def holds_open(anomaly: OpenAnomaly, states: Mapping[str, str], someone_home: bool) -> bool:
    """Whether ``anomaly``, missed by an analysis while nobody is home, is an entry while
    away whose opening still stands open (then it is not a miss)."""
    if someone_home or not _entry_while_away(anomaly):
        return False
    return is_open(states.get(anomaly.subject)) or any(
        is_open(states.get(e)) for e in _entry_locks(anomaly)
    )


def _entry_locks(anomaly: OpenAnomaly) -> set[str]:
    """The locks in the evidence of its entries while away (by domain: what the device is)."""
    return {
        e
        for m in anomaly.members
        if m.while_away and m.anomaly_type == AnomalyType.SECURITY.value
        for e in m.evidence
        if e.partition(".")[0] == "lock"
    }


def entry_shown(finding: Finding, open_now: Sequence[OpenAnomaly]) -> OpenAnomaly | None:
    """The open entry while away whose opening ``finding`` (a new incident) shows."""
    if is_hazard(finding.anomaly_type, finding.severity):
        return None
    shown = set(finding.shown_evidence)
    return next(
        (a for a in open_now if _entry_while_away(a) and a.subject in shown),
        None,
    )
