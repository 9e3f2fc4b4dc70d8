"""Water running or a heater on "far too long", asked against how long it runs here.

``water_left_running`` (a valve or water switch on past 45 min) and
``heat_appliance_left_on`` (a heater or cooker on past 3 h) use limits any home shares.
An irrigation valve that waters the garden for an hour every morning, a hot-water
cylinder that heats for four hours at midday and seven on the night rate, a panel heater
that warms the bedroom every evening: each runs that long *here*, every day.

Once ``StateDurations`` knows the device's runs at that time of day (``longest``: five
stays begun in that quarter of the day, or ten in all), a run stands only when it is
longer than ``RUN_FACTOR`` times the longest learned (a mark's degree: a valve stuck
open, a thermostat that no longer cuts out), and never less than the rule's own limit.
A run that stands says which normal judged it. Before that, the rule's limit judges
unchanged (a safety finding: told at cold start as in any home).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..device_roles import own_meter
from ..feedback import MARGIN
from ..home import HomeView
from ..models import Finding
from ..statistics.durations import HEAT_APPLIANCE_LIMIT, WATER_RUNNING_LIMIT, heat_spells
from ..statistics.timeline import Interval, intervals
from .clock import slot_of
from .home_baselines import HomeBaselines
from .long_stays import duration_text, learned_from

# A run this many times the longest learned at that time of day is no longer usual.
RUN_FACTOR = MARGIN
# The rules judged, their own limits, and the states that are "running".
RUN_RULES: dict[str, timedelta] = {
    "water_left_running": WATER_RUNNING_LIMIT,
    "heat_appliance_left_on": HEAT_APPLIANCE_LIMIT,
}
_RUNNING = frozenset({"on", "open", "opening", "heat", "heating"})
# A heater's spell on since before the window is judged too (``heat_spells``), once this
# many of its uses are learned; judged so while the home is still learned as well (no
# uses known: a plug on since the monitor first saw it is not told from then).
HEAT_RUN_RULES = frozenset({"heat_appliance_left_on"})
_KNOWN_USES = 2
# A plug known to rest off this long (a day) is used now and then, not kept on: switched
# on before the window with its uses not known yet, the rule's own limit judges the spell.
KEPT_OFF = timedelta(hours=24)


def _kept_off(baselines: HomeBaselines, home: HomeView, entity_id: str, since: datetime) -> bool:
    """Off for a day and more at a time: the longest rest off its stays learned show, or,
    with no stay of it learned, its own meter drew at no hour of the whole days watched
    before this spell (an iron unchanged since the monitor first saw it, switched on on
    the third morning, its first use, and forgotten). A water heater switched back on
    after 21 min off, or whose meter heats every day, is kept on (``_KNOWN_USES``)."""
    durations = baselines.durations
    if durations.stays.get(entity_id):
        _, longest_off = durations.whole_record(entity_id, "off")
        return timedelta(minutes=longest_off) >= KEPT_OFF
    switch = home.info(entity_id)
    if switch is None:
        return False
    _, _, day = slot_of(since, baselines.zone)
    meters = [m for m in home.of("sensor", "power") if own_meter(home, switch, m)]
    for meter in meters:
        if meter.entity_id not in baselines.meters.runs:
            continue
        seen = [
            baselines.meters.days_at(meter.entity_id, h, day, home_only=False) for h in range(24)
        ]
        if all(watched >= 1 and drew == 0 for drew, watched in seen):
            return True
    return False


def judged_run(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """``finding`` as this device's learned runs judge it: None when its runs are usual."""
    rule_limit = RUN_RULES[finding.rule]
    worst: tuple[Interval, float, int] | None = None
    unknown = False
    in_window = intervals(home, entity_id)
    runs = heat_spells(home, entity_id) if finding.rule in HEAT_RUN_RULES else in_window
    for run in runs:
        if run.state.lower() not in _RUNNING or run.duration < rule_limit:
            continue
        if run not in in_window:
            # On since before the window: judged only when its uses are known to be short
            # (an iron's 14 min twice: each under the rule's own limit); a water heater or
            # an aquarium's heater kept on for days, or one never seen switched off, is kept
            # on, not left on.
            uses, longest = baselines.durations.whole_record(entity_id, run.state)
            limit = max(rule_limit, RUN_FACTOR * timedelta(minutes=longest))
            if (
                uses >= _KNOWN_USES
                and timedelta(minutes=longest) < rule_limit
                and run.duration > limit
                and (worst is None or run.duration > worst[0].duration)
            ):
                worst = (run, longest, uses)
            elif uses < _KNOWN_USES and timedelta(minutes=longest) < rule_limit:
                unknown = unknown or _kept_off(baselines, home, entity_id, run.start)
            continue
        learned = baselines.durations.longest(entity_id, run.state, run.start)
        if learned is None:
            unknown = True  # too few runs known at that time of day: the rule's limit
            continue
        count, longest, _ = learned
        if run.duration > max(rule_limit, RUN_FACTOR * timedelta(minutes=longest)) and (
            worst is None or run.duration > worst[0].duration
        ):
            worst = (run, longest, count)
    if worst is None:
        return finding if unknown else None
    _, longest, count = worst
    return replace(
        finding,
        reasoning=finding.reasoning
        + f" Here it runs at most {duration_text(timedelta(minutes=longest))} "
        f"at a time {learned_from(count, 'runs')}.",
    )
