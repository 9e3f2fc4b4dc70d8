"""A child of the household slipping out at night (core, no Home Assistant).

The family of ``test_out_before_midnight``: everybody leaves by the house door in the
morning and comes home by it in the evening; the dog goes out of the back slider. The
profile says "Ava (15)". A child never out at night on her own who leaves from 23:00 is
told by whichever door she took (the house door too: the father's errand to the pharmacy
by it is not told), and after three nights watched rather than five. The door's ways are
read without the opening judged: a slider at the edge of "seldom a way" does not become
the household's way because her phone left through it tonight. A phone whose person did
not leave with it is read as a person. ``not_back_as_usual`` does not tell again, hours
on, the night out told as she went.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.night_presence import never_out
from custom_components.anomaly_monitor.core.baselines.out_before_midnight import (
    went_out_before_midnight,
)
from custom_components.anomaly_monitor.core.baselines.used_from_inside import UsedFromInside
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Transition

from .core_factories import entity, environment, window

ZONE = ZoneInfo("America/Denver")
TEEN = "person.ava"
FATHER = "person.kyle"
PHONE = "device_tracker.ava_phone"
DOOR = "binary_sensor.front_door"
LOCK = "lock.front_door"
SLIDER = "binary_sensor.back_slider"
START = datetime(2027, 2, 8, tzinfo=ZONE)
AREAS = {DOOR: "Entry", LOCK: "Entry", SLIDER: "Kitchen"}
PROFILE = "We're Kyle, Marisol, Ava (15, has a phone) and Biscuit the dog."


def _days(days: int, *, phone: bool = False) -> HomeBaselines:
    """``days`` days as in ``test_out_before_midnight`` (``phone``: Ava's tracker moves
    with her person)."""
    baselines = HomeBaselines(ZONE)
    baselines.describe(
        [
            EntityInfo(DOOR, "Front door", area="Entry", device_class="door"),
            EntityInfo(LOCK, "Front door", area="Entry"),
            EntityInfo(SLIDER, "Back slider", area="Kitchen", device_class="door"),
        ]
    )
    baselines.watching([DOOR, LOCK, SLIDER, TEEN, FATHER, PHONE], START)
    for person in (TEEN, FATHER, PHONE):
        baselines.observe(START, person, "home")
    for day in range(days):
        midnight = START + timedelta(days=day)
        for hour in (6, 21):
            dog = midnight + timedelta(hours=hour, minutes=30)
            for minutes, state in ((0, "on"), (0.3, "off"), (5, "on"), (5.3, "off")):
                baselines.observe(dog + timedelta(minutes=minutes), SLIDER, state)
        for offset, person in ((0, TEEN), (5, FATHER)):
            out = midnight + timedelta(hours=7, minutes=45 + offset)
            baselines.observe(out, DOOR, "on")
            baselines.observe(out + timedelta(seconds=20), DOOR, "off")
            movers = (person, PHONE) if phone and person == TEEN else (person,)
            for mover in movers:
                baselines.observe(out + timedelta(minutes=3), mover, "not_home")
            back = out + timedelta(hours=10)
            for mover in movers:
                baselines.observe(back, mover, "home")
            baselines.observe(back + timedelta(minutes=1), DOOR, "on")
            baselines.observe(back + timedelta(minutes=1, seconds=20), DOOR, "off")
    return baselines


def _went_out(
    baselines: HomeBaselines,
    way: str,
    who: str,
    at: datetime,
    profile: str = PROFILE,
) -> HomeView:
    """``way`` opened and shut at ``at``, ``who``'s phone gone 4 min later; the view 10 s
    after."""
    moves = [(at, way, "on"), (at + timedelta(seconds=20), way, "off")]
    moves.append((at + timedelta(minutes=4), who, "not_home"))
    for when, entity_id, state in moves:
        baselines.observe(when, entity_id, state)
    states = {e: entity(e, "off", area=a, device_class="door") for e, a in AREAS.items()}
    states[LOCK] = entity(LOCK, "locked", area="Entry")
    for other in (TEEN, FATHER, PHONE):
        states[other] = entity(other, "home")
    for when, entity_id, state in moves:
        states[entity_id] = replace(states[entity_id], state=state, last_changed=when)
    now = at + timedelta(minutes=4, seconds=10)
    transitions = [Transition(w, e, s, AREAS.get(e)) for w, e, s in moves]
    built = window(states.values(), environment(now, persons_home=1), transitions)
    return HomeView(replace(built, profile=profile))


def test_a_child_out_of_the_house_door_at_2330_is_told_her_father_is_not() -> None:
    at = START + timedelta(days=7, hours=23, minutes=30)
    baselines = _days(7)
    [finding] = went_out_before_midnight(_went_out(baselines, DOOR, TEEN, at), baselines)
    assert finding.rule == "went_out_at_night"
    assert TEEN in finding.evidence
    baselines = _days(7)
    assert list(went_out_before_midnight(_went_out(baselines, DOOR, FATHER, at), baselines)) == []


def test_without_the_profile_the_house_door_is_still_an_errand() -> None:
    at = START + timedelta(days=7, hours=23, minutes=30)
    baselines = _days(7)
    view = _went_out(baselines, DOOR, TEEN, at, profile="We're Kyle, Marisol and Ava.")
    assert list(went_out_before_midnight(view, baselines)) == []


def test_a_child_is_told_after_three_nights_not_two_an_adult_after_five() -> None:
    at = START + timedelta(days=3, hours=23, minutes=40)
    baselines = _days(3)
    [told] = went_out_before_midnight(_went_out(baselines, SLIDER, TEEN, at), baselines)
    assert "none of the 3 nights learned" in told.reasoning
    at = START + timedelta(days=2, hours=23, minutes=40)
    baselines = _days(2)
    assert list(went_out_before_midnight(_went_out(baselines, SLIDER, TEEN, at), baselines)) == []
    at = START + timedelta(days=3, hours=23, minutes=40)
    baselines = _days(3)
    view = _went_out(baselines, SLIDER, TEEN, at, profile="")
    assert list(went_out_before_midnight(view, baselines)) == []


def test_the_opening_judged_is_not_counted_among_the_doors_ways() -> None:
    """Four openings, one near a departure (a share of 0.25, ``WAY_SHARE``: seldom); the
    fifth, followed by a phone leaving, would make it 2 of 5 (0.4)."""
    inside = UsedFromInside(ZONE)
    opened = START
    for day in range(4):
        opened = START + timedelta(days=day, hours=9)
        if day == 0:
            inside.presence(opened - timedelta(minutes=2))
        inside.opened(SLIDER, opened, "Kitchen")
        inside.closed(SLIDER, opened + timedelta(seconds=20))
    assert inside.seldom_a_way(SLIDER)
    tonight = START + timedelta(days=4, hours=23, minutes=40)
    inside.opened(SLIDER, tonight, "Kitchen")
    inside.closed(SLIDER, tonight + timedelta(seconds=20))
    inside.presence(tonight + timedelta(minutes=4))
    assert not inside.seldom_a_way(SLIDER)
    assert inside.seldom_a_way(SLIDER, skip=tonight)


def test_a_phone_whose_person_stayed_home_is_read_as_a_person() -> None:
    at = START + timedelta(days=7, hours=23, minutes=40)
    baselines = _days(7, phone=True)
    assert never_out(baselines, [PHONE], at) == [PHONE]
    assert never_out(baselines, [TEEN, PHONE], at) == [TEEN]
    [finding] = went_out_before_midnight(_went_out(baselines, SLIDER, PHONE, at), baselines)
    assert PHONE in finding.evidence
