"""A hazard and a told hazard that read each other's sensor are one trouble.

Set 28 (Diego Martin): bush-fire smoke blown into a bedroom, its PM2.5 sensor at 64 µg/m³
from 15:30 and 185 at 15:38; the landing's smoke alarm went at 15:40 and was told ("Smoke
detected"), and 10 s later "air unhealthy to breathe" about the bedroom's PM2.5 was pushed
as a second incident: one smoke, told twice. The smoke detector's finding shows the air
unhealthy anywhere in the home, and the room's heat, as what confirms it
(``rules.safety._corroboration``); that reading is the other hazard's subject.

A new hazard joins an open, told hazard when either shows the other's subject and that
subject is a sensor reading a number (a PM2.5, a thermometer): the milder one told after
the graver is shown in its notification; a graver one told after the milder (the alarm
going off once the air was told) joins it and is told again as graver, in the same
notification. A binary sensor shown beside a hazard (the motion of the gas's room) is
who is there, not the hazard's reading: a person lying still there is its own trouble.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.feedback import is_hazard
from ..core.models import Finding
from .open_anomaly import OpenAnomaly, rank


def _a_reading(entity_id: str) -> bool:
    return entity_id.startswith("sensor.")


def hazard_reading_told(finding: Finding, open_now: Sequence[OpenAnomaly]) -> OpenAnomaly | None:
    """The open hazard ``finding`` (a new hazard) is one trouble with, or None."""
    if not is_hazard(finding.anomaly_type, finding.severity.value):
        return None
    shown = set(finding.shown_evidence)
    for told in open_now:
        if not told.hazard or told.ended is not None or told.signature == finding.signature:
            continue
        if _a_reading(told.subject) and told.subject in shown:
            return told  # the told reading confirms this hazard (graver: told as such)
        if (
            _a_reading(finding.subject)
            and finding.subject in told.shown_evidence
            and finding.severity.rank <= rank(told.severity)
        ):
            return told  # this reading already shown in the told hazard
    return None
