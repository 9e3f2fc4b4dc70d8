"""When an entrance, a window, a lock or a garage door was used, as the window shows it.

A use is a change into an opened state (``ways_in.opened_state``: on, unlocked, open)
from a state that was not. A device that drops out and comes back in the state it had
before (a door sensor open, then ``unavailable`` for a few minutes, then open again) was
used by nobody: the state before a dropout is what it is compared with. When the window
begins with the dropout, the state before it is not known: its return is nobody's doing,
as the learning takes a device coming back (``HomeBaselines``). One closed before the
dropout and open after it was opened meanwhile: a use, at the time it came back.
"""

from __future__ import annotations

from datetime import datetime

from ..home import UNAVAILABLE_STATES, HomeView


def uses(home: HomeView, entity_id: str, opened: frozenset[str]) -> list[datetime]:
    """When ``entity_id`` went into one of the ``opened`` states in the window."""
    found: list[datetime] = []
    before: str | None = None
    dropped = False  # the window began with a dropout: the state before it is not known
    for change in home.changes(entity_id):
        state = change.state.lower()
        if state in UNAVAILABLE_STATES:
            dropped |= before is None
            continue  # not known meanwhile: compared with the state before it
        if state in opened and before not in opened and not (before is None and dropped):
            found.append(change.when)
        before = state
    return found
