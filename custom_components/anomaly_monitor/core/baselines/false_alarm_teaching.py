"""What "false alarm" on a habit finding teaches this home's learned normal, and what
removing the mark forgets: the device's stay, burst, night use or outage widened to what
was told (UsualUse.teach), so the same finding is judged usual next time
(usual_judge)."""

from __future__ import annotations

from datetime import datetime

from .home_baselines import HomeBaselines
from .timed_stays import LEFT_ON_PAST_ITS_ROUTINE
from .told_stays import untell_stays
from .usual_use import MARKED_STAY

# What "false alarm" on each habit rule teaches (``UsualUse.teach``).
_TAUGHT: dict[str, str] = {
    "entry_left_open": "open",
    "state_longer_than_usual": "stay",
    "brief_sensor_held_on": "stay",
    "appliance_running_far_longer": "stay",
    LEFT_ON_PAST_ITS_ROUTINE.rule: "stay",
    "toggle_storm": "burst",
    "opening_blip_at_night": "night",
    "entry_used_in_small_hours": "night",
    "device_unavailable": "drop",
    "device_went_offline": "drop",
}


def teach_false_alarm(
    baselines: HomeBaselines,
    rule: str,
    evidence: tuple[str, ...],
    magnitude: float | None,
    now: datetime | None = None,
) -> bool:
    """ "False alarm" on a habit finding: its device's normal widens to what was told (a
    stay this long, a burst this big, use at night, an outage this long: the one under way
    at ``now``, or the last). Whether anything was taught."""
    untell_stays(baselines.durations, evidence)  # the stay under way is learned as it is
    kind = _TAUGHT.get(rule)
    if kind is None or not evidence:
        return False
    if kind == "drop":
        value = baselines.drops.outage_minutes(evidence[0], now)
    else:
        value = 1.0 if kind == "night" else magnitude
    if value is None or value <= 0:
        return False
    baselines.usual.teach(evidence[0], kind, value)
    if kind == "stay":  # the stay under way was marked normal, however long it lasts
        for entity_id in evidence:
            if (current := baselines.durations.current.get(entity_id)) is not None:
                baselines.usual.teach(entity_id, MARKED_STAY, current[1].timestamp())
    return True


def forget_false_alarm(baselines: HomeBaselines, rule: str, evidence: tuple[str, ...]) -> bool:
    """The false alarm was removed: what it taught is forgotten. Whether it taught any."""
    kind = _TAUGHT.get(rule)
    if kind is None or not evidence or baselines.usual.taught_value(evidence[0], kind) is None:
        return False
    baselines.usual.forget(evidence[0], kind)
    if kind == "stay":
        for entity_id in evidence:
            baselines.usual.forget(entity_id, MARKED_STAY)
    return True
