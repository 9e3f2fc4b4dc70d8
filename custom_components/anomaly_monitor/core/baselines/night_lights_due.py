"""When a light switched on in the small hours can next be told: the glue analyses then.

``light_on_long_at_night`` (and its ``_unseen`` twin) tells a person who may have fallen
once the light has passed its learned limit with nobody moving. An analysis only runs on
a significant change or periodically (15 min by default): a fall was told up to a quarter
of an hour after its limit, while safety matters are told within 2 min. The glue
(``live/offline_check``) analyses again at the time given here.
"""

from __future__ import annotations

from datetime import datetime

from ..home import HomeView, is_on
from ..home_then import someone_home_at
from .home_baselines import HomeBaselines
from .night_lights import STILL, night_stay_limit
from .night_outings import motion_onsets


def night_light_due(home: HomeView, baselines: HomeBaselines | None) -> datetime | None:
    """The earliest moment, after now, that a light on since the small hours passes its
    limit with nobody seen for ``STILL``; None when none is waiting."""
    if baselines is None:
        return None
    now = home.end
    last_seen = max(motion_onsets(home), default=None)
    due: list[datetime] = []
    for light in home.of("light"):
        if not is_on(light):
            continue
        limit = night_stay_limit(home, baselines, light)
        if limit is None or not someone_home_at(home, limit.since):
            continue
        when = limit.since + limit.limit
        if last_seen is not None:
            when = max(when, last_seen + STILL)
        if when > now:
            due.append(when)
    return min(due, default=None)
