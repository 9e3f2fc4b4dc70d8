"""Somebody at an opening whom no motion sensor saw: another door just used, a cooker
being tended.

``unaccompanied_opening`` tells a door or window that opened with no motion sensor seeing
anybody. Two things show a person there all the same, whatever the home's sensors cover:

- **another contact opened within minutes** (``PRESENCE_WINDOW``): a bedroom door and then
  the microwave's at 07:30, the gangplank's gate and then the front door a minute later.
  One person walks from one to the other; a sensor at fault opens alone. Two entities of
  one device (a contact's ``door`` and ``opening`` sides) are one opening, not two.
- **a meter of its own room drawing what a person runs** (``TENDED_WATTS``: an oven
  baking, a kettle, a hob) when it opened: the oven's door opened to look at the cakes.
  A fridge's compressor or a standby light draws far less and shows nobody.

HA's vocabulary only (domain, device class, area, unit, device); no word of an id is read.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from datetime import datetime, timedelta

from ..device_roles import same_device
from ..home import HomeView
from ..power_units import watts
from .timeline import real_changes

# An appliance somebody runs and tends draws this much: an oven, a kettle, a hob.
TENDED_WATTS = 500.0


def openings_by_contact(home: HomeView, contacts: list[str]) -> dict[str, list[datetime]]:
    """Each contact's openings in the window, oldest first."""
    return {e: [t.when for t in real_changes(home, e) if t.state.lower() == "on"] for e in contacts}


def another_opened_near(
    home: HomeView,
    openings: dict[str, list[datetime]],
    entity_id: str,
    when: datetime,
    reach: timedelta,
) -> bool:
    """Another contact (not of the same device) opened within ``reach`` of ``when``."""
    own = home.info(entity_id)
    for other, times in openings.items():
        if other == entity_id:
            continue
        index = bisect_left(times, when - reach)
        if index >= len(times) or times[index] > when + reach:
            continue
        info = home.info(other)
        if own is not None and info is not None and same_device(own, info):
            continue
        return True
    return False


def tended_in(home: HomeView, area: str | None, when: datetime) -> bool:
    """A power meter of ``area`` read a tended appliance's load at ``when``."""
    if area is None:
        return False
    for meter in home.in_area(area):
        if meter.domain != "sensor" or meter.info.device_class != "power":
            continue
        readings = home.numbers(meter.entity_id)
        index = bisect_right([t for t, _ in readings], when)
        if index == 0:
            continue
        if (watts(readings[index - 1][1], meter.info.unit) or 0.0) >= TENDED_WATTS:
            return True
    return False
