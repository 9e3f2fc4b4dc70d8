"""In a home's first days, a way in used as the household comes and goes waits for what
follows it.

Before anything is learned of a home's life while the trackers are out, an entrance used
in the "empty" home (``entry_unsecured_while_away``, ``unaccompanied_opening``,
``garage_open_while_protected``) was pushed at once by the learning gate as an entry that
cannot wait. But in the first days the household itself comes and goes: a grandmother
without a phone takes a child to the kindergarten, a day-care van fetches a grandfather,
an aunt opens the door in the evening. On the sets written without reading the code,
almost every such push was theirs. What tells them from an intruder is what surrounds
the opening, and that needs nothing learned:

- the hour: the last tracker left within ``LEAVING`` after it (the household going out:
  a phone reports its leaving after the door, never before it), or
  it is a daytime hour and somebody moved inside since everybody tracked left, before any
  entry nobody inside explains (somebody without a tracker is at home; with pets in the
  profile only an inner door's use counts: a dog moves too, it does not shut doors), or
  a daytime hour and a presence sensor held ``on`` since before everybody tracked left,
  an hour and more, and on still (``lying_in``: a bedbound grandmother in her bed as the
  carer comes in by the back door; a motion sensor held on so long is a busy room), or
  a daytime hour and the door opened with its key (a lock unlocked within ``KEY_REACH``
  before it) in a home whose profile or options say somebody lives here without a
  tracked phone (whoever the phones do not follow comes home with the key; a
  keyholder's first visit in a home where everybody carries a phone is still told);
  or a daytime hour and the way somebody without a tracker went out by as the household
  left, within ``INSIDE_REACH`` of it (``gone_out_untracked``: an au pair off to school
  with the younger child by the garden shed ten minutes before the last parent leaves,
  back by it half an hour later);
- and what followed: the entrance shut again (a passage), or it opened less than
  ``STANDS_OPEN`` ago (wait for what follows).

An inner contact (``inner_uses``: a room's door or a drawer never used at a tracked coming
or going) used since the home emptied, with somebody about before it, shows a person in
(a dog opens no door) who did not go out by it. Once one was, with no entry nobody inside
explains before it, the next use of an inner contact is theirs (a grandmother's door after
the helper went out by the front door).

Somebody seen inside since the home emptied, and no way used since, is still inside: the
next way used is theirs (going out, or letting somebody in), however quiet they were
before it (a grandmother resting an hour and more before fetching the child from the
kindergarten; back by the same door within ``INSIDE_REACH``).

An entrance that stands open (or unlocked) ``STANDS_OPEN`` is told, and so is an entry into
a home nobody is known to be in since everybody left, at once, as before; motion after
such an entry is pushed too (``cold_start_motion``). But a door that is no way of the
household's (no lock in its room, never opened near a tracked coming or going: a balcony's,
a back kitchen's) stands open because whoever is inside keeps it open: for an hour it is
judged as a door shut again, by who was inside before it opened (``kept_open_by_whoever_is_in``).
No word of an id or a name is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .baselines.away_normal import LEAVE_GRACE
from .baselines.clock import local
from .baselines.held_on import HELD
from .baselines.home_baselines import HomeBaselines
from .baselines.inside_walk import INSIDE_REACH, PASSAGE
from .baselines.long_stays import FLOOR
from .baselines.stored_spell import OPENING, SIGN
from .baselines.ways_in import ENTRY_COVER_CLASSES
from .home import OCCUPANCY_DEVICE_CLASSES, OPENING_DEVICE_CLASSES
from .inner_uses import inner_contact
from .keyed_doors import KEY_REACH
from .models import Finding
from .open_states import open_states

PASSAGE_RULES = frozenset(
    {"entry_unsecured_while_away", "unaccompanied_opening", "garage_open_while_protected"}
)
# The household going out: the last tracker left this soon after the opening (a phone
# reports its leaving minutes after the door; a door opened after every phone had gone
# was opened by somebody else).
LEAVING = timedelta(minutes=5)
# An entrance open (or unlocked) this long is no passage: told.
STANDS_OPEN = timedelta(minutes=10)
# The hours a home is up and about: an untracked resident comes and goes then.
DAY_START, DAY_END = 6, 22
_UNLOCKED = frozenset({"unlocked", "open", "opening", "unlocking"})


def _is_entrance(baselines: HomeBaselines, entity_id: str) -> bool:
    """A way in: an opening contact, a lock, a garage, door or gate cover."""
    info = baselines.infos.get(entity_id)
    if info is None:
        return False
    return (
        info.domain == "lock"
        or (info.domain == "binary_sensor" and info.device_class in OPENING_DEVICE_CLASSES)
        or (info.domain == "cover" and info.device_class in ENTRY_COVER_CLASSES)
    )


def _entrances(finding: Finding, baselines: HomeBaselines) -> list[str]:
    """The finding's ways in."""
    return [e for e in finding.evidence if _is_entrance(baselines, e)]


