"""The habit checks asked against this home's usual use (``UsualUse``), not fixed limits.

The window statistics find a door open 20 min (``entry_left_open``), six changes within
seconds (``toggle_storm``), a door opened for seconds at 03:00 (``opening_blip_at_night``)
or on several nights (``entry_used_in_small_hours``) with the limits any home shares.
Once a device's normal is known, the finding stands only if it is unusual *here*:

- open: longer than ``OPEN_FACTOR`` times what the door stays open at most on most days
  (that quarter of the day) and than its habit at this hour, daily or weekly
  (``stay_habits``), and never less than the rule's own limit (``GARAGE_OPEN_PRIOR`` for
  a garage door or gate with no stay learned yet); a door open most
  of the time it was watched (``stands_open``) is never "left open", nor, for up to an
  hour, one somebody moved beside until less than that limit ago (``attended_doors``);
- bursts: more changes than its usual burst at that time of day allows
  (``BURST_FACTOR`` times, or ``BURST_SLACK`` more);
- night use: a device used in the small hours on at least ``NIGHT_HABIT`` of the nights
  learned (a toilet trip) is not told for being used at night;
- heating or cooling with an opening open (``hvac_with_opening_open``): an opening that
  stays open this long on most days at this time of day, with the climate device running
  as it does at this hour (``climate_hours``) (a door between rooms with a
  generic "opening" sensor, a window kept ajar by habit) is how this home lives;
- a window open in a storm with the household home, opened at its usual hour and open no
  longer than that habit (``window_habit_in_rain``);
- a door open while nobody is home (``entry_unsecured_while_away``, a door without a
  lock): open since before everybody left, as it was at departures on at least
  ``LEFT_OPEN_HABIT`` of the days with a departure (an interior door), or while the
  household went out by another door it shut (``way_out``), is not an entrance left open.

A finding that stands says which normal judged it: the learned one ("open 3 h; on most
days it is open at most 40 min"), or the default limit for a device seldom used. While a
device is still being learned the rule's default limits judge unchanged (the finding is
the same as in any home) and ``core/learning_gate.py`` keeps it from the homeowner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from ..cold_start_openings import is_garage_door
from ..feedback import MARGIN
from ..home import HomeView
from ..models import Finding
from ..open_states import stands_open as stands_open_now
from ..statistics.durations import ENTRY_OPEN_LIMIT, left_open_text, open_spells
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from ..statistics.timeline import Interval, turned
from .airing_habit import ajar_by_angle, closed_airings_judged, usually_open_text
from .attended_doors import left_open
from .away_habits import APPLIANCE_RULES, WINDOW_RULES, judge_appliance, judge_window
from .away_judge import judge_entry
from .away_motion_judge import judge_motion
from .away_teaching import ENTRY_RULES, MOTION_RULES
from .burst_judge import judged_burst
from .climate_hours import runs_at_this_hour
from .clock import day_number, local
from .drop_judge import DROP_RULES, home_drops_judge, judged_drop
from .entered_from_inside import opened_by_somebody_inside
from .gathering import gathered
from .home_baselines import HomeBaselines
from .inside_doors import only_used_from_inside
from .lonely_judge import judge_lonely
from .long_stays import FLOOR as LONG_STAY_FLOOR, duration_text, stay_since
from .running_judge import HEAT_RUN_RULES, RUN_RULES, judged_run
from .stands_open import stands_open
from .stay_habits import StayHabit, habit_text
from .supply_cut import cut_devices, judged_cut
from .switched_by_timer import ACTIVATION_RULES, judge_activation
from .there_all_along import all_there_before_empty
from .usual_use import UsualUse
from .way_out import left_by_another_door
from .window_habit_in_rain import WET_WINDOW_RULES, judge_wet_window

OPEN_FACTOR = 2.0
# A garage door or gate with no stays learned: a car taken out or put away, the boot
# unloaded, keeps it open longer than a person passing through a door (the prior only).
GARAGE_OPEN_PRIOR = timedelta(minutes=30)
NIGHT_HABIT = 0.3
LEFT_OPEN_HABIT = 0.3
# A garage door open while nobody is home is an entrance used while the home is empty:
# asked as one (a dog-sitter fetching food from the garage during her visit, a car put
# away at the hour it is on other empty days).
GARAGE_RULES = frozenset({"garage_open_while_protected"})
AWAY_RULES = MOTION_RULES | ENTRY_RULES | GARAGE_RULES
_PRIOR = (
    " Its normal here is still being learned (until {until:%d %b %H:%M}): the default limit judged."
)


def judged_by_usual(finding: Finding, baselines: HomeBaselines, home: HomeView) -> Finding | None:
    """``finding`` as this home's usual use judges it: None when it is usual here."""
    judge = _JUDGES.get(finding.rule)
    if judge is None or not finding.evidence:
        return finding
    if only_used_from_inside(finding, baselines, home):
        return None  # a fridge's door, a bathroom door at rest open: not a way in
    # The device the finding is about: the open window, not the climate that runs beside it.
    entity_id = (finding.subject if finding.rule in _BY_SUBJECT else None) or finding.evidence[0]
    times = (t.when for t in home.window.transitions)
    start = home.window.start or min(times, default=home.end)
    # A power cut with somebody home is told by what it costs; in an empty home nobody
    # knows of it: told as its devices offline, at their grace (set 9's tripped meter).
    if (
        finding.rule in DROP_RULES
        and not home.nobody_home
        and (cut := cut_devices(finding, home)) is not None
    ):
        return judged_cut(finding, cut, baselines, home)  # a power cut: what it costs
    if finding.rule in DROP_RULES:
        # Whether it ever drops is not known while it is learned; the home's drops are.
        # Several devices dropped at once (``one_device``): told if any is past its limit.
        dropped = (e for e in finding.evidence if e not in finding.context)
        for offline in dict.fromkeys((entity_id, *dropped)):
            state = home.info(offline)
            learning = (
                home_drops_judge(baselines, state, start)
                if state is not None
                else baselines.learning(offline, start)
            )
            if (judged := judged_drop(finding, offline, baselines, home, learning)) is not None:
                return judged
        return None
    if finding.rule in APPLIANCE_RULES | WINDOW_RULES | ACTIVATION_RULES | HEAT_RUN_RULES:
        return judge(finding, entity_id, baselines, home)  # its own days learned judge it
    # Learned or not as of now, as the learning gate asks: judged by the learning at the
    # window's start, the default limit told a door's usual hour as "left open" for a
    # window's length after its learning ended, the moment the gate let findings through.
    if baselines.learning(entity_id, home.end):
        # What this home does while empty has its own evidence (days seen): a pet, a
        # regular visitor, a keyholder seen on other days is known before the device. With
        # no earlier day lived empty (a fresh install), the rule judges unchanged, but for
        # what the homeowner's false alarms taught (their mark covers one away spell only).
        away_judge = judge_entry if finding.rule in ENTRY_RULES | GARAGE_RULES else judge_motion
        today = day_number(home.end, baselines.zone)
        learned = any(day != today for days in baselines.away.away_days for day in days) or bool(
            baselines.away.taught_entries or baselines.away.taught_motion
        )
        if (
            finding.rule in AWAY_RULES
            and learned
            and away_judge(finding, entity_id, baselines, home) is None
        ):
            return None
        # Nothing learned yet, but the home itself shows who opened it: somebody inside.
        if finding.rule in ENTRY_RULES and opened_by_somebody_inside(finding, baselines, home):
            return None
        # Or who is there: a bed sensor on since before everybody left (``there_all_along``).
        if finding.rule == "motion_while_away" and all_there_before_empty(finding, baselines, home):
            return None
        # Its normal is not known yet: the default limits judge, as
        # in any home (a replayed sample, whose baselines learn only its own trace, is
        # judged the same in Home Assistant as without it); ``learning_gate`` holds the
        # finding back from the homeowner while the device is still being learned.
        return finding
    return judge(finding, entity_id, baselines, home)


