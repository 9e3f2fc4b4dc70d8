"""A room's extreme that is its normal: the sauna, the boiler room, the freezer, the garden.

The room-temperature rules (``rules/room_extremes.py``) judge a reading by itself: 70 °C
in a room is a possible fire. A sauna reads 80 °C every Saturday, a boiler room 45 °C, a
freezer probe that HA puts in the kitchen -18 °C, a garden thermometer 2 °C in January.
The learned range of the sensor (``NumericRanges``, recorder history and every change
since) tells them apart, so they are not told - rather than by a false-alarm mark, which
a safety finding never gets (a sensor that failed once must not silence a fire later):

- hot: the reading is no higher than ``MARGIN`` above the highest the sensor read before
  (a highest reached within the last ``ranges.SETTLE`` is not part of it yet: the heat of
  a fire now is never its own normal). Not its spread: the range learns changes, not
  time, and a sauna's climb and cool-down are most of its changes;
- cold: within ``SPREADS`` standard deviations below its mean (its lowest is learned at
  once, so the cold of a failing heating today would be its own normal: the mean is not).

A hot room whose machine runs now (a generator house, a plant room: ``machine_rooms``) is
judged by its range after a day read, unless its sensor has read the fire band: its hot
readings join what that told until its range is learned (``hot_places``), or the fire
incident closes between two heats and each reheat is told anew (set 14's stove loop at
44-71 °C beside its circulation pump, once every power meter was watched).

A process thermometer (a kiln's, an oven's: its range reached process heat) is judged by
``process_heat`` too: on its way down from a top, it is at work.

Before that, a place cold (hot) since it was first seen is judged by ``cold_places``
(``hot_places``), and in its first hours by ``set_up_levels``. The range judges only a
sensor read over ``MIN_DAYS`` (watched, ``cold_places.days_read``: a wood
stove's flue probe that read 41 °F all week until Friday's fire in the stove has been read
all week, and Saturday's is judged by Friday's): a sensor seen for an afternoon has no
range.
Never a hot reading while the area's smoke or heat detector goes off or its smoke level is
up: that is another device saying fire, which no thermometer's habit explains. A cold one
is still its place's normal then (set 12: a pan smoking in the kitchen made its fridge
probe's 4.5 °C a room close to freezing).
"""

from __future__ import annotations

from ..home import HomeView
from ..models import EntityState, Finding
from ..rules.room_extremes import alarm_says_fire
from ..rules.temperature_bands import Band, band_of, celsius_of
from ..temperatures import degrees_celsius, to_celsius
from .cold_places import cold_place, days_read
from .home_baselines import HomeBaselines
from .hot_places import hot_place, machine_heat
from .machine_rooms import MACHINE_MIN_DAYS, machine_runs_in
from .process_heat import process_at_work
from .reference import usual_range
from .set_up_levels import level_at_set_up, seen_celsius

# The rules whose findings a learned range can explain.
EXTREME_RULES = frozenset({"room_heat_fire_risk", "room_too_hot", "room_too_cold"})
MIN_DAYS = 2.0
# °C above the learned highest that is still the same normal (a sauna at 82 after 80).
MARGIN = 2.0
SPREADS = 3.0


def _min_days(
    home: HomeView, baselines: HomeBaselines, finding: Finding, state: EntityState
) -> float:
    """Days read before the range judges: fewer for a hot room whose machine runs now."""
    if finding.rule == "room_too_hot" and machine_runs_in(home, baselines, state):
        seen = seen_celsius(home, baselines, state.entity_id, state.info.unit)
        area = bool(state.info.area)
        if not any(band_of(c, area) is Band.FIRE for c in seen):
            return MACHINE_MIN_DAYS
    return MIN_DAYS


def usual_extreme(home: HomeView, baselines: HomeBaselines, finding: Finding) -> bool:
    """Whether ``finding`` is a room extreme that its sensor's learned range explains."""
    if finding.rule not in EXTREME_RULES or (state := home.info(finding.subject)) is None:
        return False
    if finding.rule != "room_too_cold" and alarm_says_fire(home, state):
        return False  # another device says fire: no sensor's habit explains that heat
    if level_at_set_up(home, baselines, finding):
        return True  # cold (hot) since first seen, minutes ago: no fall (rise) yet
    if cold_place(home, baselines, finding, MIN_DAYS):
        return True  # never warm since first seen: a crawl space, not a failed heating
    if hot_place(home, baselines, finding, MIN_DAYS):
        return True  # never livable since first seen: a machine's heat, not a room's
    if machine_heat(home, baselines, finding, MIN_DAYS):
        return True  # a machine's water, never a room's air since first seen
    celsius = celsius_of(state)
    usual = usual_range(baselines, finding.subject, home.end)
    if (
        celsius is None
        or usual is None
        or days_read(baselines, finding.subject, home, usual)
        < _min_days(home, baselines, finding, state)
    ):
        return False
    if process_at_work(home, baselines, finding, usual):
        return True  # a kiln's or an oven's probe cooling from its top
    unit = state.info.unit
    mean, highest = to_celsius(usual.mean, unit), to_celsius(usual.highest, unit)
    if mean is None or highest is None:
        return False
    if finding.rule != "room_too_cold":
        return celsius <= highest + MARGIN
    return celsius >= mean - SPREADS * degrees_celsius(usual.spread, unit)
