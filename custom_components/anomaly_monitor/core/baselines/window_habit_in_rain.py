"""A window this home opens at this hour every day, open in the rain with people home.

``window_open_in_wet_weather`` tells a window open in a downpour or a storm while nobody
is in its room, with the household at home (a roof window upstairs while the family sits
downstairs). A back-balcony window opened every morning for the washing, in a room with
no motion sensor, is "nobody in its room" all day: the storm is told about the window the
household opened itself today, at home, as every day. What a homeowner wants told is the
window they do not know is open; one opened at its usual hour (a stay begun near this
time of day on other days, ``stay_habits``) and open no longer than it stays by that
habit (and an hour) is theirs to see, as is the rain. While nobody is home it is told
whatever the habit: nobody can close it. Known by domain and device class; no word of
an id is read.
"""

from __future__ import annotations

from datetime import timedelta

from ..home import HomeView
from ..models import Finding
from ..open_states import open_states
from .home_baselines import HomeBaselines
from .long_stays import FLOOR, stay_since

WET_WINDOW_RULES = frozenset({"window_open_in_wet_weather"})


def judge_wet_window(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """None when the window stands open by this home's habit at this hour, somebody home."""
    if finding.while_away:
        return finding
    window = home.info(entity_id)
    if window is None or window.state.lower() not in open_states(window.domain):
        return finding  # ajar by its angle sensor: no stay of its own to judge
    if (since := stay_since(home, baselines, window)) is None:
        return finding
    habit = baselines.habits.usual(entity_id, since)
    if habit is None or home.end - since > timedelta(minutes=habit.minutes) + FLOOR:
        return finding
    return None
