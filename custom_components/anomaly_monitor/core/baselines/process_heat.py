"""A process thermometer at work: a kiln, an oven, a sauna stove, a smoker, a boiler's flow.

The room rules read a thermometer as a room's air: over 50 °C a possible fire. A probe
whose own learned range reached ``PROCESS_HEAT`` (hotter than any room's air gets with the
sensor still reading: an air sensor in a fire that hot is gone) is inside a machine that
heats on purpose, and its normal is what it read before, not a room's band
(``usual_extremes`` judges its hot findings against its highest). What a room's band gets
wrong about it here: cooling down from a top it reached (the kiln at 960 °C on its way
down from 1,240 °C, read in the window or still its pending highest, before that top has
settled into its range) is no new fire once back within ``NEAR_TOP`` of its learned
highest: the top was judged when it was read (told, or its normal). Still far above its
range (a flue probe falling from a chimney fire's 600 °C) it is told as before, so the
incident stays open and is not told again.

Not yet: over the impossible line (1,000 °C) it is still told as a failed sensor, even at
a top it reached before (a glaze firing at 1,240 °C): a burnt element that stalls a firing
at 1,100 °C is told only by that line today, and a firing's shape is not learned yet.

Known by behaviour and device class only; never while the area's smoke or heat detector
says fire (``usual_extremes`` asks first).
"""

from __future__ import annotations

from ..home import HomeView
from ..models import Finding
from ..rules.temperature_bands import celsius_of
from ..temperatures import to_celsius
from .home_baselines import HomeBaselines
from .reference import UsualRange

# °C: a learned highest this hot is no room's air.
PROCESS_HEAT = 150.0
# Cooling within this share above its learned highest is back near its own heat.
NEAR_TOP = 0.05
# The hot rules whose readings on the way down are judged here.
_HOT_RULES = frozenset({"room_heat_fire_risk", "room_too_hot"})


def is_process(usual: UsualRange | None, unit: str | None) -> bool:
    """The learned range reached process heat."""
    highest = to_celsius(usual.highest, unit) if usual is not None else None
    return highest is not None and highest >= PROCESS_HEAT


def process_at_work(
    home: HomeView, baselines: HomeBaselines, finding: Finding, usual: UsualRange | None
) -> bool:
    """Whether ``finding`` is a process thermometer cooling from its top (see the module);
    ``usual``: its learned range, read long enough to judge."""
    state = home.info(finding.subject)
    if finding.rule not in _HOT_RULES or state is None:
        return False
    celsius = celsius_of(state)
    unit = state.info.unit
    if celsius is None or usual is None or not is_process(usual, unit):
        return False
    highest = to_celsius(usual.highest, unit)
    if highest is None or celsius > highest * (1 + NEAR_TOP):
        return False  # still far above its own range: a chimney fire dying down is no rest
    earlier = [v for _, v in home.numbers(finding.subject)]
    if (top := baselines.ranges.pending_highest(finding.subject)) is not None:
        earlier.append(top)  # the top of this firing, not settled into the range yet
    return any((c := to_celsius(v, unit)) is not None and c > celsius for v in earlier)
