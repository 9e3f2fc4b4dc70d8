"""Motion while every tracker is away, before this home's life while away is learned.

``motion_while_away`` and ``activity_while_away`` are rated high, so the learning gate
pushed them at once on a cold start. But whether somebody without a tracker lives here (a
grandfather without a phone, children, a live-in helper, a pet the profile does not name)
is exactly what the first days teach (``AwayNormal``, ``UntrackedLife``,
``somebody_in.lived_while_away``); before that, motion while the trackers are away in a
home nobody came into is as likely theirs as anybody's: on the sets written without
reading the code, every such push in a home's first days was a false alarm.

An intruder comes in. So motion waits for the home's normal only while nobody came in
since the home became empty: no entrance (a door, a window, a lock, a garage or gate) used
but by somebody inside (a sign of them within ``INSIDE_REACH`` before it, on the away
spell's record ``AwayNormal.spell``, kept across a restart; with no record, no entry
learned since the home became empty). An entry into the empty home is pushed at once by
its own rule, and motion after it is too. A home that watches no entrance at all shows no
entry: its motion is pushed as before.
"""

from __future__ import annotations

from datetime import datetime

from .baselines.away_normal import LEAVE_GRACE
from .baselines.away_teaching import MOTION_RULES
from .baselines.home_baselines import HomeBaselines
from .baselines.inside_walk import INSIDE_REACH
from .baselines.stamped_uses import stamp
from .baselines.stored_spell import SIGN
from .baselines.ways_in import ENTRY_COVER_CLASSES
from .first_days_passage import back_by, by_day, gone_out_untracked, lying_in, person_sign
from .home import OPENING_DEVICE_CLASSES
from .keyed_doors import KEY_REACH
from .models import Finding


def _watches_an_entrance(baselines: HomeBaselines) -> bool:
    for info in baselines.infos.values():
        if info.domain == "lock":
            return True
        if info.domain == "binary_sensor" and info.device_class in OPENING_DEVICE_CLASSES:
            return True
        if info.domain == "cover" and info.device_class in ENTRY_COVER_CLASSES:
            return True
    return False


def _came_in(baselines: HomeBaselines, pets: bool, phoneless: bool) -> bool:
    """Whether somebody came in from outside since the home became empty: an entrance used
    with no sign of anybody inside within ``INSIDE_REACH`` before it (``somebody_in``'s
    walk, on the spell's own record: one opened by whoever is inside is no entry). With
    ``phoneless`` (the profile names somebody living here without a tracked phone) motion
    inside is theirs even where a pet lives; only a sign shows them in (a child without a
    phone is at school with the rest). Nor is an entry by day while somebody lies in bed
    since before everybody left (``first_days_passage.lying_in``): the carer coming in;
    nor, with ``phoneless``, a door opened by day with its key (``KEY_REACH``): the
    resident the phones do not follow coming home; nor, by day, the return of somebody who
    went out untracked as the household left, by the way they went
    (``first_days_passage.gone_out_untracked``)."""
    away = baselines.away
    if away.empty_since is None:
        return True  # not known since when: as if somebody came in (pushed)
    began = away.empty_since + LEAVE_GRACE
    if not away.spell:  # after a restart: the entries learned since it became empty
        since = stamp(began, away.zone)
        return any(used >= since for uses in away.entries.values() for used in uses[:1])
    last_sign: datetime | None = None
    last_unlock: datetime | None = None
    known = False  # somebody inside since the home became empty, before any entry
    pets = pets and not phoneless
    gone = gone_out_untracked(baselines, away.empty_since)
    for when, entity_id, kind in away.spell:
        if kind == SIGN:
            last_sign = when
            known = known or (when >= began and person_sign(baselines, entity_id, pets))
            continue
        if entity_id.partition(".")[0] == "lock":
            last_unlock = when
        if when >= began and (last_sign is None or when - last_sign > INSIDE_REACH):
            lying = lying_in(baselines, away.empty_since, when)  # a bedbound grandmother
            # Where somebody lives without a tracked phone, a door opened with its key
            # by day is theirs coming home (``first_days_passage``).
            keyed = phoneless and last_unlock is not None and when - last_unlock <= KEY_REACH
            back = back_by(gone, entity_id, when)
            if (known or lying or keyed or back) and by_day(baselines, when):
                continue  # the household coming and going by day (``first_days_passage``)
            return True
    return False


def waits_for_life_while_away(
    finding: Finding, baselines: HomeBaselines, pets: bool = False, *, phoneless: bool = False
) -> bool:
    """Whether a motion finding while away waits for the home's normal: nobody came in
    since the home became empty, in a home that watches its entrances (``pets``: the
    profile names a pet, whose motion is nobody known inside; ``phoneless``: it names
    somebody living here without a tracked phone, whose passages by day are no entry)."""
    if finding.rule not in MOTION_RULES:
        return False
    return not _came_in(baselines, pets, phoneless) and _watches_an_entrance(baselines)
