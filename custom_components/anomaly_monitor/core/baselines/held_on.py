"""A sensor held "on" for long where it holds for hours is somebody lying there, not moving.

A motion sensor reads ``on`` for the minute or two after it saw somebody move (longer in
a busy room: a party keeps a hall sensor on all evening); a bed or chair sensor, or a
presence radar, reads ``on`` for as long as somebody is *there*: a night's sleep, a whole
morning in bed after a fall. The stillness checks asked whether any sensor read ``on``
now, so a bed sensor with one person asleep in it hid that the other did not get up all
morning (issue 24: a carer who fell by the bed while his wife slept on).

What a sensor is, is learned (``StateDurations``): one whose learned ``on`` stays reach
``HELD`` (a bed, night after night) and that reads ``on``, unchanged, for ``HELD`` or
longer shows where somebody is, not that anybody moves: its going ``on`` counts as
movement (the window's changes, as before), its staying ``on`` does not. A sensor whose
stays are short (a motion sensor) held ``on`` for hours is a busy room: movement.
"""

from __future__ import annotations

from datetime import timedelta

from ..home import HomeView, is_on
from ..models import EntityState
from .bed_exits import BED_CLASSES
from .home_baselines import HomeBaselines
from .long_stays import stay_since

# A motion sensor's "on" lasts minutes; a bed sensor's, the night.
HELD = timedelta(hours=1)
# A sensor learned to hold "on" this long (a night's sleep, an afternoon's rest) is a bed
# or a chair: somebody lying there, over ``MIN_HOLDS`` stays learned.
NIGHT_HELD = timedelta(hours=4)
MIN_HOLDS = 5
# A bed somebody lives in (bedbound, turned and washed in it by carers) is left only for a
# commode or a bed bath: its stays are few but last a day or more. Held on this long on
# average, over ``FEW_HOLDS`` stays, no motion sensor, chair or night's sleep looks so.
LIVED_IN = timedelta(hours=12)
FEW_HOLDS = 2


def moving_now(home: HomeView, baselines: HomeBaselines, sensor: EntityState) -> bool:
    """Whether ``sensor`` reads movement now: ``on``, unless held ``on`` for ``HELD`` as
    this sensor (learned) holds it for somebody lying or sitting there."""
    if not is_on(sensor):
        return False
    since = stay_since(home, baselines, sensor)
    if since is None or home.end - since < HELD:
        return True
    learned = baselines.durations.longest(sensor.entity_id, "on", since)
    if learned is None:  # too few stays to say, unless it is a bed somebody lives in
        return not lived_in(baselines, sensor.entity_id)
    return timedelta(minutes=learned[1]) < HELD


def lain_on(baselines: HomeBaselines, entity_id: str) -> bool:
    """Whether ``entity_id`` is a bed or chair sensor, learned: its ``on`` held for
    ``NIGHT_HELD`` or longer, over ``MIN_HOLDS`` stays, or for ``LIVED_IN`` on average over
    ``FEW_HOLDS`` (a bedbound person's bed, left a few minutes a day at most). Its turning
    ``on`` is somebody lying down, already inside: nobody's way in."""
    stays, longest = baselines.durations.whole_record(entity_id, "on")
    if stays >= MIN_HOLDS and timedelta(minutes=longest) >= NIGHT_HELD:
        return True
    return lived_in(baselines, entity_id)


def lived_in(baselines: HomeBaselines, entity_id: str) -> bool:
    """Whether ``entity_id`` is the bed of somebody who lives in it (bedbound): an
    occupancy or presence sensor (a motion sensor held on for a day is stuck, nobody
    lying there) whose ``on`` held for ``LIVED_IN`` on average over ``FEW_HOLDS`` stays."""
    info = baselines.infos.get(entity_id)
    if info is None or info.device_class not in BED_CLASSES:
        return False
    stays, mean = baselines.durations.whole_mean(entity_id, "on")
    return stays >= FEW_HOLDS and timedelta(minutes=mean) >= LIVED_IN
