"""Out before midnight by a way the household does not come and go by (core, no Home
Assistant).

A family watched a week: everybody leaves by the house door in the morning and comes home
by it in the evening; the back slider is opened twice a day to let the dog out and in,
far from any arrival or departure. Nobody was ever out after 23:00. At 23:40 on the
eighth evening the slider opens and the teenager's phone leaves four minutes later: she
slipped out (told at once). Her father out of the house door at 23:30 to the corner
pharmacy, with his phone, is an errand (not told); so is a daughter who has been out at
night before. After midnight ``went_out_at_night`` judges, not this check.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.out_before_midnight import (
    went_out_before_midnight,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

ZONE = ZoneInfo("America/Denver")
TEEN = "person.ava"
FATHER = "person.kyle"
DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door"
SLIDER = "binary_sensor.back_slider"
START = datetime(2027, 2, 8, tzinfo=ZONE)
AREAS = {DOOR: "Entry", LOCK: "Entry", SLIDER: "Kitchen"}


def _week(*, teen_out_one_night: bool = False, nanny: bool = False) -> HomeBaselines:
    """Seven days: out by the house door at 07:45 and 07:50, home by it at 17:45 and
    17:50; the dog out of the slider at 06:30 and 21:30 and in 5 min later. ``nanny``:
    the house door opened 16 times more a day by people with no tracker."""
    baselines = HomeBaselines(ZONE)
    baselines.describe(
        [
            EntityInfo(DOOR, "Front door", area="Entry", device_class="door"),
            EntityInfo(LOCK, "Front door", area="Entry"),
            EntityInfo(SLIDER, "Back slider", area="Kitchen", device_class="door"),
        ]
    )
    baselines.watching([DOOR, LOCK, SLIDER, TEEN, FATHER], START)
    for person in (TEEN, FATHER):
        baselines.observe(START, person, "home")
    for day in range(7):
        midnight = START + timedelta(days=day)
        for hour in (6, 21):
            dog = midnight + timedelta(hours=hour, minutes=30)
            for minutes, state in ((0, "on"), (0.3, "off"), (5, "on"), (5.3, "off")):
                baselines.observe(dog + timedelta(minutes=minutes), SLIDER, state)
        for half_hour in range(18, 34) if nanny else ():
            by_day = midnight + timedelta(minutes=30 * half_hour)
            baselines.observe(by_day, DOOR, "on")
            baselines.observe(by_day + timedelta(seconds=20), DOOR, "off")
        for offset, person in ((0, TEEN), (5, FATHER)):
            out = midnight + timedelta(hours=7, minutes=45 + offset)
            baselines.observe(out, DOOR, "on")
            baselines.observe(out + timedelta(seconds=20), DOOR, "off")
            baselines.observe(out + timedelta(minutes=3), person, "not_home")
            back = out + timedelta(hours=10)
            baselines.observe(back, person, "home")
            baselines.observe(back + timedelta(minutes=1), DOOR, "on")
            baselines.observe(back + timedelta(minutes=1, seconds=20), DOOR, "off")
    if teen_out_one_night:
        night = START + timedelta(days=3, hours=23, minutes=50)
        baselines.observe(night, TEEN, "not_home")
        baselines.observe(night + timedelta(hours=2), TEEN, "home")
    return baselines


def _went_out(
    baselines: HomeBaselines, way: str, person: str, at: datetime, now: datetime
) -> HomeView:
    """``way`` opened and shut at ``at``, ``person``'s phone gone 4 min later; the view at
    ``now``."""
    moves = [(at, way, "on"), (at + timedelta(seconds=20), way, "off")]
    moves.append((at + timedelta(minutes=4), person, "not_home"))
    for when, entity_id, state in moves:
        baselines.observe(when, entity_id, state)
    shown = [m for m in moves if m[0] <= now]
    states = {e: entity(e, "off", area=a, device_class="door") for e, a in AREAS.items()}
    states[LOCK] = entity(LOCK, "locked", area="Entry")
    for other in (TEEN, FATHER):
        states[other] = entity(other, "home")
    for when, entity_id, state in shown:
        states[entity_id] = replace(states[entity_id], state=state, last_changed=when)
    transitions = [Transition(w, e, s, AREAS.get(e)) for w, e, s in shown]
    return HomeView(window(states.values(), environment(now, persons_home=1), transitions))


def test_out_of_the_back_slider_at_2340_is_told() -> None:
    baselines = _week()
    inside = baselines.inside
    assert inside.seldom_a_way(SLIDER)
    assert not inside.seldom_a_way(DOOR)
    at = START + timedelta(days=7, hours=23, minutes=40)
    view = _went_out(baselines, SLIDER, TEEN, at, at + timedelta(minutes=4, seconds=10))
    [finding] = went_out_before_midnight(view, baselines)
    assert finding.rule == "went_out_at_night"
    assert finding.evidence == (SLIDER, TEEN)
    assert "not the way the household comes and goes" in finding.reasoning
    assert "on none of the 7 nights learned" in finding.reasoning


def test_not_before_her_phone_left_nor_one_who_was_out_at_night_before() -> None:
    at = START + timedelta(days=7, hours=23, minutes=40)
    view = _went_out(_week(), SLIDER, TEEN, at, at + timedelta(minutes=2))
    assert list(went_out_before_midnight(view, _week())) == []
    out_before = _week(teen_out_one_night=True)
    view = _went_out(out_before, SLIDER, TEEN, at, at + timedelta(minutes=4, seconds=10))
    assert list(went_out_before_midnight(view, out_before)) == []


def test_out_of_the_house_door_at_2330_is_an_errand() -> None:
    """Her father to the pharmacy: the door the household comes and goes by, even where
    most of its openings are the nanny's and the children's (no tracker)."""
    for nanny in (False, True):
        baselines = _week(nanny=nanny)
        assert baselines.inside.seldom_a_way(DOOR) is nanny
        at = START + timedelta(days=7, hours=23, minutes=30)
        view = _went_out(baselines, DOOR, FATHER, at, at + timedelta(minutes=4, seconds=10))
        assert list(went_out_before_midnight(view, baselines)) == []


def test_not_before_2300_nor_after_midnight() -> None:
    """22:40 is an evening out; 00:40 is ``went_out_at_night``'s to judge."""
    for hours in (22, 24):
        baselines = _week()
        at = START + timedelta(days=7, hours=hours, minutes=40)
        view = _went_out(baselines, SLIDER, TEEN, at, at + timedelta(minutes=4, seconds=10))
        assert list(went_out_before_midnight(view, baselines)) == []
