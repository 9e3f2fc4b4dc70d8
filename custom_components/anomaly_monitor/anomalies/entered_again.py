"""An entry while nobody is home that opens again is told again.

A window levered open while the home is empty is one incident, and it lasts until
somebody comes home. Closed and opened again while it lasts, the second opening joined
it without a word: the phone had heard of one opening, the notification still read
"Closed". An entry whose subject read closed when it was last found and reads open now
has opened again when its rule counts one more opening (a lock unlocked and then its door
opened is one entry): it is told once more (``Escalation.REOPENED``: a push, an event, the
title "Opened again: …" while it stays open). Within ``SAME_EPISODE`` of its first telling
it is that entry still: the title changes in place, the phone is not pushed again
(``within_the_entry``).

The same holds for an entry that closed and opened again before its anomaly was over
(``ClosedWhileMissing``): closed, the analysis no longer finds it, but the clear
hysteresis keeps it open two minutes; opened again within them, its findings join it as
if nothing happened (walk 10: the back door opened again 30 s after it was closed, not
told). Its subject read closed at an analysis that missed it, and reads open now: opened
again, told as after the hysteresis.

Only a member whose magnitude counts openings can count one more (``OPENING_COUNTS``: the
away entries count arrivals, the opening statistics count openings). A duration grows at every
analysis: the lock told unlocked while the family was away, its spell's minutes grown when
a neighbour let herself in through the told door to feed the cat, read as one more opening
and pushed again, though the entry rules had judged her visit usual.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from ..core.baselines.away_teaching import ENTRY_RULES
from ..core.baselines.usual_judge import GARAGE_RULES
from ..core.episodes import SAME_EPISODE
from ..core.models import AnomalyType, Finding
from ..core.statistics.away_openings import WINDOW_OPENED_WHILE_AWAY
from ..core.statistics.blips import OPENING_BLIP_AT_NIGHT
from ..core.statistics.openings import UNACCOMPANIED_OPENING
from .open_anomaly import OpenAnomaly
from .store import parse_time

_CLOSED = frozenset({"off", "closed", "locked"})
# Rules whose magnitude counts an entrance's openings or arrivals (not minutes, not motion).
OPENING_COUNTS = (
    ENTRY_RULES
    | GARAGE_RULES
    | {k.rule for k in (WINDOW_OPENED_WHILE_AWAY, UNACCOMPANIED_OPENING, OPENING_BLIP_AT_NIGHT)}
)
_OPEN = frozenset({"on", "open", "opening", "unlocked", "unlocking"})


def is_open(state: str | None) -> bool:
    """A state of an entrance that lets somebody in."""
    return state is not None and state.lower() in _OPEN


def _entry_while_away(anomaly: OpenAnomaly) -> bool:
    # Led by the motion that followed it once the door closed, it is still an entry.
    return (
        anomaly.while_away
        and not anomaly.hazard
        and (
            anomaly.anomaly_type == AnomalyType.SECURITY.value
            or any(m.anomaly_type == AnomalyType.SECURITY.value for m in anomaly.members)
        )
    )


class ClosedWhileMissing:
    """Entries while away whose subject read closed at an analysis that did not find
    them (not stored: a restart forgets, as it forgets the hysteresis' analyses)."""

    def __init__(self) -> None:
        self.signatures: set[str] = set()

    def missed(self, anomalies: Iterable[OpenAnomaly], states: Mapping[str, str]) -> None:
        """An analysis did not find ``anomalies`` (still open): note those read closed."""
        for anomaly in anomalies:
            state = states.get(anomaly.subject)
            if _entry_while_away(anomaly) and state is not None and state.lower() in _CLOSED:
                self.signatures.add(anomaly.signature)

    def opened_again(self, anomaly: OpenAnomaly, states: Mapping[str, str]) -> bool:
        """``anomaly``, found again, was closed when last missed and is open now."""
        if anomaly.signature not in self.signatures:
            return False
        self.signatures.discard(anomaly.signature)
        return is_open(states.get(anomaly.subject))

    def forget(self, keep: Iterable[str]) -> None:
        """Only open anomalies are remembered."""
        self.signatures &= set(keep)


def entered_again(
    anomaly: OpenAnomaly, states: Mapping[str, str], findings: Iterable[Finding]
) -> bool:
    """Whether ``anomaly``, an entry while nobody is home, has opened again since the
    last analysis that found it (judged before its readings take today's states): its
    subject read closed then and open now, and a member counts more openings than it did
    (a lock unlocked, then its door opened, is one entry: the neighbour watering plants)."""
    if not _entry_while_away(anomaly):
        return False
    before = anomaly.readings.get(anomaly.subject)
    if before is None or before.lower() not in _CLOSED or not is_open(states.get(anomaly.subject)):
        return False
    counted = {m.rule: m.magnitude for m in anomaly.members}
    # A member that counted nothing counted its one opening (an entry's first).
    return any(
        f.magnitude is not None
        and f.rule in OPENING_COUNTS
        and f.rule in counted
        and f.magnitude > (counted[f.rule] or 1.0)
        for f in findings
    )


def within_the_entry(anomaly: OpenAnomaly, now: datetime) -> bool:
    """``anomaly``, an entry while nobody is home, was first told at most ``SAME_EPISODE``
    ago: an opening now is that entry's (the door shut and opened again while the
    homeowner reads the first push). Its notification says "Opened again" in place; the
    phone is not pushed twice in a minute for one door (set 50: a terrace door and a back
    door, each pushed again 36 s to a minute after it was told). Somebody seen inside
    since is told on its own (``Escalation.INTRUSION``); an opening later is pushed."""
    first = parse_time(anomaly.first_seen)
    return first is not None and timedelta(0) <= now - first <= SAME_EPISODE
