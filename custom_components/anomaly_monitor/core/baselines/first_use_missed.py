"""Not up: a contact's first use of the day, kept every morning, has not come.

A person without a tracker tells the home she is up by the doors and drawers she uses: her
bedroom door opened at ten to seven, the medicine drawer at ten past eight, every day. The
household's getting up (``getting_up``) pools everyone (a grandson up at half past seven
is the day begun) and is judged only while a tracker is home, and ``routine_missed``
watches panels and locks. Here, per contact (``DailyRoutines``: the quarters of each day it
was open), a **first use** due at quarter ``K`` is:

- held: open at some moment of the quarters up to ``K`` on nearly every day it was used at
  all (one in ten may miss: a night away, she was not here to be up), at least
  ``MIN_DAYS`` of them, and on the same weekday a week before when that day was watched (a door
  used on weekdays only, or later on Sundays, keeps a weekly exception). The days it was
  not used at all (the household away, she at her daughter's) are no days of it;
- narrow: within ``BAND`` before ``K`` there is a quarter at which it was open on at most
  ``RARE_SHARE`` of those days (the night before it is shut; it opens in a band of
  minutes, not at any hour of the morning). The band's width is its spread;
- a morning's, of a daily habit: the band lies within ``MORNING`` (getting up; a bathroom
  door's use after lunch or the evening's tablets are no sign of being up), and the
  contact is used on ``DAILY_SHARE`` of the days the home was lived in (anything kept in
  ``DailyRoutines`` used that day): a gate opened on work days only is no daily habit.

Today it has not been open since ``EARLY`` before the band, ``K``'s end plus a margin (its spread,
``FLOOR`` at least) has passed, and nothing else of its area has moved or opened since the
band began (somebody up in that room is up), and whoever makes it slept at home last night
(``first_use_night``: her room used the evening before, where it is every evening; else
somebody in the home overnight). Told once per morning for the area of the first one due,
with every contact of that area late, about that contact (her door: a later finding about
it, shut far too long or open while nobody is home, is the same trouble and joins it), also
with no tracker home (an untracked resident) but not in a home empty by every sign (the
trackers away and nothing moved or opened since they left: nobody to be up). Only a
contact used from inside (``first_use_inner``: her door, a drawer; never a way in or
out, a yard door or a gate, whose first opening is somebody coming or going), and one
that rests shut only where its band is the first use of the day (not used in the night
before it: a WC's first use is nobody's getting up). A bed sensor is judged the other way
round: lain on past the quarter it is left by every morning (``first_use_bed``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ..home import (
    OCCUPANCY_DEVICE_CLASSES,
    OPENING_DEVICE_CLASSES,
    UNAVAILABLE_STATES,
    HomeView,
    is_unavailable,
)
from ..models import EntityState, Finding, area_subject
from ..occupancy import presence_of
from .away_normal import LEAVE_GRACE
from .clock import local
from .daily_routines import (
    CONTACT_CLASSES,
    QUARTER,
    SLOTS,
    DailyRoutines,
    contact_state,
    quarter_of,
    quarter_start,
)
from .day_masks import DAYS_KEPT
from .first_use_bed import (
    MORNING as BED_MORNING,
    bed_left_by,
    lain_on_since,
    night_began_late,
)
from .first_use_inner import rests_open, used_from_inside
from .first_use_night import slept_here
from .held_on import lain_on
from .home_baselines import HomeBaselines
from .long_stays import duration_text, stay_since
from .routine_missed import MAX_ANSWERS, MIN_DAYS, ROUTINE_MISSED

BAND = 8  # quarters: a first use kept within two hours
RARE_SHARE = 0.1
# Used on this share of the days the home was lived in at least: a daily habit.
DAILY_SHARE = 0.9
# Getting up: a band that begins and is due within these quarters of the local day.
MORNING = (16, 48)  # 04:00-12:00
FLOOR = timedelta(minutes=45)
# Due quarters looked back at (a morning's first use is told for this long at most).
LOOK_BACK = timedelta(hours=4)
EARLY = timedelta(minutes=30)


@dataclass(frozen=True, slots=True)
class FirstUse:
    """Open in quarter ``slot`` on ``held`` of ``learned`` days; rare ``spread`` quarters
    before it."""

    held: int
    learned: int
    spread: int
    days: int = 0  # the days it was held (bit k: k days before the routines' day)


def first_use_at(
    routines: DailyRoutines, entity_id: str, slot: int, day: int, quiet_night: bool = False
) -> FirstUse | None:
    """The first use of ``entity_id`` due by the end of quarter ``slot`` of local day
    ``day``, or None. ``quiet_night``: the contact rests shut, and its band is the first
    use of the day only if it was not used from midnight up to it on nearly every morning
    it was kept (``first_use_inner``)."""
    masks = routines.slots.get(entity_id)
    if masks is None:
        return None
    if not MORNING[0] <= slot < MORNING[1]:
        return None
    used = 0
    for mask in masks:
        used |= mask
    if (lived := routines.first_answers.get(("", -1, day))) is None:
        lived = routines.first_answers[("", -1, day)] = _lived(routines)
    lived &= routines.before(day) & routines.watched[slot]
    learned = used & lived
    days = learned.bit_count()
    if days < MIN_DAYS or days < DAILY_SHARE * lived.bit_count():
        return None  # not used on most days the home was lived in: no daily habit
    back = routines.day - day
    week_ago = 1 << (back + 7) if 0 <= back + 7 < DAYS_KEPT else 0
    week_ago &= routines.watched[slot]  # watched then: used in its band, or not at all
    present = 0
    for width in range(1, BAND + 1):
        present |= _aligned(masks, slot - width + 1)
        held = present & learned
        count = held.bit_count()
        if count < days - days // 10:
            continue
        if week_ago and not held & week_ago:
            return None  # not used in it on this weekday a week ago: a weekly exception
        for spread in range(width + 1, BAND + 1):
            if slot - spread + 2 < MORNING[0]:
                return None  # a band from the night: no getting up
            if (_aligned(masks, slot - spread + 1) & learned).bit_count() <= RARE_SHARE * days:
                if quiet_night and not _quiet_before(masks, slot - spread + 2, held):
                    return None  # used in the night before on many mornings: no first use
                return FirstUse(count, days, spread - 1, held)
        return None
    return None


def _quiet_before(masks: list[int], band_slot: int, held: int) -> bool:
    """Whether the contact was unused from midnight up to quarter ``band_slot`` on all
    but ``RARE_SHARE`` of the ``held`` mornings."""
    night = 0
    for index in range(max(band_slot, 0)):
        night |= masks[index]
    return (night & held).bit_count() <= RARE_SHARE * held.bit_count()


def _lived(routines: DailyRoutines) -> int:
    """The days anything kept here was used (a contact opened, a sensor moved, a lock
    locked): a home lived in that day."""
    lived = 0
    for masks in routines.slots.values():
        for mask in masks:
            lived |= mask
    return lived


def _aligned(masks: list[int], index: int) -> int:
    """Quarter ``index`` of the day (negative: the evening before), each bit at the day
    whose morning it belongs to."""
    return masks[index % SLOTS] >> 1 if index < 0 else masks[index % SLOTS]


def _answer(
    routines: DailyRoutines, entity_id: str, slot: int, day: int, quiet_night: bool
) -> FirstUse | None:
    """``first_use_at``, kept for the day: every analysis asks the same quarters."""
    answers = routines.first_answers
    if len(answers) >= MAX_ANSWERS or (answers and next(iter(answers))[2] != day):
        answers.clear()
    key = (entity_id, slot, day)
    if key not in answers:
        answers[key] = first_use_at(routines, entity_id, slot, day, quiet_night)
    found = answers[key]
    return found if isinstance(found, FirstUse) else None


def _margin(first: FirstUse) -> timedelta:
    return max(FLOOR, first.spread * QUARTER)


def empty_by_every_sign(home: HomeView, baselines: HomeBaselines) -> bool:
    """The trackers are away and nothing moved or opened since the last of them left."""
    if not home.nobody_home:
        return False
    away = baselines.away
    if away.empty_since is None:  # the baselines do not know when: the window's own reports
        left = [
            change.when
            for presence in home.presence_entities
            for change in home.changes(presence.entity_id)
            if presence_of(change.state) is not True
        ]
        since = max(left) if left else home.window.start
        return not any(_moved_since(home, state.entity_id, since) for state in _signs(home))
    since = away.empty_since + LEAVE_GRACE
    return not any(when >= since for when, _, _ in away.spell)


def _signs(home: HomeView) -> list[EntityState]:
    return [
        *home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES),
        *home.of("binary_sensor", *OPENING_DEVICE_CLASSES),
    ]


def _moved_since(home: HomeView, entity_id: str, since: datetime | None) -> bool:
    """Whether ``entity_id`` turned on, or off again, since ``since``. A sensor back from
    ``unavailable`` reading ``off`` (a radio drop, a restart) was not used: nothing moved."""
    before: str | None = None
    for change in home.changes(entity_id):
        if (
            change.state in ("on", "off")
            and (since is None or change.when >= since)
            and (change.state == "on" or before not in UNAVAILABLE_STATES)
        ):
            return True
        before = change.state
    return False


@dataclass(frozen=True, slots=True)
class _Late:
    entity_id: str
    name: str
    due: datetime
    told_at: datetime
    first: FirstUse
    bed: bool = False  # a bed still lain on, not a contact still shut


def _late(home: HomeView, baselines: HomeBaselines, entity_id: str) -> _Late | None:
    routines = baselines.routines
    state = home.info(entity_id)
    if state is None or is_unavailable(state):
        return None
    if state.info.device_class in OCCUPANCY_DEVICE_CLASSES:  # a bed lain on now, or none
        bed = state.state == "on" and lain_on(baselines, entity_id)
        return _bed_late(home, baselines, state) if bed else None
    if state.info.device_class not in CONTACT_CLASSES or contact_state(
        state.info.domain, state.info.device_class, state.state
    ):
        return None  # open now, or no contact
    if not used_from_inside(home, baselines, entity_id):
        return None  # a way in or out (a yard door, a gate): its first use is a choice
    quiet_night = not rests_open(baselines, entity_id)
    now = home.end
    quarter = quarter_start((now - LOOK_BACK).astimezone(UTC))
    while quarter + QUARTER + FLOOR <= now:
        slot, day = quarter_of(quarter, routines.zone)
        first = _answer(routines, entity_id, slot, day, quiet_night)
        if first is not None:
            told_at = quarter + QUARTER + _margin(first)
            band = quarter - (first.spread - 1) * QUARTER  # the first quarter it may open
            # Opened a little before its band (early today) is up too.
            if told_at > now or routines.was_in(entity_id, band - EARLY, now):
                return None
            if _area_moved(home, baselines, state.info.area, entity_id, band):
                return None
            room = [entity_id, *_room(home, baselines, state.info.area, entity_id)]
            if not slept_here(home, routines, room, band, first.days):
                return None  # she spent the night elsewhere, or nobody did: none to be up
            name = state.info.name or entity_id
            return _Late(entity_id, name, quarter + QUARTER, told_at, first)
        quarter += QUARTER
    return None


def _bed_late(home: HomeView, baselines: HomeBaselines, state: EntityState) -> _Late | None:
    """A bed usually left by now (``first_use_bed``) lain on since before its band."""
    routines = baselines.routines
    entity_id = state.entity_id
    since = stay_since(home, baselines, state)
    now = home.end
    quarter = quarter_start((now - LOOK_BACK).astimezone(UTC))
    answers = routines.first_answers
    while quarter + FLOOR <= now:
        slot, day = quarter_of(quarter, routines.zone)
        if not BED_MORNING[0] <= slot < BED_MORNING[1]:
            quarter += QUARTER
            continue  # no bed is left for the day then (the answers are kept for the day)
        if len(answers) >= MAX_ANSWERS or (answers and next(iter(answers))[2] != day):
            answers.clear()
        key = (f"bed {entity_id}", slot, day)
        if key not in answers:
            answers[key] = bed_left_by(routines, entity_id, slot, day, _lived_before(routines, day))
        if (found := answers[key]) is not None:
            held, learned, spread, days = found
            first = FirstUse(held, learned, spread, days)
            late = night_began_late(routines, entity_id, day, days, slot - spread)
            told_at = quarter + _margin(first) + late * QUARTER
            band = quarter - (spread - 1) * QUARTER  # the first quarter it may be left
            # Back in bed after getting up (a rest after the prayer) is no night going on;
            # back from a trip of minutes (no quarter empty since the band) is.
            if told_at > now or since is None:
                return None
            if since > band - EARLY and not lain_on_since(routines, entity_id, band - EARLY, now):
                return None
            if _area_moved(home, baselines, state.info.area, entity_id, band):
                return None  # somebody up in her room, or with her
            return _Late(entity_id, state.info.name or entity_id, quarter, told_at, first, True)
        quarter += QUARTER
    return None


def _lived_before(routines: DailyRoutines, day: int) -> int:
    if (lived := routines.first_answers.get(("", -1, day))) is None:
        lived = routines.first_answers[("", -1, day)] = _lived(routines)
    return lived & routines.before(day)


def _room(home: HomeView, baselines: HomeBaselines, area: str | None, entity_id: str) -> list[str]:
    """What else of ``area`` is kept (contacts, motion)."""
    if area is None:
        return []
    return [e for e in baselines.routines.slots if e != entity_id and home.area(e) == area]


def _area_moved(
    home: HomeView, baselines: HomeBaselines, area: str | None, entity_id: str, since: datetime
) -> bool:
    """Something else of ``area`` (a motion sensor, a contact) moved or opened since."""
    if area is None:
        return False
    for other in _room(home, baselines, area, entity_id):
        if baselines.routines.was_in(other, since, home.end) or _moved_since(home, other, since):
            return True
    return False


def first_use_missed(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A contact's daily first use not come by its learned time plus its margin.

    Magnitude: minutes past the due time.
    """
    told = baselines.routines.first_told
    today = quarter_of(home.end, baselines.routines.zone)[1]
    # Nobody to be up in a home empty by every sign (once told, the morning's notice
    # stands as they leave), but a bed lain on since the night is somebody in it: whoever
    # lies in a bed left every morning by now is judged by it with every tracker away.
    empty = (told is None or told[0] != today) and empty_by_every_sign(home, baselines)
    late = [
        found
        for entity_id in list(baselines.routines.slots)
        if (found := _late(home, baselines, entity_id)) is not None and (found.bed or not empty)
    ]
    if not late:
        return
    first = min(late, key=lambda item: (item.told_at, item.entity_id))
    area = home.area(first.entity_id)
    room = area_subject(area) if area else first.entity_id
    day = quarter_of(first.due - QUARTER, baselines.routines.zone)[1]
    # The subject is the contact first told (her door), kept all morning: a later finding
    # about that door (shut far longer than usual, opened while nobody is home) is the
    # same trouble, and the tracker joins findings that share a subject.
    subject = first.entity_id
    if told is not None and told[0] == day:
        if told[1] != room:
            return  # this morning's notice was another room's: one a morning
        subject = told[2]
    baselines.routines.first_told = (day, room, subject)
    same = sorted(
        (item for item in late if home.area(item.entity_id) == area),
        key=lambda item: (item.due, item.entity_id),
    )
    now = home.end
    when = local(first.due, home.env.zone)
    others = [item.name for item in same if item is not first]
    also = f" Nor has {', '.join(others)}." if others else ""
    yield ROUTINE_MISSED.finding(
        evidence=tuple(item.entity_id for item in same),
        subject=subject,
        reasoning=_reasoning(first, when, duration_text(now - first.due)) + also,
        recommendation="Check on whoever uses it each morning: they may not be up, or may "
        "need help. If the routine has changed, mark this as a false alarm.",
        magnitude=round((now - first.due).total_seconds() / 60, 1),
    )


def _reasoning(first: _Late, when: datetime, past: str) -> str:
    if first.bed:
        return (
            f"{first.name} is left by {when:%H:%M} on {first.first.held} of the "
            f"{first.first.learned} mornings after a night in it; not today: {past} past "
            "that time somebody is still lying in it, and nothing else of its room has moved."
        )
    return (
        f"{first.name} is opened by {when:%H:%M} on {first.first.held} of the "
        f"{first.first.learned} days it was used; not today: {past} past that time it is "
        "still shut, and nothing else of its room has moved."
    )
