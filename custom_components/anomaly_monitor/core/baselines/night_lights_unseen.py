"""A night light on far too long in a room without a motion sensor, nobody moving anywhere.

``light_on_long_at_night`` needs a motion sensor where the light is, to know that nobody
moves there. Many bathrooms have none (issue 27): the light on for hours at night after a
fall went unjudged. Without one, the home's motion sensors stand in, strictly: somebody
was seen about as the light went on (walking there, within ``ENTERING``), nobody has been
seen anywhere since (``SEEN_AFTER``: going back to bed passes a sensor), no sensor reads
motion now, and the light has stayed on ``FACTOR`` times its longest learned night-time
stay (never less than ``FLOOR``). Told as the same rule: a person who may have fallen
(``core.stillness``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView, is_on, is_unavailable
from ..home_then import someone_home_at
from ..models import Finding
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import at_most, duration_text
from .night_lights import ENTERING, LIGHT_ON_LONG_AT_NIGHT, on_past_its_night_stays
from .night_outings import motion_onsets

# Seen anywhere this long after the light went on: somebody moving about, not lying still.
SEEN_AFTER = timedelta(minutes=1)


def light_on_long_at_night_unseen(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A night-time light without a motion sensor in its area, on far beyond its learned
    night stays, nobody seen anywhere since it went on.

    Magnitude: minutes the light has been on.
    """
    sensors = [
        s for s in home.of("binary_sensor", *OCCUPANCY_DEVICE_CLASSES) if not is_unavailable(s)
    ]
    if not sensors or any(is_on(s) for s in sensors):
        return
    now, zone, window_start = home.end, baselines.zone, home.window.start
    if window_start is None:
        return  # the movement since a light went on is not all in the window
    onsets = motion_onsets(home)
    for light in home.of("light"):
        area = light.info.area
        if not is_on(light) or not area or any(s.info.area == area for s in sensors):
            continue  # off, nowhere, or its area's motion judges it (``night_lights``)
        past = on_past_its_night_stays(home, baselines, light)
        if past is None or past[0] < window_start or not someone_home_at(home, past[0]):
            continue
        since, count, longest = past
        if not any(since - ENTERING <= when <= since + SEEN_AFTER for when in onsets):
            continue  # nobody was seen going there
        if any(when > since + SEEN_AFTER for when in onsets):
            continue  # somebody moved about after: not lying still
        yield LIGHT_ON_LONG_AT_NIGHT.finding(
            evidence=(light.entity_id, *sorted(s.entity_id for s in sensors)),
            reasoning=f"{light.entity_id} has been on for {duration_text(now - since)}, since "
            f"{local(since, zone):%H:%M}, and no motion sensor in the home has seen anybody "
            f"since ({area} has none); switched on at night it is usually on for "
            f"{at_most(longest, count, 'night-time stays')}.",
            recommendation=f"Check on whoever is in {area}: they may have fallen.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )
