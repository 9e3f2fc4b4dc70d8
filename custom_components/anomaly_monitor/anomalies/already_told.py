"""One situation told once: whether a new anomaly continues something the homeowner was
already told, so it is shown (a notification and repair issue kept current) but not
pushed again.

Which situations are one trouble is decided in one place, the table of ``same_trouble``;
this class holds the memories its rows read: a stay while everybody is away
(``away_stay``), a heating failure seen by several checks (``heat_spells``), a problem
the homeowner acknowledged (``acknowledged_hold``), a reading settling after one
(``aftermath``), a stay told while away recalled once it ended (``told_stay_recalled``),
a meter drawing on (``drawing_on``, not stored), a reading staying as far off
(``staying_off``, not stored), and which anomaly each part shown in another belongs to
(``consequence_of``). They are stored with the tracker's anomalies (``"already_told"`` in
its file), so a restart does not tell a situation once more; a damaged part loads empty,
with a warning.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import suppress
from datetime import datetime
from typing import Any

from ..core.models import EntityState, Transition
from .acknowledged_hold import AcknowledgedHold
from .aftermath import Aftermaths
from .away_stay import AwayStays
from .drawing_on import DrawingOn
from .ha_start import StartSpan
from .heat_spells import HeatSpells
from .incident_parts import shown_in
from .marked_occurrence import MarkedOccurrences
from .not_working import NotWorking
from .open_anomaly import OpenAnomaly
from .same_trouble import Question, same_trouble
from .staying_off import StayingOff
from .told_stay_recalled import RecalledStays
from .told_times import stored_time


class AlreadyTold:
    """The tracker's memory of situations already told."""

    def __init__(self) -> None:
        self.away_stays = AwayStays()
        self.heat_spells = HeatSpells()
        self.acknowledged_hold = AcknowledgedHold()
        self.marked_occurrences = MarkedOccurrences()
        self.aftermaths = Aftermaths()
        self.recalled_stays = RecalledStays()  # a stay told while away, ended: no news
        self.drawing_on = DrawingOn()  # not stored: after a restart, told again
        self.staying_off = StayingOff()  # not stored either
        # Shown as a told anomaly's consequence -> that anomaly: acknowledged with it (a
        # hot room as its heat, ``told_heat``; a meter cut after a hazard's onset).
        self.consequence_of: dict[str, str] = {}

    def consequences(self, signature: str) -> list[str]:
        """The anomalies shown as consequences of anomaly ``signature``."""
        return [c for c, source in self.consequence_of.items() if source == signature]

    def as_dict(self) -> dict[str, Any]:
        """The stored form: one part per memory."""
        return {
            "away_stay": self.away_stays.as_dict(),
            "heat_spells": self.heat_spells.as_dict(),
            "acknowledged_hold": self.acknowledged_hold.as_dict(),
            "not_working": self.acknowledged_hold.not_working.as_dict(),
            "marked_occurrences": self.marked_occurrences.as_dict(),
            "aftermaths": self.aftermaths.as_dict(),
            "recalled_stays": self.recalled_stays.as_dict(),
            "consequence_of": dict(self.consequence_of),
        }

    @classmethod
    def from_stored(cls, data: object, warnings: list[str]) -> AlreadyTold:
        """Rebuild the stored form; a damaged part is empty and noted in ``warnings``."""
        told = cls()
        if data is None:
            return told  # a file written before it was stored
        if not isinstance(data, Mapping):
            warnings.append("already_told: not a mapping")
            return told
        parts = (
            ("away_stay", "away_stays", AwayStays),
            ("heat_spells", "heat_spells", HeatSpells),
            ("acknowledged_hold", "acknowledged_hold", AcknowledgedHold),
            ("marked_occurrences", "marked_occurrences", MarkedOccurrences),
            ("aftermaths", "aftermaths", Aftermaths),
            ("recalled_stays", "recalled_stays", RecalledStays),
        )
        for key, attribute, memory in parts:
            try:
                setattr(told, attribute, memory.from_dict(data.get(key) or {}))
            except (KeyError, TypeError, ValueError, AttributeError):
                warnings.append(f"already_told: {key}")
        try:  # acknowledged device faults not mended since (``not_working``)
            not_working = NotWorking.from_dict(data.get("not_working") or {})
            not_working.retain(told.acknowledged_hold.seen)
            told.acknowledged_hold.not_working = not_working
        except (TypeError, AttributeError):
            warnings.append("already_told: not_working")
        of = data.get("consequence_of") or {}
        if isinstance(of, Mapping) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in of.items()
        ):
            told.consequence_of = dict(of)
        else:
            warnings.append("already_told: consequence_of")
        return told

    def watch(
        self,
        states: Mapping[str, str],
        entities: Mapping[str, EntityState] | None = None,
        now: datetime | None = None,
    ) -> None:
        """The states now: an acknowledged problem's hold ends when its evidence changes;
        what the areas of one just over read (``aftermath``)."""
        self.acknowledged_hold.watch(states, entities)
        if entities is not None and now is not None:
            self.aftermaths.watch(entities, now)
            self.drawing_on.watch(entities)
            self.staying_off.watch(entities)

    def continues(
        self,
        anomaly: OpenAnomaly,
        open_now: Iterable[OpenAnomaly],
        now: datetime,
        entities: Mapping[str, EntityState] | None = None,
        *,
        ended: Iterable[OpenAnomaly] = (),
        transitions: Sequence[Transition] = (),
        start: StartSpan | None = None,
        linked: Collection[tuple[str, str]] = (),
    ) -> bool | None:
        """For a new anomaly continuing a situation already told, whether it starts
        acknowledged; None when it is news. ``entities`` (the watched entities now) let an
        acknowledged problem hold its consequences (``acknowledged_hold``) and a told one
        whose devices have not changed since (``ended``: over, not answered) hold the
        same devices found by another rule (``told_unchanged``). ``start``: Home Assistant's
        last start, when no two devices changed together (``ha_start``). ``linked``: the
        (meter, level) pairs of the home (``cause_and_effect``)."""
        # The table of what makes two findings one trouble (``same_trouble``) decides.
        open_now = list(open_now)
        question = Question(
            anomaly, open_now, now, entities, list(ended), transitions, start, linked
        )
        same = same_trouble(self, question)
        if same is None:
            return None
        if same.consequence_of:
            self.consequence_of[anomaly.signature] = same.consequence_of
        if same.shown_in:
            shown_in(anomaly, same.shown_in, open_now)
        return same.acknowledged

    def broke_out(self, anomaly: OpenAnomaly) -> bool:
        """Whether an anomaly shown as a stay's sign is now more (an entry): told."""
        return self.away_stays.broke_out(anomaly)

    def observe(
        self,
        open_now: Iterable[OpenAnomaly],
        opened: list[OpenAnomaly],
        now: datetime,
        someone_home: bool,
    ) -> None:
        """After an update: what is open now extends the situations being followed."""
        open_now = list(open_now)
        self.heat_spells.observe(open_now, now)
        if someone_home:
            self.away_stays.end()
        else:
            self.away_stays.observe(open_now, opened, now)

    def acknowledged(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """The homeowner acknowledged ``anomaly``, open or ended, at ``now``."""
        self.away_stays.acknowledged(anomaly)
        if anomaly.ended is not None:
            self.acknowledged_hold.acknowledged_after_end(anomaly, now)
            with suppress(TypeError, ValueError):
                self.aftermaths.acknowledged_over(anomaly, stored_time(anomaly.ended))

    def ended(self, anomaly: OpenAnomaly, now: datetime) -> None:
        """An anomaly is over: an acknowledged one still holds its successors a while."""
        self.acknowledged_hold.ended(anomaly, now)
        self.drawing_on.ended(anomaly)
        self.staying_off.ended(anomaly)
        if anomaly.acknowledged:
            self.aftermaths.acknowledged_over(anomaly, now)
        self.consequence_of.pop(anomaly.signature, None)
