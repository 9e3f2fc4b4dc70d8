"""One of the household going out at night after one already told as they went (core).

The family of ``test_out_at_night_child`` (a week learned: everybody out by the house door
in the morning and back by it in the evening, nobody ever out at night). At 02:30 Ava
slips out of the back slider and her phone leaves: told. At 03:10 her father unlocks the
front door, goes out, locks it behind him and his phone leaves: he is going after her, the
night already told, and no second notice of it. Alone (nobody out before him), the same
departure is told as before: he was never out at night either.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.night_outings import went_out_at_night
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import Transition

from .core_factories import entity, environment, window
from .test_out_at_night_child import (
    AREAS,
    DOOR,
    FATHER,
    LOCK,
    PHONE,
    PROFILE,
    SLIDER,
    START,
    TEEN,
    _days as _week,
)

NIGHT = START + timedelta(days=7)
TEEN_OUT = NIGHT + timedelta(hours=2, minutes=30)
FATHER_OUT = NIGHT + timedelta(hours=3, minutes=10)


def _night(baselines: HomeBaselines, *, teen_out: bool) -> HomeView:
    """Ava out of the slider at 02:30 (``teen_out``), her father out of the front door at
    03:10, locked behind; the view at 03:15."""
    moves: list[tuple[datetime, str, str]] = []
    if teen_out:
        moves += [
            (TEEN_OUT, SLIDER, "on"),
            (TEEN_OUT + timedelta(seconds=30), SLIDER, "off"),
            (TEEN_OUT + timedelta(minutes=4), TEEN, "not_home"),
        ]
    moves += [
        (FATHER_OUT, LOCK, "unlocked"),
        (FATHER_OUT + timedelta(seconds=10), DOOR, "on"),
        (FATHER_OUT + timedelta(seconds=30), DOOR, "off"),
        (FATHER_OUT + timedelta(seconds=50), LOCK, "locked"),
        (FATHER_OUT + timedelta(minutes=4), FATHER, "not_home"),
    ]
    for when, entity_id, state in moves:
        baselines.observe(when, entity_id, state)
    states = {e: entity(e, "off", area=a, device_class="door") for e, a in AREAS.items()}
    states[LOCK] = entity(LOCK, "locked", area="Entry")
    for other in (TEEN, FATHER, PHONE):
        states[other] = entity(other, "home")
    for when, entity_id, state in moves:
        states[entity_id] = replace(states[entity_id], state=state, last_changed=when)
    now = FATHER_OUT + timedelta(minutes=5)
    transitions = [Transition(w, e, s, AREAS.get(e)) for w, e, s in moves]
    built = window(states.values(), environment(now, persons_home=1), transitions)
    return HomeView(replace(built, profile=PROFILE))


def test_the_father_going_after_his_daughter_is_not_told_again() -> None:
    baselines = _week(7)
    found = list(went_out_at_night(_night(baselines, teen_out=True), baselines))
    assert [f.evidence[0] for f in found] == [SLIDER]  # hers, still told; not his
    assert TEEN in found[0].evidence


def test_alone_his_night_departure_is_told_as_before() -> None:
    baselines = _week(7)
    [finding] = went_out_at_night(_night(baselines, teen_out=False), baselines)
    assert finding.evidence[0] == DOOR
    assert FATHER in finding.evidence
