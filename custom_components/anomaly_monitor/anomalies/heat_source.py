"""A meter that stopped just before a room's heating was told failing: its heat source.

Set 13 (Grímsey): the oil tank ran dry in a gale; the burner locked out at 09:00 and drew
nothing; "the living room has been heating for two hours but has not warmed" was told at
10:43, then "the burner has drawn almost no power for 2 h 39 min" pushed at 11:39. One
failure, the burner its cause, told twice.

While a heating failure is told and not over (a rule that says the heating does not
serve a room: ``heat_spells.FAILING_RULES``), a new anomaly about a meter alone that reads
no draw and has not changed since it stopped, within ``CAUSE_BEFORE`` before that failure
was first found, is that failure's source (the boiler, the burner, the heat pump): shown
and kept current, not pushed, acknowledged if the failure was. A cause comes before its
effect: a meter that stops later, while the rooms are already cold (a freezer), is news,
as is a hazard, or one graver than high.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta

from ..core.models import EntityState, Severity
from .heat_spells import FAILING_RULES
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time

# A room's heating is found failing within this of its source stopping (the rooms cool
# for an hour or two before a rule can tell the heating does not warm them).
CAUSE_BEFORE = timedelta(hours=3)


def _failing(anomaly: OpenAnomaly) -> bool:
    return (
        anomaly.ended is None
        and not anomaly.hazard
        and any(rule in FAILING_RULES for rule in anomaly.rules)
    )


def stopped_heat_source(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> list[OpenAnomaly]:
    """The told heating failures whose source ``anomaly`` (just opened) is; none: news."""
    meter = entities.get(anomaly.subject)
    if (
        anomaly.hazard
        or anomaly.while_away
        or rank(anomaly.severity) > Severity.HIGH.rank
        or set(anomaly.shown_evidence) != {anomaly.subject}
        or meter is None
        or meter.last_changed is None
        or not cut_meter(meter)
    ):
        return []
    stopped = meter.last_changed
    failures = []
    for other in told:
        found = parse_time(other.first_seen)
        if (
            other.signature != anomaly.signature
            and _failing(other)
            and found is not None
            and found - CAUSE_BEFORE <= stopped <= found
        ):
            failures.append(other)
    return failures
