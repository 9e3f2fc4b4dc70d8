"""Not up, told by a bed still lain on after every tracker has left (core, no Home
Assistant). The untracked grandmother of ``test_first_use_bed`` gets up at about five every
morning; one morning her bed stays lain on while her son (the only tracker) leaves at half
past five and nothing else moves. The home looks empty by its trackers and by its motion,
but a bed lain on since the night is somebody in it: she is the one not up. A home whose
bed is empty (she spent the night away, or got up before they left) stays empty: nothing."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.first_use_missed import (
    empty_by_every_sign,
    first_use_missed,
)
from custom_components.anomaly_monitor.core.home import HomeView

from .core_factories import entity, environment, steps, window
from .test_first_use_bed import BED, DAY0, DOOR, HALL, HALLWAY, PERSON, ROOM, lived

# Her son: up at four, in the hall at twenty past five, gone at half past five.
LEFT = [
    (4 * 60, HALL, "on"),
    (4 * 60 + 3, HALL, "off"),
    (5 * 60 + 20, HALL, "on"),
    (5 * 60 + 22, HALL, "off"),
    (5 * 60 + 30, PERSON, "not_home"),
]


def away(baselines: HomeBaselines, now: datetime, events: list[tuple[float, str, str]]) -> HomeView:
    """The view at ``now`` with every tracker away, after this morning's ``events``
    (minutes after its midnight), learned by the baselines up to ``now``."""
    midnight = now.replace(hour=0, minute=0, second=0)
    for minutes, entity_id, state in sorted(events):
        baselines.observe(midnight + timedelta(minutes=minutes), entity_id, state)
    baselines.advance(now)
    bed = "on"
    for _, entity_id, state in sorted(events):
        bed = state if entity_id == BED else bed
    states = [
        entity(BED, bed, area=ROOM, device_class="occupancy"),
        entity(DOOR, "off", area=ROOM, device_class="door"),
        entity(HALL, "off", area=HALLWAY, device_class="occupancy"),
        entity(PERSON, "not_home"),
    ]
    transitions = steps(midnight, events)
    return HomeView(window(states, environment(now, persons_home=0), transitions))


def test_her_bed_lain_on_is_told_after_the_only_tracker_left() -> None:
    """Ten days learned; the eleventh morning her son leaves at 05:30 and nothing moves
    after: the home is empty by every sign but her bed. At 06:30 her bed, lain on since
    the night, is told, as it is with him home. Fails before: the home read as empty, so
    nobody was there to be up (set 46 c, set 43 c: told only when somebody came home)."""
    today = DAY0 + timedelta(days=10)
    baselines = lived(10)
    view = away(baselines, today + timedelta(hours=6, minutes=30), LEFT)
    assert view.nobody_home
    assert empty_by_every_sign(view, baselines)
    [finding] = first_use_missed(view, baselines)
    assert finding.evidence == (BED,)
    assert "still lying in it" in finding.reasoning


def test_an_empty_bed_in_an_empty_home_is_nobody_not_up() -> None:
    """She got up at 05:02 and went out with her son: her bed is empty and the home empty
    by every sign, nothing is told. Within her margin (05:50), nothing either."""
    today = DAY0 + timedelta(days=10)
    baselines = lived(10)
    up = [(5 * 60 + 2, BED, "off"), *LEFT]
    assert list(first_use_missed(away(baselines, today + timedelta(hours=7), up), baselines)) == []
    baselines = lived(10)
    early = away(baselines, today + timedelta(hours=5, minutes=50), LEFT)
    assert list(first_use_missed(early, baselines)) == []
