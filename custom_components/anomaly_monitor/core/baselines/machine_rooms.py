"""A place hot while a machine in it runs: a generator house, a boiler room, a server
cupboard, a plant room.

``room_too_hot`` tells a room over 35 °C; its sensor's learned range judges it once read
``usual_extremes.MIN_DAYS`` (two days). A generator house reads 41 °C every evening while
the generator runs and 29 °C after; on the second evening its range is a day and a half
old and the same 39 °C was told as a room overheating. While a machine of the same area
runs now or ran within ``LINGER`` (a ``running``/``power`` binary sensor on, a switch on,
a power meter drawing: its heat lingers after it stops),
a day read is enough for the range to judge (``MACHINE_MIN_DAYS``): the heat it read
before, settled (``ranges.SETTLE``), is that machine's. A room whose machine is off, or
one hotter than it ever read, is judged as before. Known by HA's domains and device
classes, never by a name.
"""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

from ..home import HomeView
from ..models import EntityState, parse_number
from ..power_units import watts
from .home_baselines import HomeBaselines
from .power import IDLE

MACHINE_MIN_DAYS = 1.0
# A machine's heat lingers in its room this long after it stops.
LINGER = timedelta(hours=1)
# W a meter draws when the machine behind it runs (not a standby light).
RUNNING_WATTS = 50.0
_RUNNING_CLASSES = frozenset({"running", "power", "plug"})


def _ran(home: HomeView, baselines: HomeBaselines, machine: EntityState) -> bool:
    """``machine`` runs now, or ran at some moment within ``LINGER`` (the window's states:
    each holds until the next)."""
    meter = machine.domain == "sensor"
    since = home.end - LINGER
    history = home.history.get(machine.entity_id, [])
    if history and history[0].when >= since and history[0].state.lower() == "off":
        return True  # it turned off within the hour: on until then (the window began later)
    learned = baselines.durations.current.get(machine.entity_id)
    if learned is not None and learned[1] >= since and learned[0] in ("off", IDLE):
        return True  # stopped within the hour, as learned (a window of states only)
    held = [(t.state, after.when) for t, after in pairwise(history)]
    for text, until in [*held, (machine.state, home.end)]:
        if until < since:
            continue
        if not meter and text.lower() == "on":
            return True
        number = parse_number(text) if meter else None
        drawn = watts(number, machine.info.unit) if number is not None else None
        if drawn is not None and drawn >= RUNNING_WATTS:
            return True
    return False


def machine_runs_in(home: HomeView, baselines: HomeBaselines, state: EntityState) -> bool:
    """A machine in the area of ``state`` runs now or ran within ``LINGER``."""
    area = state.info.area
    if not area:
        return False
    for other in home.in_area(area):
        if other.entity_id == state.entity_id:
            continue
        running = other.domain == "binary_sensor" and other.info.device_class in _RUNNING_CLASSES
        meter = other.domain == "sensor" and other.info.device_class == "power"
        if (running or meter or other.domain == "switch") and _ran(home, baselines, other):
            return True
    return False
