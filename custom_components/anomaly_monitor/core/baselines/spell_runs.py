"""An element on its thermostat for far longer than any of its spells learned: left on.

``long_runs`` judges a meter's run without a break. An element left on holds its water or
its oven hot in short bursts: a geyser switched back on and forgotten reheats 6 min in 40
all morning, each burst shorter than the 22-min heat-up of its every morning. The home has
learned how long this meter *draws*, spell by spell (``draw_spells``: its restarts at the
same heating draw are one spell; the geyser's heat-up and its one reheat, 66 min, every
morning), so the spell under way is judged like a run: ``long_runs.FACTOR`` times the
longest spell learned (in the quarter of the day it began, or every quarter pooled: the
same ``StateDurations`` reading), never under ``long_runs.FLOOR``. Only a spell of an
element (its runs draw a heating load) is judged: a compressor's duty cycle is a fridge's
day; and only a spell of bursts, none longer than the longest spell learned: a pool pump's
6-h timer run, run again all night an hour after it (a shock dose) and again by its timer
an hour after that, is three long runs joined, each judged as a run (``long_runs``), not a
thermostat's bursts. A burst longer than every spell but shorter than the floor is no run
``long_runs`` can ever tell (a kettle whose 3-min boils are its every spell, its switch
stuck: boiling 10 min, resting 5, for an hour and a half): its spell is judged, as the
bursts of one element left on. No word of an id or a name is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .draw_spells import spell_key, spell_since
from .home_baselines import HomeBaselines
from .power import HEATING_WATTS, RUNNING


def element_spell(
    baselines: HomeBaselines, meter: str, now: datetime, factor: float, floor: timedelta
) -> tuple[datetime, timedelta, float, int, float, bool] | None:
    """(since, limit, watts, spells, longest minutes, pooled) of the meter's cycled spell
    under way, drawing a heating load, once its spells are learned enough to judge; None
    otherwise (not cycling, not an element, too little known)."""
    since = spell_since(baselines.durations, baselines.draws, meter, now)
    drew = baselines.draws.drew.get(meter)
    if since is None or drew is None or drew < HEATING_WATTS:
        return None
    learned = baselines.durations.longest(spell_key(meter), RUNNING, since)
    if learned is None or learned[1] <= 0:
        return None
    count, longest, pooled = learned
    meter_run = baselines.durations.current.get(meter)
    run_since = meter_run[1] if meter_run is not None and meter_run[0] == RUNNING else now
    if baselines.draws.longest_burst(meter, run_since, now) > max(
        timedelta(minutes=longest), floor
    ):
        return None  # a run of it is longer than its every spell, and a run: judged as a run
    limit = max(floor, factor * timedelta(minutes=longest))
    return since, limit, drew, count, longest, pooled
