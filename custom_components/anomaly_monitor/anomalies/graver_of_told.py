"""A graver finding that shows the subject of an open incident is that incident, graver.

Set 34 (Palermo): the grandfather's bed "is left by 06:45 on 13 of 13 mornings; not
today" was told at 07:30 (``routine_missed``, about the bed); 13 min later "no motion
sensor has seen movement for 2 h 50 min", with the same bed among its evidence, was pushed
as a second incident (a stillness has its own incident key, ``core.stillness``). Set 33
(Quito): the bathroom door "open far longer than usual, the household asleep, nothing
moved by it since" told at 03:51, then the grandmother "in the bathroom for 40 min" at
04:21, the door of the room where she lies among its evidence: two notifications for one
fall. ``told_device`` shows such a later finding in the told incident only when it is no
graver; a graver one opened an incident of its own.

A new incident graver than an open one whose subject (a device: the bed, the door) it
shows among its evidence joins that one: one incident, told again at once as graver (the
homeowner hears the rise, nothing is delayed). A finding that does not show the told
device (smoke after a leak, a lock after a door), or is not graver, is judged as before.
One told minutes ago and over, its devices unchanged since, is taken too
(``graver_after_end``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.device_roles import named_as_one
from ..core.models import HOME_SUBJECT, Finding
from ..core.rules.safety import HAZARD_DETECTED
from .open_anomaly import OpenAnomaly, rank


def _shows(finding: Finding, subject: str) -> bool:
    return any(e == subject or named_as_one(e, subject) for e in finding.shown_evidence)


def graver_of_told(
    finding: Finding, open_now: Sequence[OpenAnomaly], just_over: Sequence[OpenAnomaly] = ()
) -> OpenAnomaly | None:
    """The open anomaly about a device ``finding`` (a new incident's summary) shows, when
    ``finding`` is graver than it: ``finding`` is that incident become graver. Or one of
    ``just_over`` (``graver_after_end``: over minutes ago, its devices as they were), when
    ``finding`` is no detector's alarm (smoke, gas, a leak: told as its own)."""
    over = () if finding.rule == HAZARD_DETECTED.rule else just_over
    return next(
        (
            a
            for a in (*(a for a in open_now if a.ended is None), *over)
            if a.subject != HOME_SUBJECT
            and finding.severity.rank > rank(a.severity)
            and _shows(finding, a.subject)
        ),
        None,
    )
