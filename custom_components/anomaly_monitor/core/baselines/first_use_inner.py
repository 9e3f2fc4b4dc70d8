"""Whose morning a contact's first use shows: only a contact used from inside the home.

``first_use_missed`` tells a person not up when a contact's first use of the morning has
not come. That says so only of a contact that somebody who slept here opens from inside,
as the first thing of her day: her bedroom door, her medicine drawer, a cupboard. Not of
a way in or out (a yard door, a gate, a door beside a lock): its first opening of the
morning is somebody coming or going, a helper leaving at ten, a choice of the day. And
not of a room everybody uses at any hour (a WC): its first use is no one person's getting
up. What the home shows of it, whatever its name:

- a ``door`` or ``opening`` contact (a window aired, a garage door: no sign of being up),
  with no lock in its area and no lock's door (``keyed_doors``: a way in);
- not a way the tracked household comes and goes by (``came_and_went_by``), and seldom
  opened near any tracked arrival or departure (``seldom_a_way``: a gate opened as each
  of them drives out is a way out, whoever else uses it);
- its morning use is the **first** of the day: either it rests open by day
  (``stands_open``: her door, open from when she gets up until bedtime; a trip in the
  night shuts it again at once), or it is not used in the night before its band on
  nearly every morning it was kept (``quiet_night``, checked in ``first_use_at``): a door
  a night-shift helper comes in by at three, a WC used on the night's trips and at six by
  one and at ten by another, have no first use of the morning.
"""

from __future__ import annotations

from ..home import HomeView
from ..keyed_doors import keeps_a_lock, locks_of
from .home_baselines import HomeBaselines
from .stands_open import stands_open

# Contacts whose first use may be a person's getting up (a window, a garage door: none).
INNER_CLASSES = frozenset({"door", "opening"})


def used_from_inside(home: HomeView, baselines: HomeBaselines, entity_id: str) -> bool:
    """Whether ``entity_id`` is a contact opened from inside, never a way in or out."""
    state = home.info(entity_id)
    if state is None or state.domain != "binary_sensor":
        return False
    if state.info.device_class not in INNER_CLASSES:
        return False
    if locks_of(home, entity_id) or keeps_a_lock(home, state):
        return False
    inside = baselines.inside
    return not inside.came_and_went_by(entity_id) and inside.seldom_a_way(entity_id)


def rests_open(baselines: HomeBaselines, entity_id: str) -> bool:
    """Open most of the time (her door by day): its morning opening is her getting up,
    whatever trips in the night opened and shut it."""
    return stands_open(baselines.durations, entity_id)
