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

Sets 13 and 15 show the other order. Odsherred: the heat pump stopped on a fault at
02:00; its meter's missing run was told at 05:11, then "Varmepumpe is set to heat but
idles" pushed at 06:46. Chicago: the boiler's low-water cutoff tripped; "the living room
well below what it is kept at" and "the boiler has drawn almost no power" were pushed in
the same second. A meter that feeds the heating is known by what the devices are: it is
named after, or one device with, a thermostat the failure shows (HA's registry, or the
heat pump's "Varmepumpe Power" beside its "Varmepumpe"); or it stopped before the
failure and both were found by one analysis (the source's missed run and the rooms'
cooling each need hours to show, and are found together). Then whichever was told first
is the incident and the other its part, shown in its notification, not pushed: a
failure after its told source (``failing_from_told_source``), a linked source after its
told failure however long it has been stopped (``stopped_heat_source``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta

from ..core.device_roles import named_after, same_device
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


def _stopped_meter(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> EntityState | None:
    """The meter ``anomaly`` is about alone, reading no draw (no hazard, no graver than
    high, nothing "while nobody is home"); None when it is not such."""
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
        return None
    return meter


def feeds(meter: EntityState, failure: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
    """The meter is the heating's own, by what the devices are: named after, or one
    device with, a thermostat (a climate entity) the failure shows. No id word is read."""
    return any(
        (state := entities.get(e)) is not None
        and state.domain == "climate"
        and (same_device(meter, state) or named_after(meter, state))
        for e in failure.shown_evidence
    )


def _source_of(
    meter: EntityState,
    source: OpenAnomaly,
    failure: OpenAnomaly,
    entities: Mapping[str, EntityState],
) -> bool:
    """The meter ``source`` is about stopped before ``failure`` was found and feeds it:
    by the devices, by the time it stopped (``CAUSE_BEFORE``), or both found at once."""
    found = parse_time(failure.first_seen)
    stopped = meter.last_changed
    if found is None or stopped is None or stopped > found:
        return False  # a cause comes before its effect
    return (
        found - CAUSE_BEFORE <= stopped
        or feeds(meter, failure, entities)
        or parse_time(source.first_seen) == found
    )


def stopped_heat_source(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> list[OpenAnomaly]:
    """The told heating failures whose source ``anomaly`` (just opened) is; none: news."""
    meter = _stopped_meter(anomaly, entities)
    if meter is None:
        return []
    return [
        other
        for other in told
        if other.signature != anomaly.signature
        and _failing(other)
        and _source_of(meter, anomaly, other, entities)
    ]


def failing_from_told_source(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> OpenAnomaly | None:
    """The told, open anomaly about a stopped meter feeding the heating whose failure
    ``anomaly`` (just opened) is; None when it is news (a graver failure is told)."""
    if not _failing(anomaly) or not all(rule in FAILING_RULES for rule in anomaly.rules):
        return None
    for other in told:
        if (
            other.signature == anomaly.signature
            or other.ended is not None
            or rank(anomaly.severity) > rank(other.severity)
        ):
            continue
        meter = _stopped_meter(other, entities)
        if meter is not None and _source_of(meter, other, anomaly, entities):
            return other
    return None
