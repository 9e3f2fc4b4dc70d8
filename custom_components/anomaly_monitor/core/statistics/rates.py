"""Event rates: an entity suddenly far busier than its own baseline, HVAC short cycling."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..models import AnomalyType, Finding, Severity
from .timeline import intervals, real_changes

# A burst is judged per clock hour against the entity's own hourly rate in the window;
# a baseline needs some hours to exist.
MIN_BASELINE_SPAN = timedelta(hours=6)
# Changes in one hour that are worth a look at all (ten openings, ten motions)...
BURST_MIN_CHANGES = 20
# ...and how many times the entity's typical busy hour they must exceed.
BURST_FACTOR = 5.0
# Heating/cooling runs shorter than this are short cycles (HVAC rule of thumb: < 10 min).
SHORT_CYCLE = timedelta(minutes=10)
SHORT_CYCLES_NEEDED = 4
# A power meter changing within this of the HVAC's switching follows the HVAC.
SAME_MOMENT = timedelta(minutes=1)

_HVAC_ACTIVE_WORDS = ("heating", "cooling", "heat", "cool", "drying", "fan")


def _burst_candidate(home: HomeView, entity_id: str) -> bool:
    domain = home.domain(entity_id)
    if domain in ("light", "switch", "fan", "cover", "lock", "media_player"):
        return True
    device_class = home.device_class(entity_id)
    return domain == "binary_sensor" and device_class in (
        OCCUPANCY_DEVICE_CLASSES | OPENING_DEVICE_CLASSES
    )


EVENT_RATE_BURST = FindingKind("event_rate_burst", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM)


def event_rate_burst(home: HomeView) -> Iterator[Finding]:
    """In one hour an opening, motion sensor or actuator changed many times its usual rate.

    Magnitude: the changes in the busiest hour.
    """
    transitions = home.window.transitions
    if not transitions:
        return
    start = home.window.start or min(t.when for t in transitions)
    if home.end - start < MIN_BASELINE_SPAN:
        return
    for entity_id in home.history:
        if not _burst_candidate(home, entity_id):
            continue
        changes = real_changes(home, entity_id)
        if len(changes) < BURST_MIN_CHANGES:
            continue
        per_hour = Counter(t.when.replace(minute=0, second=0, microsecond=0) for t in changes)
        (busiest, peak), *_ = per_hour.most_common(1)
        others = sorted(count for hour, count in per_hour.items() if hour != busiest)
        # The typical busy hour: upper quartile of the other hours with activity.
        typical = others[(3 * len(others)) // 4] if others else 1
        if peak < BURST_MIN_CHANGES or peak < BURST_FACTOR * typical:
            continue
        yield EVENT_RATE_BURST.finding(
            evidence=(entity_id,),
            reasoning=f"{entity_id} changed {peak} times in the hour from {busiest:%H:%M}; "
            f"in its other active hours it changes at most about {typical} times.",
            recommendation="Check the device (loose contact, failing sensor) or what disturbs it.",
            magnitude=float(peak),
        )


def hvac_active(state: str) -> bool:
    """A climate state (``"heat (heating)"`` or a bare action) that means it is running."""
    text = state.lower()
    if "(" in text:  # "heat (heating)": the action in brackets says what it does now
        text = text.partition("(")[2]
    return any(word in text for word in _HVAC_ACTIVE_WORDS) and "idle" not in text


HVAC_SHORT_CYCLING = FindingKind(
    "hvac_short_cycling", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def hvac_short_cycling(home: HomeView) -> Iterator[Finding]:
    """A heating or cooling unit switches on and off every few minutes (short cycling).

    Magnitude: the number of short cycles.
    """
    for entity_id in home.history_of("climate"):
        runs = [i for i in intervals(home, entity_id) if not i.ongoing and hvac_active(i.state)]
        short = [i for i in runs if i.duration < SHORT_CYCLE]
        if len(short) < SHORT_CYCLES_NEEDED:
            continue
        switching = [i.start for i in short] + [i.end for i in short]
        evidence = [entity_id]
        area = home.area(entity_id)
        for other in home.history:
            if home.domain(other) != "sensor" or home.device_class(other) != "power":
                continue
            if area is None or home.area(other) != area:
                continue
            moves = [t.when for t in home.changes(other)]
            followed = sum(
                1 for when in switching if any(abs(m - when) <= SAME_MOMENT for m in moves)
            )
            if followed >= 0.75 * len(switching):
                evidence.append(other)
        yield HVAC_SHORT_CYCLING.finding(
            evidence=tuple(evidence),
            reasoning=f"{entity_id} ran {len(short)} heating/cooling cycles shorter than "
            f"{SHORT_CYCLE.total_seconds() / 60:.0f} min (first at {short[0].start:%H:%M}).",
            recommendation="Short cycling wears the unit: check its sizing, filter and thermostat.",
            magnitude=float(len(short)),
        )
