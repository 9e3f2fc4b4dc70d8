"""Somebody was there as everybody tracked left: their stirring is no intruder's motion.

``motion_while_away`` tells motion in a home whose tracked people are all out. But a
presence or bed sensor that has read ``on`` since ``HELD`` and more before the home emptied
(a bedbound grandmother in her hospital bed as the family goes to work) shows somebody who
was in all along, not somebody who came in (``on_before_empty``). And motion in the room of
such a sensor, held ``on`` for ``HELD`` and more across the departure and still on when the
motion began, is that person stirring (``lying_there``): Granny gets up for the bathroom at
05:30 while her family is out at J'ouvert. An entry from outside before the motion is still
told by ``away_motion_judge`` before this is asked.
"""

from __future__ import annotations

from datetime import datetime

from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import Finding
from .held_on import HELD
from .home_baselines import HomeBaselines
from .long_stays import stay_since


def _on_since(
    home: HomeView, baselines: HomeBaselines, sensor: str, when: datetime
) -> datetime | None:
    """Since when ``sensor`` reads ``on`` at ``when`` (None: it reads otherwise), the
    earliest the home can prove: the window's changes, else the stay the baselines
    remember (``long_stays.stay_since``)."""
    changes = home.changes(sensor)
    before = [c for c in changes if c.when <= when]
    if before:
        if before[-1].state.lower() != "on":
            return None
        since = before[-1].when
        for change in reversed(before):  # a repeated "on" goes on with the same stay
            if change.state.lower() != "on":
                break
            since = change.when
        return since
    if changes:  # its first change came after: "off" means it read on until then
        if changes[0].state.lower() != "off":
            return None
        last = baselines.durations.last_stay.get(sensor)  # (state, since, until)
        if last is not None and last[0].lower() == "on" and last[2] == changes[0].when:
            return last[1]  # the stay that "off" ended, as the baselines saw it begin
        return home.window.start
    state = home.states.get(sensor)
    if state is None or state.state.lower() != "on":
        return None
    return stay_since(home, baselines, state)


def on_before_empty(home: HomeView, baselines: HomeBaselines, sensor: str) -> datetime | None:
    """When ``sensor``, on now, came on, if that was ``HELD`` and more before everybody
    tracked left (a motion sensor's minute on as they go is theirs, and the rule's)."""
    empty = baselines.away.empty_since
    since = _on_since(home, baselines, sensor, home.end)
    return since if empty is not None and since is not None and empty - since >= HELD else None


def lying_there(
    home: HomeView, baselines: HomeBaselines, sensor: str, onset: datetime
) -> str | None:
    """A presence sensor in ``sensor``'s room held ``on`` since before everybody left, for
    ``HELD`` and more, and on still at ``onset``: whoever lies there (see the module)."""
    empty, area = baselines.away.empty_since, home.area(sensor)
    if empty is None or area is None:
        return None
    for other in home.in_area(area):
        if other.entity_id == sensor or other.domain != "binary_sensor":
            continue
        if other.info.device_class not in OCCUPANCY_DEVICE_CLASSES:
            continue
        since = _on_since(home, baselines, other.entity_id, onset)
        if since is not None and since < empty and onset - since >= HELD:
            return other.entity_id
    return None


def all_there_before_empty(finding: Finding, baselines: HomeBaselines, home: HomeView) -> bool:
    """Every sensor a ``motion_while_away`` finding cites as on came on before everybody
    left: nothing moved that was not there all along (nothing need be learned for it)."""
    on = [
        e
        for e in finding.evidence
        if home.domain(e) == "binary_sensor"
        and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
        and (state := home.states.get(e)) is not None
        and state.state.lower() == "on"
    ]
    return bool(on) and all(on_before_empty(home, baselines, e) is not None for e in on)
