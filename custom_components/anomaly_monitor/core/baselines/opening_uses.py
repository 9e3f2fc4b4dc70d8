"""When an entrance, a window, a lock or a garage door was used, as the window shows it.

A use is a change into an opened state (``ways_in.opened_state``: on, unlocked, open)
from a state that was not. A device that drops out and comes back in the state it had
before (a door sensor open, then ``unavailable`` for a few minutes, then open again) was
used by nobody: the state before a dropout is what it is compared with. When the window
begins with the dropout, the state before it is not known: its return is nobody's doing,
as the learning takes a device coming back (``HomeBaselines``). One closed before the
dropout and open after it was opened meanwhile: a use, at the time it came back.

So is a state Home Assistant read back as it started (``start_settling``) on its way to the
one it settled at: a template lock reads ``unlocked`` for a moment before its template
renders ``locked`` (walk 59: "Front door lock was used at 13:56" of a restart, the lock
untouched in the empty home). Only the state it settled at is compared with the one
before: a lock locked before the start and unlocked after it was unlocked meanwhile.
"""

from __future__ import annotations

from datetime import datetime

from ..home import UNAVAILABLE_STATES, HomeView
from ..models import Transition
from ..start_settling import set_while_starting


def uses(home: HomeView, entity_id: str, opened: frozenset[str]) -> list[datetime]:
    """When ``entity_id`` went into one of the ``opened`` states in the window."""
    found: list[datetime] = []
    before: str | None = None
    dropped = False  # the window began with a dropout: the state before it is not known
    changes = home.changes(entity_id)
    started = home.env.ha_started
    for index, change in enumerate(changes):
        state = change.state.lower()
        if state in UNAVAILABLE_STATES:
            dropped |= before is None
            continue  # not known meanwhile: compared with the state before it
        if started is not None and _read_back(started, changes, index):
            continue  # read as HA started, before it settled: as a dropout
        if state in opened and before not in opened and not (before is None and dropped):
            found.append(change.when)
        before = state
    return found


def _read_back(
    started: tuple[datetime, datetime | None], changes: list[Transition], index: int
) -> bool:
    """Whether ``changes[index]`` was set while HA started and another followed it within
    the start: a reading on the way to the state the device settled at."""
    after = changes[index + 1] if index + 1 < len(changes) else None
    return (
        after is not None
        and set_while_starting(started, changes[index].when)
        and set_while_starting(started, after.when)
    )
