"""A presence sensor held "on" for long is someone lying or sitting there, not moving.

A motion sensor reads ``on`` for the minute or two after it saw somebody move; a bed or
chair sensor, or a presence radar, reads ``on`` for as long as somebody is *there*: a
night's sleep, a whole morning in bed after a fall. The stillness checks asked whether
any sensor read ``on`` now, so a bed sensor with one person asleep in it hid that the
other did not get up all morning (issue 24: a carer who fell by the bed while his wife
slept on). A sensor ``on``, unchanged for ``HELD`` or longer, shows where somebody is, not
that anybody moves: its going ``on`` counts as movement (the window's changes, as
before), its staying ``on`` does not.
"""

from __future__ import annotations

from datetime import timedelta

from ..home import HomeView, is_on
from ..models import EntityState
from .home_baselines import HomeBaselines
from .long_stays import stay_since

# A motion sensor's "on" lasts a minute or two, a busy room's a few dozen minutes.
HELD = timedelta(hours=1)


def moving_now(home: HomeView, baselines: HomeBaselines, sensor: EntityState) -> bool:
    """Whether ``sensor`` reads movement now: ``on``, and not held ``on`` for ``HELD``."""
    if not is_on(sensor):
        return False
    since = stay_since(home, baselines, sensor)
    return since is None or home.end - since < HELD