def _open_since(baselines: HomeBaselines, entity_id: str) -> datetime | None:
    """Since when the entrance stands open (a lock: unlocked), as the baselines last saw it."""
    current = baselines.durations.current.get(entity_id)
    info = baselines.infos.get(entity_id)
    if current is None or info is None:
        return None
    state, since = current[0].lower(), current[1]
    opened = _UNLOCKED if info.domain == "lock" else open_states(info.domain)
    return since if state in opened else None


def person_sign(baselines: HomeBaselines, entity_id: str, pets: bool) -> bool:
    """A sign of a person inside: any, but with pets only an inner door's use (a motion
    sensor's may be the dog's)."""
    if not pets:
        return True
    info = baselines.infos.get(entity_id)
    return info is None or info.device_class not in OCCUPANCY_DEVICE_CLASSES


def by_day(baselines: HomeBaselines, when: datetime) -> bool:
    """``when`` is in the hours a home is up and about."""
    return DAY_START <= local(when, baselines.zone).hour < DAY_END


def gone_out_untracked(baselines: HomeBaselines, departed: datetime) -> dict[str, datetime]:
    """The ways somebody the trackers do not follow went out by as the household left, and
    when: an entrance used from inside (a sign within ``INSIDE_REACH`` before it) in the
    spell's lead before ``departed``, no phone leaving within ``LEAVING`` after it (a phone
    reports its leaving minutes after the door: one that follows was that person going),
    and used an odd number of times in the lead (a step into the garden and back is two
    uses: nobody is out). Whoever went out by it comes back by it."""
    leaves = list(baselines.usual.night.returns.out_since.values())
    leaves.append(departed)
    uses: dict[str, list[tuple[datetime, datetime | None]]] = {}
    last_sign: datetime | None = None
    for when, entity_id, kind in baselines.away.spell:
        if when >= departed:
            break
        if kind == SIGN:
            last_sign = when
        elif kind == OPENING:
            uses.setdefault(entity_id, []).append((when, last_sign))
    gone: dict[str, datetime] = {}
    for entity_id, used in uses.items():
        when, sign = used[-1]
        if len(used) % 2 == 0 or sign is None or when - sign > INSIDE_REACH:
            continue
        if any(timedelta(0) <= left - when <= LEAVING for left in leaves):
            continue  # a tracked person going out
        gone[entity_id] = when
    return gone


def back_by(gone: dict[str, datetime], entity_id: str, when: datetime) -> bool:
    """``entity_id`` used at ``when`` is the return of whoever went out by it (``gone``:
    each way's last use by somebody going out), within ``INSIDE_REACH``."""
    went = gone.get(entity_id)
    return went is not None and timedelta(0) < when - went <= INSIDE_REACH