def _open(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    if stands_open(baselines.durations, entity_id):
        return None  # open is where it rests here (a bedroom door shut only to sleep)
    usual_use = baselines.usual
    taught = usual_use.taught_value(entity_id, "open") or 0.0
    worst: tuple[Interval, float, int, StayHabit | None] | None = None
    garage = (info := home.info(entity_id)) is not None and is_garage_door(info.info)
    for spell in open_spells(home, entity_id):  # the one open now from when it began
        if spell.duration < ENTRY_OPEN_LIMIT:
            continue
        if gathered(home, baselines, spell.end):
            continue  # people gathered until it shut (a procession watched from the doorway)
        usual = usual_use.usual_open(entity_id, spell.start)
        minutes, days = usual if usual is not None else (0.0, 0)  # seldom used: the default
        # Kept open this long around this hour on other days, or on this weekday before.
        habit = baselines.habits.usual(entity_id, spell.start)
        prior = ENTRY_OPEN_LIMIT
        if days == 0 and habit is None and garage:
            prior = GARAGE_OPEN_PRIOR  # a car out or in, the boot unloaded: not yet learned
        limit = max(
            prior,
            OPEN_FACTOR * timedelta(minutes=minutes),
            OPEN_FACTOR * timedelta(minutes=habit.minutes if habit else 0.0),
            MARGIN * timedelta(minutes=taught),  # the homeowner's word, as a mark's degree
        )
        if not left_open(home, entity_id, spell, limit):
            continue  # in use: somebody moved beside it until minutes ago
        if worst is None or spell.duration > worst[0].duration:
            worst = (spell, minutes, days, habit)
    if worst is None:
        return None
    spell, minutes, days, habit = worst
    if taught > 0 and MARGIN * taught >= OPEN_FACTOR * minutes:
        why = f" You marked {duration_text(timedelta(minutes=taught))} open as normal."
    elif habit is not None and habit.minutes > minutes:
        why = habit_text(habit)
    elif days == 0 and garage:
        why = " It is seldom open here: the default limit for a garage door or gate judged."
    elif days == 0:
        why = " It is seldom open here: the default limit judged."
    else:
        why = usually_open_text(minutes, days)
    return replace(
        finding,
        reasoning=left_open_text(entity_id, spell) + why,
        magnitude=round(spell.duration.total_seconds() / 60, 1),
    )


def _opening_while_climate(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """Heating with an opening open: usual when it stays open this long on most days and
    the climate device is as it usually is at this time of day (``climate_hours``), or
    the opening stands open most of the time here (a door between rooms)."""
    if stands_open(baselines.durations, entity_id):
        return None
    spells = open_spells(home, entity_id)
    now_open = [spell for spell in spells if spell.ongoing]
    window = home.info(entity_id)
    if (
        not now_open
        and window is not None
        and not stands_open_now(window)
        and not ajar_by_angle(home, window)
    ):
        return closed_airings_judged(finding, entity_id, spells, baselines.usual, OPEN_FACTOR)
    if not now_open:
        return finding  # ajar by its angle sensor, or open before the window: as found
    spell = now_open[-1]
    usual = baselines.usual.usual_open(entity_id, spell.start)
    if usual is None:
        return finding
    minutes, days = usual
    if spell.duration > OPEN_FACTOR * timedelta(minutes=minutes):
        return replace(finding, reasoning=finding.reasoning + usually_open_text(minutes, days))
    climate = next((e for e in finding.evidence if e.partition(".")[0] == "climate"), None)
    running = home.info(climate) if climate is not None else None
    if (
        running is None
        or running.info.area != home.area(entity_id)  # another room's heating: as it lives
        or runs_at_this_hour(baselines.durations, running.entity_id, running.state, home.end)
    ):
        return None  # the window's habit, with the climate as it always is at this hour
    return replace(
        finding,
        reasoning=finding.reasoning + f" It is open this long on most days, but "
        f"{running.entity_id} is seldom {running.state} at this time of day here.",
    )


def _night(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    usual_use = baselines.usual
    zone = baselines.zone
    nights = [
        when
        for when in turned(home.changes(entity_id), "on")
        if SMALL_HOURS_START <= local(when, zone).hour < SMALL_HOURS_END
    ]
    latest = nights[-1] if nights else home.end
    watched = usual_use.nights_watched(entity_id, home.end)
    used = usual_use.nights_used(entity_id, skip=latest)
    if usual_use.taught_value(entity_id, "night") is not None:
        return None  # the homeowner said night use is normal here
    if watched and used >= 2 and used >= NIGHT_HABIT * watched:
        return None  # used at night on many nights here: a habit (a toilet trip)
    return replace(
        finding,
        reasoning=finding.reasoning + f" Here it was used in the small hours on {max(used, 0)} "
        f"of {watched} nights learned.",
    )


def _left_open_away(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """A door open since before everybody left, as it is on most days they leave (an
    interior door): not an entrance left open. A lock, or a door opened while the home is
    empty, is always judged by the rule."""
    if any(e.partition(".")[0] == "lock" for e in finding.evidence):
        return finding
    usual_use = baselines.usual
    departed = usual_use.departed
    if departed is None or entity_id not in usual_use.open_at_departure:
        return finding  # opened while the home is empty (or not known to be open before)
    used, departures = usual_use.days_left_open(entity_id, skip=departed)
    if used >= LEFT_OPEN_HABIT * departures and (
        used >= 2 or left_by_another_door(baselines, entity_id)
    ):
        # Open at departures as a habit; or too few departures learned to say otherwise
        # and the household went out by another door: the cold start's reading holds.
        return None
    if left_by_another_door(baselines, entity_id) and _within_its_stay(usual_use, entity_id, home):
        # Seldom open at departures, but it stood open while the household went out by
        # another door it shut, and not yet longer than it stays open on most days when
        # opened at that time (a child's room door open all day, the dishwasher dried
        # ajar, the balcony door in the cool morning): how this home lives, no way in.
        # Open longer than that, it is told (the balcony door left open for the evening).
        return None
    return replace(
        finding,
        reasoning=finding.reasoning + f" It was open when everybody left on {used} of the "
        f"{departures} days anybody left that were learned.",
    )


def _within_its_stay(usual_use: UsualUse, entity_id: str, home: HomeView) -> bool:
    """The door's open spell is no longer yet than its learned stays begun at that time
    of day (two days of use at least)."""
    since = usual_use.open_since(entity_id)
    if since is None or (usual := usual_use.usual_open(entity_id, since)) is None:
        return False
    return home.end - since <= timedelta(minutes=usual[0])


def _weekly_stay(finding: Finding, baselines: HomeBaselines, home: HomeView) -> bool:
    """A lock of the finding unlocked since around this hour of this weekday, as it stood
    on this weekday in an earlier week (a door on the key through the Sabbath, phones
    off: "nobody home" to the trackers), and not an hour longer: how this home lives."""
    for entity_id in finding.evidence:
        lock = home.info(entity_id)
        if lock is None or lock.domain != "lock" or lock.state != "unlocked":
            continue
        since = stay_since(home, baselines, lock)
        habit = baselines.habits.usual(entity_id, since) if since is not None else None
        if (
            since is not None
            and habit is not None
            and habit.weekly
            and home.end - since <= timedelta(minutes=habit.minutes) + LONG_STAY_FLOOR
        ):
            return True
    return False


type _Judge = Callable[[Finding, str, HomeBaselines, HomeView], Finding | None]

_JUDGES: dict[str, _Judge] = {
    "entry_left_open": _open,
    "toggle_storm": judged_burst,
    "opening_blip_at_night": _night,
    "entry_used_in_small_hours": _night,
    "entry_unsecured_while_away": lambda f, e, b, h: (
        None
        if (judged := judge_entry(f, e, b, h)) is None or _weekly_stay(f, b, h)
        else _left_open_away(judged, e, b, h)
    ),
    "garage_open_while_protected": judge_entry,
    "motion_while_away": judge_motion,
    "appliance_active_while_away": judge_appliance,
    "window_opened_while_away": judge_window,
    "activity_while_away": judge_motion,
    "activation_while_armed_away": judge_activation,
    "unaccompanied_opening": judge_lonely,
    "hvac_with_opening_open": _opening_while_climate,
    "device_unavailable": judged_drop,
    "device_went_offline": judged_drop,
    **dict.fromkeys(RUN_RULES, judged_run),
    **dict.fromkeys(WET_WINDOW_RULES, judge_wet_window),
}
# Rules whose finding is about its ``subject``, not its first evidence.
_BY_SUBJECT = frozenset({"hvac_with_opening_open"})
JUDGED_RULES = frozenset(_JUDGES)
