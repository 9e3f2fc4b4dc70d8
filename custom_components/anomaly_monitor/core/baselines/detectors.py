"""Detectors over the learned baselines: stillness where movement is expected, and
movement at an hour this home is never active (here); a state lasting far longer than
it ever does (``long_stays``), a cycling appliance that stopped (``cycles``) and a room
sensor beyond its learned hours for hours on end (``profile_departure``); a switch whose
meter stays flat and heating that does not warm its room, against learned cause → effect
relations (``relation_breaks``); a light that no longer answers motion at the hours it
always did (``light_answers``); and two window statistics (``daily_profile_shift``,
``sensor_drifting``) judged on the learned days where the window holds hours
(``learned_days``).

Both read the window's states (HA's vocabulary: motion/occupancy/presence binary
sensors, persons) and the home's ``HomeBaselines``; neither reads entity ids' words.

- **No movement while someone is home.** Someone is home, every motion sensor that can
  be read is off, and none has seen movement for much longer than this home is usually
  still over the same hours of the day (``QuietSpells``): twice the usual longest spell,
  and never less than ``QUIET_FLOOR``. Before the hours are learned (a new install
  without recorder history), a conservative ``DEFAULT_QUIET_LIMIT`` applies. HA down
  for a while (a power cut, ``watch_gaps``) restarts the quiet when it comes back. A stillness
  that goes on from the night is told earlier, past this household's usual getting-up
  (``getting_up.py``, learned by ``daily_rhythm.py``). A person who
  has not moved since morning may have fallen: it is a safety matter (a false alarm
  dismisses this occurrence only, the next one is told).
- **Movement unusual for the hour** (low severity: told only at sensitivity ``high``).
  Motion in an area at a time of day when, over at least two weeks, it never had any.
  People who are home get up at night; that is why this is low.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from itertools import pairwise

from ..checks import run_checks
from ..feedback import FalseAlarms
from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_unavailable
from ..models import HOME_SUBJECT, AnomalyType, EntityState, Finding, Severity, area_subject
from ..occupancy import Occupancy
from ..statistics.followups import broken_links
from ..statistics.intrusion import BREAK_IN_SEQUENCE
from ..statistics.responses import SLOW_RESPONSE
from ..statistics.timeline import turned
from .activity_rate import sensor_firing_far_above_its_hour
from .air_quality import air_unhealthy_far_beyond_its_range
from .battery_supply import battery_running_out
from .brief_on_held import brief_sensor_held_on
from .clock import local
from .cold_rooms import room_colder_than_kept
from .cooker_left_on import cooker_left_on
from .cooking_hours import cooking_at_an_unusual_hour
from .cooled_rooms import room_cooled_far_below_ever
from .cover_part_way import cover_stopped_part_way
from .cycles import cycle_stopped
from .far_beyond_range import reading_far_beyond_its_range
from .fast_falls import level_falling_far_faster_than_ever
from .first_use_missed import first_use_missed
from .follow_up_missing import usual_effect_missing
from .forced_entry_sensors import stirred_by_everyday_life
from .frozen_readings import reading_frozen_far_longer_than_ever
from .getting_up import not_up_by
from .heat_gone import heat_source_gone_cold
from .heat_load_unattended import heat_load_left_on_unattended
from .held_on import moving_now
from .home_baselines import HomeBaselines
from .kept_levels import reading_held_far_longer_than_ever
from .learned_days import learned_drift, learned_profile_shift
from .light_answers import (
    MIN_DAYS as LIGHT_DAYS,
    answers_this_slowly,
    knows_pair,
    light_not_answering_motion,
    never_answered_quickly,
    switched_by_hand,
)
from .long_runs import appliance_running_far_longer
from .long_stays import duration_text, state_longer_than_usual
from .meter_habits import meter_drawing_at_unusual_hours, meter_run_missing
from .night_cycling import appliance_cycling_at_night
from .night_length import night_end, usual_through_the_night
from .night_lights import light_on_long_at_night
from .night_lights_unseen import light_on_long_at_night_unseen
from .night_outings import went_out_at_night
from .not_back import not_back_as_usual
from .off_hours_runs import left_on_outside_its_hours
from .open_at_rest import open_while_asleep
from .out_before_midnight import went_out_before_midnight
from .power_learned_range import power_above_its_learned_range
from .profile_departure import reading_off_its_hours
from .profile_drift import reading_drifting_from_its_hours
from .relation_breaks import heating_not_warming, switched_on_without_power
from .routine_missed import routine_missed
from .run_cut_short import meter_run_cut_short
from .running_draw import running_far_below_its_draw
from .steady_load_stopped import steady_load_stopped
from .steady_places import reading_beyond_its_steady_band
from .still_in_room import still_in_room_far_longer
from .still_where_last_seen import still_where_last_seen
from .supply_off import supply_off_far_longer
from .uncooled_rooms import room_warmed_far_above_ever
from .unlocked_at_rest import unlocked_while_asleep
from .unused_hour_entry import entry_at_an_unused_hour
from .warm_rooms import room_warmer_than_kept
from .watch_gaps import watched_since

# Before a baseline exists: this long without movement while someone is home.
DEFAULT_QUIET_LIMIT = timedelta(hours=12)
# With a baseline: this many times the usual longest quiet spell of the hours covered...
QUIET_FACTOR = 2.0
# ...and never less than this (a long film, a nap).
QUIET_FLOOR = timedelta(hours=3)
# Past the usual getting-up, stillness this long at least is told (not a pause in the day).
NOT_UP_STILL = timedelta(hours=1)
# Unusual movement: the hours (± 1 around now, every weekday) must have been watched this
# often (two weeks of three hours) with no activity at all in the area.
MIN_WATCHED_HOURS = 42
# Movement this recent is "now".
RECENT = timedelta(minutes=30)

type BaselineCheck = Callable[[HomeView, HomeBaselines], Iterator[Finding]]


def _motion_sensors(home: HomeView) -> list[EntityState]:
    return home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)


def _last_movement(
    home: HomeView, baselines: HomeBaselines, sensors: list[EntityState]
) -> datetime | None:
    """When someone last moved (or came home), as well as the home knows."""
    last = baselines.quiet.quiet_since
    ids = {s.entity_id for s in sensors}
    for entity_id in ids:
        changes = home.changes(entity_id)
        for before, after in pairwise(changes):
            if after.state == "on" or before.state == "on":
                last = after.when if last is None else max(last, after.when)
    if baselines.quiet.occupied is None:
        # The baseline does not follow the persons: the states' own times are all there is.
        for state in [*sensors, *home.presence_entities]:
            if state.last_changed is not None and not is_unavailable(state):
                when = state.last_changed
                last = when if last is None else max(last, when)
    return last


NO_MOVEMENT_WHILE_HOME = FindingKind(
    "no_movement_while_home", AnomalyType.SAFETY_HAZARD, Severity.HIGH
)


def no_movement_while_home(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """Someone is home and nothing has moved for far longer than usual at these hours.

    Magnitude: minutes of stillness beyond the limit.
    """
    if home.occupancy is not Occupancy.OCCUPIED or baselines.quiet.occupied is False:
        return
    sensors = [s for s in _motion_sensors(home) if not is_unavailable(s)]
    if not sensors or any(moving_now(home, baselines, s) for s in sensors):
        return  # a bed sensor held on is somebody in bed, not moving (``held_on``)
    last = _last_movement(home, baselines, sensors)
    now = home.end
    if last is None or last >= now:
        return
    # HA down meanwhile (a power cut): the quiet counts from its return; nobody knows what
    # moved while nothing was watched. (Not a sensor's radio drop: a few minutes of one
    # sensor unread restarting a not-up morning told it three times.)
    last = watched_since(last, baselines.unwatched)
    if last >= now:
        return
    still = now - last
    usual = usual_through_the_night(baselines.quiet, last, now)  # asleep: a night's length
    if usual is None:
        limit = DEFAULT_QUIET_LIMIT
        why = "this home has no learned routine for these hours yet"
    else:
        limit = max(QUIET_FLOOR, QUIET_FACTOR * timedelta(minutes=usual))
        usual_span = duration_text(timedelta(minutes=usual))
        why = f"at these hours this home is usually still for at most {usual_span}"
        rest_over = night_end(baselines.quiet, last, now)  # a night slept through is sleep
        if rest_over is not None and rest_over - last > limit:
            limit = rest_over - last
            why = (
                f"it began in the night, and this home's rest usually lasts until "
                f"{local(rest_over, home.env.zone):%H:%M}"
            )
    not_up = not_up_by(baselines, now)
    if not_up is not None and still >= NOT_UP_STILL and not_up.due - last < limit:
        limit, why = not_up.due - last, not_up.why  # still in bed, long past getting up
    if still <= limit:
        return
    areas = sorted({s.info.area for s in sensors if s.info.area})
    where = f" ({', '.join(areas)})" if areas else ""
    since = local(last, home.env.zone)
    yield NO_MOVEMENT_WHILE_HOME.finding(
        evidence=tuple(sorted(s.entity_id for s in sensors)),
        reasoning=f"Someone is home, but no motion sensor{where} has seen movement for "
        f"{duration_text(still)}, since {since:%H:%M}; {why}.",
        recommendation="Check on the person at home: they may have fallen or be unwell.",
        magnitude=round((still - limit).total_seconds() / 60, 1),
        subject=HOME_SUBJECT,
    )


MOVEMENT_UNUSUAL_FOR_THE_HOUR = FindingKind(
    "movement_unusual_for_the_hour", AnomalyType.BEHAVIOURAL, Severity.LOW
)


def movement_unusual_for_the_hour(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """Motion in an area at a time of day it has never been active in two weeks or more.

    Magnitude: how many times motion started there in the last half hour.
    """
    if home.nobody_home:
        return  # movement in an empty home is ``activity_while_away``'s
    now = home.end
    hour = local(now, home.env.zone).hour
    recent: dict[str, list[str]] = {}
    onsets: dict[str, int] = {}
    for sensor in _motion_sensors(home):
        area = sensor.info.area
        if not area:
            continue
        count = sum(
            1 for when in turned(home.changes(sensor.entity_id), "on") if when > now - RECENT
        )
        if count:
            recent.setdefault(area, []).append(sensor.entity_id)
            onsets[area] = onsets.get(area, 0) + count
    for area, sensors in recent.items():
        activities, watched = baselines.activity.rate_of_day(area, hour)
        if watched < MIN_WATCHED_HOURS or activities > 0:
            continue
        yield MOVEMENT_UNUSUAL_FOR_THE_HOUR.finding(
            evidence=tuple(sorted(sensors)),
            reasoning=f"Motion in {area} around {hour:02d}:00, an hour at which {area} has "
            f"had no activity in the {int(watched // 3)} days learned.",
            recommendation="If nobody should be there at this hour, check the area.",
            magnitude=float(onsets[area]),
            subject=area_subject(area),
        )


BASELINE_CHECKS: tuple[BaselineCheck, ...] = (
    no_movement_while_home,
    still_in_room_far_longer,
    still_where_last_seen,
    movement_unusual_for_the_hour,
    state_longer_than_usual,
    brief_sensor_held_on,
    cover_stopped_part_way,
    appliance_running_far_longer,
    left_on_outside_its_hours,
    cycle_stopped,
    reading_off_its_hours,
    reading_drifting_from_its_hours,
    power_above_its_learned_range,
    running_far_below_its_draw,
    switched_on_without_power,
    heating_not_warming,
    usual_effect_missing,
    room_colder_than_kept,
    room_cooled_far_below_ever,
    room_warmed_far_above_ever,
    room_warmer_than_kept,
    sensor_firing_far_above_its_hour,
    light_not_answering_motion,
    learned_profile_shift,
    learned_drift,
    went_out_at_night,
    went_out_before_midnight,
    not_back_as_usual,
    entry_at_an_unused_hour,
    light_on_long_at_night,
    light_on_long_at_night_unseen,
    cooking_at_an_unusual_hour,
    cooker_left_on,
    heat_load_left_on_unattended,
    unlocked_while_asleep,
    appliance_cycling_at_night,
    open_while_asleep,
    meter_run_missing,
    meter_run_cut_short,
    meter_drawing_at_unusual_hours,
    reading_beyond_its_steady_band,
    reading_far_beyond_its_range,
    air_unhealthy_far_beyond_its_range,
    supply_off_far_longer,
    battery_running_out,
    heat_source_gone_cold,
    reading_held_far_longer_than_ever,
    reading_frozen_far_longer_than_ever,
    steady_load_stopped,
    level_falling_far_faster_than_ever,
    routine_missed,
    first_use_missed,
)


def baseline_findings(
    home: HomeView,
    baselines: HomeBaselines,
    min_severity: Severity,
    suppressed: FalseAlarms,
    checks: tuple[BaselineCheck, ...] = BASELINE_CHECKS,
) -> list[Finding]:
    """Every baseline check's findings, minus suppressed and too-minor ones."""
    return run_checks(
        [_bound(check, baselines) for check in checks], home, min_severity, suppressed
    )


