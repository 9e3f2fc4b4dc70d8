"""A device offline, judged by how it usually drops off (``UsualDrops``), not one grace.

``device_unavailable`` (offline now, or an outage the window saw end) and
``device_went_offline`` (a connectivity sensor) tell an outage once it has lasted its
grace (``core/offline.py``: 15 min for a protective device, 30 min for others). A device
that drops off for minutes several times a day would be told every day. Once its drops
are known (``UsualDrops.normal``: its own ``MIN_DROPS``, or, for a device that has dropped
before, the home's drops pooled; the device watched past ``LEARN_DAYS``):

- its limit is ``FACTOR`` times what it usually drops for at most (a protective device:
  ``SAFETY_FACTOR`` times), or the longest drop it (or, pooled, the home) came back from
  if longer (``UsualDrops.longest``: a mesh whose drops last 1 to 45 minutes at random
  has a usual of 24 minutes after a few days, and a 37-minute drop is still its normal),
  never more than ``SAFETY_CAP`` for a protective device (a smoke alarm that drops for 2
  minutes a day is still told within the hour when it stays away) or ``CAP``, never less
  than the grace, and never less than ``MARGIN`` times an outage the homeowner marked as
  a false alarm;
- a burst of drops (``health.FLAPPING_SPELLS`` in a window) is told only when the device
  never dropped that often in a day before.

A device that never dropped (or too seldom to have a normal) keeps the grace: told as in
any home. The finding says what judged it ("offline 3 h 05 min; it usually drops off for
at most 6 min, 14 drops learned"). The same limit times the analysis that tells an
outage when it is reached (``offline_limit`` for ``offline.offline_due``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from ..feedback import MARGIN
from ..home import HomeView
from ..models import EntityState, Finding
from ..offline import is_safety_device, offline_grace
from ..statistics.health import FLAPPING_SPELLS
from .home_baselines import HomeBaselines
from .long_stays import duration_text
from .usual_drops import SUPPLY_LINK, away_state

FACTOR = 2.0
SAFETY_FACTOR = 1.5
SAFETY_CAP = timedelta(hours=1)
CAP = timedelta(hours=24)
LONGEST_SLACK = 1.25
# Fewer drops of its own than this: the home's drops widen its limit too (``_normals``).
FEW_DROPS = 10
DROP_RULES = frozenset({"device_unavailable", "device_went_offline"})


def drop_limit(
    baselines: HomeBaselines,
    entity_id: str,
    domain: str,
    device_class: str | None,
    learning: bool = False,
) -> timedelta:
    """How long this device may be away before it is told: its grace, or past its usual
    drop (see the module). ``learning``: the device is still being learned, so whether it
    ever drops is not known yet and the home's drops judge its first ones."""
    grace = offline_grace(domain, device_class)
    limit = grace
    safety = is_safety_device(domain, device_class)
    for usual in _normals(baselines, entity_id, learning):
        longest = LONGEST_SLACK * timedelta(minutes=baselines.drops.longest(entity_id, usual[2]))
        if safety:
            learned = min(SAFETY_CAP, max(longest, SAFETY_FACTOR * timedelta(minutes=usual[0])))
        else:
            learned = min(CAP, max(longest, FACTOR * timedelta(minutes=usual[0])))
        limit = max(limit, learned)
    taught = baselines.usual.taught_value(entity_id, "drop")
    if taught is not None:
        limit = max(limit, MARGIN * timedelta(minutes=taught))
    return limit


def offline_limit(
    baselines: HomeBaselines | None, now: datetime
) -> Callable[[EntityState], timedelta] | None:
    """Each offline device's limit for ``offline_due`` (None: the graces alone)."""
    if baselines is None:
        return None

    def limit(state: EntityState) -> timedelta:
        learning = home_drops_judge(baselines, state, now)
        info = state.info
        return drop_limit(baselines, state.entity_id, state.domain, info.device_class, learning)

    return limit


