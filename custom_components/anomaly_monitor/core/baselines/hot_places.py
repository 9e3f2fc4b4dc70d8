"""A place that has been hot since it was first seen is not a room beginning to overheat.

The mirror of ``cold_places``: ``room_too_hot`` tells a room over 35 °C. Once its range is
learned, the range judges (``usual_extremes``); before, a NAS's board at 42 °C or a garage
in a Gulf summer at 38.5 °C, read longer than ``cold_places.PLACE_SEEN``, whose coolest
reading since first seen stayed within ``PLACE_SPAN`` of the hot line, or whose typical
hour (``cold_places.typical_hour``) is above it, is a machine's or the weather's heat, not
a room that began to overheat: not told. A room that was livable and then rose is told.
A sensor that has read the fire band is no hot place (a boiler room): its fire-band
readings are told until its range is learned, and its hot ones join that incident; held,
they closed it, and each reheat was told anew (sets 9 and 12). Unless it never read a
livable temperature since first seen and stays under ``MACHINE_WATER_TOP`` (a hot-water
cylinder's probe at 45-58 °C in the roof, a stove's water loop): a machine's water, whose
fire-band readings ``machine_heat`` holds too, and so its hot ones here.
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
# °C: water a stove, a boiler or a cylinder heats stays under this; nearer boiling is told
# even from a probe that was never a room's air.
MACHINE_WATER_TOP = 80.0


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
        # A machine's water (``machine_heat``) is held; else its hot readings join what
        # the fire band told.
        return min(seen) > HOT_ROOM and max(seen) < MACHINE_WATER_TOP
    if min(seen, default=celsius) > HOT_ROOM - PLACE_SPAN:
        return True  # never livable since first seen
    typical = typical_hour(baselines, entity_id)
    typical_celsius = to_celsius(typical, unit) if typical is not None else None
    return typical_celsius is not None and typical_celsius > HOT_ROOM  # it stays hot


def machine_heat(
    home: HomeView, baselines: HomeBaselines, finding: Finding, min_days: float
) -> bool:
    """Whether ``finding`` (``room_heat_fire_risk``, its sensor learned for fewer than
    ``min_days``) is about a probe that has read above any room's air since it was first
    seen, for ``cold_places.PLACE_SEEN`` or more, and is still under ``MACHINE_WATER_TOP``.

    A fire heats a room's air from livable: its sensor read livable before. A probe that
    never did in hours watched measures a machine's water (a briquette stove's loop at
    38 °C at set-up, 52 °C once stoked at dawn; set 14, Ulaanbaatar): its range judges it
    once learned (``usual_extremes``), and until then its heat is no room's fire.
    """
    if (
        finding.rule != "room_heat_fire_risk"
        or (state := unlearned_place(home, baselines, finding, min_days)) is None
    ):
        return False
    celsius = celsius_of(state)
    if celsius is None or celsius >= MACHINE_WATER_TOP:
        return False
    seen = seen_celsius(home, baselines, state.entity_id, state.info.unit)
    return bool(seen) and min(seen) > HOT_ROOM
