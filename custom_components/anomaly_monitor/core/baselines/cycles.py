"""An appliance that cycles day and night (a fridge, a freezer, a pump) stopped cycling.

Its power meter's running and idle spells are learned as states (``power.py``): a
compressor runs 20 minutes and rests 40, day and night, hundreds of times a fortnight.
When such a meter has now been idle far longer than it has ever rested, the appliance
stopped starting (dead, unplugged, a tripped breaker, food warming); when it has been
running far longer than it ever runs, it no longer stops (a door ajar, iced up, a
refrigerant leak). HA's vocabulary only: a ``sensor`` of device_class ``power``; no word
of its id or name, so a freezer called "Garage plug" is covered once its cycle is learned
(the word rule ``fridge_stopped_cycling`` covers fridges without a learned cycle).

*Cycles day and night*: at least ``MIN_SPELLS`` idle spells learned in each of
``MIN_QUARTERS`` quarters of the day, over at least ``MIN_DAYS`` days learned, and never
idle more than ``MAX_REST`` (a washing machine or a TV rests for hours: not a cycling
appliance). The limit is ``FACTOR`` times
the longest learned spell of that kind, never less than ``FLOOR``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .power import IDLE, RUNNING, power_state

MIN_SPELLS = 6
MIN_QUARTERS = 3
MIN_DAYS = 3
MAX_REST = timedelta(hours=3)
FACTOR = 3.0
FLOOR = timedelta(hours=1)


def _spell_since(
    home: HomeView, baselines: HomeBaselines, meter: EntityState, spell: str
) -> datetime | None:
    """Since when the meter has been in ``spell``, as far as the data proves it.

    The first of the window's trailing readings of that spell, the meter's own last
    change, and the baselines' remembered spell (which survives a restart of HA).
    """
    since = meter.last_changed
    for transition in reversed(home.history.get(meter.entity_id, [])):
        value = parse_number(transition.state)
        if value is None or power_state(value, meter.info.unit) != spell:
            break
        since = transition.when if since is None else min(since, transition.when)
    remembered = baselines.durations.current.get(meter.entity_id)
    if remembered is not None and remembered[0] == spell:
        since = remembered[1] if since is None else min(since, remembered[1])
    return since


def _learned_cycle(baselines: HomeBaselines, entity_id: str) -> tuple[int, float, float] | None:
    """(idle spells, longest rest, longest run) in minutes, for an appliance that cycles."""
    first, last = baselines.first_seen, baselines.learned_until
    if first is None or last is None or last - first < timedelta(days=MIN_DAYS):
        return None
    spells = baselines.durations.stays.get(entity_id, {})
    idle, running = spells.get(IDLE), spells.get(RUNNING)
    if idle is None or running is None:
        return None
    if sum(1 for bucket in idle if bucket[0] >= MIN_SPELLS) < MIN_QUARTERS:
        return None
    longest_rest = max(bucket[2] for bucket in idle)
    if longest_rest > MAX_REST.total_seconds() / 60:
        return None
    return int(sum(bucket[0] for bucket in idle)), longest_rest, max(b[2] for b in running)


def cycle_stopped(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cycling appliance idle (or running) far longer than its learned cycle allows.

    Magnitude: minutes in the spell so far.
    """
    now = home.end
    for meter in home.of("sensor", "power"):
        value = meter.number
        spell = power_state(value, meter.info.unit) if value is not None else None
        if spell is None:
            continue
        cycle = _learned_cycle(baselines, meter.entity_id)
        if cycle is None:
            continue
        cycles, longest_rest, longest_run = cycle
        usual = longest_rest if spell == IDLE else longest_run
        limit = max(FLOOR, FACTOR * timedelta(minutes=usual))
        since = _spell_since(home, baselines, meter, spell)
        if since is None or now - since <= limit:
            continue
        lasted = duration_text(now - since)
        if spell == IDLE:
            reasoning = (
                f"{meter.entity_id} has drawn almost no power for {lasted}; the appliance "
                f"usually starts again within {duration_text(timedelta(minutes=usual))} "
                f"(learned from {cycles} cycles, day and night): it stopped cycling."
            )
            severity = Severity.HIGH
            advice = "If it is a fridge or freezer, check that it is powered and cold."
        else:
            reasoning = (
                f"{meter.entity_id} has been drawing power without a break for {lasted}; "
                f"the appliance usually rests after at most "
                f"{duration_text(timedelta(minutes=usual))} (learned from {cycles} cycles): "
                "it no longer stops."
            )
            severity = Severity.MEDIUM
            advice = "If it is a fridge or freezer, check that its door is shut and not iced up."
        yield Finding(
            rule="cycle_stopped",
            evidence=(meter.entity_id,),
            reasoning=reasoning,
            anomaly_type=AnomalyType.DEVICE_MALFUNCTION,
            severity=severity,
            recommendation=advice,
            magnitude=round((now - since).total_seconds() / 60, 1),
        )
