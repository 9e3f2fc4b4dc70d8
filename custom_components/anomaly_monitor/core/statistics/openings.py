"""Openings nobody was there to make: a door or window opening with no motion around it."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES, HomeView
from ..home_then import someone_home_at
from ..models import AnomalyType, Finding, Severity
from ..occupancy import presence_of
from ..open_states import stands_open
from .inside_company import another_opened_near, openings_by_contact, tended_in
from .timeline import real_changes, spells_where

# A person who opens a door or window moves around it within minutes.
PRESENCE_WINDOW = timedelta(minutes=5)
# The home's motion sensors must have shown they work before their silence means anything.
MIN_MOTION_EVENTS = 4
# An opening that is unaccompanied this often is simply how this one is used (a window
# opened by a remote, a pet door): not a surprise.
MAX_UNACCOMPANIED = 2
# A motion sensor reporting "clear" this close to the opening says nobody was there.
CLEAR_REPORT = timedelta(minutes=1)
# A person (or their phone) turning home this close to an opening made it: trackers
# report arrivals minutes early (geofence) or late (Wi-Fi).
ARRIVAL_WINDOW = timedelta(minutes=10)
# A binary sensor with no class that went on this close to the opening (a camera's motion
# trigger on the porch, an ESPHome contact on the passage) saw whoever made it: many
# integrations set no class, and what such a sensor sees is still somebody there.
SEEN_WITH = timedelta(minutes=1)


def _motion_ids(home: HomeView) -> list[str]:
    """The motion sensors that changed in the window, and those reading "on" through it
    (no change in it: on since before it, a room full of guests all afternoon)."""
    return [
        *(
            e
            for e in home.history
            if home.domain(e) == "binary_sensor"
            and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
        ),
        *(
            s.entity_id
            for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES)
            if s.entity_id not in home.history and s.state.lower() == "on"
        ),
    ]


def _classless_onsets(home: HomeView) -> list[datetime]:
    """When any binary sensor without a device class went on in the window."""
    return sorted(
        t.when
        for e in home.history
        if home.domain(e) == "binary_sensor" and home.device_class(e) is None
        for t in real_changes(home, e)
        if t.state.lower() == "on"
    )


def _occupied(spells: list[tuple[datetime, datetime]], when: datetime, reach: timedelta) -> bool:
    """A motion sensor read "on" at some moment within ``reach`` of ``when``: somebody was
    there, though it reported no new "on" (an occupancy sensor held on through a party)."""
    return any(start <= when + reach and end >= when - reach for start, end in spells)


def _held_on(home: HomeView, motion: str) -> list[tuple[datetime, datetime]]:
    """When ``motion`` read "on" in the window, with the spell it began before the window:
    the window holds changes only, so a sensor whose first change in it is "off" read
    something else until then (on through a party that began before the window: an
    opening at 18:40 was "unseen" by the 20:00 analysis, the sensor's "on" at 17:56 being
    out of sight)."""
    spells = spells_where(home, motion, lambda s: s.lower() == "on")
    changes = home.changes(motion)
    start = home.window.start
    if not changes:  # on through the whole window (``_motion_ids``)
        return [(start, home.end)] if start is not None else []
    first = changes[0]
    if start is not None and first.when > start and first.state == "off":
        spells.insert(0, (start, first.when))
    return spells


def _lock_turns(home: HomeView, door: str, area: str | None) -> list[datetime]:
    """When a lock of the door's room was locked or unlocked: somebody at the door with the
    key or the thumb-turn (a dog-sitter leaving locks up behind her), a person the motion
    sensors need not see. A window has no lock of its own."""
    if area is None or home.device_class(door) == "window":
        return []
    return sorted(
        t.when
        for lock in home.history
        if home.domain(lock) == "lock" and home.area(lock) == area
        for t in real_changes(home, lock)
        if t.state.lower() in ("locked", "unlocked")
    )


def _near(times: list[datetime], when: datetime, reach: timedelta) -> bool:
    index = bisect_left(times, when - reach)
    return index < len(times) and times[index] <= when + reach


UNACCOMPANIED_OPENING = FindingKind("unaccompanied_opening", AnomalyType.SECURITY, Severity.MEDIUM)


def unaccompanied_opening(home: HomeView) -> Iterator[Finding]:
    """A door or window opened while no motion sensor anywhere saw anybody.

    An opening is judged once the minutes after it are in the window (the person coming
    in is seen by the hall sensor a little later), and one made by someone arriving home
    is accompanied, and so is one a binary sensor with no class saw (it went on within
    ``SEEN_WITH``: a camera's motion trigger). One in the window's first minutes is not
    judged: the motion or the arrival that went with it may lie just before the window,
    out of sight (an earlier window, which saw both sides of it, judged it).
    Magnitude: how many of its openings were unaccompanied.
    """
    motions = _motion_ids(home)
    motion_times = sorted(
        t.when for m in motions for t in real_changes(home, m) if t.state.lower() == "on"
    )
    if len(motion_times) < MIN_MOTION_EVENTS:
        return
    held_on = [spell for m in motions for spell in _held_on(home, m)]
    settled = home.end - PRESENCE_WINDOW
    start = home.window.start
    earliest = start + max(PRESENCE_WINDOW, ARRIVAL_WINDOW) if start is not None else None
    arrivals = sorted(
        t.when
        for e in home.history
        if home.domain(e) in ("person", "device_tracker")
        for t in real_changes(home, e)
        if presence_of(t.state) is True
    )
    seen_with = _classless_onsets(home)
    contacts = home.history_of("binary_sensor", *OPENING_DEVICE_CLASSES)
    by_contact = openings_by_contact(home, contacts)
    for entity_id in contacts:
        area = home.area(entity_id)
        local = [m for m in motions if area is not None and home.area(m) == area]
        if not local:
            continue  # nothing watches this opening's room: silence proves nothing
        openings = by_contact[entity_id]
        turned = _lock_turns(home, entity_id, area)
        lonely = [
            w
            for w in openings
            if w <= settled
            and (earliest is None or w >= earliest)
            and not _near(motion_times, w, PRESENCE_WINDOW)
            and not _occupied(held_on, w, PRESENCE_WINDOW)
            and not _near(arrivals, w, ARRIVAL_WINDOW)
            and not _near(seen_with, w, SEEN_WITH)
            and not _near(turned, w, PRESENCE_WINDOW)
            # somebody walking from another door to this one, or tending the oven
            and not another_opened_near(home, by_contact, entity_id, w, PRESENCE_WINDOW)
            and not tended_in(home, area, w)
        ]
        if not lonely or len(lonely) > MAX_UNACCOMPANIED:
            continue
        # A motion sensor of the same area that reported "clear" right then is witness.
        witnesses = [
            m
            for m in local
            if any(
                t.state.lower() == "off" and abs(t.when - lonely[0]) <= CLEAR_REPORT
                for t in home.history.get(m, [])
            )
        ]
        yield UNACCOMPANIED_OPENING.finding(
            evidence=(entity_id, *witnesses),
            reasoning=f"{entity_id} opened at {lonely[0]:%Y-%m-%d %H:%M} but no motion sensor "
            f"in the home saw anybody within {PRESENCE_WINDOW.total_seconds() / 60:.0f} min.",
            recommendation="Check the door or window, and the sensor if nobody was there.",
            magnitude=float(len(lonely)),
            home_then=_home_then(home, entity_id, lonely),
        )


def _home_then(home: HomeView, entity_id: str, lonely: list[datetime]) -> bool | None:
    """Whether somebody tracked was home at each of the lonely openings, now shut: the
    household's own (the dog let out), though everybody left since. ``None`` while it
    stands open: a door open now is judged as it is now."""
    state = home.info(entity_id)
    if state is None or stands_open(state):
        return None
    return all(someone_home_at(home, when) for when in lonely)
