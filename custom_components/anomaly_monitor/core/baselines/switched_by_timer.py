"""A switch turned on in an armed, empty home, asked against its own meter's hours.

``activation_while_armed_away`` tells a light or an appliance switched on while the alarm
is armed away and nobody came in, unless it switched on near that clock time on other days
of the window. A pool pump on a timer at 10:30 every day is learned for weeks by its power
meter (``MeterHours``, whoever is home) but a window holds a day or two: its run while the
family is out for the day was told as a remote command or an intruder.

A switch whose meter (its own: ``device_roles.own_meter``) draws at the hour it
switched on on two days a week or more (``away_habits``: ``TIMER_SHARE`` of the days
learned, ``TIMER_DAYS`` at least), or draws around the clock lately
(``loads_by_themselves``), switched on by its timer. A switch without a meter, or one
switched at an hour its meter seldom draws, is told as before.
"""

from __future__ import annotations

from datetime import timedelta

from ..device_roles import own_meter
from ..home import HomeView
from ..models import Finding
from .away_habits import TIMER_DRIFT, by_habit, hour_habit
from .clock import local
from .home_baselines import HomeBaselines
from .loads_by_themselves import around_the_clock

ACTIVATION_RULES = frozenset({"activation_while_armed_away"})


def judge_activation(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """None when the switch's meter draws at the hour it switched on, by habit."""
    switch = home.states.get(entity_id)
    ons = [c.when for c in home.changes(entity_id) if c.state.lower() in ("on", "playing")]
    if switch is None or not ons:
        return finding
    switched = ons[-1]
    meters = [
        s
        for s in home.of("sensor", "power")
        if s.entity_id != entity_id and own_meter(home, switch, s)
    ]
    for meter in meters:
        start = hour_habit(baselines, meter.entity_id, switched)
        if not by_habit(*start) and local(switched, baselines.zone).minute >= 60 - TIMER_DRIFT:
            start = hour_habit(
                baselines, meter.entity_id, switched + timedelta(minutes=TIMER_DRIFT)
            )
        if by_habit(*start) or around_the_clock(baselines.meters, meter.entity_id, switched):
            return None
    return finding
