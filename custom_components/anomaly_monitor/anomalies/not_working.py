"""An acknowledged device fault lasts until the device is seen working again.

Set 43 (Windhoek): the pool pump's capacitor failed. Its plug switched it on at 08:00
each morning and it drew 0 W; "switched on, but draws no power" was told at 08:28, over
when the plug switched off at 14:00, and acknowledged at 19:10. The next three mornings
"the run it makes at these hours did not come" was pushed about the same meter, which had
not drawn a watt since: a fault the homeowner knew of, told three times more. The hold of
an acknowledged problem (``acknowledged_hold``) lapses ``HOLD`` after its end, and at
once when its switch reads another word; neither says the pump was mended.

A device fault (no hazard, no device gone offline) that showed a power or current meter
at rest, acknowledged, is followed from its end: while every analysis reads each such
meter at rest (``meter_cut``), the device has not worked since, and its hold lapses
neither with time nor with its switch turned off and on again (a plug's schedule, the
homeowner trying it). A meter that cannot be read for a while (a restart, a radio drop)
is no draw. Once a meter of it draws (mended, or another trouble: news), the hold is the
usual one again; and what it holds so is the fault only, never the device going offline
(``acknowledged_hold``). Stored with the tracker
(``already_told``): a restart does not mend the pump (the Windhoek home restarted the
third night).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..core.baselines.drop_judge import DROP_RULES
from ..core.home import METER_DEVICE_CLASSES
from ..core.models import AnomalyType, EntityState, parse_number
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly


def gone_offline(anomaly: OpenAnomaly) -> bool:
    """A device that dropped off (``DROP_RULES``), not one doing its work badly."""
    return any(rule in DROP_RULES for rule in anomaly.rules)


def _a_fault(anomaly: OpenAnomaly) -> bool:
    """A device not doing its work: no hazard, no device gone offline."""
    return (
        anomaly.anomaly_type == AnomalyType.DEVICE_MALFUNCTION
        and not anomaly.hazard
        and not gone_offline(anomaly)
    )


class NotWorking:
    """Signatures of acknowledged device faults whose meters have not drawn since."""

    def __init__(self) -> None:
        self._meters: dict[str, frozenset[str]] = {}

    def __contains__(self, signature: object) -> bool:
        return signature in self._meters

    def follow(self, anomaly: OpenAnomaly) -> None:
        """``anomaly`` (acknowledged) is over: followed if it is a device fault that read
        a number on what it showed (``watch`` keeps only power meters at rest)."""
        if not _a_fault(anomaly):
            return
        read = frozenset(
            e
            for e in anomaly.shown_evidence
            if (number := parse_number(anomaly.readings.get(e, ""))) is not None and number >= 0
        )
        if read:
            self._meters[anomaly.signature] = read

    def watch(self, entities: Mapping[str, EntityState]) -> None:
        """An analysis reads ``entities``: one whose meter draws, or that showed no power
        meter, is let go; a meter not read now (unknown, gone from the home) is kept."""
        kept: dict[str, frozenset[str]] = {}
        for signature, read in self._meters.items():
            states = [s for e in read if (s := entities.get(e)) is not None]
            meters = {s.entity_id for s in states if s.info.device_class in METER_DEVICE_CLASSES}
            unread = {e for e in read if e not in entities}
            drawing = any(
                s.entity_id in meters and s.number is not None and not cut_meter(s) for s in states
            )
            if (meters or unread) and not drawing:
                kept[signature] = frozenset(meters | unread)
        self._meters = kept

    def retain(self, held: Collection[str]) -> None:
        """Only those the acknowledged hold still keeps."""
        self._meters = {s: m for s, m in self._meters.items() if s in held}

    def as_dict(self) -> dict[str, list[str]]:
        """The stored form: signature -> the meters at rest."""
        return {signature: sorted(meters) for signature, meters in self._meters.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NotWorking:
        """Rebuild the stored form; a wrong shape raises ``TypeError``."""
        followed = cls()
        for signature, meters in data.items():
            if not isinstance(meters, list) or not all(isinstance(m, str) for m in meters):
                raise TypeError("not working")
            followed._meters[str(signature)] = frozenset(meters)
        return followed
