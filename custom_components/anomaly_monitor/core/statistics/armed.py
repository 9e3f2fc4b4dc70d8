"""Things switching on in an armed, empty home with nobody coming in."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import real_changes

# Devices a person switches on.
_SWITCHED = frozenset({"light", "switch", "media_player", "fan"})
# Grace after arming (the last person still leaving), and around an activation (someone
# coming in opens a door or moves within minutes of a light greeting them).
ARMING_GRACE = timedelta(minutes=10)
ARRIVAL_LEAD = timedelta(minutes=10)


def _armed_away_spans(home: HomeView) -> list[tuple[datetime, datetime]]:
    spans: list[tuple[datetime, datetime]] = []
    for panel in home.history:
        if home.domain(panel) != "alarm_control_panel":
            continue
        start: datetime | None = None
        for change in home.changes(panel):
            away = change.state.lower() in ("armed_away", "armed_vacation")
            if away and start is None:
                start = change.when
            elif not away and start is not None:
                # Whoever disarms arrived a little before: their lights are not intruders.
                spans.append((start + ARMING_GRACE, change.when - ARRIVAL_LEAD))
                start = None
        if start is not None:
            spans.append((start + ARMING_GRACE, home.end))
    return spans


def activation_while_armed_away(home: HomeView) -> Iterator[Finding]:
    """A light or appliance switched on while the alarm was armed away and nobody came in.

    No magnitude: one switch-on is the finding (a kind, not a degree).
    """
    spans = _armed_away_spans(home)
    if not spans:
        return
    arrivals = sorted(
        t.when
        for e in home.history
        if home.domain(e) == "binary_sensor"
        and home.device_class(e) in (OCCUPANCY_DEVICE_CLASSES | OPENING_DEVICE_CLASSES)
        for t in home.changes(e)
        if t.state.lower() == "on"
    )
    for entity_id in home.history:
        if home.domain(entity_id) not in _SWITCHED:
            continue
        for change in real_changes(home, entity_id):
            if change.state.lower() not in ("on", "playing"):
                continue
            when = change.when
            if not any(start <= when <= end for start, end in spans):
                continue
            index = bisect_left(arrivals, when - ARRIVAL_LEAD)
            if index < len(arrivals) and arrivals[index] <= when + ARRIVAL_LEAD:
                continue  # somebody coming in (a light may greet them before the door)
            yield Finding(
                rule="activation_while_armed_away",
                evidence=(entity_id,),
                reasoning=f"{entity_id} switched on at {when:%Y-%m-%d %H:%M} while the alarm "
                "was armed away and no door or motion showed anybody coming in.",
                anomaly_type=AnomalyType.SECURITY,
                severity=Severity.MEDIUM,
                recommendation="Check the automation or remote command that switched it, "
                "and the home.",
            )
            break
