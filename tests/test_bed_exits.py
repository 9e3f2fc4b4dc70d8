"""Out of bed, and never seen outside its room, though its leaver always is within minutes.

Nan (``test_bed_trip``, a week learned) is seen in the bathroom two minutes after leaving
her bed at night, and about the house five minutes after it in the morning: her bed's
exits are learned per quarter of the day. The night she falls beside the bed at 02:50
(the mat empty, her room's sensor, an arm moving on the floor at 03:08) is told 20 min
after the bed was left, from the bed left (her stir does not restart it), naming the mat
and her room; before, a bed left at the hour her day begins (an early riser) said nothing
and her room's quiet after it was learned long.

Not told: before the 20 min; once she was seen in the bathroom (the trip is
``bed_trip``'s); a bed whose leaver stays in the room for long at that time of day (its
exits take 30 min); the back to bed, the outdoor sensor and the same room teach nothing.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.bed_exits import BedExits
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.models import Transition

from .test_bed_trip import BATH, MAT, ROOM, TODAY, ZONE, _nan, _night, _told, _view

BED_ROOM = "Nan's room"
# Out of bed at 02:50, her room's sensor; an arm moving on the floor at 03:08.
FALL = [(0, MAT, "off"), (0.3, ROOM, "on"), (3, ROOM, "off"), (18, ROOM, "on"), (19, ROOM, "off")]


def test_a_fall_beside_the_bed_is_told_20_min_after_it_was_left() -> None:
    baselines = _nan()
    learned = baselines.bed_exits.learned(MAT, TODAY + timedelta(hours=2, minutes=50))
    assert learned is not None
    assert learned.longest == timedelta(minutes=2)  # the bathroom, every night
    seen = _night(baselines, FALL)
    left = TODAY + timedelta(hours=2, minutes=50)
    early = _view(left + timedelta(minutes=19, seconds=30), seen)
    due = still_where_last_seen_due(early, baselines)
    assert due == left + timedelta(minutes=20)  # her stir at 03:08 does not restart it
    assert _told(baselines, left + timedelta(minutes=19, seconds=30), seen) == []
    (finding,) = _told(baselines, left + timedelta(minutes=21), seen)
    assert finding.rule == "still_in_room_far_longer"
    assert finding.evidence == (MAT, ROOM)
    assert "Someone got out of bed in Nan's room 21 min ago (at 02:50)" in finding.reasoning
    assert f"somebody showed outside {BED_ROOM} within 2 min (6 times on 6 days)" in (
        finding.reasoning
    )


def test_seen_in_the_bathroom_since_is_no_fall_beside_the_bed() -> None:
    baselines = _nan()
    seen = _night(baselines, [*FALL[:3], (5, BATH, "on"), (6, BATH, "off")])
    later = TODAY + timedelta(hours=3, minutes=12)
    assert [f for f in _told(baselines, later, seen) if "outside" in f.reasoning] == []
    # The window does not show the bed left (it began later): what moved since is unknown.
    seen = _night(_nan(), FALL)
    assert list(still_where_last_seen(_view(later, seen[1:]), _nan())) == []


def _exits(minutes: float, *, days: int = 5) -> BedExits:
    exits = BedExits(ZoneInfo(ZONE))
    for day in range(days):
        night = TODAY - timedelta(days=days - day) + timedelta(hours=22)
        exits.bed(night, MAT, BED_ROOM, on=True)
        left = night + timedelta(hours=8)
        exits.bed(left, MAT, BED_ROOM, on=False)
        exits.sign(left + timedelta(minutes=0.5), BED_ROOM)  # her own room: no exit
        exits.sign(left + timedelta(minutes=1), "Yard")  # outside the house: no room
        exits.sign(left + timedelta(minutes=minutes), "Kitchen")
    return exits


def test_a_bed_s_exits_are_learned_per_quarter_from_its_own_mornings() -> None:
    morning = TODAY + timedelta(hours=6, minutes=30)
    learned = _exits(4).learned(MAT, morning)
    assert learned is not None
    assert (learned.longest, learned.exits, learned.days) == (timedelta(minutes=4), 5, 5)
    assert _exits(4).learned(MAT, TODAY + timedelta(hours=14)) is None  # not that quarter
    assert _exits(4, days=2).learned(MAT, morning) is None  # too few
    slow = _exits(30).learned(MAT, morning)  # dresses and prays in her room first
    assert slow is not None
    assert slow.longest == timedelta(minutes=30)
    # Back in bed before anybody showed elsewhere: nothing learned; a short lie-down (a
    # cat's minute on the mat) is no bed left.
    exits = BedExits(ZoneInfo(ZONE))
    exits.bed(morning - timedelta(hours=8), MAT, BED_ROOM, on=True)
    exits.bed(morning, MAT, BED_ROOM, on=False)
    exits.bed(morning + timedelta(minutes=5), MAT, BED_ROOM, on=True)
    exits.bed(morning + timedelta(minutes=10), MAT, BED_ROOM, on=False)
    exits.sign(morning + timedelta(minutes=12), "Kitchen")
    assert exits.exits == {}
    # Stored and read back; garbage dropped.
    stored = _exits(4).as_dict()
    assert BedExits.from_dict(stored, ZoneInfo(ZONE)).as_dict() == stored
    broken = {MAT: [[[1, "x", 2]], [], [], []], "x" * 300: [[], [], [], []]}
    assert BedExits.from_dict(broken, ZoneInfo(ZONE)).as_dict() == {MAT: [[], [], [], []]}


def test_a_bed_left_for_long_in_its_room_at_that_hour_is_not_judged_by_its_exits() -> None:
    baselines = _nan()
    baselines.bed_exits = _exits(30)  # every morning 30 min in her room before the kitchen
    left = TODAY + timedelta(hours=6, minutes=30)
    seen: list[Transition] = []
    for minutes, entity_id, state in FALL:
        when = left + timedelta(minutes=minutes)
        baselines.observe(when, entity_id, state, BED_ROOM)
        seen.append(Transition(when, entity_id, state))
    findings = _told(baselines, left + timedelta(minutes=65), seen)  # past 2 x 30 min
    assert [f for f in findings if "showed outside" in f.reasoning] == []
