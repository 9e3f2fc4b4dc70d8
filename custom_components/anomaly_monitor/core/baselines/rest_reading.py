"""What *running* is for a meter of short runs: a draw well above its own rest.

``power_units.RUNNING_WATTS`` (10 W) tells a compressor, a heater or a pump running from
electronics at rest in any home. A small pump is read by its own meter: a misting pump
that runs 30 s at 27 W four times a day and rests at 0 W, its pressure switch stuck with
the reservoir empty, whines at 9 W for two hours (set 19 c, never told: 9 W read as idle,
so its run "ended" after 7 min). Each meter's readings at rest (under ``RUNNING_WATTS``)
are learned (``NumericRanges`` under ``rest_key``); for a meter whose every run is a few
minutes (``SHORT_RUN``, known from ``TIMED_STAYS`` runs: a pump its float or pressure
switch cuts), a reading under the gate is running when it is at least ``TAIL_SHARE`` of
its least running draw and well above the most it rests at (``REST_FACTOR`` times it,
``REST_MARGIN`` at least). A meter of long runs (a charger's trickle, a TV's standby, a
dimmed lamp, a washer's display after its programme) keeps the fixed gate: a few watts
there are no pump left on. No word of an id or a name is read.
"""

from __future__ import annotations

from datetime import datetime

from .durations import StateDurations
from .power import IDLE, RUNNING, power_state, running_key, watts
from .ranges import NumericRanges
from .timed_stays import TIMED_STAYS

# A motor whose runs all last this long or less (minutes): a pump its float or pressure
# switch cuts empties (or fills) the same volume each run (set 15's sump pump, 1.5 min).
SHORT_RUN = 5.0
# Under the running gate, a short-run meter runs at this share of its least running draw...
TAIL_SHARE = 0.25
# ...when that is this many times the most it reads at rest, and this many watts.
REST_FACTOR = 2.0
REST_MARGIN = 2.0


def rest_key(entity_id: str) -> str:
    """Where ``NumericRanges`` keeps a meter's readings at rest (under the running gate)."""
    return f"{entity_id}#rest"


def short_runner(durations: StateDurations, entity_id: str) -> bool:
    """A meter whose every learned run lasted ``SHORT_RUN`` or less (``TIMED_STAYS`` known)."""
    runs, longest = durations.whole_record(entity_id, RUNNING)
    return runs >= TIMED_STAYS and 0 < longest <= SHORT_RUN


def meter_state(
    durations: StateDurations,
    ranges: NumericRanges,
    entity_id: str,
    number: float,
    *,
    unit: str | None,
    when: datetime,
) -> str | None:
    """``RUNNING``, ``IDLE`` or None (no power unit), as this meter shows it."""
    spell = power_state(number, unit)
    if spell != IDLE or not short_runner(durations, entity_id):
        return spell
    rest = ranges.usual(rest_key(entity_id), when)
    running = ranges.usual(running_key(entity_id), when)
    drawn = watts(number, unit)
    if rest is None or running is None or drawn is None:
        return spell
    floor = max(REST_MARGIN, REST_FACTOR * rest[4], TAIL_SHARE * running[3])
    return RUNNING if drawn >= floor else IDLE
