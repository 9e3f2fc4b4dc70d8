"""A place that has been hot since it was first seen is not a room beginning to overheat.

The mirror of ``cold_places``: ``room_too_hot`` tells a room over 35 °C. Once its range is
learned, the range judges (``usual_extremes``); before, a NAS's board at 42 °C or a garage
in a Gulf summer at 38.5 °C, read longer than ``cold_places.PLACE_SEEN``, whose coolest
reading since first seen stayed within ``PLACE_SPAN`` of the hot line, or whose typical
hour (``cold_places.typical_hour``) is above it, is a machine's or the weather's heat, not
a room that began to overheat: not told. A room that was livable and then rose is told.
A sensor that has read the fire band is no hot place (a hot-water cylinder's probe at
58 °C in the roof, a boiler room): its fire-band readings are told until its range is
learned, and its hot ones join that incident; held, they closed it, and each reheat was
told anew (sets 9 and 12).
"""

from __future__ import annotations

from ..home import HomeView
from ..models import Finding
from ..rules.temperature_bands import HOT_ROOM, Band, band_of, celsius_of
from ..temperatures import to_celsius
from .cold_places import PLACE_SPAN, typical_hour, unlearned_place
from .home_baselines import HomeBaselines
from .set_up_levels import seen_celsius

_BANDS = {"room_too_hot": Band.HOT}


def hot_place(home: HomeView, baselines: HomeBaselines, finding: Finding, min_days: float) -> bool:
    """Whether ``finding`` (``room_too_hot``, its sensor learned for fewer than
    ``min_days``) is about a place that has been hot since it was first seen."""
    band = _BANDS.get(finding.rule)
    if band is None or (state := unlearned_place(home, baselines, finding, min_days)) is None:
        return False
    entity_id = state.entity_id
    celsius = celsius_of(state)
    if celsius is None or band_of(celsius, bool(state.info.area)) is not band:
        return False
    unit = state.info.unit
    seen = seen_celsius(home, baselines, entity_id, unit)
    if band is Band.HOT and any(band_of(c, bool(state.info.area)) is Band.FIRE for c in seen):
        return False  # it read the fire band: its hot readings join what that told
    if min(seen, default=celsius) > HOT_ROOM - PLACE_SPAN:
        return True  # never livable since first seen
    typical = typical_hour(baselines, entity_id)
    typical_celsius = to_celsius(typical, unit) if typical is not None else None
    return typical_celsius is not None and typical_celsius > HOT_ROOM  # it stays hot
