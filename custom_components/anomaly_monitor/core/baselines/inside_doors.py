"""A way-in finding about a contact this home uses from inside is not told.

``entry_unsecured_while_away``, ``unaccompanied_opening`` and ``entry_at_an_unused_hour``
take a ``door`` contact as an entrance. One learned as used from inside
(``used_from_inside``: a fridge's or a microwave's door, opened briefly many times a day
with the kitchen's other contacts, seldom when anybody comes or goes) is no way in: a
fridge opened just after the trackers said everybody left shows somebody still inside.

Nor is an inner door that *rests open* (``stands_open``: open at least half of the two
days or more it was watched; a bathroom or bedroom door shut only while in use): it needs
no guarding as a way in, it is open anyway (open through the home's last departure, or
reopened after a shut of at most ``SHORT_SHUT``, a use of the room: ``open_anyway``), and
whoever passes it came in by a way in (told there) or shows on motion. Shut for longer
(through a departure and opened in the empty home, somebody fainted behind it), it is
told as before. In its first two days, before the share means anything, a door open
since it was first watched and shut since only briefly, each time reopened
(``open_from_the_start``), reads so too. Only a ``door`` or ``opening`` contact with no
lock in its area and none kept (``keyed_doors``): a window, a garage door, a door with a
lock stay ways in whatever their share open. So too, before ``used_from_inside`` has its
days, an inner contact whose first uses were looks in bursts, each short, never when
anybody came or went (``FirstUses``: the cupboard opened at noon on the first day by
somebody with no tracker cooking). A contact that rests shut (a front,
patio or balcony door) is untouched: its first opening into an empty home is told as
before.

A lock, a cover (garage, gate) or any other opening in the finding keeps it judged as
before; so does a finding with no contact learned so.
"""

from __future__ import annotations

from datetime import timedelta

from ..home import OPENING_DEVICE_CLASSES, HomeView
from ..keyed_doors import keeps_a_lock, locks_of
from ..models import Finding
from .home_baselines import HomeBaselines
from .stands_open import REST_SHARE, SHORT_SHUT, open_from_the_start, open_share
from .used_from_inside import MIN_DAYS, UsedFromInside

WAY_IN_RULES = frozenset(
    {"entry_unsecured_while_away", "unaccompanied_opening", "entry_at_an_unused_hour"}
)
# Inner doors by their class (a window or a garage door is a way in even standing open).
_INNER_CLASSES = frozenset({"door", "opening"})
# How long a contact's first uses are read cold: the days ``used_from_inside`` waits for.
COLD_SPAN = timedelta(days=MIN_DAYS)


def only_used_from_inside(finding: Finding, baselines: HomeBaselines, home: HomeView) -> bool:
    """Whether every way in ``finding`` names is a contact used from inside here, or an
    inner door that rests open."""
    if finding.rule not in WAY_IN_RULES:
        return False
    infos, inside = baselines.infos, baselines.inside
    ways = [
        e
        for e in finding.evidence
        if e.partition(".")[0] in ("lock", "cover")
        or (
            (info := infos.get(e)) is not None
            and info.domain == "binary_sensor"
            and info.device_class in OPENING_DEVICE_CLASSES
        )
    ]
    return bool(ways) and all(
        used_inside(inside, e)
        or rests_open(baselines, home, e)
        or first_used_inside(baselines, home, e)
        for e in ways
    )


def first_used_inside(baselines: HomeBaselines, home: HomeView, entity_id: str) -> bool:
    """In its first days watched (``COLD_SPAN``), an inner door whose first uses read as
    used from inside (``UsedFromInside.read_cold``). Later, only what was learned counts:
    a balcony door opened once a week is not read from a handful of openings for weeks."""
    since = baselines.usual.since.get(entity_id)
    return (
        since is not None
        and home.end - since < COLD_SPAN
        and inner_door(baselines, home, entity_id)
        and baselines.inside.read_cold(entity_id)
    )


def used_inside(inside: UsedFromInside, entity_id: str) -> bool:
    """A binary contact learned as used from inside (a lock or a cover never is)."""
    return entity_id.partition(".")[0] == "binary_sensor" and inside.used_from_inside(entity_id)


def inner_door(baselines: HomeBaselines, home: HomeView, entity_id: str) -> bool:
    """A ``door`` or ``opening`` contact with no lock in its area and none kept (a window,
    a garage door, a door with a lock are ways in, whatever their use)."""
    info = baselines.infos.get(entity_id)
    if info is None or info.domain != "binary_sensor" or info.device_class not in _INNER_CLASSES:
        return False
    state = home.info(entity_id)
    return not (locks_of(home, entity_id) or (state is not None and keeps_a_lock(home, state)))


def rests_open(baselines: HomeBaselines, home: HomeView, entity_id: str) -> bool:
    """An inner door open most of the time it was watched, with no lock to keep it, and
    open anyway now (``open_anyway``)."""
    if not inner_door(baselines, home, entity_id):
        return False
    if not open_anyway(baselines, entity_id):
        return False
    durations = baselines.durations
    if (share := open_share(durations, entity_id)) is not None:
        return share[0] >= REST_SHARE
    since = baselines.usual.since.get(entity_id)
    return open_from_the_start(durations, entity_id, since, home.end)


def open_anyway(baselines: HomeBaselines, entity_id: str) -> bool:
    """Open now, and so since before the home last became empty or after a short shut
    (a use of the room). A door shut through a departure and opened in the empty home, or
    shut for long (somebody fainted behind it), is news whatever its share open."""
    current = baselines.durations.current.get(entity_id)
    if current is None or current[0] != "on":
        return False
    departed = baselines.usual.departed
    if departed is not None and current[1] <= departed:
        return True
    shut = baselines.durations.last_stay.get(entity_id)
    return (
        shut is not None
        and shut[0] == "off"
        and shut[2] == current[1]
        and shut[2] - shut[1] <= SHORT_SHUT
    )
