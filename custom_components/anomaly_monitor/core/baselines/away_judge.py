"""The away checks asked against what happens here while nobody tracked is home.

``motion_while_away``, ``activity_while_away`` and ``entry_unsecured_while_away`` tell an
empty home where something moves or an entrance is open. What this home does while it is
empty is learned (``AwayNormal``): a dog that moves on most days the family is out, a carer
who lets herself in at 08:30 on weekdays, the cleaner on Wednesdays at 13:00. A finding
that only shows that is not told:

- motion is usual when its sensor moves on most days the home is empty at that part of
  the day (``AwayNormal.usual_motion``), or when it follows, within ``VISIT_REACH``, an
  entry at a regular time (``AwayNormal.regular_entry``: somebody with a key came, as on
  other days);
- an entrance open or unlocked is usual when it was used at a regular time while the home
  was empty, within ``VISIT_REACH``, while somebody still moves about (``STILL_ABOUT``): a
  door left unlocked once the visitor has gone is told.

What is not learned is told as before, and says what the normal is: an entry at an hour
nothing ever comes in while the home is empty, an entrance never used while it is, motion
after such an entry (whatever moves on other days), a sensor that never moves then. A window
opened while away has its own rule and is never judged here. While the devices are still
being learned the rules judge unchanged (``usual_judge.judged_by_usual``), and the learning
gate pushes an entry into an empty home at once. Motion is judged in ``away_motion_judge``,
on the entries of the empty spell read here.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..home import HomeView, is_armed
from ..keyed_doors import KEY_REACH, door_of_lock
from ..models import Finding
from ..phoneless_residents import empty_home_words
from .at_a_hazard import opened_at_a_hazard
from .away_spans import (
    STILL_ABOUT,
    VISIT_REACH,
    Span as _Span,
    empty_spans as _empty_spans,
    entrances as _entrances,
    used as _used,
    within as _within,
)
from .clock import local
from .home_baselines import HomeBaselines
from .inside_walk import PASSAGE
from .keyed_entries import in_keyed_visit, key_of, keyholder_days, keyholder_hours
from .leaving_grace import left_at
from .motion_onsets import motion_onsets, motion_starts, moved_between
from .somebody_in import (
    inside_now,
    is_motion as _is_motion,
    opened_from_inside,
    staying_unknown,
)
from .spell_record import spell_signs, states_only
from .untracked_judge import untracked_opening
from .ways_in import is_opening as _is_entrance, way_out


def _entries(
    home: HomeView, baselines: HomeBaselines, spans: list[_Span]
) -> list[tuple[datetime, str]]:
    """Every entrance used from outside while the home is empty, in time order (with the
    first entry of a visit that began before the window: a visit outlasts it).

    One used after another entrance was, with somebody moving inside between them (motion
    that is not what moves here anyway, a pet), is the same visitor going about (letting
    the dog into the garden, leaving), not a new entry; so is a door opened while its lock
    stays unlocked since somebody came in with the key, and a door opened after an entry
    with the key within ``STILL_ABOUT`` (past its own opening, ``KEY_REACH``) or with
    anything moving between (the keyholder may
    move where the pet does).
    A window is always from outside:
    motion after it is somebody climbing in.
    """
    used = sorted(
        (when, entity_id)
        for entity_id in _entrances(home, baselines)
        for when in _used(home, baselines, entity_id)
        if _within(spans, when)
    )
    began = home.window.start
    if began is not None and spans and spans[0][0] <= began:  # empty since before it
        recent = baselines.away.recent
        used = [(t, e) for t, e in recent if began - VISIT_REACH <= t < began][:1] + used
    # The entries with the key of this empty spell as learned (``AwayNormal.recent``)
    # within the reach: a tracker's flicker may cut the window's empty span short, and a
    # short window may not show the keyholder's visit that goes on.
    away = baselines.away
    kept = [
        (t, e)
        for t, e in away.recent
        if home.end - VISIT_REACH <= t and (key := key_of(home, away, e, t)) and key[1]
    ]
    # Somebody inside going out or letting someone in does not come in (``somebody_in``),
    # nor does whoever opens the door of a room with a hazard under way (``at_a_hazard``).
    used = [
        (t, e)
        for t, e in sorted({*used, *kept})
        if opened_from_inside(baselines, home, t, e) is None
        and not opened_at_a_hazard(baselines, home, e, t)
    ]
    if len(used) < 2:
        return used
    moving = motion_onsets(
        home,
        lambda e, when: _within(spans, when) and _pets_motion(baselines, e, when) is None,
        baselines,
    )
    anything = motion_onsets(home, lambda _e, when: _within(spans, when), baselines)
    outside: list[tuple[datetime, str]] = []
    keyed: set[tuple[datetime, str]] = set()
    for when, entrance in used:
        inside = home.device_class(entrance) != "window" and (
            any(
                when - VISIT_REACH <= earlier < when
                and (
                    ((earlier, e) in keyed and KEY_REACH < when - earlier <= STILL_ABOUT)
                    or moved_between(anything if (earlier, e) in keyed else moving, earlier, when)
                )
                for earlier, e in outside
            )
            or in_keyed_visit(home, baselines.away, entrance, when)
        )
        if not inside:
            outside.append((when, entrance))
            if (key := key_of(home, baselines.away, entrance, when)) is not None and key[1]:
                keyed.add((when, entrance))
    return outside


def _went_out(
    home: HomeView,
    baselines: HomeBaselines,
    entrance: str,
    when: datetime,
    entries: list[tuple[datetime, str]],
) -> datetime | None:
    """The last time another way out (the front door, its lock) was used after ``when``,
    not as an entry from outside (``entries``): whoever opened ``entrance`` may have gone
    out by it. A door's own opening, where there is one: a lock unlocked and locked again
    with its door shut lets nobody through."""
    ways = [
        e
        for e in _entrances(home, baselines)
        if e != entrance and way_out(home, e) and not _lock_with_door(home, e)
    ]
    return max(
        (
            used
            for other in ways
            for used in _used(home, baselines, other)
            if used > when and (used, other) not in entries
        ),
        default=None,
    )


def _lock_with_door(home: HomeView, entity_id: str) -> bool:
    """A lock whose door's contact is known: the door's opening tells anybody passed."""
    state = home.info(entity_id) if home.domain(entity_id) == "lock" else None
    return state is not None and door_of_lock(home, state) is not None


def _within_its_stay(baselines: HomeBaselines, home: HomeView, door: str, opened: datetime) -> bool:
    """A door (not a lock) open since ``opened`` no longer yet than it stays open on most
    days when opened at that time of day (two days of use at least): the balcony door
    aired for its usual hour, a back door open while the washing is hung."""
    if home.domain(door) != "binary_sensor":
        return False
    usual = baselines.usual.usual_open(door, opened)
    return usual is not None and home.end - opened <= timedelta(minutes=usual[0])


def _pets_motion(baselines: HomeBaselines, sensor: str, when: datetime) -> object:
    """Why motion on ``sensor`` then is what moves here while empty, or None."""
    away = baselines.away
    return (
        away.usual_motion(sensor, when)
        or away.moves_at_any_hour(sensor, when)
        or baselines.untracked.round_the_clock(sensor, when)  # a dog, not the visitor
    )


def _at(when: datetime, baselines: HomeBaselines) -> str:
    return f"{local(when, baselines.zone):%H:%M}"


def _someone_about(
    home: HomeView, baselines: HomeBaselines | None = None, went_out: datetime | None = None
) -> bool:
    """A motion sensor shows somebody now or within ``STILL_ABOUT``: the visit goes on.
    Once somebody went out (``went_out``), only motion since that is not what moves here
    while the home is empty (a pet, the hours' usual round) shows anybody stayed."""
    since = home.end - STILL_ABOUT
    if went_out is not None and baselines is not None:
        return any(
            when >= max(since, went_out) and _pets_motion(baselines, sensor, when) is None
            for when, sensor in motion_starts(home, baselines)
        )
    if (
        baselines is not None
        and states_only(home)
        and any(when >= since for when, _ in spell_signs(baselines))
    ):
        return True
    return any(
        (state := home.states.get(e)) is not None
        and (state.state.lower() == "on" or any(c.when >= since for c in home.changes(e)))
        for e in home.states
        if _is_motion(home, e)
    )


def judge_entry(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """An entrance open or unlocked while the home is empty: None when it was used at a
    regular time, within ``VISIT_REACH``; unchanged when it was not used while the home
    was empty (left so by the household: ``usual_judge`` asks its own normal)."""
    del entity_id
    if any(home.domain(e) == "alarm_control_panel" and _armed(home, e) for e in finding.evidence):
        return finding  # the alarm is armed: the homeowner said nobody is in
    # Within the leaving grace the spell is the one begun as they left (``leaving_grace``).
    leaving = left_at(baselines, home)
    spans = _empty_spans(home, baselines) if leaving is None else [(leaving, home.end)]
    entrances = [e for e in finding.evidence if _is_entrance(home, e)]
    uses = sorted(
        (when, e) for e in entrances for when in _used(home, baselines, e) if _within(spans, when)
    )
    if not uses:
        # Left so by the household: not away at all while somebody is still inside, nor
        # in the minutes it takes to show whether anybody stayed in as the others left,
        # nor while the last one out may still be shutting it.
        if inside_now(baselines, home) or staying_unknown(baselines, home):
            return None
        if leaving is not None and _about_as_they_left(home, baselines, entrances):
            return None
        return finding
    when, entrance = uses[-1]
    if opened_at_a_hazard(baselines, home, entrance, when):
        return None  # somebody answering the hazard under way (told by its own rule)
    # Opened just now, or somebody still moves about: the visit goes on (once somebody went
    # out by another way after it, only motion a pet or the hours' round does not make).
    entered = _entries(home, baselines, spans)
    went_out = _went_out(home, baselines, entrance, when, entered)
    visiting = home.end - when <= STILL_ABOUT or (
        home.end - when <= VISIT_REACH and _someone_about(home, baselines, went_out)
    )
    # Opened from inside, or at its usual time, with nobody gone out since: whoever opened
    # it is in, and it has not stood open longer than on most days (told once it has).
    habitual = (
        finding.rule == "entry_unsecured_while_away"
        and went_out is None
        and _within_its_stay(baselines, home, entrance, when)
    )
    came_in = [(t, e) for t, e in entered if t <= when]
    inside = opened_from_inside(baselines, home, when, entrance)
    if inside is not None and inside.by_contact and came_in:
        pass  # only a cupboard used since somebody came in: judged on its own use, as before
    elif visiting and _by_whoever_came_in(came_in, when, inside):
        # Opened again from inside by whoever came in while the home was empty (walk of
        # session 19: the intruder's door opened again): while their visit goes on, the
        # entry they came by is what is judged, as before, not the door's latest use.
        when, entrance = came_in[-1]
    elif inside is not None:
        if visiting or habitual:
            return None  # somebody inside went out or let someone in, or airs the room
        return replace(
            finding,
            reasoning=finding.reasoning + f" Left so since {_at(when, baselines)} by somebody "
            f"who was inside (seen at {_at(inside.last_sign, baselines)}); "
            + _nobody_now(went_out, baselines),
        )
    elif (when, entrance) not in came_in and came_in:
        if visiting:
            return None  # used from inside by whoever came in (told then, if unusual)
        return replace(
            finding,
            reasoning=finding.reasoning + f" Left so since {_at(when, baselines)}, by whoever "
            f"came in at {_at(came_in[-1][0], baselines)}; " + _nobody_now(went_out, baselines),
        )
    days = baselines.away.regular_entry(entrance, when)
    key = key_of(home, baselines.away, entrance, when) if days is None else None
    if key is not None:
        days = keyholder_days(baselines.away, key[0], when)
        if days is not None and not key[1]:
            return None  # unlocked at a keyholder's time: the door opens in a moment
    if days is None:  # somebody untracked at home, using it as on most days
        days = untracked_opening(baselines, home, entrance, when)
    if days is not None and (visiting or habitual):
        return None
    if days is None:
        # (walk31: "Nothing uses it at 08:56 while nobody is home, here." read garbled)
        # Empty as the trackers knew it: "every tracked phone away" where somebody lives
        # here without one (walk 52: "with the home empty", the grandmother at home).
        empty, was_empty = empty_home_words(home.window)
        why = f" It is never used at {_at(when, baselines)} with {empty}, in the days learned."
        if (lock := key[0] if key else _lock_of(entrances)) is not None:
            why += keyholder_hours(baselines.away, lock, when, was_empty)
    else:  # a visitor's usual time, but nobody has moved about since: left so
        why = f" It was used at {_at(when, baselines)}, a usual time, but nobody moves about."
    # A second arrival in this empty spell is news, also while the first one's incident is
    # still open (``entered_again`` counts them) or its stay goes on (``away_stay``).
    arrivals = _arrivals(home, baselines, spans, came_in)
    count = float(arrivals) if arrivals > 1 else finding.magnitude
    return replace(finding, reasoning=finding.reasoning + why, magnitude=count)


def _about_as_they_left(home: HomeView, baselines: HomeBaselines, entrances: list[str]) -> bool:
    """Within the leaving grace: the entrance was used, or somebody moved, within
    ``STILL_ABOUT``: the last one out may still be shutting it (the balcony door shut a
    minute after the phone left). One left so long before, nobody about, is told at once."""
    return _someone_about(home, baselines) or any(
        home.end - when <= STILL_ABOUT for e in entrances for when in _used(home, baselines, e)
    )


def _nobody_now(went_out: datetime | None, baselines: HomeBaselines) -> str:
    if went_out is None:
        return "nobody moves about now."
    return f"somebody went out at {_at(went_out, baselines)} and nobody is seen inside since."


def _by_whoever_came_in(
    came_in: list[tuple[datetime, str]], when: datetime, inside: object
) -> bool:
    """Whether the use at ``when`` was from inside, by somebody who came in from outside
    while the home was empty (the last such entry came before it, and before the last
    sign of somebody inside, if one was seen)."""
    if not came_in or came_in[-1][0] >= when:
        return False
    last_sign = getattr(inside, "last_sign", None)
    return last_sign is None or came_in[-1][0] <= last_sign


def _arrivals(
    home: HomeView,
    baselines: HomeBaselines,
    spans: list[_Span],
    came_in: list[tuple[datetime, str]],
) -> int:
    """How many of the entries from outside are arrivals: not within ``VISIT_REACH`` of
    the one before with anybody moving between. Whatever moves where a person may links
    them (the neighbour feeding the cat in the kitchen, where the cat and the untracked
    son move while the home is empty on other days); only a sensor that keeps no person's
    hours, home or not (a dog on the veranda), does not."""
    untracked = baselines.untracked
    person = motion_onsets(
        home,
        lambda e, when: _within(spans, when) and untracked.round_the_clock(e, when) is None,
        baselines,
    )
    count, last = 0, None
    for when, _ in came_in:
        linked = last is not None and (
            when - last <= PASSAGE  # one passage: the lock, then its door; garage, then hall
            or (when - last <= VISIT_REACH and moved_between(person, last, when))
        )
        count += not linked
        last = when
    return count


def _armed(home: HomeView, panel: str) -> bool:
    state = home.states.get(panel)
    return state is not None and is_armed(state)


def _lock_of(entrances: list[str]) -> str | None:
    return next((e for e in entrances if e.partition(".")[0] == "lock"), None)
