"""When a person or tracker came home or left, a blink to ``unknown`` and back not counted.

A phone drops to ``unknown`` for a few minutes now and then (the app asleep, the Wi-Fi
roaming) and comes back where it was: nobody came or went. The stillness checks void a
quiet on an arrival or a departure since it began; a blink in the middle of the night is
neither, and voided the very quiet of somebody who slid out of bed.

A change counts when the tracker reads a known place (home, or away) other than the last
one it read in the window (a change to ``unknown`` is not yet a move; away, unknown, home
is an arrival when it reads home). The state's last change older than the window is
counted as before (what it came from is not in the window), and so is the window's first
change when it is one (not the state the window began with: the window holds what changed
in it, so a boy home at 17:57, his only change in it, came home). A window that begins inside
the blink does not show where the phone was before it: then the persons' known places,
as the baselines follow them live (``QuietSpells.placed_at``), say whether anybody came or
went; a person whose place is not known since a restart counts as moved.
"""

from __future__ import annotations

from datetime import datetime

from ..home import HomeView
from ..occupancy import presence_of
from .home_baselines import HomeBaselines


def came_or_went_since(
    home: HomeView, baselines: HomeBaselines, start: datetime, *, arrivals_only: bool = False
) -> bool:
    """Whether anybody came home or left after ``start`` (only came home, with
    ``arrivals_only``; see the module)."""
    unsure = False
    for entity in home.presence_entities:
        for when, certain in came_or_went(home, entity.entity_id, arrivals_only=arrivals_only):
            if when > start and certain:
                return True  # from one known place to another, both in the window
            unsure = unsure or when > start
    persons = home.of("person")
    if not unsure or not persons:
        return unsure
    placed = baselines.quiet.placed_at
    return any(placed.get(person.entity_id, home.end) > start for person in persons)


def came_or_went(
    home: HomeView, entity_id: str, *, arrivals_only: bool = False
) -> list[tuple[datetime, bool]]:
    """When ``entity_id`` came home or left (only came home, with ``arrivals_only``), and
    whether the window shows the known place it came from."""
    changes = home.changes(entity_id)
    times: list[tuple[datetime, bool]] = []
    known = presence_of(changes[0].state) if changes else None
    for change in changes[1:]:
        where = presence_of(change.state)
        if where is None:
            continue  # unknown: not yet a move
        if where != known and (where or not arrivals_only):
            times.append((change.when, known is not None))
        known = where
    start = home.window.start
    # The window's first change is one too (it holds what changed in it, not each state at
    # its start): a move, from a place the window does not show.
    first = presence_of(changes[0].state) if changes else None
    moved = first is True or (first is False and not arrivals_only)
    if moved and start is not None and changes[0].when > start:
        times.append((changes[0].when, False))
    state = home.info(entity_id)
    if (
        state is not None
        and state.last_changed is not None
        and (not changes or state.last_changed < changes[0].when)
        and (not arrivals_only or presence_of(state.state) is not False)
    ):
        times.append((state.last_changed, False))  # before the window: from where, unknown
    return times
