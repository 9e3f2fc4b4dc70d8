"""A freezer that stopped cycling is told when its rest passes the learned limit, not at
whichever analysis comes next (core, no Home Assistant): the glue analyses at the moment
``cycle_stopped_due`` gives.

Found by the recorded week (``test_history_week.py``): a thermostat's readings started
analyses of their own in the recorder's database and not in its History CSV, and the same
freezer stop was told 2.5 min apart, each at the first analysis after its limit."""

from __future__ import annotations

from datetime import timedelta

from custom_components.anomaly_monitor.core.baselines.cycles import (
    cycle_stopped,
    cycle_stopped_due,
)

from .test_baselines_cycle_reasons import STOPPED, meter, stopped
from .test_baselines_long_stays import habits, view

# The freezer rests 40 min at most: its limit is three times that.
LIMIT = timedelta(minutes=120)


def test_the_stop_is_due_at_its_limit_and_told_then() -> None:
    baselines = stopped(habits(5))
    soon = STOPPED + timedelta(minutes=30)
    assert cycle_stopped_due(view(soon, meter()), baselines) == STOPPED + LIMIT
    due = STOPPED + LIMIT
    assert list(cycle_stopped(view(due, meter()), baselines)) == []
    told = list(cycle_stopped(view(due + timedelta(seconds=1), meter()), baselines))
    assert [f.rule for f in told] == ["cycle_stopped"]


def test_nothing_is_due_once_told_or_without_a_learned_cycle() -> None:
    baselines = stopped(habits(5))
    assert (
        cycle_stopped_due(view(STOPPED + LIMIT + timedelta(minutes=1), meter()), baselines) is None
    )
    assert cycle_stopped_due(view(STOPPED, meter()), stopped(habits(1))) is None
    assert cycle_stopped_due(view(STOPPED, meter()), None) is None
