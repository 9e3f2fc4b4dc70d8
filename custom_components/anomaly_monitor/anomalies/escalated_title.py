"""What an incident's title says of why it was told again, while it lasts.

An intrusion told again reads "Now motion in Hall: Front door open while nobody is home"
on the phone, an entry opened again "Opened again: …". The notification and the repair
issue keep that word while the incident lasts (the title it was told with, README), as
it is true now: in the present while its sign holds (a motion sensor of it reads motion,
the door reads open), in the past once it does not ("Motion in Hall at 13:54: …",
"Opened again at 13:53: …"). Walk 56 read the critical incident's notice without its
motion 40 s after the push, the motion sensor clear. An "Over" says it after the
incident's own title ("Over: Front door opened while nobody is home, then motion in Hall
at 13:54"): walk 57 read only "Over: Front door open while …", the door shut, the motion
the phone was pushed about left out.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from homeassistant.core import HomeAssistant

from ..core.escalation import Escalation, intrusion_sign
from ..core.home import OCCUPANCY_DEVICE_CLASSES
from .entered_again import is_open
from .evidence_lines import area_of
from .open_anomaly import Member, OpenAnomaly
from .store import parse_time

# A ``selector.anomaly_text`` template by key (its English default), filled with values.
type Say = Callable[[str, str, dict[str, str]], str]
type Clock = Callable[[datetime], str]

_NOW_MOTION = ("escalated_intrusion", "Now motion in {area}: {headline}")
_PAST_MOTION = ("escalated_intrusion_past", "Motion in {area} at {time}: {headline}")
_NOW_OPEN = ("escalated_reopened", "Opened again: {headline}")
_PAST_OPEN = ("escalated_reopened_past", "Opened again at {time}: {headline}")
_OVER_MOTION = ("escalated_intrusion_over", "{headline}, then motion in {area} at {time}")
_OVER_WITH_MOTION = ("escalated_intrusion_over_untimed", "{headline}, with motion in {area}")
_OVER_OPEN = ("escalated_reopened_over", "{headline}, opened again at {time}")


def _motion_sensors(hass: HomeAssistant, signs: list[Member]) -> list[tuple[str, bool]]:
    """The motion sensors the signs were found on, and whether each reads motion now."""
    sensors = []
    for member in signs:
        for entity_id in member.evidence:
            state = hass.states.get(entity_id)
            if entity_id in member.context or state is None:
                continue
            if state.attributes.get("device_class") in OCCUPANCY_DEVICE_CLASSES:
                sensors.append((entity_id, state.state == "on"))
    return sensors


def _intrusion(hass: HomeAssistant, anomaly: OpenAnomaly, home: str) -> tuple[str, bool] | None:
    """Where the motion told as somebody inside is (or was), and whether it still is.
    None when the incident's name is that motion's own (it opened as one, or a sign led
    its words when it was named): "Now motion in Hall: Motion in Hall while ..." says it
    twice."""
    signs = [m for m in anomaly.members if intrusion_sign(m.finding(anomaly.subject))]
    # Named when told (kept), or now, by the lead (not shown yet).
    named_by = anomaly.told_rule if anomaly.headline else anomaly.lead_rule
    if not signs or any(m.rule in (anomaly.rule, named_by) for m in signs):
        return None
    sensors = _motion_sensors(hass, signs)
    moving = [e for e, on in sensors if on]
    area = next((a for e, _ in sensors if (a := area_of(hass, e))), home)
    if moving:
        area = next((a for e in moving if (a := area_of(hass, e))), area)
    return area, bool(moving)


def escalated_title(
    hass: HomeAssistant, anomaly: OpenAnomaly, headline: str, *, home: str, say: Say, clock: Clock
) -> str:
    """``headline`` with why it was told again while the incident lasts; once it is
    over, with what happened after it."""
    when = parse_time(anomaly.escalated_at)
    values = {"headline": headline, "time": clock(when) if when is not None else ""}
    if anomaly.ended:
        return _over(hass, anomaly, values, home=home, say=say, clock=clock)
    if anomaly.escalation == Escalation.INTRUSION:
        if (found := _intrusion(hass, anomaly, home)) is None:
            return headline
        values["area"], now = found
        if now:
            return say(*_NOW_MOTION, values)
        return say(*_PAST_MOTION, values) if when is not None else headline
    if anomaly.escalation == Escalation.REOPENED:
        state = hass.states.get(anomaly.subject)
        if is_open(state.state if state is not None else None):
            return say(*_NOW_OPEN, values)
        return say(*_PAST_OPEN, values) if when is not None else headline
    return headline


def _over(
    hass: HomeAssistant,
    anomaly: OpenAnomaly,
    values: dict[str, str],
    *,
    home: str,
    say: Say,
    clock: Clock,
) -> str:
    """The title of an "Over" with what happened after it: the motion inside, with when it
    was told (``intruded_at``; before it was kept, only while it was the last telling),
    then its opening again (the last telling: walk 9's window opened again after the
    motion was pushed keeps the motion, and walk 58's left 3 its time)."""
    headline = values["headline"]
    last = parse_time(anomaly.escalated_at)
    if (found := _intrusion(hass, anomaly, home)) is not None:
        values["area"] = found[0]
        motion_at = parse_time(anomaly.intruded_at)
        if motion_at is None and anomaly.escalation == Escalation.INTRUSION:
            motion_at = last
        if motion_at is not None:
            headline = say(*_OVER_MOTION, {**values, "time": clock(motion_at)})
        else:
            headline = say(*_OVER_WITH_MOTION, values)
    if last is not None and anomaly.escalation == Escalation.REOPENED:
        headline = say(*_OVER_OPEN, {**values, "headline": headline})
    return headline
