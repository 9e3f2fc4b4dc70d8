"""An opening nobody was seen making, asked against when this home's openings go unseen.

``unaccompanied_opening`` tells a door or window that opened with no motion sensor seeing
anybody within ``PRESENCE_WINDOW``. A door opened unseen at a time it opens unseen on
other days too (``LonelyOpenings.regular``), or at a time it is used every day with
somebody about before (``everyday_openings``), is how this home lives: not told.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from datetime import datetime

from ..home import HomeView
from ..models import Finding
from ..statistics.openings import PRESENCE_WINDOW
from .clock import local
from .everyday_openings import everyday_opening, up_reach, used_then
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .somebody_in import is_motion


def _motion_onsets(home: HomeView) -> list[datetime]:
    """When any motion sensor started moving in the window, sorted."""
    return sorted(
        c.when
        for e in home.history
        if is_motion(home, e)
        for c in home.changes(e)
        if c.state.lower() == "on"
    )


def _moved_between(moving: list[datetime], start: datetime, end: datetime) -> bool:
    """Whether any of the (sorted) motion onsets falls strictly between the two."""
    index = bisect_right(moving, start)
    return index < len(moving) and moving[index] < end


def _at(when: datetime, baselines: HomeBaselines) -> str:
    return f"{local(when, baselines.zone):%H:%M}"


def judge_lonely(
    finding: Finding, entity_id: str, baselines: HomeBaselines, home: HomeView
) -> Finding | None:
    """An opening nobody was seen making: None when every such opening in the window came
    at a time it opens unseen on other days too (``LonelyOpenings``)."""
    moving = _motion_onsets(home)
    unseen = [
        c.when
        for c in home.changes(entity_id)
        if c.state.lower() == "on"
        and not _moved_between(moving, c.when - PRESENCE_WINDOW, c.when + PRESENCE_WINDOW)
    ]
    if not unseen:
        return finding
    lonely = baselines.lonely
    surprising = [
        when
        for when in unseen
        if lonely.regular(entity_id, when) is None
        and not everyday_opening(lonely, entity_id, when, moving)
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