def home_drops_judge(baselines: HomeBaselines, state: EntityState, now: datetime) -> bool:
    """Whether the home's pooled drops judge this device before it has drops of its own:
    while it is still being learned, and always for a device the home's safety does not
    rely on (a garage door contact on the mesh's edge, first off for 30 minutes on day 6
    of a mesh whose devices drop for up to 50, is that mesh). A protective device that
    never dropped, once known, keeps its grace: its first drop is news."""
    protective = is_safety_device(state.domain, state.info.device_class)
    return baselines.learning(state.entity_id, now) or not protective


def _normals(
    baselines: HomeBaselines, entity_id: str, learning: bool
) -> list[tuple[float, int, int]]:
    """The normals its limit is the widest of: the one that judges it (``usual_drop``),
    and the home's too while that is fewer than ``FEW_DROPS`` of its own: a handful of
    drops from a mesh whose drops last 1 to 45 minutes at random says little of how long
    its next one lasts (three drops of at most 27 min, then one of 41 min, set 2's smoke
    alarm), the mesh's many drops say more."""
    usual = usual_drop(baselines, entity_id, learning)
    if usual is None:
        return []
    pooled = baselines.drops.pooled()
    if usual[2] == 1 and usual[1] < FEW_DROPS and pooled is not None:
        return [usual, pooled]
    return [usual]


def usual_drop(
    baselines: HomeBaselines, entity_id: str, learning: bool
) -> tuple[float, int, int] | None:
    """The normal that judges its drops (``UsualDrops.normal``); while the device is still
    being learned, the home's pooled drops judge it even before its own first drop: on a
    mesh that drops its devices for minutes every day, a smoke alarm's first 20-minute
    drop on day one is that mesh, not a dead detector (which is still told within
    ``SAFETY_CAP``)."""
    drops = baselines.drops
    usual = drops.normal(entity_id)
    return drops.pooled() if usual is None and learning else usual


def judged_drop(
    finding: Finding,
    entity_id: str,
    baselines: HomeBaselines,
    home: HomeView,
    learning: bool = False,
) -> Finding | None:
    """An outage as the device's learned drops judge it (``learning``: as the home's drops
    do, its own not known yet): None when it is usual here."""
    state = home.info(entity_id)
    if state is None:
        return finding
    if with_the_supply(baselines, entity_id) and away_state(state.state, state.info.device_class):
        return None  # off with the supply: the supply's outage is the trouble (``supply_off``)
    nothing_learned = usual_drop(baselines, entity_id, learning) is None
    if learning and nothing_learned and baselines.usual.taught_value(entity_id, "drop") is None:
        return finding  # nothing learned yet, of it or of the home: the rule's grace
    device_class = state.info.device_class
    limit = drop_limit(baselines, entity_id, state.domain, device_class, learning)
    several = False  # dropped more than once: its length is the longest drop's
    if away_state(state.state, device_class):  # away now: this outage, from its start
        # The drop's start as learned, kept across a restart (the window sees the device
        # go "unknown" then "unavailable" at the restart, not its drop the day before).
        starts = (away_since(home, entity_id, device_class), baselines.drops.down_since(entity_id))
        since = min((s for s in starts if s is not None), default=None)
        length = None if since is None else home.end - since
        if length is not None and length < limit:
            return None
    else:  # back: the outages the window saw
        dated = list(drop_spells(home, entity_id, device_class))
        spells = [length for _, length in dated]
        long = [length for length in spells if length >= limit]
        flapping = len(spells) >= FLAPPING_SPELLS and len(spells) > baselines.drops.most_in_a_day(
            entity_id
        )
        if not long and not flapping:
            return None
        length = max(long, default=None)
        # Dropped again since the first long drop (a blip before it, HA's own start, is
        # not the outage told): its length is the longest's.
        first = next((at for at, spell in dated if spell >= limit), None)
        several = first is not None and sum(1 for at, _ in dated if at >= first) > 1
    why = _why(baselines, entity_id, length, home.end, learning, limit=limit, several=several)
    return replace(finding, reasoning=finding.reasoning + why)


