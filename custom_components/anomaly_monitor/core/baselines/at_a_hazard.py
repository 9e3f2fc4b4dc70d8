"""A door opened while a hazard is under way: somebody answering it, no entry.

The away rules read every use of a door while nobody tracked is home as somebody coming
in, and motion after such an entry at an hour nothing comes in is told as an intrusion,
for hours after (``away_judge.VISIT_REACH``). A leak on the bathroom floor while only an
untracked grandmother and her carer are in: the carer opens the bathroom door to shut the
stop valve, and the hall's everyday motion two hours later was told as "after an entry at
a time nothing comes in" (set 33 c). Gas in the kitchen of an empty flat: the household,
told, rings the neighbour with a key, who comes in by the front door twenty minutes later
and opens the balcony; each was told as an entry into the empty home, on top of the gas
(set 53 c; a leak's plumber in sets 33 and 47 alike). Whoever opens a door while water,
smoke, gas or CO is being detected in the home, as it is detected, is answering it: the one
who smelled it, a neighbour, the plumber, the fire brigade; the hazard itself is told by its
own rule.

So a door or window contact opened while a hazard detector of the home reads the hazard,
within ``ANSWER_REACH`` of the detector's onset, is no entry from outside. A lock or a
cover is judged as before (a key turned is somebody coming in), and a detector that has
read wet or smoke for long (a sensor stuck on) stops answering after ``ANSWER_REACH``.
Known by device class; no word of an id is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from ..home import HomeView
from ..offline import SAFETY_DETECTOR_CLASSES
from ..statistics.timeline import spells_where

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

# A door opened this long after the hazard in its room began is still the answer to it.
ANSWER_REACH = timedelta(hours=1)


def _on(state: str) -> bool:
    return state.lower() == "on"


def _hazard_spells(
    baselines: HomeBaselines, home: HomeView, detector: str
) -> Iterator[tuple[datetime, datetime]]:
    """The detector's spells of reading its hazard: the window's, and the last one the
    baselines keep (a window that begins after its onset, or carries no transitions)."""
    yield from spells_where(home, detector, _on)
    durations = baselines.durations
    if (current := durations.current.get(detector)) is not None and _on(current[0]):
        yield current[1], home.end
    if (last := durations.last_stay.get(detector)) is not None and _on(last[0]):
        yield last[1], last[2]


def opened_at_a_hazard(
    baselines: HomeBaselines, home: HomeView, entity_id: str, when: datetime
) -> bool:
    """Whether ``entity_id`` (a contact) opened at ``when`` while a hazard detector of the
    home had read its hazard since at most ``ANSWER_REACH`` before and still did."""
    if home.domain(entity_id) != "binary_sensor":
        return False
    return any(
        start <= when <= end and when - start <= ANSWER_REACH
        for detector in home.of("binary_sensor", *SAFETY_DETECTOR_CLASSES)
        if detector.entity_id != entity_id
        for start, end in _hazard_spells(baselines, home, detector.entity_id)
    )
