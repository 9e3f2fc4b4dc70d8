"""Whether somebody tracked was home at a moment of the analysed window.

A finding may tell a moment past: a door opened at 07:01, judged (and perhaps pushed)
minutes or an hour later. Who was home then, not now, says whether the household made it
(``learning_gate``), or whether a light left on at night had somebody home to leave it on
(``night_lights``). Read from each person or tracker's changes in the window.
"""

from __future__ import annotations

from datetime import datetime

from .home import HomeView
from .occupancy import Occupancy, presence_of


def someone_home_at(home: HomeView, when: datetime) -> bool:
    """Somebody tracked was home at ``when`` (now: the home's occupancy; before, each person
    or tracker's state then, as the window recorded it). One whose first change in the
    window, after ``when``, took it away from home was not away before it."""
    if home.occupancy is Occupancy.OCCUPIED:
        return True
    for state in home.presence_entities:
        changes = home.changes(state.entity_id)
        before = [c for c in changes if c.when <= when]
        if before:
            home_then = presence_of(before[-1].state) is True
        elif changes:
            home_then = presence_of(changes[0].state) is not True  # it left after
        else:
            home_then = presence_of(state.state) is True  # unchanged through the window
        if home_then:
            return True
    return False
