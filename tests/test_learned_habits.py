"""Habit checks judged against what this home does, learned (core, no Home Assistant).

A synthetic flat lived for days: the bedroom door stands open 08:00-11:00, the kitchen
cupboard is opened four times in a minute at dinner, the toilet door opens for seconds at
03:10 most nights. Once learned, none of it is told; before, the default limits judge
but nothing of it is pushed; the same door open 3 h where it is normally open 2 min is
told, and "false alarm" widens a door's learned normal.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.false_alarm_teaching import (
    forget_false_alarm,
    teach_false_alarm,
)
from custom_components.anomaly_monitor.core.baselines.usual_use import LEARN_DAYS, UsualUse
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.learning_gate import not_held
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityInfo,
    Finding,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.window import build_window

from .core_factories import entity, environment

DAY0 = datetime(2026, 3, 2, tzinfo=UTC)
BEDROOM = "binary_sensor.bedroom_door"
CUPBOARD = "binary_sensor.kitchen_cupboard"
TOILET = "binary_sensor.toilet_door"
SMOKE = "binary_sensor.kitchen_smoke"
ALICE = "person.alice"
AREAS = {BEDROOM: "Bedroom", CUPBOARD: "Kitchen", TOILET: "Toilet", SMOKE: "Kitchen"}
CLASSES = {BEDROOM: "door", CUPBOARD: "door", TOILET: "door", SMOKE: "smoke"}
HABIT_RULES = {"entry_left_open", "toggle_storm", "opening_blip_at_night"}
EVENING = timedelta(hours=20)  # analysed at 20:00


def day_of_life(day: int, bedroom_open: timedelta = timedelta(hours=3)) -> list[Transition]:
    """One day: toilet trip at 03:10 (a 5 s opening, nothing else moves), the bedroom door
    open from 08:00, four cupboard openings in a minute at 18:30."""
    start = DAY0 + timedelta(days=day)
    events = [
        (timedelta(hours=3, minutes=10), TOILET, "on"),
        (timedelta(hours=3, minutes=10, seconds=5), TOILET, "off"),
        (timedelta(hours=8), BEDROOM, "on"),
        (timedelta(hours=8) + bedroom_open, BEDROOM, "off"),
    ]
    for opening in range(4):
        at = timedelta(hours=18, minutes=30, seconds=15 * opening)
        events += [(at, CUPBOARD, "on"), (at + timedelta(seconds=7), CUPBOARD, "off")]
    return sorted(Transition(start + at, e, s, AREAS[e]) for at, e, s in events)


def lived(days: int, bedroom_open: timedelta = timedelta(hours=3)) -> HomeBaselines:
    """Baselines that watched the flat from DAY0 for ``days`` days."""
    baselines = HomeBaselines(UTC)
    baselines.describe(EntityInfo(e, "", area=AREAS[e], device_class=CLASSES[e]) for e in AREAS)
    baselines.watching(AREAS, DAY0)
    for day in range(days):
        for transition in day_of_life(day, bedroom_open):
            baselines.learn(transition)
    baselines.advance(DAY0 + timedelta(days=days))
    return baselines


def analyse(
    baselines: HomeBaselines,
    day: int,
    bedroom_open: timedelta,
    extra: list[Transition] = (),
    *,
    learn: bool = True,
) -> list[Finding]:
    """The combined detector's findings at 20:00 of ``day`` (its events learned live)."""
    today = sorted([*day_of_life(day, bedroom_open), *extra])
    for transition in today if learn else ():
        baselines.learn(transition)
    now = DAY0 + timedelta(days=day) + EVENING
    baselines.advance(now)
    states = [
        entity(e, "off", area=AREAS[e], device_class=CLASSES[e]) for e in (CUPBOARD, TOILET, SMOKE)
    ]
    states.append(entity(BEDROOM, "off", area="Bedroom", device_class="door"))
    detector = CombinedDetector(baselines=lambda: baselines)
    start = DAY0 + timedelta(days=day)
    return detector.findings(
        build_window(states, environment(now, persons_home=1), today, start=start)
    )


def habit_findings(findings: list[Finding]) -> dict[str, Finding]:
    return {f.rule: f for f in findings if f.rule in HABIT_RULES}


def test_a_day_like_every_other_is_not_told_once_learned() -> None:
    """After a week of the same life, the door open 3 h, the dinner burst and the toilet
    trip are this home's normal."""
    findings = analyse(lived(7), day=7, bedroom_open=timedelta(hours=3))
    assert habit_findings(findings) == {}


