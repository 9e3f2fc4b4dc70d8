"""A visitor at a regular time is learned from two days, also while the home is new (core).

The home of ``test_away_normal`` set up on a Monday morning: the dog-walker lets herself
in at 12:00 on Monday and Tuesday. On Wednesday (the devices still being learned: fewer
than three days watched) her entry at 12:00 is what two earlier days of the same kind
show: her moving about inside after it is not told; an entry at 03:00 with motion after
it is told, and pushed at once.
"""

from __future__ import annotations

from datetime import UTC

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .test_away_normal import ALICE, AREAS, BEDROOM, CLASSES, HALL, analyse, at, day_of_life, visit


def set_up_on_monday(days: int) -> HomeBaselines:
    """Baselines that began watching at 07:00 on day 0 and lived ``days`` days."""
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area=AREAS[e], device_class=CLASSES.get(e)) for e in AREAS]
    baselines.describe([*infos, EntityInfo(ALICE, "Alice")])
    baselines.watching([*AREAS, ALICE], at(0, 7))
    baselines.learn(Transition(at(0, 7), ALICE, "home"))
    for day in range(days):
        for transition in day_of_life(day):
            baselines.learn(transition)
        baselines.advance(at(day, 23))
    return baselines


def test_the_walker_on_the_third_day_is_her_regular_visit() -> None:
    baselines = set_up_on_monday(2)
    now = at(2, 12.1)
    assert baselines.learning(HALL, now)  # still being learned
    assert analyse(baselines, now, day_of_life(2)) == []  # her moving about, after her entry


def test_an_entry_at_night_on_the_third_day_is_told_and_pushed() -> None:
    baselines = set_up_on_monday(2)
    now = at(2, 3.1)
    today = [Transition(at(2, 2), ALICE, "not_home"), *visit(2, 3, motion=(HALL, BEDROOM))]
    findings = analyse(baselines, now, today)
    assert findings
    assert not_held(findings, baselines, now, someone_home=False)
