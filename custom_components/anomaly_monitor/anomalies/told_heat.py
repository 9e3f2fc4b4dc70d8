"""A room hot where a told fire burns, or beside a device told running hot: that incident.

Set 13 (Odsherred): the workshop's smoke alarm told a fire by the kiln at 01:40; two
minutes later the kiln room next door, "far hotter than a room should be", was pushed as a
new anomaly. Earlier, the kiln's contactor welded: its thermometer read 1010 °C, told at
03:50; at 05:30 the kiln room's thermometer "far hotter than a room should be" was pushed
too. One fire, one kiln running away, each told twice.

While an anomaly is told and not over, a new one that says only that rooms are hot (each
thermometer it shows reads above a room's hot line; no graver than medium, so a fire's
heat, ``room_heat_fire_risk``, is told) is that anomaly's heat: shown and kept current,
not pushed; acknowledged with it if that one was, or when it is (the kiln acknowledged,
the kiln room "above its hours" later is held as its heat: ``acknowledged_hold``). So
when that one is a fire (a smoke or heat detector sounding: its heat spreads through the
building, and the homeowner was told to leave it), anywhere in the home; and when it
shows a thermometer reading hot in the same area (the kiln's own). A hot room while
nothing hot is told, or away from the device told hot, is news; smoke, gas and CO are
always told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.models import EntityState, Severity
from ..core.rules.temperature_bands import HOT_ROOM, celsius_of
from .open_anomaly import OpenAnomaly, rank

# Detectors that say a fire burns (``room_extremes`` reads a room's heat with them so).
_FIRE_ALARMS = frozenset({"smoke", "heat"})


def _hot(state: EntityState | None) -> bool:
    return state is not None and (celsius := celsius_of(state)) is not None and celsius > HOT_ROOM


def _rooms_hot(anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
    """Only rooms hot, no graver than medium."""
    shown = anomaly.shown_evidence
    return (
        bool(shown)
        and rank(anomaly.severity) <= Severity.MEDIUM.rank
        and all(_hot(entities.get(e)) for e in shown)
    )


def _fire(told: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
    """A smoke or heat detector sounding, told as a hazard."""
    return told.hazard and any(
        (state := entities.get(e)) is not None
        and state.domain == "binary_sensor"
        and state.info.device_class in _FIRE_ALARMS
        for e in told.shown_evidence
    )


def _hot_beside(told: OpenAnomaly, areas: set[str], entities: Mapping[str, EntityState]) -> bool:
    """A thermometer ``told`` shows reads hot in one of ``areas``."""
    return any(
        (state := entities.get(e)) is not None and state.info.area in areas and _hot(state)
        for e in told.shown_evidence
    )


def told_heat(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], entities: Mapping[str, EntityState]
) -> list[OpenAnomaly]:
    """The told anomalies still open whose heat ``anomaly`` (just opened) is; none when
    it is news."""
    if not _rooms_hot(anomaly, entities):
        return []
    areas = {
        area
        for e in anomaly.shown_evidence
        if (state := entities.get(e)) is not None and (area := state.info.area)
    }
    return [
        other
        for other in told
        if other.ended is None
        and other.signature != anomaly.signature
        and rank(anomaly.severity) <= rank(other.severity)
        and (_fire(other, entities) or _hot_beside(other, areas, entities))
    ]