def test_at_cold_start_the_defaults_judge_but_nothing_is_pushed() -> None:
    """Day one: the same day is found by the default limits (as in any home), and the
    learning gate pushes none of it; a smoke alarm and an entry into an empty home are
    pushed all the same, and everything once the devices are known."""
    baselines = lived(0)
    findings = analyse(baselines, day=0, bedroom_open=timedelta(hours=3))
    found = habit_findings(findings)
    assert set(found) == HABIT_RULES
    now = DAY0 + EVENING
    assert not_held(found.values(), baselines, now, someone_home=True) == []
    smoke = Finding("hazard_detected", (SMOKE,), "Smoke.", AnomalyType.SAFETY_HAZARD, Severity.HIGH)
    assert not_held([smoke], baselines, now, someone_home=True) == [smoke]
    left_open = found["entry_left_open"]  # "left open" waits, nobody home or not ...
    assert not_held([left_open], baselines, now, someone_home=False) == []
    # ... but the door opening into the empty home (a while-away security finding) is pushed.
    entry = replace(left_open, rule="entry_unsecured_while_away", while_away=True)
    [pushed] = not_held([entry], baselines, now, someone_home=False)
    assert pushed.signature == entry.signature
    assert "still being learned" in pushed.reasoning  # it says the default limit judged
    later = now + timedelta(days=LEARN_DAYS)
    assert not_held(found.values(), baselines, later, someone_home=True) == list(found.values())


def test_the_same_door_open_3_h_where_it_is_normally_open_2_min_is_told() -> None:
    """Learned 2 min a day; today 3 h: told, saying what is usual here."""
    baselines = lived(7, bedroom_open=timedelta(minutes=2))
    found = habit_findings(analyse(baselines, day=7, bedroom_open=timedelta(hours=3)))
    assert set(found) == {"entry_left_open"}
    reasoning = found["entry_left_open"].reasoning
    assert "stayed open for 3.0 h (from 08:00)" in reasoning
    assert "On most days it is open at most 2 min" in reasoning
    assert found["entry_left_open"].magnitude == 180.0


def test_a_burst_far_bigger_than_dinner_and_a_door_used_at_night_for_once_are_told() -> None:
    """Cupboards used at dinner do not hide twenty changes in a row (a loose contact), and
    a toilet trip habit does not hide the bedroom door opened for seconds at 02:00."""
    baselines = lived(7)
    start = DAY0 + timedelta(days=7, hours=18, minutes=45)
    storm = [
        Transition(start + timedelta(seconds=3 * change), CUPBOARD, ("on", "off")[change % 2])
        for change in range(20)
    ]
    night = DAY0 + timedelta(days=7, hours=2)
    blip = [
        Transition(night, BEDROOM, "on"),
        Transition(night + timedelta(seconds=4), BEDROOM, "off"),
    ]
    found = habit_findings(analyse(baselines, 7, timedelta(hours=3), [*storm, *blip]))
    assert set(found) == {"toggle_storm", "opening_blip_at_night"}
    assert "its bursts are at most 8 changes on most days" in found["toggle_storm"].reasoning
    assert found["opening_blip_at_night"].evidence == (BEDROOM,)
    assert "in the small hours on 0 of 7 nights" in found["opening_blip_at_night"].reasoning


def test_false_alarm_widens_the_door_normal() -> None:
    """Open 30 min a day; 3 h today is told; "false alarm" makes 3 h this home's normal."""
    baselines = lived(7, bedroom_open=timedelta(minutes=30))
    found = habit_findings(analyse(baselines, day=7, bedroom_open=timedelta(hours=3)))
    told = found["entry_left_open"]
    assert teach_false_alarm(baselines, told.rule, told.evidence, told.magnitude)
    again = habit_findings(analyse(baselines, day=8, bedroom_open=timedelta(hours=3)))
    assert "entry_left_open" not in again
    # The false alarm removed: the same day is judged by the learned days alone again.
    assert forget_false_alarm(baselines, told.rule, told.evidence)
    day_8 = habit_findings(analyse(baselines, 8, timedelta(hours=3), learn=False))
    assert "entry_left_open" in day_8
    # Marked again; far longer than what was marked is still told, saying what was marked.
    assert teach_false_alarm(baselines, told.rule, told.evidence, told.magnitude)
    longer = habit_findings(analyse(baselines, 8, timedelta(hours=8), learn=False))
    assert "You marked 3 h 00 min open as normal" in longer["entry_left_open"].reasoning