def explained_by_baselines(finding: Finding, baselines: HomeBaselines, home: HomeView) -> bool:
    """A window statistic's finding that what this home learned before the window explains
    or judges better:

    - the lights ``slow_light_response`` found slow are all switched by hand
      (``switched_by_hand``), or each answers motion that slowly as its own habit
      (``answers_this_slowly``: its own answers learned before the window, a day or more),
      or was never seen answering as quickly (``never_answered_quickly``: no automation);
    - the links ``missing_follow_up`` found broken for its cause are all a motion sensor
      and a light whose pair the baselines know (``knows_pair``): the window learned the
      link from a few hours (a person's hand reads as one), and
      ``light_not_answering_motion`` judges it from the fortnight by the hour (the same
      broken bulb is not told twice, once about its motion sensor).

    - a ``break_in_sequence`` whose forced-entry sensor this home saw going on in everyday
      life, a time a day or more (``stirred_by_everyday_life``: a mat under a sleeper).

    - a battery ``battery_draining_fast`` found falling that the baselines saw charged
      again after a fall, no lower than its falls went (``_drained_as_before``).

    Only baselines that knew the home days before the window began (a replayed sample's
    learn its window: they explain nothing of it)."""
    if finding.rule == "battery_draining_fast":
        return all(_drained_as_before(baselines, home, e) for e in finding.evidence)
    if finding.rule not in _EXPLAINED or baselines.first_seen is None:
        return False
    times = (t.when for t in home.window.transitions)
    start = home.window.start or min(times, default=home.end)
    known = start - baselines.first_seen
    if finding.rule == BREAK_IN_SEQUENCE.rule:  # (its forced-entry sensor: evidence[0])
        return stirred_by_everyday_life(baselines, finding.evidence[0], known)
    if finding.rule == "slow_light_response" and _own_habit(finding, baselines, known):
        return True
    if known < timedelta(days=LIGHT_DAYS):
        return False
    if finding.rule == "slow_light_response":
        return all(switched_by_hand(baselines, light) for light in finding.evidence)
    (cause,) = finding.evidence
    effects = [link.effect for link, _ in broken_links(home) if link.cause == cause]
    return bool(effects) and all(knows_pair(baselines, cause, e) for e in effects)


