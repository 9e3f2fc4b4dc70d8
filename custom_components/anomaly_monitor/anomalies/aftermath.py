"""A room still off after an acknowledged problem there is over is its aftermath.

Set 14 (Belgrave): the evaporative cooler's pump seized at 13:10 on a 41 °C day; "running
far below its draw" was told at 13:30, over at 17:06 when the cooler was switched off,
and acknowledged at 17:50 (read late). The living room, 33 °C by then, cooled slowly
after the evening's cool change; at 19:32 "above anything it read at these hours for 4
hours" pushed the same failure again (on 65ba6e3). While a told problem lasts, a reading
of its area going off is its doing (``reading_consequence``); once it is over, that
reading was news, however far it had gone while the problem lasted.

So once an acknowledged problem is over, the first analysis after that (its end, or the
acknowledgement when it was read late) keeps what each reading of the areas of the
devices it showed reads: a thermometer, a hygrometer, a level (no meter: a meter drawing
later is a new use). For ``acknowledged_hold.HOLD`` after its end, a new finding that is
only one of those readings going off (no hazard, nothing while nobody is home, no graver)
on the side the finding says, no further off than it read then, is the homeowner's
acknowledged problem still settling: it opens acknowledged. Further off (the room hotter
than when the problem was over), a finding with no side, or another room's reading is
news; so is anything after a device gone offline (it makes nothing go off: set 14's CO
detector and the washer beside it).
Stored with the tracker (``already_told``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..core.models import AnomalyType, EntityState
from ..core.state_blips import is_no_state
from .acknowledged_hold import HOLD
from .open_anomaly import OpenAnomaly, rank
from .told_times import stored_time

# What a meter reads after the problem says nothing of it: a new use.
_METERS = frozenset({"power", "current", "energy"})
_READING_KINDS = frozenset(
    {AnomalyType.DEVICE_MALFUNCTION, AnomalyType.ENVIRONMENTAL_CONFLICT, AnomalyType.ENERGY}
)


@dataclass(frozen=True, slots=True)
class _Over:
    evidence: tuple[str, ...]
    rank: int
    ended: datetime
    # What the readings of its areas read at the first analysis after it was over (None:
    # not read yet).
    readings: tuple[tuple[str, float], ...] | None = None


class Aftermaths:
    """The acknowledged problems over within ``HOLD``, and what their areas read then."""

    def __init__(self) -> None:
        self.over: dict[str, _Over] = {}

    def acknowledged_over(self, anomaly: OpenAnomaly, ended: datetime) -> None:
        """``anomaly``, acknowledged, is over (since ``ended``)."""
        if not anomaly.shown_evidence:
            return
        if any(is_no_state(r) for r in anomaly.readings.values()):
            return  # a device gone offline makes nothing go off
        self.over[anomaly.signature] = _Over(
            tuple(anomaly.shown_evidence), rank(anomaly.severity), ended
        )

    def watch(self, entities: Mapping[str, EntityState], now: datetime) -> None:
        """An analysis reads ``entities`` at ``now``: what the areas of the ones just over
        read; the ones over for ``HOLD`` are forgotten."""
        kept = {}
        for signature, over in self.over.items():
            if now - over.ended >= HOLD:
                continue
            if over.readings is None:
                over = replace(over, readings=_area_readings(over.evidence, entities))  # noqa: PLW2901
            kept[signature] = over
        self.over = kept

    def covers(self, anomaly: OpenAnomaly, entities: Mapping[str, EntityState]) -> bool:
        """``anomaly`` (just opened) is a reading still settling after an acknowledged
        problem in its area is over, no further off than it read then."""
        side = anomaly.magnitude
        if (
            anomaly.hazard
            or anomaly.while_away
            or not side
            or anomaly.anomaly_type not in _READING_KINDS
        ):
            return False
        reading = entities.get(anomaly.subject)
        now = reading.number if reading is not None else None
        if now is None:
            return False
        for over in self.over.values():
            then = dict(over.readings or ()).get(anomaly.subject)
            if then is None or rank(anomaly.severity) > over.rank:
                continue
            if (side > 0 and now <= then) or (side < 0 and now >= then):
                return True
        return False

    def as_dict(self) -> dict[str, Any]:
        """The stored form: signature -> the problem over, and its areas' readings then."""
        return {
            signature: {
                "evidence": list(o.evidence),
                "rank": o.rank,
                "ended": o.ended.isoformat(),
                "readings": None if o.readings is None else dict(o.readings),
            }
            for signature, o in self.over.items()
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Aftermaths:
        """Rebuild the stored form; a wrong shape raises ``ValueError``/``TypeError``."""
        memory = cls()
        for signature, o in data.items():
            evidence, readings = o["evidence"], o["readings"]
            if not all(isinstance(e, str) for e in (signature, *evidence)) or not isinstance(
                o["rank"], int
            ):
                raise TypeError("aftermath")
            memory.over[signature] = _Over(
                tuple(evidence),
                o["rank"],
                stored_time(o["ended"]),
                None
                if readings is None
                else tuple((str(e), float(v)) for e, v in dict(readings).items()),
            )
        return memory


def _area_readings(
    evidence: tuple[str, ...], entities: Mapping[str, EntityState]
) -> tuple[tuple[str, float], ...]:
    """What each reading (no meter) of the areas of ``evidence`` reads now."""
    areas = {
        state.info.area
        for e in evidence
        if (state := entities.get(e)) is not None and state.info.area
    }
    return tuple(
        (entity_id, state.number)
        for entity_id, state in entities.items()
        if state.info.area in areas
        and state.number is not None
        and state.info.device_class not in _METERS
    )
