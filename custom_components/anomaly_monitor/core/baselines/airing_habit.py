"""A window's airing habit, judged once the window closed again.

``hvac_ran_with_window_open`` tells a window that stood open past the airing time while
the heating or cooling ran, after it closed. A window the home opens at that time of day
for as long on most days (a laundry window opened for the gas water heater 45 min every
evening) is the home's routine, not energy wasted by mistake; the same window left open
several times its usual is told, saying what is usual.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from ..home import HomeView
from ..models import EntityState, Finding
from ..rules.context import ANGLE_TOLERANCE, angle_sensor_for
from ..rules.hvac import AIRING
from ..statistics.timeline import Interval
from .long_stays import duration_text
from .usual_use import UsualUse


def usually_open_text(minutes: float, days: int) -> str:
    """ " On most days it is open at most 40 min at this time of day (learned over ...)"."""
    return (
        f" On most days it is open at most {duration_text(timedelta(minutes=minutes))} "
        f"at this time of day (learned over {days} days of use)."
    )


def ajar_by_angle(home: HomeView, window: EntityState) -> bool:
    """Its contact reads closed but its angle sensor reads it ajar (the rule's finding)."""
    angle = angle_sensor_for(home, window)
    return angle is not None and angle.number is not None and angle.number > ANGLE_TOLERANCE


def closed_airings_judged(
    finding: Finding, entity_id: str, spells: list[Interval], usual_use: UsualUse, factor: float
) -> Finding | None:
    """The window closed again (the statistic's finding about its past): usual when every
    spell it stood open past the airing time is within its habit at that time of day (a
    laundry window opened for the water heater 45 min every evening)."""
    past_airing = [spell for spell in spells if spell.duration > AIRING]
    if not past_airing:
        return finding
    for spell in past_airing:
        usual = usual_use.usual_open(entity_id, spell.start)
        if usual is None:
            return finding
        minutes, days = usual
        if spell.duration > factor * timedelta(minutes=minutes):
            return replace(finding, reasoning=finding.reasoning + usually_open_text(minutes, days))
    return None  # each spell as long as it stays open on most days at that hour
