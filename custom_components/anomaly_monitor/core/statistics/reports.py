"""Devices that say in words that something is wrong.

Appliances, HVAC units and energy systems often expose a text (enum) sensor for their
status or health: "ok", "cleaning", "error", "fault", "risk_high". When such a sensor
enters a state that names a fault, a failure or a high risk, the device itself is
reporting the anomaly, whatever the numbers around it show.
"""

from __future__ import annotations

from collections.abc import Iterator
import re

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity, parse_number
from .timeline import real_changes

# Words that name a fault when they appear in a status (split on anything not a letter).
PROBLEM_WORDS = frozenset(
    {"fault", "faulty", "error", "failure", "failed", "malfunction", "critical", "defective"}
)
# A risk is a problem only when the status also says it is high.
_RISK = "risk"
_HIGH = frozenset({"high", "severe"})
_WORD = re.compile(r"[a-z]+")


def names_a_problem(state: str) -> bool:
    """A status text that reports a fault, a failure or a high risk."""
    text = state.strip().lower()
    if not text or text[0] in "{[":
        return False  # structured payloads (JSON reports) are data, not a status
    words = set(_WORD.findall(text))
    return bool(words & PROBLEM_WORDS) or (_RISK in words and bool(words & _HIGH))


DEVICE_REPORTED_PROBLEM = FindingKind(
    "device_reported_problem", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def device_reported_problem(home: HomeView) -> Iterator[Finding]:
    """A status sensor switched to a state that names a fault or a high risk.

    No magnitude: the device's own words are the finding.
    """
    for entity_id in home.history_of("sensor"):
        if len(home.numbers(entity_id)) == len(home.history.get(entity_id, ())):
            continue  # every state a number (the readings, parsed once per analysis): no words
        for change in real_changes(home, entity_id):
            if parse_number(change.state) is not None or not names_a_problem(change.state):
                continue
            yield DEVICE_REPORTED_PROBLEM.finding(
                evidence=(entity_id,),
                reasoning=f"{entity_id} reported {change.state!r} at {change.when:%Y-%m-%d %H:%M}.",
                recommendation=f"Look at what {entity_id} reports and service the device.",
            )
            break