def with_the_supply(baselines: HomeBaselines, entity_id: str) -> bool:
    """Whether the device's drop under way began as a supply went to nothing, and that
    supply is still out: a water heater on the grid, dark while the home runs on its
    battery, is no device fault."""
    since = baselines.drops.down_since(entity_id)
    return (
        since is not None
        and entity_id in baselines.drops.with_supply
        and baselines.supply.down_now(since, SUPPLY_LINK)
    )


def _why(
    baselines: HomeBaselines,
    entity_id: str,
    length: timedelta | None,
    now: datetime,
    learning: bool = False,
    *,
    limit: timedelta | None = None,
    several: bool = False,
) -> str:
    """What judged it: " Offline 3 h 05 min; it usually drops off for at most 6 min, about
    twice a day (14 drops learned)." or the limit any home has (``limit``). ``several``
    drops: " Longest outage 16 min; ..." (not read as the last drop's length)."""
    said = "Longest outage" if several else "Offline"
    offline = f" {said} {duration_text(length)};" if length is not None else ""
    return _after(offline, _judged_by(baselines, entity_id, now, learning, limit=limit))


def _after(offline: str, why: str) -> str:
    """``why`` after "Offline 3 h 05 min;", or as a sentence of its own."""
    return f"{offline} {why}" if offline else f" {why[:1].upper()}{why[1:]}"


def _judged_by(
    baselines: HomeBaselines,
    entity_id: str,
    now: datetime,
    learning: bool,
    *,
    limit: timedelta | None = None,
) -> str:
    """What judged the outage (without the "Offline ..." before it)."""
    taught = baselines.usual.taught_value(entity_id, "drop")
    if taught is not None:
        marked = duration_text(timedelta(minutes=max(taught, 1.0)))
        return f"you marked an outage of {marked} as normal."
    usual = usual_drop(baselines, entity_id, learning)
    if usual is None:  # (while learning, judged_drop left it to the rule's grace)
        # In the homeowner's words, not "the default limit judged" (walk 50): what is
        # told of a device that has no usual drop yet.
        if limit is None:
            return "it seldom drops off here, so any long outage is told."
        return f"it seldom drops off here, so an outage of {duration_text(limit)} is told."
    minutes, drops, devices = usual
    at_most = duration_text(timedelta(minutes=max(minutes, 1.0)))
    if devices > 1:
        return (
            f"devices here usually drop off for at most {at_most} ({drops} drops "
            f"of {devices} devices learned)."
        )
    often = _often(baselines.drops.per_day(entity_id, now))
    return f"it usually drops off for at most {at_most}, {often} ({drops} drops learned)."


def _often(per_day: float) -> str:
    """ "about 3 times a day", "about twice a week"."""
    count, span = (per_day, "day") if per_day >= 0.95 else (per_day * 7, "week")
    times = round(count)
    if times < 1:
        return "less than once a week"
    word = {1: "once", 2: "twice"}.get(times, f"{times} times")
    return f"about {word} a {span}"


def away_since(home: HomeView, entity_id: str, device_class: str | None) -> datetime | None:
    """When its current spell away began, as far as the window's record shows."""
    since: datetime | None = None
    for transition in reversed(home.recorded.get(entity_id, [])):
        if not away_state(transition.state, device_class):
            break
        since = transition.when
    return since


def drop_spells(
    home: HomeView, entity_id: str, device_class: str | None
) -> list[tuple[datetime, timedelta]]:
    """Each spell away in the window's record: when it began and how long it lasted."""
    spells: list[tuple[datetime, timedelta]] = []
    start: datetime | None = None
    for transition in home.recorded.get(entity_id, []):
        away = away_state(transition.state, device_class)
        if away and start is None:
            start = transition.when
        elif not away and start is not None:
            spells.append((start, transition.when - start))
            start = None
    if start is not None:
        spells.append((start, home.end - start))
    return spells
