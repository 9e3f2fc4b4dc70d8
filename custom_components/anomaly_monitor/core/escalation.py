"""When a finding that joins an open incident must reach the homeowner again.

An incident is told once (``core.incidents``); the findings that join it later update its
notification in place. A few joining findings change what the homeowner should do, and
those are told once more (a push to the notify targets, an ``anomaly_detected`` event):

- ``GRAVER``: a joining finding is more severe than the incident was, and critical or
  about a device the incident did not show (the same door, unchanged, seen by another
  rule once everybody left is the situation already told);
- ``INTRUSION``: a joining finding is a sign that somebody is inside a home known to be
  empty (motion while nobody is home, someone walking on after an entry while the alarm
  is armed away) and none of the incident's findings was one yet. "The front door is
  open while nobody is home" asks for a neighbour to close it; "and now there is motion
  in the hall" asks for the cameras or the police: the incident is one step graver
  (``inside``: a door open while away, high, becomes critical). That rise is what earns
  the one more push; the notification and the repair issue are the same ones, updated.
  The members keep their own severities: a break-in is no safety hazard (an arrival
  ends it, a false alarm on it teaches as on the entry it grew from).

An entry opened again after it was closed is told again too (``REOPENED``,
``anomalies/entered_again``). Each kind escalates an incident once: later motion, or a
second rule seeing the same intruder, adds to the notification without another push. A
sign of somebody inside within ``SAME_ENTRY`` of the incident being told is the person
who opened the door (a neighbour letting the dog out: unlock, open, motion in the hall,
10 s apart): the notification says so in place, and the phone that heard of the open
door seconds ago is not pushed again. A safety hazard that an incident becomes is told
again too (``OpenAnomaly.refresh``), whichever member made it so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from enum import StrEnum

from .models import Finding, Severity

# Rules whose finding means somebody may be inside while the home is known to be empty.
# Appliances running while away are not (left on, a timer); pets are ruled out by the
# rules themselves (``core/pets.py``).
INTRUSION_RULES = frozenset({"motion_while_away", "activity_while_away", "entry_while_armed_away"})
# Asked about motion while away (perhaps a tracker that failed); during an entry while
# nobody is home the trackers are no likely reason: ``without_tracker_check``.
TRACKER_CHECK = "check the presence trackers"
# Somebody inside after an entry while nobody is home: what to do if the cameras or the
# neighbour see somebody (asked after them; ``core.incidents``).
POLICE_ADVICE = "If somebody is inside, call the police rather than going in."
# A sign of somebody inside this soon after the incident was told is the same arrival.
SAME_ENTRY = timedelta(minutes=1)


class Escalation(StrEnum):
    """What made an open incident worth telling again."""

    GRAVER = "graver"
    HAZARD = "hazard"
    INTRUSION = "intrusion"
    # An entry while nobody is home opened again after it was closed (``anomalies``).
    REOPENED = "reopened"


def intrusion_sign(finding: Finding) -> bool:
    """Somebody may be inside while nobody is home."""
    return finding.rule in INTRUSION_RULES


def _news(finding: Finding, told: set[str]) -> bool:
    """A graver finding that tells the homeowner something new: critical, or about a device
    the incident did not show yet. The same devices seen by another rule in another light
    (the microwave door told as left open, now also "open while nobody is home") are the
    situation already told: its notification changes in place."""
    return finding.severity == Severity.CRITICAL or not told.issuperset(finding.shown_evidence)


def inside(severity: Severity) -> Severity:
    """The severity of an incident once somebody is inside the empty home: one step up."""
    ordered = sorted(Severity, key=lambda s: s.rank)
    return ordered[min(severity.rank + 1, len(ordered) - 1)]


def without_tracker_check(advice: str) -> str:
    """``advice`` without its ask to check the presence trackers."""
    if TRACKER_CHECK not in advice.lower():
        return advice
    kept = [c.strip() for c in advice.rstrip(".").split(";") if TRACKER_CHECK not in c.lower()]
    return f"{'; '.join(c for c in kept if c)}." if any(kept) else ""


def escalation(
    severity_rank: int, before: Iterable[Finding], joining: Sequence[Finding]
) -> Escalation | None:
    """What the findings ``joining`` an incident (of ``severity_rank``, ``Severity.rank``;
    made of ``before``, its current and former members) change for the homeowner."""
    told = {e for f in before for e in f.shown_evidence}
    if any(f.severity.rank > severity_rank and _news(f, told) for f in joining):
        return Escalation.GRAVER
    if any(intrusion_sign(f) for f in joining) and not any(intrusion_sign(f) for f in before):
        return Escalation.INTRUSION
    return None