def _somebody_inside(
    baselines: HomeBaselines,
    departed: datetime,
    opened: datetime,
    pets: bool,
    entrances: list[str],
) -> bool:
    """Somebody moved inside since everybody tracked left and since the last entrance used
    before ``opened`` (the one who moved may have gone out by it), and no entrance was used
    with nobody seen inside within ``INSIDE_REACH`` before it (whoever moves after such an
    entry may have come in by it). Or one of ``entrances`` is the way somebody seen inside
    used within ``INSIDE_REACH`` before: whoever went out by it comes back by it (the help
    out on the verandah, back 25 min later), and whoever did not is still inside. An
    earlier entry with the key (a lock unlocked within ``KEY_REACH`` before it), once
    somebody was seen inside, is no entry nobody inside explains; nor is a way used while
    somebody seen inside since is still in (however quiet since), nor the return by a way
    of whoever went out by it from inside, or untracked as the household left
    (``gone_out_untracked``), within ``INSIDE_REACH``."""
    began = departed + LEAVE_GRACE
    last_sign: datetime | None = None
    last_unlock: datetime | None = None
    inside = seen = False
    inner: dict[str, bool] = {}
    used_inner = False  # an inner contact used since everybody left: somebody in all along
    used_from_inside = gone_out_untracked(baselines, departed)
    passed: datetime | None = None  # the last way used from inside
    for when, entity_id, kind in baselines.away.spell:
        if when >= opened:
            break
        if kind == SIGN:
            if when >= began and person_sign(baselines, entity_id, pets):
                inside = seen = True
            last_sign = when
        elif (
            kind == OPENING
            and when >= began
            and (inside or (last_sign is not None and when - last_sign <= INSIDE_REACH))
            and _inner(baselines, inner, entity_id)
        ):
            # Opened with somebody about: a person in, not gone out by it (``inner_uses``).
            # One opened with nobody seen before it is judged as any way in (a balcony door
            # forced in the first days reads as never used at a coming or going too).
            inside = seen = used_inner = True
            last_sign = when
        elif kind == OPENING and when >= began:
            if entity_id.partition(".")[0] == "lock":
                last_unlock = when
            with_key = last_unlock is not None and when - last_unlock <= KEY_REACH
            # The door, then the gate: one passage from inside.
            passing = passed is not None and when - passed <= PASSAGE
            back = back_by(used_from_inside, entity_id, when)
            if (
                when - departed > LEAVING
                and not inside
                and not passing
                and not back
                and (last_sign is None or when - last_sign > INSIDE_REACH)
                and not (with_key and seen)
            ):
                return False  # an entry nobody inside explains came first
            if inside or passing:
                used_from_inside[entity_id] = when
            if inside:
                passed = when
            # Whoever moved may have gone out by it (a tracker that reported its leaving
            # before the door): only signs after it show somebody still inside. Whoever
            # went out by it and is back by it is inside again.
            inside = back and not inside
    if passed is not None and opened - passed <= PASSAGE:
        return True  # the door, then the gate
    if used_inner and all(_inner(baselines, inner, e) for e in entrances):
        return True  # somebody in all along, and no entry came first: theirs
    return inside or any(
        timedelta(0) < opened - used_from_inside[e] <= INSIDE_REACH
        for e in entrances
        if e in used_from_inside
    )


def _inner(baselines: HomeBaselines, known: dict[str, bool], entity_id: str) -> bool:
    if entity_id not in known:
        known[entity_id] = inner_contact(baselines, entity_id)
    return known[entity_id]


def _unlocked_before(
    baselines: HomeBaselines, entrances: list[str], opened: datetime
) -> datetime | None:
    """When a lock among ``entrances`` was unlocked within ``KEY_REACH`` before ``opened``
    (the door opened with the key): the passage began then."""
    unlocks = [
        when
        for when, entity_id, kind in baselines.away.spell
        if kind == OPENING
        and entity_id in entrances
        and entity_id.partition(".")[0] == "lock"
        and opened - KEY_REACH <= when <= opened
    ]
    return min(unlocks, default=None)