def test_the_stored_form_keeps_the_habits_and_drops_damage() -> None:
    baselines = lived(5)
    stored = baselines.as_dict()
    back = HomeBaselines.from_dict(stored, UTC)
    assert back.usual.as_dict() == stored["usual_use"]
    assert back.usual.usual_open(BEDROOM, DAY0 + timedelta(days=5, hours=8)) == (180.0, 5)
    damaged = dict(stored["usual_use"])
    damaged["open"] = {BEDROOM: ["1,x", "", "", ""], CUPBOARD: "nonsense"}
    damaged["since"] = {TOILET: "yesterday", BEDROOM: stored["usual_use"]["since"][BEDROOM]}
    usual = UsualUse.from_dict(damaged, UTC)
    assert usual.open_days == {}
    assert set(usual.since) == {BEDROOM}
    assert UsualUse.from_dict({**damaged, "version": 99}, UTC).since == {}
    baselines.usual.teach(TOILET, "night", 1.0)
    baselines.usual.teach(TOILET, "nonsense", 1.0)
    kept = HomeBaselines.from_dict(baselines.as_dict(), UTC).usual
    assert kept.taught == {TOILET: {"night": 1.0}}


def _workdays(days: int, baselines: HomeBaselines, door_open: bool) -> None:
    """Alice leaves at 08:30 and is back at 18:00; the bedroom door open all day or not."""
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        if door_open:
            baselines.observe(start + timedelta(hours=7), BEDROOM, "on")
        baselines.observe(start + timedelta(hours=8, minutes=30), ALICE, "not_home")
        baselines.observe(start + timedelta(hours=18), ALICE, "home")
        if door_open:
            baselines.observe(start + timedelta(hours=22), BEDROOM, "off")


def _away_findings(
    baselines: HomeBaselines, day: int, opened: timedelta, at: timedelta = timedelta(hours=10)
) -> dict[str, Finding]:
    """At ``at`` (10:00) of ``day``, Alice out since 08:30, the bedroom door open since
    ``opened``."""
    start = DAY0 + timedelta(days=day)
    events = [(opened, BEDROOM, "on"), (timedelta(hours=8, minutes=30), ALICE, "not_home")]
    for when, entity_id, state in sorted(events):
        baselines.observe(start + when, entity_id, state)
    now = start + at
    baselines.advance(now)
    states = [
        entity(BEDROOM, "on", area="Bedroom", device_class="door"),
        entity(ALICE, "not_home"),
    ]
    detector = CombinedDetector(baselines=lambda: baselines)
    window = build_window(states, environment(now, persons_home=0), [], start=start)
    return {f.rule: f for f in detector.findings(window)}


FRONT = "binary_sensor.front_door"


def _bedroom_and_front_door() -> HomeBaselines:
    baselines = HomeBaselines(UTC)
    infos = [EntityInfo(e, "", area="Hall", device_class="door") for e in (BEDROOM, FRONT)]
    baselines.describe(infos)
    baselines.watching([BEDROOM, FRONT], DAY0)
    return baselines


def _out_by_front_door(baselines: HomeBaselines, day: datetime) -> None:
    """The front door opened at 08:29 of ``day`` and shut behind her."""
    baselines.observe(day + timedelta(hours=8, minutes=29), FRONT, "on")
    baselines.observe(day + timedelta(hours=8, minutes=29, seconds=20), FRONT, "off")


def _open_from_seven(baselines: HomeBaselines, day: datetime, *, out_by_front: bool) -> None:
    """The bedroom door opened at 07:00 of ``day``; she goes out by the front door or not."""
    baselines.observe(day + timedelta(hours=7), BEDROOM, "on")  # in time order
    if out_by_front:
        _out_by_front_door(baselines, day)