# Points under the lowest a rechargeable came back from that are still its usual falls.
DRAINED_MARGIN = 5.0


def _drained_as_before(baselines: HomeBaselines, home: HomeView, battery: str) -> bool:
    """A battery this home has seen charged again after a fall (``HomeBatteries.lowest``:
    an EcoFlow, an inverter's bank) is a rechargeable, drained by design, while it reads
    no lower than ``DRAINED_MARGIN`` under the lowest it came back from; falling past that
    (an AC left on overnight on the inverter: set 13 d) is still news."""
    lowest = baselines.batteries.lowest.get(battery)
    state = home.info(battery)
    if lowest is None or state is None or state.number is None:
        return False
    return state.number >= lowest - DRAINED_MARGIN


def _own_habit(finding: Finding, baselines: HomeBaselines, known: timedelta) -> bool:
    """Every light found slow answers that slowly as its own habit (the slowest answer,
    the finding's magnitude in seconds, judged for each), or was never seen answering
    motion as quickly as the window's limit of slow (a hand-switched lamp)."""
    lag = finding.magnitude
    quick = SLOW_RESPONSE.total_seconds()
    return (
        lag is not None
        and known >= OWN_HABIT_KNOWN
        and all(
            answers_this_slowly(baselines, light, lag)
            or never_answered_quickly(baselines, light, quick)
            for light in finding.evidence
        )
    )


_EXPLAINED = frozenset({"slow_light_response", "missing_follow_up", BREAK_IN_SEQUENCE.rule})
# Known this long before the window, a light's own answers judge its slowness.
OWN_HABIT_KNOWN = timedelta(days=1)


def _bound(
    check: BaselineCheck, baselines: HomeBaselines
) -> Callable[[HomeView], Iterator[Finding]]:
    def run(home: HomeView) -> Iterator[Finding]:
        return check(home, baselines)

    run.__name__ = check.__name__
    return run
