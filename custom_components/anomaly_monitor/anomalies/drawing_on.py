"""A told meter that never stopped drawing since its incident was over is that incident.

Set 17 (Cluj, on b194a63): a tenant's radiator left on over the weekend. "Drawn 1,980 W
since Fri 15:20, 3 h of it at hours it never draws" was told at 02:00; by day those hours
were behind the rule's window and the incident was over, the radiator still drawing; the
next night "drawn 1,982 W since Fri 15:20" was pushed again. One run, told twice, 26 h
apart: past ``told_unchanged.TOLD_HOLD``, which keeps a situation in front of the
homeowner for a few hours only.

A power meter (device class power or current) whose told incident ended unanswered is
followed from its end (the incident's subject, or the meter it shows beside its plug's
switch): while every analysis reads it drawing at least ``STILL_DRAWING`` of
what it drew when last found, its run goes on, and the same meter found again by a rule
of no graver degree is that run (``told_unchanged``), as long as the ended incident is
kept for feedback. Once it reads less (stopped, a cycle's pause), or cannot be read, the
run is over and the next is news. Not stored: after a restart, nothing is known to have
drawn on, and it is told.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.home import METER_DEVICE_CLASSES
from ..core.models import EntityState, parse_number
from .open_anomaly import OpenAnomaly

# Still the same run: drawing at least this share of what it drew when last found.
STILL_DRAWING = 0.5


class DrawingOn:
    """Signatures of told meters over and drawing on since, with what they drew."""

    def __init__(self) -> None:
        self._drew: dict[str, tuple[str, float]] = {}

    def __contains__(self, signature: object) -> bool:
        return signature in self._drew

    def ended(self, anomaly: OpenAnomaly) -> None:
        """``anomaly`` is over: followed if its subject read a draw when last found, or,
        about a plug's switch, the meter it shows (``watch`` lets go of anything that is
        no meter)."""
        if anomaly.acknowledged:
            return
        for entity_id in (anomaly.subject, *anomaly.shown_evidence):
            drew = parse_number(anomaly.readings.get(entity_id, ""))
            if drew is not None and drew > 0:
                self._drew[anomaly.signature] = (entity_id, drew)
                return

    def watch(self, entities: Mapping[str, EntityState]) -> None:
        """An analysis reads ``entities``: a meter that stopped (or is none) is let go."""
        self._drew = {
            signature: (subject, drew)
            for signature, (subject, drew) in self._drew.items()
            if (state := entities.get(subject)) is not None
            and state.info.device_class in METER_DEVICE_CLASSES
            and state.number is not None
            and state.number >= drew * STILL_DRAWING
        }
