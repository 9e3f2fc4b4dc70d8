"""Temporal statistics on synthetic days in a home."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.combined_detector import (
    CombinedDetector,
    merge_findings,
)
from custom_components.anomaly_monitor.core.models import Finding, Severity, Transition
from custom_components.anomaly_monitor.core.rules.device_health import device_unavailable
from custom_components.anomaly_monitor.core.statistics import StatisticsDetector
from custom_components.anomaly_monitor.core.statistics.durations import (
    entry_left_open,
    heat_appliance_left_on,
    water_left_running,
)
from custom_components.anomaly_monitor.core.statistics.followups import (
    late_follow_up,
    missing_follow_up,
)
from custom_components.anomaly_monitor.core.statistics.health import (
    device_went_offline,
    reading_spike,
)
from custom_components.anomaly_monitor.core.statistics.occupancy import (
    activity_while_asleep,
    activity_while_away,
)
from custom_components.anomaly_monitor.core.statistics.toggles import toggle_storm

from .core_factories import entity, environment, home, quiet_house, steps, window

MORNING = datetime(2025, 3, 12, 7, 0)
DOOR = entity("binary_sensor.back_door", "off", area="Hallway", device_class="door")


def _at(minutes: float) -> datetime:
    return MORNING + timedelta(minutes=minutes)


def test_back_door_left_open_for_an_hour() -> None:
    trace = steps(
        MORNING,
        [
            (0, DOOR.entity_id, "off"),
            (10, DOOR.entity_id, "on"),
            (70, DOOR.entity_id, "off"),
            (80, DOOR.entity_id, "off"),
        ],
    )
    view = home([DOOR], environment(_at(90)), trace)
    (finding,) = entry_left_open(view)
    assert finding.evidence == ("binary_sensor.back_door",)
    assert "60 min" in finding.reasoning
    # Shut since: nothing left to close (walk of session 32 read "Check that the door
    # is closed" under a door that read Closed).
    assert "closed" not in finding.recommendation
    assert "shut now" in finding.recommendation
    still_open = steps(MORNING, [(0, DOOR.entity_id, "off"), (10, DOOR.entity_id, "on")])
    door_open = entity(DOOR.entity_id, "on", area="Hallway", device_class="door")
    (going_on,) = entry_left_open(home([door_open], environment(_at(90)), still_open))
    assert going_on.recommendation == "Check that the door is closed."


def test_a_door_left_open_again_is_told_by_its_stay_going_on() -> None:
    """Open 30 min, shut, then open again 20 min later and still open after 18 min: the
    stay going on is the finding, not the longer one before it (walk 47's second outing,
    not told until the new stay outlasted the first: main said "30 min (from 07:10)")."""
    trace = steps(
        MORNING,
        [
            (0, DOOR.entity_id, "off"),
            (10, DOOR.entity_id, "on"),
            (40, DOOR.entity_id, "off"),
            (60, DOOR.entity_id, "on"),
        ],
    )
    door_open = entity(DOOR.entity_id, "on", area="Hallway", device_class="door")
    (finding,) = entry_left_open(home([door_open], environment(_at(78)), trace))
    assert "18 min (from 08:00), and still is" in finding.reasoning
    assert finding.magnitude == 18
    assert finding.recommendation == "Check that the door is closed."
    # Still under the limit, the stay before it is what there is to tell, as before.
    (earlier,) = entry_left_open(home([door_open], environment(_at(70)), trace))
    assert "30 min (from 07:10)." in earlier.reasoning


def test_short_passages_through_the_door_are_normal() -> None:
    events = [(m, DOOR.entity_id, s) for m in range(0, 120, 20) for s in ("on",)]
    events += [(m + 1, DOOR.entity_id, "off") for m in range(0, 120, 20)]
    view = home([DOOR], environment(_at(130)), steps(MORNING, events))
    assert not list(entry_left_open(view))


def test_a_door_usually_open_for_long_spells_is_judged_against_itself() -> None:
    # Propped open for half an hour several times a day: a 40 min spell is not unusual.
    events = []
    for start in (0, 60, 120, 180):
        events += [(start, DOOR.entity_id, "on"), (start + 30, DOOR.entity_id, "off")]
    events += [(240, DOOR.entity_id, "on"), (280, DOOR.entity_id, "off")]
    view = home([DOOR], environment(_at(300)), steps(MORNING, events))
    assert not list(entry_left_open(view))


def test_shower_running_75_minutes() -> None:
    flow = entity(
        "binary_sensor.bathroom_water_flow", "off", area="Bathroom", device_class="running"
    )
    trace = steps(
        MORNING,
        [(0, flow.entity_id, "off"), (5, flow.entity_id, "on"), (80, flow.entity_id, "off")],
    )
    (finding,) = water_left_running(home([flow], environment(_at(90)), trace))
    assert finding.evidence == ("binary_sensor.bathroom_water_flow",)


def test_stove_on_all_evening() -> None:
    stove = entity("switch.kitchen_stove", "on", area="Kitchen")
    trace = steps(MORNING, [(0, stove.entity_id, "off"), (10, stove.entity_id, "on")])
    view = home([stove], environment(_at(10 + 5 * 60)), trace)
    (finding,) = heat_appliance_left_on(view)
    assert finding.evidence == ("switch.kitchen_stove",)
    assert not list(heat_appliance_left_on(home([stove], environment(_at(40)), trace)))


def test_light_toggling_every_few_seconds() -> None:
    light = entity("light.lounge", "off", area="Lounge")
    events = [(i * 5 / 60, light.entity_id, "on" if i % 2 == 0 else "off") for i in range(8)]
    (finding,) = toggle_storm(home([light], environment(_at(5)), steps(MORNING, events)))
    assert finding.evidence == ("light.lounge",)
    slow = [(i * 10, light.entity_id, "on" if i % 2 == 0 else "off") for i in range(8)]
    assert not list(toggle_storm(home([light], environment(_at(90)), steps(MORNING, slow))))


def test_sensor_offline_for_long_but_not_blips_nor_a_phone_leaving_wifi() -> None:
    temp = entity(
        "sensor.bedroom_temperature", "20.5", area="Bedroom", device_class="temperature", unit="°C"
    )
    hall = entity("sensor.hall_humidity", "48", area="Hall", device_class="humidity", unit="%")
    wifi = entity("binary_sensor.phone_wifi", "off", device_class="connectivity")
    trace = steps(
        MORNING,
        [
            (0, temp.entity_id, "20.5"),
            (10, temp.entity_id, "unavailable"),  # 45 minutes: an outage
            (55, temp.entity_id, "20.5"),
            (0, hall.entity_id, "48"),
            (20, hall.entity_id, "unavailable"),  # 6 minutes: a Zigbee blip
            (26, hall.entity_id, "48"),
            (0, wifi.entity_id, "on"),
            (30, wifi.entity_id, "off"),
        ],
    )
    findings = list(device_went_offline(home([temp, hall, wifi], environment(_at(90)), trace)))
    # A phone without an area leaves the network all the time; a blip is not told. The
    # outage has the rule's identity: the same anomaly it opened while the sensor was out.
    assert [(f.rule, f.evidence) for f in findings] == [
        ("device_unavailable", ("sensor.bedroom_temperature",))
    ]


def test_a_device_dropping_off_again_and_again_is_told_however_short_each_drop() -> None:
    hall = entity("sensor.hall_humidity", "48", area="Hall", device_class="humidity", unit="%")
    events = [(0.0, hall.entity_id, "48")]
    for start in (10, 25, 40, 55):  # four 2-minute drops: interference or a dying device
        events += [(start, hall.entity_id, "unavailable"), (start + 2, hall.entity_id, "48")]
    (finding,) = device_went_offline(home([hall], environment(_at(90)), steps(MORNING, events)))
    assert finding.evidence == (hall.entity_id,)
    assert "4 times" in finding.reasoning
    three = events[:7]  # three drops: a flaky mesh on a bad day, not yet a failing device
    assert not list(device_went_offline(home([hall], environment(_at(90)), steps(MORNING, three))))


def test_offline_now_is_the_rules_once_past_its_grace() -> None:
    smoke = entity("binary_sensor.hall_smoke", "unavailable", area="Hall", device_class="smoke")
    temp = entity(
        "sensor.bedroom_temperature", "unavailable", area="Bedroom", device_class="temperature"
    )
    trace = steps(
        MORNING,
        [
            (0, smoke.entity_id, "off"),
            (0, temp.entity_id, "20"),
            (60, smoke.entity_id, "unavailable"),
            (60, temp.entity_id, "unavailable"),
        ],
    )
    # Offline right now: never the statistic's (one outage, one finding).
    assert not list(device_went_offline(home([smoke, temp], environment(_at(80)), trace)))
    # 5 minutes out: a blip for both.
    assert not list(device_unavailable(home([smoke, temp], environment(_at(65)), trace)))
    # 20 minutes: past a smoke detector's grace (15), not a thermometer's (30).
    (finding,) = device_unavailable(home([smoke, temp], environment(_at(80)), trace))
    assert finding.evidence == ("binary_sensor.hall_smoke",)
    assert finding.severity == "high"
    # 35 minutes: both past their grace; they dropped together, so one outage, one
    # finding, led by the smoke detector.
    (finding,) = device_unavailable(home([smoke, temp], environment(_at(95)), trace))
    assert finding.evidence == (smoke.entity_id, temp.entity_id)
    assert finding.severity == "high"


def test_power_spike_unlike_anything_else_in_the_window() -> None:
    meter = entity("sensor.kitchen_power", "400", area="Kitchen", device_class="power", unit="W")
    values = [400, 420, 2000, 410, 400, 405, 9000, 400, 410, 395]
    trace = steps(MORNING, [(i, meter.entity_id, str(v)) for i, v in enumerate(values)])
    (finding,) = reading_spike(home([meter], environment(_at(12)), trace))
    assert "9000" in finding.reasoning
    # An appliance cycling between two levels is not a spike.
    cycling = [120, 2120, 120, 2120, 120, 120, 2120, 120, 120, 2120]
    trace = steps(MORNING, [(i, meter.entity_id, str(v)) for i, v in enumerate(cycling)])
    assert not list(reading_spike(home([meter], environment(_at(12)), trace)))


def _motion_light_day(
    skip: int | set[int] | None, late: int | None = None, walks: int = 6
) -> list[Transition]:
    motion, light = "binary_sensor.hallway_motion", "light.hallway"
    skipped = {skip} if isinstance(skip, int) else skip or set()
    events = [(0.0, motion, "off"), (0.0, light, "off")]
    for i in range(walks):
        start = 30.0 * (i + 1)
        events += [(start, motion, "on"), (start + 1, motion, "off")]
        if i in skipped:
            continue
        delay = 2.0 if i == late else 2 / 60
        events += [(start + delay, light, "on"), (start + 5, light, "off")]
    return steps(MORNING, events, area="Hallway")


def _hallway() -> list:
    return [
        entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion"),
        entity("light.hallway", "off", area="Hallway"),
    ]


def test_motion_light_link_that_broke() -> None:
    # The light answered motion eight times, then stopped answering: the link broke.
    trace = _motion_light_day(skip={8, 9}, walks=10)
    (finding,) = missing_follow_up(home(_hallway(), environment(_at(330)), trace))
    assert finding.evidence == ("binary_sensor.hallway_motion",)
    assert "8 of 10" in finding.reasoning
    assert not list(
        missing_follow_up(home(_hallway(), environment(_at(240)), _motion_light_day(skip=None)))
    )


def test_a_habit_of_four_answers_then_two_misses_is_no_broken_link() -> None:
    """Answered four times, then twice not: 4 of 6 is a habit (a person's hand, a
    condition), two misses of it in a row are chance (sets 3, 6, 14, 23)."""
    view = home(_hallway(), environment(_at(240)), _motion_light_day(skip={4, 5}))
    assert not list(missing_follow_up(view))


def test_one_unanswered_motion_is_a_person_not_needing_light() -> None:
    view = home(_hallway(), environment(_at(240)), _motion_light_day(skip=3))
    assert not list(missing_follow_up(view))


def test_motion_while_the_light_is_already_on_needs_no_answer() -> None:
    trace = _motion_light_day(skip={4, 5})
    # Somebody switched the light on by hand before the last two motions and left it on.
    trace = sorted(
        [t for t in trace if not (t.entity_id == "light.hallway" and t.when > _at(130))]
        + [Transition(_at(140), "light.hallway", "on", "Hallway")],
        key=lambda t: t.when,
    )
    assert not list(missing_follow_up(home(_hallway(), environment(_at(240)), trace)))


def test_light_answering_motion_two_minutes_late() -> None:
    view = home(_hallway(), environment(_at(240)), _motion_light_day(skip=None, late=4))
    (finding,) = late_follow_up(view)
    assert finding.evidence == ("light.hallway",)


def test_motion_while_everyone_is_away() -> None:
    person = entity("person.alex", "not_home")
    motion = entity("binary_sensor.lounge_motion", "off", area="Lounge", device_class="motion")
    trace = steps(
        MORNING,
        [
            (0, person.entity_id, "home"),
            (10, person.entity_id, "not_home"),
            (11, motion.entity_id, "on"),
            (12, motion.entity_id, "off"),
            (40, motion.entity_id, "on"),
            (41, motion.entity_id, "off"),
        ],
    )
    view = home([person, motion], environment(_at(60), persons_home=None), trace)
    (finding,) = activity_while_away(view)
    assert finding.evidence == ("binary_sensor.lounge_motion", "person.alex")
    # Only the motion right after leaving: that was the person walking out.
    early = [t for t in trace if t.when <= _at(12)]
    assert not list(
        activity_while_away(home([person, motion], environment(_at(60), persons_home=None), early))
    )


def test_phone_claims_deep_sleep_while_walking() -> None:
    sleep = entity("sensor.phone_sleep_confidence", "95", unit="%")
    activity = entity("sensor.phone_activity", "walking")
    trace = steps(
        MORNING,
        [
            (0, sleep.entity_id, "10"),
            (6, sleep.entity_id, "95"),
            (12, activity.entity_id, "walking"),
        ],
    )
    (finding,) = activity_while_asleep(home([sleep, activity], environment(_at(20)), trace))
    assert finding.evidence == ("sensor.phone_activity", "sensor.phone_sleep_confidence")
    # Falling asleep gradually, then lying still, is what sleep looks like.
    gradual = steps(
        MORNING,
        [(0, sleep.entity_id, "70"), (6, sleep.entity_id, "95"), (12, activity.entity_id, "still")],
    )
    assert not list(activity_while_asleep(home([sleep, activity], environment(_at(20)), gradual)))


async def test_detectors_on_a_calm_day_and_a_broken_one() -> None:
    calm = window(quiet_house(), environment(_at(240)), _motion_light_day(skip=None))
    assert not (await StatisticsDetector().async_analyze(calm)).is_anomaly
    assert not (await CombinedDetector().async_analyze(calm)).is_anomaly
    broken = window(quiet_house(), environment(_at(330)), _motion_light_day(skip={8, 9}, walks=10))
    verdict = await CombinedDetector().async_analyze(broken)
    assert verdict.is_anomaly
    assert verdict.evidence == ("binary_sensor.hallway_motion",)
    # A snapshot without transitions gives the statistics nothing to judge.
    assert not (await StatisticsDetector().async_analyze(window(quiet_house()))).is_anomaly


def test_merge_keeps_the_most_severe_of_overlapping_findings() -> None:
    wide = Finding("a", ("x", "y"), "", "security", Severity.HIGH)
    narrow = Finding("b", ("x",), "", "security", Severity.MEDIUM)
    other = Finding("c", ("z",), "", "security", Severity.LOW)
    assert merge_findings([narrow, wide, other]) == [wide, other]


def test_motion_inside_is_not_hidden_behind_the_open_door_whose_context_it_is() -> None:
    # Everybody left; the front door stays open and then the hall sensor sees someone.
    # The hall motion is context of the open door (who watches the entrance), but the
    # motion is a problem of its own: it must be found, not merged into the door.
    door = entity("binary_sensor.front_door", "on", area="Hall", device_class="door")
    lock = entity("lock.front_door", "locked", area="Hall")
    hall = entity("binary_sensor.hall_motion", "on", area="Hall", device_class="motion")
    people = [entity("person.alex", "not_home"), entity("person.sam", "not_home")]
    trace = steps(
        MORNING,
        [
            (0, "person.alex", "home"),
            (0, "person.sam", "home"),
            (1, door.entity_id, "on"),
            (2, "person.alex", "not_home"),
            (2, "person.sam", "not_home"),
            (20, hall.entity_id, "on"),
        ],
    )
    found = CombinedDetector().findings(
        window([door, lock, hall, *people], environment(_at(21), persons_home=0), trace)
    )
    rules = {f.rule: f for f in found}
    assert set(rules) >= {"entry_unsecured_while_away", "motion_while_away"}
    assert hall.entity_id in rules["entry_unsecured_while_away"].context
    assert rules["motion_while_away"].shown_evidence == (hall.entity_id,)
    # A finding showing only what another shows is still merged into it.
    shown = Finding("a", ("x", "y"), "", "security", Severity.HIGH, context=("y",))
    same = Finding("b", ("x",), "", "security", Severity.HIGH)
    about_context = Finding("c", ("y",), "", "security", Severity.HIGH)
    assert merge_findings([same, shown, about_context]) == [shown, about_context]


def test_deep_sleep_claimed_between_two_walks_through_the_hall() -> None:
    sleep = entity("sensor.phone_sleep_confidence", "95", unit="%")
    motion = entity("binary_sensor.hallway_motion", "off", area="Hallway", device_class="motion")

    def night(after: bool) -> list[Transition]:
        events = [
            (0, sleep.entity_id, "5"),
            (6, motion.entity_id, "on"),
            (6.5, motion.entity_id, "off"),
            (10, sleep.entity_id, "95"),
        ]
        if after:  # still walking about three minutes after the "deep sleep" leap
            events += [(13, motion.entity_id, "on"), (13.5, motion.entity_id, "off")]
        return steps(MORNING, events)

    view = home([sleep, motion], environment(_at(30)), night(after=True))
    (finding,) = activity_while_asleep(view)
    assert finding.evidence == ("binary_sensor.hallway_motion", "sensor.phone_sleep_confidence")
    # Walking to bed and then lying still is how falling asleep looks.
    quiet = home([sleep, motion], environment(_at(30)), night(after=False))
    assert not list(activity_while_asleep(quiet))


def test_camera_motion_score_around_a_deep_sleep_claim() -> None:
    # A camera that reports a numeric motion score, no binary motion sensor in the flat.
    sleep = entity("sensor.phone_sleep_confidence", "95", unit="%")
    score = entity("sensor.living_room_camera_motion", "0", area="Living Room")

    def evening(levels: tuple[str, str]) -> list[Transition]:
        return steps(
            MORNING,
            [
                (0, sleep.entity_id, "8"),
                (9, score.entity_id, levels[0]),
                (10, sleep.entity_id, "95"),
                (11, score.entity_id, levels[1]),
            ],
        )

    view = home([sleep, score], environment(_at(30)), evening(("40", "12")))
    (finding,) = activity_while_asleep(view)
    assert finding.evidence == ("sensor.living_room_camera_motion", "sensor.phone_sleep_confidence")
    # A score of zero is the camera saying "nothing moves".
    still = home([sleep, score], environment(_at(30)), evening(("0", "0")))
    assert not list(activity_while_asleep(still))


def test_walking_while_the_phone_keeps_reporting_deep_sleep() -> None:
    sleep = entity("sensor.phone_sleep_confidence", "95", unit="%")
    activity = entity("sensor.phone_activity", "walking")

    def night(walk_at: float) -> list[Transition]:
        # Fell asleep gradually (no leap); the walk comes while deep sleep is still reported.
        return steps(
            MORNING,
            [
                (0, sleep.entity_id, "70"),
                (6, sleep.entity_id, "88"),
                (12, sleep.entity_id, "93"),
                (18, sleep.entity_id, "95"),
                (walk_at, activity.entity_id, "walking"),
            ],
        )

    view = home([sleep, activity], environment(_at(40)), night(walk_at=20))
    (finding,) = activity_while_asleep(view)
    assert finding.evidence == ("sensor.phone_activity", "sensor.phone_sleep_confidence")
    # Walking 12 minutes after the last deep-sleep report: the person woke up and got up.
    assert not list(activity_while_asleep(home([sleep, activity], environment(_at(40)), night(30))))


def test_phone_left_while_the_person_entity_still_says_home() -> None:
    person = entity("person.sam", "home")
    phone = entity("device_tracker.sam_phone", "not_home")
    motion = entity("binary_sensor.hall_motion", "off", area="Hallway", device_class="motion")
    trace = steps(
        MORNING,
        [
            (0, person.entity_id, "home"),
            (0, phone.entity_id, "home"),
            (10, phone.entity_id, "not_home"),
            (30, motion.entity_id, "on"),
            (31, motion.entity_id, "off"),
        ],
    )
    env = environment(_at(45), persons_home=None)
    # One person: the most recent report (the phone leaving) says where Sam is.
    (finding,) = activity_while_away(home([person, phone, motion], env, trace))
    assert finding.evidence[0] == "binary_sensor.hall_motion"
    assert "device_tracker.sam_phone" in finding.evidence
    # Two people: Kim is still home, so the motion is Kim.
    kim = entity("person.kim", "home")
    assert not list(activity_while_away(home([person, kim, phone, motion], env, trace)))


def test_camera_motion_score_while_everyone_is_away() -> None:
    phone = entity("device_tracker.alex_phone", "not_home")
    score = entity("sensor.hall_camera_motion", "0", area="Hallway")
    trace = steps(
        MORNING,
        [
            (0, phone.entity_id, "home"),
            (5, phone.entity_id, "not_home"),
            (30, score.entity_id, "0"),
            (40, score.entity_id, "35"),
        ],
    )
    view = home([phone, score], environment(_at(60), persons_home=None), trace)
    (finding,) = activity_while_away(view)
    assert finding.evidence == ("sensor.hall_camera_motion", "device_tracker.alex_phone")
    assert finding.magnitude == 1.0


def test_iron_switched_on_before_the_window_is_judged_from_when_it_was() -> None:
    """A plug switched on and forgotten has no change left in a short window: it is on
    since its ``last_changed``, and judged as the stove above."""
    on_since = entity("switch.hair_iron", "on", area="Bedroom")
    iron = replace(on_since, last_changed=MORNING)
    view = home([iron], environment(_at(4 * 60)))
    (finding,) = heat_appliance_left_on(view)
    assert finding.evidence == ("switch.hair_iron",)
    assert "since 07:00" in finding.reasoning
    # Switched on an hour ago: not yet.
    recent = replace(on_since, last_changed=_at(3 * 60))
    assert not list(heat_appliance_left_on(home([recent], environment(_at(4 * 60)))))
    # An iron that is off says nothing, however long ago it changed.
    off = replace(entity("switch.hair_iron", "off", area="Bedroom"), last_changed=MORNING)
    assert not list(heat_appliance_left_on(home([off], environment(_at(4 * 60)))))


def test_a_plug_that_only_went_unknown_and_unavailable_switched_nothing() -> None:
    """Two quick starts: the plug read unknown, unavailable, unknown, unavailable within
    seconds (a walk of session 36); nothing switched. Its real flips still count."""
    plug = entity("switch.fridge_plug", "unavailable", area="Kitchen")
    states = ["unknown", "unavailable", "unknown", "unavailable", "unknown", "unavailable"]
    starts = [(i * 4 / 60, plug.entity_id, s) for i, s in enumerate(states)]
    assert not list(toggle_storm(home([plug], environment(_at(1)), steps(MORNING, starts))))
    # on, a drop, on again: one state, no switch.
    dropped = [(i * 4 / 60, plug.entity_id, s) for i, s in enumerate(["on", "unknown"] * 3)]
    assert not list(toggle_storm(home([plug], environment(_at(1)), steps(MORNING, dropped))))
    flips = [(i * 4 / 60, plug.entity_id, "on" if i % 2 else "off") for i in range(6)]
    assert list(toggle_storm(home([plug], environment(_at(1)), steps(MORNING, flips))))


def test_a_heater_on_since_ha_started_is_not_judged_from_the_start() -> None:
    """HA set every state as it started: the plug's ``last_changed`` is the start's, not
    the moment anybody switched it on."""
    heater = replace(entity("switch.water_heater", "on", area="Hall"), last_changed=MORNING)
    started = replace(
        environment(_at(4 * 60)), ha_started=(MORNING - timedelta(seconds=3), _at(0.5))
    )
    assert not list(heat_appliance_left_on(home([heater], started)))
    assert list(heat_appliance_left_on(home([heater], environment(_at(4 * 60)))))