def test_a_door_left_open_on_most_days_when_everybody_leaves_is_not_an_entrance() -> None:
    """The bedroom door stands open every workday while Alice is out: once learned, not
    'open while nobody is home'; the same door opened while the home is empty is told,
    and so is it where it is always shut when she leaves."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(BEDROOM, "", area="Bedroom", device_class="door")])
    baselines.watching([BEDROOM], DAY0)
    _workdays(7, baselines, door_open=True)
    assert "entry_unsecured_while_away" not in _away_findings(baselines, 7, timedelta(hours=7))
    baselines.observe(DAY0 + timedelta(days=7, hours=18), ALICE, "home")
    baselines.observe(DAY0 + timedelta(days=7, hours=22), BEDROOM, "off")
    opened_while_away = _away_findings(baselines, 8, timedelta(hours=9, minutes=30))
    assert "entry_unsecured_while_away" in opened_while_away

    shut = HomeBaselines(UTC)
    shut.describe([EntityInfo(BEDROOM, "", area="Bedroom", device_class="door")])
    shut.watching([BEDROOM], DAY0)
    _workdays(7, shut, door_open=False)
    told = _away_findings(shut, 7, timedelta(hours=7))["entry_unsecured_while_away"]
    assert "open when everybody left on 0 of the 7 days" in told.reasoning


def test_a_door_open_before_she_left_by_the_front_door_is_no_entrance_on_few_days() -> None:
    """Two departures learned, the bedroom door open at one of them (1 of 2: too few days
    for a habit). Today it stood open from 07:00 and Alice went out by the front door at
    08:29, shut behind her: the bedroom door was not the way out, as at cold start, and is
    not told. Left open the same way with no other door used (she left by it), it is."""

    def home_of(today_front: bool) -> dict[str, Finding]:
        baselines = _bedroom_and_front_door()
        for day, door_open in ((0, True), (1, False)):
            start = DAY0 + timedelta(days=day)
            if door_open:
                baselines.observe(start + timedelta(hours=7), BEDROOM, "on")
            baselines.observe(start + timedelta(hours=8, minutes=30), ALICE, "not_home")
            baselines.observe(start + timedelta(hours=18), ALICE, "home")
            baselines.observe(start + timedelta(hours=22), BEDROOM, "off")
        _open_from_seven(baselines, DAY0 + timedelta(days=4), out_by_front=today_front)
        return _away_findings(baselines, 4, timedelta(hours=7))

    assert "entry_unsecured_while_away" not in home_of(today_front=True)
    told = home_of(today_front=False)["entry_unsecured_while_away"]
    assert "open when everybody left on 1 of the 2 days" in told.reasoning


def test_a_room_door_seldom_open_at_departures_is_no_entrance_if_she_left_by_another() -> None:
    """Five departures learned, the bedroom door shut at each (a child's room, the
    dishwasher's door: seldom open as the household leaves), though on those mornings it
    stood open 06:00-08:20. Today it stands open from 07:00 and Alice goes out by the
    front door at 08:29, shut behind her: at 09:00 no way in was opened into the empty
    home and the door is open no longer than its usual stay: not told. Open the same way with no
    other door used (she left by it), it is told; so it is, once open longer than it stays
    open on most days (the balcony door left open for the evening)."""

    def home_of(today_front: bool, at: timedelta = timedelta(hours=9)) -> dict[str, Finding]:
        baselines = _bedroom_and_front_door()
        for day in range(5):
            start = DAY0 + timedelta(days=day)
            baselines.observe(start + timedelta(hours=6), BEDROOM, "on")
            baselines.observe(start + timedelta(hours=8, minutes=20), BEDROOM, "off")
            _out_by_front_door(baselines, start)
            baselines.observe(start + timedelta(hours=8, minutes=30), ALICE, "not_home")
            baselines.observe(start + timedelta(hours=18), ALICE, "home")
        _open_from_seven(baselines, DAY0 + timedelta(days=6), out_by_front=today_front)
        return _away_findings(baselines, 6, timedelta(hours=7), at)

    assert "entry_unsecured_while_away" not in home_of(today_front=True)
    told = home_of(today_front=False)["entry_unsecured_while_away"]
    assert "open when everybody left on 0 of the 5 days" in told.reasoning
    assert "entry_unsecured_while_away" in home_of(today_front=True, at=timedelta(hours=12))


def test_one_odd_day_at_other_hours_makes_no_normal_at_an_unused_hour() -> None:
    """A garage door used 25 min on two mornings and open 3 h 25 one morning for a
    tradesman, judged at 22:00 (never used in the evening): "most days" is the others'
    25 min, not the odd morning's; at the mornings' own hour the three days judge as
    they are (the worst of three, as before); with two days both count."""
    usual = UsualUse(UTC)
    door = "binary_sensor.garage_door"
    start = datetime(2026, 10, 3, 9, 0, tzinfo=UTC)
    usual.seen(door, start)

    def used(day: int, minutes: float) -> None:
        opened = start + timedelta(days=day)
        usual.changed(door, opened, "on", burst_gap=None, opening=True, night_use=False)
        closed = opened + timedelta(minutes=minutes)
        usual.changed(door, closed, "off", burst_gap=None, opening=True, night_use=False)

    used(0, 25)
    used(1, 25)
    evening = start + timedelta(days=5, hours=13)
    morning = start + timedelta(days=5)
    assert usual.usual_open(door, evening) == (25.0, 2)
    used(2, 205)
    assert usual.usual_open(door, evening) == (25.0, 3)
    assert usual.usual_open(door, morning) == (205.0, 3)  # its own hour: as learned
    # Five days: the upper quantile is the fourth, as before (two odd days are a habit).
    used(3, 200)
    used(4, 200)
    assert usual.usual_open(door, evening) == (200.0, 5)
