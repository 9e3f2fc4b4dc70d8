"""A told reading that stayed as far off since its incident was over is that incident.

Held-out set 25 (Sofia): the district heating cut at −9 °C; the bedroom "crept below what
it read at these hours" was told at 05:19. At noon the family went out and the living
room's air conditioner went to its eco level: the home "moved together", and the incident
was over with the bedroom still at 17.5 °C. At 19:00, the bedroom at 16.8 °C, it was
pushed again: one cold night and day, told twice, past ``told_unchanged.TOLD_HOLD``,
which keeps a situation in front of the homeowner for a few hours only.

The mirror of ``drawing_on`` for a sensor that reads a level (a thermometer, a humidity
or a tank level; not a power meter, which ``drawing_on`` follows): a told incident that
ended unanswered, its finding saying which way its subject was off (its magnitude: below
or above), is followed from its end. While every analysis reads the subject no nearer than
when it was last found (no warmer, for a room told too cold), the departure goes on, and
the same sensor found again by a rule of no graver degree is that departure
(``told_unchanged``), as long as the ended incident is kept for feedback. Once it reads
nearer, or cannot be read, it is let go and the next is news. Not stored: after a
restart, nothing is known to have stayed off, and it is told.
"""

from __future__ import annotations

from collections.abc import Container, Mapping

from ..core.home import METER_DEVICE_CLASSES
from ..core.models import EntityState, parse_number
from .open_anomaly import OpenAnomaly


class StayingOff:
    """Signatures of told readings over and as far off since: (subject, reading, side)."""

    def __init__(self) -> None:
        self._off: dict[str, tuple[str, float, int]] = {}

    def __contains__(self, signature: object) -> bool:
        return signature in self._off

    def ended(self, anomaly: OpenAnomaly) -> None:
        """``anomaly`` is over: followed if it said which way its subject's reading was off."""
        then = parse_number(anomaly.readings.get(anomaly.subject, ""))
        side = anomaly.magnitude
        if then is None or not side or anomaly.acknowledged:
            return
        self._off[anomaly.signature] = (anomaly.subject, then, 1 if side > 0 else -1)

    def watch(self, entities: Mapping[str, EntityState]) -> None:
        """An analysis reads ``entities``: a reading back nearer (or unreadable) is let go."""
        self._off = {
            signature: (subject, then, side)
            for signature, (subject, then, side) in self._off.items()
            if (state := entities.get(subject)) is not None
            and state.info.device_class not in METER_DEVICE_CLASSES
            and state.number is not None
            and (state.number - then) * side >= 0
        }


class AnyOf:
    """Signatures followed by any of several memories (a meter drawing on, a reading
    staying off): one container for ``told_unchanged``."""

    def __init__(self, *parts: Container[str]) -> None:
        self._parts = parts

    def __contains__(self, signature: object) -> bool:
        return any(signature in part for part in self._parts)
