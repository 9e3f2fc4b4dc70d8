"""An opening nobody was seen making, asked against when this home's openings go unseen.

``unaccompanied_opening`` tells a door or window that opened with no motion sensor seeing
anybody within ``PRESENCE_WINDOW``. Another contact opening is a person up as much as a
motion sensor's onset is. A door opened unseen at a time it opens unseen on
other days too (``LonelyOpenings.regular``), or at a time it is used every day with
somebody about before (``everyday_openings``), is how this home lives: not told.

Nor, by day, is one shut again within the rule's own reach (``PRESENCE_WINDOW``) while
somebody tracked was home and the household was up (``household_up``): a hand shut it,
and with the household home and about, the hand is theirs (a step onto the balcony for
the washing, the patio door to the garden, a guest seen off), however seldom the motion
sensors happened to catch them then. What is news is an opening nobody is seen at that
stays open (a child gone out of the gate leaving the door wide, a door blown open), one
while nobody tracked is home, or one in the small hours, when the door's own nights
judge it (a household up at 03:00 at a door never used then is told).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..device_roles import same_device
from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..home_then import someone_home_at
from ..models import Finding
from ..statistics.night import SMALL_HOURS_END, SMALL_HOURS_START
from ..statistics.openings import PRESENCE_WINDOW
from .clock import local
from .everyday_openings import everyday_opening, household_up, up_reach, used_then
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .motion_onsets import moved_between
from .somebody_in import is_motion


def _signs_of_people(home: HomeView, door: str) -> list[datetime]:
    """When any motion sensor started moving in the window, or another contact (not of
    ``door``'s device) opened: somebody up and about (a bathroom door at 21:59, then the
    balcony's at 22:06), sorted."""
    own = home.info(door)
    return sorted(
        c.when
        for e in home.history
        if is_motion(home, e)
        or (
            e != door
            and home.domain(e) == "binary_sensor"
            and home.device_class(e) in OPENING_DEVICE_CLASSES
            and not (
                own is not None and (info := home.info(e)) is not None and same_device(own, info)
            )
        )
        for c in home.changes(e)
        if c.state.lower() == "on"
    )


def _shut_again(home: HomeView, door: str, opened: datetime) -> bool:
    """``door`` read shut again within ``PRESENCE_WINDOW`` after it opened at ``opened``."""
    return any(
        opened < c.when <= opened + PRESENCE_WINDOW and c.state.lower() == "off"
        for c in home.changes(door)
    )


def _shut_by_the_household(
    home: HomeView,
    baselines: HomeBaselines,
    door: str,
    opened: datetime,
    moving: list[datetime],
) -> bool:
    """By day, ``door`` shut again within the rule's reach while somebody tracked was home
    and the household was up: their own hand (see the module)."""
    if SMALL_HOURS_START <= local(opened, baselines.zone).hour < SMALL_HOURS_END:
        return False
    return (
        _shut_again(home, door, opened)
        and household_up(baselines.lonely, door, moving, opened)
        and someone_home_at(home, opened)
    )


def _at(when: datetime, baselines: HomeBaselines) -> str:
    return f"{local(when, baselines.zone):%H:%M}"


def judge_lonely(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """An opening nobody was seen making: None when every such opening in the window came
    at a time it opens unseen on other days too (``LonelyOpenings``)."""
    moving = _signs_of_people(home, entity_id)
    # Only openings whose minutes after are in the window, as the rule judges them: one
    # made seconds ago has nobody seen *yet* and is not shut yet (the front door opened
    # to a guest at 20:55 read "unseen" by the 20:55 analysis).
    settled = home.end - PRESENCE_WINDOW
    unseen = [
        c.when
        for c in home.changes(entity_id)
        if c.state.lower() == "on"
        and c.when <= settled
        and not moved_between(moving, c.when - PRESENCE_WINDOW, c.when + PRESENCE_WINDOW)
    ]
    if not unseen:
        return finding
    lonely = baselines.lonely
    surprising = [
        when
        for when in unseen
        if lonely.regular(entity_id, when) is None
        and not everyday_opening(lonely, entity_id, when, moving)
        and not _shut_by_the_household(home, baselines, entity_id, when, moving)
    ]
    if not surprising:
        return None
    first = surprising[0]
    if (days := used_then(lonely, entity_id, first)) is not None:  # used then; all at rest
        why = (
            f" It is used around {_at(first, baselines)} on {days} other days, but nobody had "
            f"moved about for {duration_text(up_reach(first, baselines.zone))} before."
        )
    else:
        why = f" It seldom opens unseen at {_at(first, baselines)} here."
    return replace(finding, reasoning=finding.reasoning + why)
