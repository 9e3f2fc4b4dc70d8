"""Not up needs somebody who slept here: the night before a missed first use.

A contact's first use of the morning missed (``first_use_missed``) says its user is not
up only if she spent the night at home. Without a tracker, the home shows it by the
evening before:

- where the contact's **room** (the contact itself and everything of its area kept in
  ``DailyRoutines``: doors, drawers, motion) shows somebody on nearly every evening before
  the mornings the first use was kept (her door open until she shuts it at bedtime, the
  evening's tablets from the same drawer), a morning after an evening with nothing of
  that room used is a night she spent elsewhere (at her daughter's, in hospital): no news,
  whoever else slept at home;
- elsewhere (a drawer alone in its room, used only in the morning), the **home** must
  show somebody overnight: a tracker home at some quarter of the night, or anything kept
  moved, opened or shut then (a door left open all night is no sign). A home left empty
  for the night (the household away, back at ten) has nobody to be up.

The night is ``EVENING`` the day before up to the first quarter the contact may open.
"""

from __future__ import annotations

from datetime import datetime

from ..home import HomeView
from .daily_routines import QUARTER, SLOTS, DailyRoutines, quarter_of
from .day_masks import DAYS_KEPT
from .routine_missed import MIN_DAYS

EVENING = 72  # quarter of the day before: 18:00


def _aligned(masks: list[int], index: int) -> int:
    """Quarter ``index`` of the day (negative: the evening before), each bit at the day
    whose morning it belongs to."""
    return masks[index % SLOTS] >> 1 if index < 0 else masks[index % SLOTS]


def _night_bits(routines: DailyRoutines, entities: list[str], band_slot: int) -> int:
    """The days (bits at the morning's day) any of ``entities`` was open or moving in the
    night before quarter ``band_slot``."""
    bits = 0
    for entity_id in entities:
        masks = routines.slots.get(entity_id)
        if masks is None:
            continue
        for index in range(EVENING - SLOTS, band_slot):
            bits |= _aligned(masks, index)
    return bits


def room_shows_evenings(
    routines: DailyRoutines, room: list[str], band_slot: int, held_days: int
) -> bool:
    """Whether ``room`` showed somebody the night before nearly every morning the first
    use was kept (``held_days``; only mornings whose evening before was watched)."""
    watched = _aligned(routines.watched, -1) & held_days
    days = watched.bit_count()
    if days < MIN_DAYS:
        return False
    shown = (_night_bits(routines, room, band_slot) & watched).bit_count()
    return shown >= days - days // 10


def _night_start(band: datetime, band_slot: int) -> datetime:
    return band - (band_slot - EVENING + SLOTS) * QUARTER


def _shown(
    home: HomeView, routines: DailyRoutines, entities: list[str], start: datetime, end: datetime
) -> bool:
    for entity_id in entities:
        if routines.was_in(entity_id, start, end - QUARTER):
            return True
        if any(start <= change.when < end for change in home.changes(entity_id)):
            return True
    return False


def slept_here(
    home: HomeView,
    routines: DailyRoutines,
    room: list[str],
    band: datetime,
    held_days: int,
) -> bool:
    """Whether somebody who makes this first use spent last night at home (see above).

    ``room``: the contact and everything of its area kept; ``band``: the first quarter it
    may open this morning."""
    band_slot, day = quarter_of(band, routines.zone)
    start = _night_start(band, band_slot)
    # Kept with the day's answers (the third of a key is the day they are for).
    key = (f"night {room[0]}", band_slot, day)
    if (habit := routines.first_answers.get(key)) is None:
        habit = routines.first_answers[key] = room_shows_evenings(
            routines, room, band_slot, held_days
        )
    if habit:
        return _shown(home, routines, room, start, band)
    if home.presence_entities and _home_in(routines, start, band):
        return True  # a tracker home (or unknown) at some quarter of the night
    return any(_changed_in(routines, e, start, band) for e in routines.slots) or any(
        start <= change.when < band for e in routines.slots for change in home.changes(e)
    )


def _changed_in(routines: DailyRoutines, entity_id: str, start: datetime, end: datetime) -> bool:
    """Open (or moving) at some quarter from ``start`` to ``end`` and not at another: a
    door left open through the night, or shut through it, says nobody was there."""
    masks = routines.slots.get(entity_id)
    if masks is None:
        return False
    seen: set[bool] = set()
    moment = start
    while moment < end and len(seen) < 2:
        slot, day = quarter_of(moment, routines.zone)
        back = routines.day - day
        if 0 <= back < DAYS_KEPT:
            seen.add(bool(masks[slot] >> back & 1))
        moment += QUARTER
    return len(seen) == 2


def _home_in(routines: DailyRoutines, start: datetime, end: datetime) -> bool:
    moment = start
    while moment < end:
        slot, day = quarter_of(moment, routines.zone)
        back = routines.day - day
        if 0 <= back < DAYS_KEPT and routines.home[slot] >> back & 1:
            return True
        moment += QUARTER
    return False
