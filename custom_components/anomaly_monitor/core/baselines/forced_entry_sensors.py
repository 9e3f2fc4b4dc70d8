"""A glass-break, tamper or vibration sensor that goes on in everyday life guards no way in.

``break_in_sequence`` reads such a sensor's trip, with a door or window of its room
opening within a minute in a still home, as a way in forced. A sensor fixed to a pane or
a frame trips when it is struck: seldom, days apart. One this home has seen going on
``EVERYDAY_ONS`` times a day or more (a mat under a sleeper who turns over, an
appliance's vibration, an air-raid alert set up as ``safety``) is stirred by life: its trip
beside a door says nothing of force (the parent who came in to the child's seizure opened
her door). Learned from its own *on* stays (``StateDurations``) over the days before the
window; no word of its id or its room is read.
"""

from __future__ import annotations

from datetime import timedelta

from .home_baselines import HomeBaselines

# Went on this many times a day, on average, over the days known: everyday life.
EVERYDAY_ONS = 1.0
# Known this long before the window, its ons say how it lives.
KNOWN = timedelta(days=1)


def stirred_by_everyday_life(baselines: HomeBaselines, entity_id: str, known: timedelta) -> bool:
    """``entity_id`` went on ``EVERYDAY_ONS`` times a day or more in the ``known`` days
    before the window (``KNOWN`` at least)."""
    if known < KNOWN:
        return False
    count, _ = baselines.durations.whole_record(entity_id, "on")
    return count >= EVERYDAY_ONS * known / timedelta(days=1)
