"""A radio drop does not end an anomaly: its evidence read nothing, not "fine".

A chest freezer's plug stopped cycling; the homeowner acknowledged it. Its Zigbee link
dropped for minutes: the rule that found the idle spell could not read the meter, the
anomaly cleared, and when the meter came back (still idle) the spell began anew and the
anomaly opened again, told again, ten times in a fortnight. So:

- while any of an anomaly's shown evidence reads no state (``unknown``, ``unavailable``:
  ``core.state_blips``), an analysis without it is not a miss: it stays open as it was
  (acknowledged stays acknowledged);
- once the evidence reads again, the rules' spells restarted at its return (a door open
  for 20 min is "open 2 min" again): the anomaly is held while its evidence reads as it
  did when last found, for at most ``RETURN_HOLD`` (long enough for the rule to find it
  again: three times a cycling appliance's longest rest), and joins the finding when it
  comes back. Evidence that reads otherwise (the freezer runs again, the door closed)
  releases it: then it clears with the usual hysteresis.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from ..core.models import parse_number
from ..core.state_blips import is_no_state
from .open_anomaly import OpenAnomaly
from .store import parse_time

# How long an anomaly waits for its rule after its evidence came back reading the same.
RETURN_HOLD = timedelta(hours=12)
# Two readings of a number are "the same" within this share of the larger (and
# ``_NEAR_ZERO``): an idle meter at 0.0 W and 0.4 W, a freezer at -18 and -17 °C.
_SAME_SHARE = 0.2
_NEAR_ZERO = 0.5


def readings_of(anomaly: OpenAnomaly, states: Mapping[str, str]) -> dict[str, str]:
    """The states its shown evidence reads now (those that read something)."""
    return {
        e: states[e]
        for e in anomaly.shown_evidence or anomaly.evidence
        if e in states and not is_no_state(states[e])
    }


def reads_as(before: str, now: str) -> bool:
    """Whether ``now`` reads as ``before`` did: the same word, or about the same number."""
    if before.strip().lower() == now.strip().lower():
        return True
    old, new = parse_number(before), parse_number(now)
    if old is None or new is None:
        return False
    return abs(old - new) <= _SAME_SHARE * max(abs(old), abs(new)) + _NEAR_ZERO


def found(anomaly: OpenAnomaly, states: Mapping[str, str]) -> None:
    """Found by an analysis: remember what its evidence reads; no drop is pending."""
    anomaly.readings = readings_of(anomaly, states)
    anomaly.dark_since = anomaly.back_since = None


def holds(anomaly: OpenAnomaly, states: Mapping[str, str], now: datetime) -> bool:
    """Missed by an analysis: whether a drop of its evidence keeps it (not a miss)."""
    watched = [e for e in anomaly.readings if e in states]
    if not watched:
        return False
    if any(is_no_state(states[e]) for e in watched):
        anomaly.dark_since = anomaly.dark_since or now.isoformat()
        anomaly.back_since = None
    elif anomaly.dark_since is None:
        return False  # no drop: an ordinary miss
    else:
        anomaly.back_since = anomaly.back_since or now.isoformat()
        back = parse_time(anomaly.back_since) or now
        same = all(reads_as(anomaly.readings[e], states[e]) for e in watched)
        if not same or now - back > RETURN_HOLD:
            anomaly.dark_since = anomaly.back_since = None  # its misses count from now
            return False
    anomaly.missed, anomaly.missing_since = 0, None
    return True