def household_passage(
    finding: Finding,
    baselines: HomeBaselines,
    now: datetime,
    pets: bool = False,
    *,
    phoneless: bool = False,
) -> bool:
    """``finding`` tells a way in used in the empty home as the household comes and goes
    (see the module): it waits, while its devices are still being learned. ``phoneless``:
    the profile names somebody living here without a tracked phone."""
    if finding.rule not in PASSAGE_RULES:
        return False
    departed = baselines.away.empty_since
    entrances = _entrances(finding, baselines)
    if departed is None or not entrances:
        return False
    standing = [s for e in entrances if (s := _open_since(baselines, e)) is not None]
    if standing:
        opened = max(standing)
        # "Nobody seen after it opened" (``unaccompanied_opening``) says nobody keeps it open.
        kept = (
            finding.rule != "unaccompanied_opening"
            and now - opened < FLOOR
            and kept_open_by_whoever_is_in(baselines, entrances)
        )
        if now - opened >= STANDS_OPEN and not kept:
            return False  # stands open or unlocked: no passage
    else:
        used = [w for w, e, k in baselines.away.spell if k == OPENING and e in entrances]
        if not used:
            return False
        opened = used[-1]  # shut again since
    unlocked = _unlocked_before(baselines, entrances, opened)
    opened = unlocked or opened
    if timedelta(0) < departed - opened <= LEAVING:
        return True
    if not by_day(baselines, opened):
        return False
    # Somebody the trackers do not follow lives here: what moved inside by day since the
    # home emptied is theirs, a pet or not, and the door they open and shut is theirs (one
    # left standing open is told all the same). Only a sign shows them in: a profile's "no
    # phone" does not say who stays home (a child without one is at school with the rest).
    # A keyed entry is not the household's passage for a sign seen since everybody left:
    # a real hass's recorded week (tests/test_history_week.py) then took a dog-walker's
    # first visit with the key into the empty home for the household's. But where the
    # homeowner says somebody lives here without a tracked phone, the door opened with
    # the key by day and shut again is theirs: they come and go as the phones do not show
    # (a boy back from school on the lift bus, a grandmother back from the shop).
    if phoneless and unlocked is not None:
        return True
    return lying_in(baselines, departed, opened) or _somebody_inside(
        baselines, departed, opened, pets and not phoneless, entrances
    )


def _a_way_of_the_household(baselines: HomeBaselines, entity_id: str) -> bool:
    """A way the household comes and goes by, as far as the first hours show: a lock, a
    contact with a lock in its area (the door it bolts), or one opened near a tracked
    arrival or departure."""
    info = baselines.infos.get(entity_id)
    if info is None or info.domain != "binary_sensor":
        return True
    if info.area is not None and any(
        other.domain == "lock" and other.area == info.area for other in baselines.infos.values()
    ):
        return True
    return baselines.inside.ever_a_way(entity_id)


def kept_open_by_whoever_is_in(baselines: HomeBaselines, entrances: list[str]) -> bool:
    """Every one of ``entrances`` is no way of the household's (``_a_way_of_the_household``:
    a balcony's door, a back kitchen's, a room's): standing open, it is judged as a door
    shut again, by who was inside before it opened (``_somebody_inside``). Opened by the
    grandmother seen inside before it, she keeps it open (the washing hung out on the
    balcony); opened in a home nobody was seen in, it is told at once. Open longer than an
    hour of everyday use (``long_stays.FLOOR``) it is told all the same: the balcony door
    forgotten open on a cold afternoon. A door of the household's way in standing open
    (the front door that did not latch behind her) is told as before."""
    return not any(_a_way_of_the_household(baselines, e) for e in entrances)


def lying_in(baselines: HomeBaselines, departed: datetime, opened: datetime) -> bool:
    """A presence or motion sensor on since before everybody tracked left, ``HELD`` and more
    by ``opened``, and on still: somebody was there all along (no pet holds a bed sensor
    on for an hour; see the module)."""
    for entity_id, (state, since) in baselines.durations.current.items():
        info = baselines.infos.get(entity_id)
        if info is None or info.domain != "binary_sensor":
            continue
        if info.device_class not in OCCUPANCY_DEVICE_CLASSES or state.lower() != "on":
            continue
        if since < departed and opened - since >= HELD:
            return True
    return False


def passage_due(baselines: HomeBaselines | None, now: datetime) -> datetime | None:
    """When an entrance open (or unlocked) in the empty home, still being learned, will
    have stood open ``STANDS_OPEN``: the glue analyses again then, so a passage's wait ends
    at the same moment live and in a replay (not at the next periodic analysis)."""
    if baselines is None or baselines.away.empty_since is None:
        return None
    due = [
        since + STANDS_OPEN
        for entity_id, (_, since) in baselines.durations.current.items()
        if now < since + STANDS_OPEN
        and _is_entrance(baselines, entity_id)
        and _open_since(baselines, entity_id) is not None
        and baselines.learning(entity_id, now)
    ]
    return min(due, default=None)
