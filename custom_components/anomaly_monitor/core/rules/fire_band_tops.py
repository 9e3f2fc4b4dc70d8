"""A thermometer in the fire band hotter than it has read since watched: judged at once.

The watcher asks for an analysis when a reading enters another band (``crossed_band``),
not at each reading inside one: a sauna at 80 °C must not start an analysis every
reading. But a sensor whose fire band is its normal (a boiler's flue probe at 240 °C
every evening, learned by ``baselines/usual_extremes``) is told when it reads above the
highest it has read: a chimney fire taking the flue from 240 to 480 °C stays in the same
band, and waited for the periodic analysis (a quarter of an hour; set 12's chimney fire
was told only when the attic's smoke alarm went off three minutes later). So a reading
above this sensor's hottest since the monitor began watching, by more than ``NEW_TOP``,
is judged at once too. A sauna's climb asks a few times on its first heat after a start,
then only when it runs hotter than before. The learned range still decides what is told.
"""

from __future__ import annotations

from ..temperatures import to_celsius
from .temperature_bands import Band, band_of

# °C above the hottest reading seen that is a new top worth a look now (a sauna's or a
# flue's next reading climbs by a degree or two; a fire adds tens).
NEW_TOP = 5.0


class FireBandTops:
    """Per thermometer, its hottest fire-band reading (°C) that asked for a look."""

    def __init__(self) -> None:
        self._tops: dict[str, float] = {}

    def new_top(self, entity_id: str, value: float, unit: str | None, in_area: bool) -> bool:
        """Whether this reading is in the fire band and more than ``NEW_TOP`` above the
        sensor's top so far (its first fire-band reading is one); it becomes the top."""
        celsius = to_celsius(value, unit)
        if celsius is None or band_of(celsius, in_area) is not Band.FIRE:
            return False
        top = self._tops.get(entity_id)
        if top is not None and celsius <= top + NEW_TOP:
            return False
        self._tops[entity_id] = celsius
        return True
