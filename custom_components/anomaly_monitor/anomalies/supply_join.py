"""What a home without its supply shows is part of the told outage, not news of its own.

Set 19 (Kyiv): the grid went at 03:00 and the EcoFlow carried the flat; the living room
cooled below its band at 07:27, told as a trouble of its own beside the outage, and again
once the outage was acknowledged. While a told supply outage (``SUPPLY_RULES``) is still
found by the same analysis, a new incident that is what a home without power shows (a
room or a store leaving its band, a meter's usual run missing, an appliance's cycle
stopped: ``CONSEQUENCE_RULES``) joins it: shown in it, acknowledged with it. A hazard, an
entry or anything while nobody is home is never joined; a device dropping off is not
either (one that went with the supply is not told while it is out: ``drop_judge``; any
other drop is its own trouble). Once the supply is back, what is still wrong is news.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.feedback import is_hazard
from ..core.models import Finding
from .open_anomaly import OpenAnomaly

SUPPLY_RULES = frozenset({"supply_off_far_longer_than_usual"})
CONSEQUENCE_RULES = frozenset(
    {
        "reading_beyond_its_steady_band",
        "room_colder_than_kept",
        "room_warmer_than_kept",
        "meter_run_missing",
        "cycle_stopped",
        "fridge_stopped_cycling",
    }
)


def supply_out(finding: Finding, found_now: Iterable[OpenAnomaly]) -> OpenAnomaly | None:
    """The told supply outage found again by this analysis that ``finding`` (a new
    incident's lead) is a consequence of; None: news."""
    if (
        finding.rule not in CONSEQUENCE_RULES
        or finding.while_away
        or is_hazard(finding.anomaly_type, finding.severity.value)
    ):
        return None
    return next((a for a in found_now if a.ended is None and set(a.rules) & SUPPLY_RULES), None)
