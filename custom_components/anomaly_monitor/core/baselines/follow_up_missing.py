"""A learned follow-up that did not come: a meter started (a supply came back) and the
level or temperature that always moved after it has not.

``FollowUps`` learned, from this home's own history, which level or temperature moves
after a meter starts to draw, which way and how soon (a well pump and the roof tank
rising within 17 min; the grid back and the home battery charging within half an hour).
Only a pair seen at least ``MIN_ONSETS`` times (``MIN_ONSETS_ONE_DEVICE`` when HA's device
registry puts both on one device), the effect following ``MIN_SHARE`` of them and seldom
moving that way on its own, is judged. When such a cause started and its effect has not
come for ``FACTOR`` times the longest delay ever learned (never less than ``FLOOR``), the
link is broken (``usual_effect_missing``): the pump runs dry or stalls, the battery no
longer charges, the heater draws and the room does not warm. It lasts until the effect
moves its way again (a day at most). An effect whose level when the cause started was
already a step past anything the cause ever moved it to (``beyond_its_reach``: a room
colder than it ever fell to after a radiator started) is not judged. No entity id's words.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from .clock import local
from .follow_up_pair import beyond_its_reach, could_move
from .follow_ups import MIN_ONSETS_ANY, FollowUps, effect_step
from .home_baselines import HomeBaselines
from .long_stays import duration_text

MIN_ONSETS = 10
MIN_ONSETS_ONE_DEVICE = MIN_ONSETS_ANY
MIN_SHARE = 0.9
FACTOR = 3.0
FLOOR = timedelta(minutes=20)

USUAL_EFFECT_MISSING = FindingKind(
    "usual_effect_missing", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _counted(follow: FollowUps, cause: str, effect: str) -> bool:
    """Whether this break's own miss is among the pair's counts (not to judge it by)."""
    broken = follow.broken.get((cause, effect))
    return broken is not None and broken.counted


def _usual(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    return duration_text(timedelta(seconds=seconds))


def usual_effect_missing(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cause whose learned effect has not come within a clear margin of its delay.

    Magnitude: minutes since the cause started.
    """
    now = home.end
    follow = baselines.follow_ups
    told: set[str] = set()
    for cause, effect, since, level, extreme, way, _ in list(follow.waiting()):
        source, target = home.info(cause), home.info(effect)
        pair = follow.pairs.get((cause, effect))
        if source is None or target is None or pair is None or effect in told:
            continue
        one_device = source.info.device is not None and source.info.device == target.info.device
        needed = MIN_ONSETS_ONE_DEVICE if one_device else MIN_ONSETS
        if pair.direction(needed, MIN_SHARE, _counted(follow, cause, effect)) != way:
            continue
        step, value = effect_step(target.info), target.number
        if step is None or value is None or way * (value - extreme) >= step:
            continue  # it moved: the baselines have not seen it yet
        if not could_move(pair, min(extreme, value) if way > 0 else max(extreme, value), step):
            continue  # a full tank, a charged battery: it never rose from this high
        if beyond_its_reach(pair, level, step):
            continue  # begun past anything the cause ever moved it to: not its effect
        delay = pair.delay_up if way > 0 else pair.delay_down
        if now - since <= max(FLOOR, FACTOR * timedelta(seconds=delay)):
            continue
        told.add(effect)
        unit = f" {target.info.unit}" if target.info.unit else ""
        moved, kept = ("risen", pair.ups) if way > 0 else ("fallen", pair.downs)
        onsets = pair.onsets - _counted(follow, cause, effect)
        started = f"{local(since, home.env.zone):%H:%M}"
        began = "came back" if source.info.device_class == "voltage" else "began drawing power"
        yield USUAL_EFFECT_MISSING.finding(
            evidence=(cause, effect),
            reasoning=f"{cause} {began} at {started} ({duration_text(now - since)} "
            f"ago), but {effect} has not {moved} since ({level:g} then, {value:g}{unit} "
            f"now); in this home it has {moved} within {_usual(delay)} of that "
            f"({kept} of {onsets} times learned).",
            recommendation="Check the device on this meter and what it feeds: is it "
            "working (a pump that runs dry or stalls, a charger or heater that draws and "
            "does nothing)?",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )
