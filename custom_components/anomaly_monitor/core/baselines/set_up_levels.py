"""A room extreme read since the sensor was first seen is where that place is, not a change.

``room_too_cold`` and ``room_too_hot`` (safety hazards, so told even while the home is being
learned) judge a reading by itself. On the first minutes after set-up nothing is known of a
sensor but its reading: a fridge probe at 4.5 °C, a cold store at 3.6 °C, a NAS's board at
42 °C or a garage in a Gulf summer at 38.5 °C read so at their very first report, and were
told as rooms whose heating failed or that overheat (sets 1, 6, 8 and 12, each at the
first instant watched). A heating failure is a fall and an overheating a rise: the room was
livable before. A sensor that has read nothing but the cold (or the hot) band since it was
first seen, for less than ``cold_places.PLACE_SEEN``, has shown no change yet: it is held
until its hours show where it stays (``cold_places.cold_place``, ``hot_place`` below), or
until it moves out of the band and back (a fall from livable is told at once).

Only the medium bands: a reading at or below freezing, or in the fire band, is told at once
(a freezer or a sauna is learned later, ``usual_extremes``; a fire is never held). Never a
room whose thermostat heats (cold) or while the area's smoke or heat detector goes off
(``usual_extremes`` asks that first).
"""

from __future__ import annotations

from ..home import HomeView
from ..models import Finding
from ..rules.temperature_bands import Band, band_of, celsius_of
from ..temperatures import to_celsius
from .cold_places import PLACE_SEEN, days_read, heated
from .home_baselines import HomeBaselines
from .reference import usual_range

_HELD_BANDS = {"room_too_cold": Band.COLD, "room_too_hot": Band.HOT}


def seen_celsius(
    home: HomeView, baselines: HomeBaselines, entity_id: str, unit: str | None
) -> list[float]:
    """Every reading (°C) known of the sensor: the window's and its learned range's ends."""
    read = [to_celsius(value, unit) for _, value in home.numbers(entity_id)]
    learned = baselines.ranges.usual(entity_id)  # its extremes, ones not yet settled too
    if learned is not None:
        read += [to_celsius(learned[3], unit), to_celsius(learned[4], unit)]
    return [c for c in read if c is not None]


def level_at_set_up(home: HomeView, baselines: HomeBaselines, finding: Finding) -> bool:
    """Whether ``finding`` (a cold or hot room) is about a sensor read for less than
    ``PLACE_SEEN`` that has read nothing but that band since it was first seen."""
    band = _HELD_BANDS.get(finding.rule)
    entity_id = finding.subject or (finding.evidence[0] if finding.evidence else None)
    if band is None or entity_id is None or (state := home.info(entity_id)) is None:
        return False
    celsius = celsius_of(state)
    in_area = bool(state.info.area)
    if celsius is None or band_of(celsius, in_area) is not band:
        return False
    if days_read(baselines, entity_id, home, usual_range(baselines, entity_id, home.end)) >= (
        PLACE_SEEN
    ):
        return False  # read long enough: its hours judge (cold_place, hot_place)
    if band is Band.COLD and heated(home, state.info.area):
        return False
    seen = seen_celsius(home, baselines, entity_id, state.info.unit)
    return all(band_of(c, in_area) is band for c in seen)
