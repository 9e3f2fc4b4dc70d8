"""Motion while the home is empty, asked against what moves here then.

``motion_while_away`` and ``activity_while_away`` tell an empty home where something moves.
Each motion onset of the finding is judged (``away_judge`` reads the entries of the empty
spell): motion after an entry at an hour nothing comes in is told, and says so; motion
within ``VISIT_REACH`` of an entry at a regular time is the visitor's. Otherwise the motion
is usual when its sensor

- moves on most days the home is empty at that part of the day, or at all hours while it
  is empty (``AwayNormal``: a dog, a cat, a regular round);
- moves at nearly every hour of the day on most days, whoever is home
  (``UntrackedLife.round_the_clock``): what moves there keeps no person's hours, people
  sleep; a dog in the yard, a doorbell's camera on the street, cattle in a shed. Learned
  over ``EVERYDAY_DAYS`` days at least, so a home's first days judge as before. Not when
  a way in opened within ``PASSAGE`` after it: whoever moved there went to a door (the
  intruder the yard's camera saw before he forced the back door; such a sensor is still
  a sign of somebody inside for ``somebody_in``, where a round-the-clock carer's hall
  moves before the handover at the door);
- moves on most empty days in every part of the day the home is lived empty
  (``moves_whenever_empty``: a grandmother at home while the family is out);
- is an untracked resident's usual day (``untracked_judge``), or somebody already inside
  moves (``somebody_in.stayed_in``);
- is a bed or chair sensor (``held_on.lain_on``): somebody lying down is already inside,
  never an intruder's first sign (an unusual entry before it is still told, above);
- is in the room of a presence sensor held on since before everybody left, or is such a
  sensor itself (``there_all_along``): somebody was there all along.

A sensor that seldom moves then while nobody is home is told, and says so.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from datetime import datetime

from ..home import HomeView
from ..models import Finding
from ..phoneless_residents import nobody_home_words
from ..statistics.occupancy import since_last_return
from .away_judge import _at, _entries
from .away_normal import PART_HOURS
from .away_spans import VISIT_REACH, empty_spans as _empty_spans, within as _within
from .clock import local
from .held_on import lain_on
from .home_baselines import HomeBaselines
from .inside_walk import PASSAGE
from .keyed_entries import key_of, keyholder_days
from .moves_whenever_empty import moves_whenever_empty
from .opening_uses import uses
from .room_doors import room_door
from .somebody_in import is_motion as _is_motion, stayed_in
from .there_all_along import lying_there, on_before_empty
from .untracked_judge import untracked_motion, untracked_opening
from .ways_in import is_opening, opened_state


def _part_text(when: datetime, baselines: HomeBaselines) -> str:
    start = local(when, baselines.zone).hour // PART_HOURS * PART_HOURS
    return f"{start:02d}-{start + PART_HOURS:02d} h"


def _entry_text(entrance: str, when: datetime, days: int, baselines: HomeBaselines) -> str:
    if days == 0:
        return f"{entrance} used at {_at(when, baselines)}, a time you marked as usual"
    return (
        f"{entrance} used at {_at(when, baselines)}, as on {days} other days while nobody "
        "was home (a regular visitor)"
    )


def _motion_explained(
    home: HomeView,
    baselines: HomeBaselines,
    sensor: str,
    onset: datetime,
    entries: list[tuple[datetime, str, int | None]],
) -> tuple[str | None, str, tuple[str, ...]]:
    """(why it is usual, or None; what the normal says when it is not; the unusual entries
    used before it). ``entries``: (when, entrance, regular days or None), in time order."""
    away = baselines.away
    times = [when for when, _, _ in entries]
    reach = entries[bisect_left(times, onset - VISIT_REACH) : bisect_right(times, onset)]
    unusual = [(when, e) for when, e, days in reach if days is None]
    if unusual:
        when, entrance = unusual[-1]
        return (
            None,
            f" {entrance} was used at {_at(when, baselines)} before it, a time nothing "
            f"usually comes in while {nobody_home_words(home.window)}.",
            tuple(dict.fromkeys(e for _, e in unusual)),
        )
    if reach:
        when, entrance, days = reach[-1]
        return _entry_text(entrance, when, days or 0, baselines), "", ()
    usual = away.usual_motion(sensor, onset)
    if usual is None and (usual := away.moves_at_any_hour(sensor, onset)) is not None:
        moved, empty = usual
        return (
            f"{sensor} moves at all hours on {moved} of {empty} days nobody is home (a pet)",
            "",
            (),
        )
    if usual is not None:
        moved, empty = usual
        if moved == 0:
            return f"{sensor} moving at {_part_text(onset, baselines)}, marked as usual", "", ()
        return (
            f"{sensor} moves at {_part_text(onset, baselines)} on {moved} of {empty} days "
            "nobody is home (a pet or a regular round)",
            "",
            (),
        )
    clock = baselines.untracked.round_the_clock(sensor, onset)
    if clock is not None and not _opened_after(home, onset):
        hours, days = clock
        return (
            f"{sensor} moves at {hours} hours of the day on most of {days} days, whoever "
            "is home (a pet, an animal or the street, not a person's hours)",
            "",
            (),
        )
    if (whenever := moves_whenever_empty(away, sensor, onset)) is not None:
        moved, empty = whenever
        return (
            f"{sensor} moves whenever nobody is home, at every part of the day the home is "
            f"empty ({moved} of {empty} days)",
            "",
            (),
        )
    if (untracked := untracked_motion(baselines, home, sensor, onset)) is not None:
        return untracked, "", ()
    if (inside := stayed_in(baselines, home, onset, sensor)) is not None:
        return (
            f"somebody already inside moves about (seen at {_at(inside.last_sign, baselines)}; "
            "nobody came in since)",
            "",
            (),
        )
    if (bed := lying_there(home, baselines, sensor, onset)) is not None:
        return (
            f"{bed} has been on since before everybody left: whoever lies there stirs, "
            "nobody came in",
            "",
            (),
        )
    if lain_on(baselines, sensor):
        return (
            f"{sensor} is a bed or chair sensor (it stays on for hours): somebody lying down "
            "is already inside",
            "",
            (),
        )
    told = (
        f" {sensor} seldom moves at {_part_text(onset, baselines)} while "
        f"{nobody_home_words(home.window)}."
    )
    return None, told, ()


def _opened_after(home: HomeView, onset: datetime) -> bool:
    """Whether a way in (``ways_in.is_opening``) was opened within ``PASSAGE`` after
    ``onset`` (``opening_uses``: a device back on the network is no opening)."""
    return any(
        onset <= when <= onset + PASSAGE
        for entity_id in home.history
        if is_opening(home, entity_id)
        for when in uses(home, entity_id, opened_state(home.domain(entity_id)))
    )


def _onsets(
    home: HomeView, sensor: str, rule: str, spans: list[tuple[datetime, datetime]]
) -> list[datetime]:
    onsets = [c.when for c in home.changes(sensor) if c.state.lower() == "on"]
    if rule == "activity_while_away":  # ``spans``: its spell, since the last return home
        return [when for when in onsets if _within(spans, when)]
    return onsets[-1:] or [home.end]  # motion_while_away: the spell under way


def judge_motion(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """Motion while the home is empty: None when all of it is what moves here then."""
    del entity_id  # every moving sensor of the finding is judged
    sensors = [e for e in finding.evidence if _is_motion(home, e)]
    if finding.rule == "motion_while_away":
        sensors = [e for e in sensors if (s := home.states.get(e)) and s.state.lower() == "on"]
    if not sensors or any(home.domain(e) == "sensor" for e in finding.evidence):
        return finding  # numeric motion levels are not learned: the rule judges
    spans = _empty_spans(home)
    # A room's door used in the "empty" home is somebody inside (``room_doors``), no entry:
    # the motion after it is judged by what moves here then, as any.
    entries = _one_passage(
        home,
        baselines,
        [
            (t, e, _fits(home, baselines, e, t))
            for t, e in _entries(home, baselines, spans)
            if not room_door(baselines, home, e, home.end)
        ],
    )
    # activity_while_away's onsets: the spell since the last return home, read once
    judged = since_last_return(home, spans) if finding.rule == "activity_while_away" else spans
    reasons: list[str] = []
    for sensor in sensors:
        if finding.rule == "motion_while_away" and on_before_empty(home, baselines, sensor):
            reasons.append(f"{sensor} has been on since before everybody left")
            continue  # whoever is there was in all along (``there_all_along``)
        for onset in _onsets(home, sensor, finding.rule, judged):
            why, told, entrances = _motion_explained(home, baselines, sensor, onset, entries)
            if why is None:
                cited = tuple(e for e in entrances if e not in finding.evidence)
                return replace(
                    finding,
                    reasoning=finding.reasoning + told,
                    evidence=(*finding.evidence, *cited),
                )
            reasons.append(why)
    return None if reasons else finding


def _fits(home: HomeView, baselines: HomeBaselines, entrance: str, when: datetime) -> int | None:
    """On how many other days an entry like this one came while the home was empty: at a
    regular time on this entrance, or with the key near a time keyholders come
    (``keyed_entries``); None when it does not fit."""
    days = baselines.away.regular_entry(entrance, when)
    if days is None and (key := key_of(home, baselines.away, entrance, when)) and key[1]:
        days = keyholder_days(baselines.away, key[0], when)
    if days is None:
        days = untracked_opening(baselines, home, entrance, when)
    return days


def _one_passage(
    home: HomeView, baselines: HomeBaselines, entries: list[tuple[datetime, str, int | None]]
) -> list[tuple[datetime, str, int | None]]:
    """An entrance used within ``PASSAGE`` of an entry with the key that fits (the garage,
    then the front door unlocked at a keyholder's time) is the same keyholder coming in,
    and fits as theirs; what fits nothing alone and has no keyed entry beside it stays so."""
    keyed = [
        (when, days)
        for when, entrance, days in entries
        if days is not None and (key := key_of(home, baselines.away, entrance, when)) and key[1]
    ]
    if not keyed:
        return entries
    return [
        (when, entrance, days)
        if days is not None
        else (when, entrance, next((d for t, d in keyed if abs(t - when) <= PASSAGE), None))
        for when, entrance, days in entries
    ]
