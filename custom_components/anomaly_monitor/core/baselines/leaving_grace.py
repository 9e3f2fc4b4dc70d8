"""The minutes after the last one out: the home is not judged empty before they left.

The trackers report the last person away while they may still be at the door: a phone
leaves the home zone as its owner shuts the balcony door and locks up. The baselines count
the home empty only from ``LEAVE_GRACE`` after it (``AwayNormal``), and so do the
statistics' away spans, so a window judged within the grace shows no empty span yet.
Reading the whole window as empty then (``away_spans``: "out since before the window") took
a lock unlocked or a door opened while they were in for a use of the empty home ("It is
never used at 10:03 with the home empty", walk 41). The away judge reads the spell as
begun when they left (``left_at``): what was used since is judged as ever, and an entrance
left so by the household is told, but not while the last one out may still be shutting it
(used, or somebody moving, within ``away_spans.STILL_ABOUT``: ``away_judge``): reading no
use at all told the balcony door shut a minute after the phone left as left open (set 16,
Chengdu). Once the grace has passed the spans of the window and of the spell judge, and the glue
analyses again at that moment (``leaving_grace_due``): a lock left unlocked as they left is
told minutes after the phone left, not at the next periodic analysis (set 34, Medellín:
15 min later). Somebody moved inside just before they left: whether anybody stayed in
shows only ``inside_walk.STAY_SHOWS`` after (``somebody_in.staying_unknown``), and the glue
analyses again then too (walk 45: the door left open by the last ones out past the hall's
sensor was told up to 15 min after that).
"""

from __future__ import annotations

from datetime import datetime

from ..home import HomeView
from .away_normal import LEAVE_GRACE
from .home_baselines import HomeBaselines
from .somebody_in import stay_known_at
from .ways_in import is_opening, opened_state


def left_at(baselines: HomeBaselines | None, home: HomeView) -> datetime | None:
    """When the last one out left, while the window ends within the leaving grace after
    it (the baselines' empty spell under way); None otherwise."""
    if baselines is None or not home.nobody_home:
        return None
    since = baselines.away.empty_since
    if since is None or since + LEAVE_GRACE <= home.end:
        return None
    return since


def leaving_grace_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """When the leaving grace ends, while an entrance stands open or unlocked: the glue
    analyses again then, and the entrance the last one out left so is told at once (not
    at the next periodic analysis, minutes later). Past the grace, while whether anybody
    stayed in is not known yet (somebody moved inside just before they left: the away
    judge waits ``inside_walk.STAY_SHOWS``), when that is known: the door left open by
    the last ones out past the hall's sensor was told up to 15 min later (walk 45)."""
    if baselines is None or not home.nobody_home:
        return None
    opened = any(
        is_opening(home, entity_id) and state.state.lower() in opened_state(state.domain)
        for entity_id, state in home.states.items()
    )
    if not opened:
        return None
    since = left_at(baselines, home)
    if since is not None:
        return since + LEAVE_GRACE
    known = stay_known_at(baselines, home)
    return known if known is not None and known > home.end else None
