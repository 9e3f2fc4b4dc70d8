"""A sensor whose every on lasts seconds, held on for minutes (core, no Home Assistant);
a forced-entry sensor stirred by everyday life guards no way in."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.brief_on_held import (
    brief_sensor_held_on,
    brief_sensor_held_on_due,
)
from custom_components.anomaly_monitor.core.baselines.classless_roles import (
    reads_as_opening_or_motion,
)
from custom_components.anomaly_monitor.core.baselines.detectors import explained_by_baselines
from custom_components.anomaly_monitor.core.baselines.false_alarm_teaching import (
    teach_false_alarm,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Severity
from custom_components.anomaly_monitor.core.statistics.intrusion import break_in_sequence

from .core_factories import entity, environment, home, steps, window

DAY0 = datetime(2026, 2, 2, tzinfo=UTC)
MAT = "binary_sensor.bed_2"  # a name that says nothing
ROOM = "Bedroom 2"


def _mat(device_class: str | None) -> EntityState:
    return entity(MAT, "on", area=ROOM, device_class=device_class)


def nights(days: int, device_class: str | None = "vibration", seconds: int = 12) -> HomeBaselines:
    """``days`` nights of a sleeper turning over: the mat on ``seconds`` at 23:50 and 03:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(MAT, "", area=ROOM, device_class=device_class)])
    for day in range(days):
        for at in (timedelta(hours=23, minutes=50), timedelta(days=1, hours=3)):
            start = DAY0 + timedelta(days=day) + at
            baselines.observe(start, MAT, "on")
            baselines.observe(start + timedelta(seconds=seconds), MAT, "off")
    return baselines


def on_since(baselines: HomeBaselines, when: datetime, device_class: str | None) -> EntityState:
    baselines.observe(when, MAT, "on")
    return replace(_mat(device_class), last_changed=when)


def view(now: datetime, *states: EntityState) -> HomeView:
    return HomeView(window(states, environment(now)))


def test_a_mat_on_for_seconds_every_night_held_on_for_minutes_is_told() -> None:
    baselines = nights(5)
    fit = DAY0 + timedelta(days=6, hours=4, minutes=10)
    mat = on_since(baselines, fit, "vibration")
    assert list(brief_sensor_held_on(view(fit + timedelta(minutes=2), mat), baselines)) == []
    assert brief_sensor_held_on_due(view(fit + timedelta(minutes=2), mat), baselines) == (
        fit + timedelta(minutes=3)
    )
    (finding,) = brief_sensor_held_on(view(fit + timedelta(minutes=4), mat), baselines)
    assert finding.evidence == (MAT,)
    assert finding.severity == Severity.HIGH
    assert finding.magnitude == 4.0
    assert "usually on for 12 s at a time (learned from 10 times it went on)" in finding.reasoning


def test_the_long_on_that_was_told_does_not_make_the_next_normal() -> None:
    """A 6-min seizure learned among short bursts: the next one is still told."""
    baselines = nights(5)
    first = DAY0 + timedelta(days=6, hours=2)
    baselines.observe(first, MAT, "on")
    baselines.observe(first + timedelta(minutes=6), MAT, "off")
    second = DAY0 + timedelta(days=7, hours=4)
    mat = on_since(baselines, second, "vibration")
    assert list(brief_sensor_held_on(view(second + timedelta(minutes=4), mat), baselines))


def test_a_sensor_held_on_as_part_of_life_is_not_judged() -> None:
    """On for an hour at a time (a bed sensor): its mean is long, never judged."""
    baselines = nights(5, seconds=3600)
    at = DAY0 + timedelta(days=6, hours=4)
    mat = on_since(baselines, at, "vibration")
    assert list(brief_sensor_held_on(view(at + timedelta(hours=3), mat), baselines)) == []


def test_cold_start_an_unlearned_sensor_says_nothing_and_a_class_lends_a_prior() -> None:
    at = DAY0 + timedelta(days=1, hours=2)
    # Never seen on: nothing, whatever its class.
    unseen = HomeBaselines(UTC)
    unseen.describe([EntityInfo(MAT, "", area=ROOM, device_class="vibration")])
    mat = on_since(unseen, at, "vibration")
    assert list(brief_sensor_held_on(view(at + timedelta(minutes=30), mat), unseen)) == []
    # One night (two bursts): a vibration sensor's on is brief by nature, told...
    vibration = nights(1)
    mat = on_since(vibration, at, "vibration")
    assert list(brief_sensor_held_on(view(at + timedelta(minutes=4), mat), vibration))
    # ...a sensor with no class needs its own five.
    classless = nights(1, device_class=None)
    mat = on_since(classless, at, None)
    assert list(brief_sensor_held_on(view(at + timedelta(minutes=30), mat), classless)) == []


def test_a_class_that_says_what_it_is_is_judged_elsewhere() -> None:
    baselines = nights(5, device_class="motion")
    at = DAY0 + timedelta(days=6, hours=4)
    mat = on_since(baselines, at, "motion")
    assert list(brief_sensor_held_on(view(at + timedelta(minutes=30), mat), baselines)) == []


def test_false_alarm_teaches_the_stay() -> None:
    baselines = nights(5)
    at = DAY0 + timedelta(days=6, hours=4)
    mat = on_since(baselines, at, "vibration")
    (finding,) = brief_sensor_held_on(view(at + timedelta(minutes=5), mat), baselines)
    assert teach_false_alarm(baselines, finding.rule, finding.evidence, finding.magnitude)
    baselines.observe(at + timedelta(minutes=5, seconds=30), MAT, "off")
    later = DAY0 + timedelta(days=7, hours=4)
    mat = on_since(baselines, later, "vibration")
    assert list(brief_sensor_held_on(view(later + timedelta(minutes=4), mat), baselines)) == []
    assert list(brief_sensor_held_on(view(later + timedelta(minutes=6), mat), baselines))


# --- a classless sensor read by its room ----------------------------------------------------

CAMERA, GALLERY_DOOR = "binary_sensor.cam_trigger", "binary_sensor.gallery_door"


def test_a_classless_sensor_going_on_with_its_room_reads_as_a_person_s_doing() -> None:
    start = datetime(2026, 2, 2, 8, 0)
    events: list[tuple[float, str, str]] = []
    for minute in (0.0, 30.0, 60.0):
        events += [
            (minute, GALLERY_DOOR, "on"),
            (minute + 0.1, CAMERA, "on"),
            (minute + 0.5, GALLERY_DOOR, "off"),
            (minute + 1.1, CAMERA, "off"),
        ]
    states = [
        entity(CAMERA, "off", area="Gallery"),
        entity(GALLERY_DOOR, "off", area="Gallery", device_class="door"),
    ]
    seen = home(states, environment(start + timedelta(minutes=90)), steps(start, events))
    assert reads_as_opening_or_motion(seen, CAMERA)
    # The same sensor going on by itself (a mat at night): not a person's doing.
    alone = [(m, CAMERA, s) for m, e, s in events if e == CAMERA]
    by_itself = home(states, environment(start + timedelta(minutes=90)), steps(start, alone))
    assert not reads_as_opening_or_motion(by_itself, CAMERA)


# --- a forced-entry sensor stirred by everyday life ------------------------------------------

DOOR, HALL = "binary_sensor.bedroom_2_door", "binary_sensor.hall_motion"


def _parent_comes_in() -> HomeView:
    """02:40: the mat trips, the child's door opens 48 s later, the hall moves."""
    start = datetime(2026, 2, 8, 0, 40, tzinfo=UTC)
    events: list[tuple[float, str, str]] = [
        (0, MAT, "off"),
        (0, DOOR, "off"),
        (0, HALL, "off"),
        (120, MAT, "on"),
        (120.8, DOOR, "on"),
        (121, HALL, "on"),
    ]
    states = [
        _mat("vibration"),
        entity(DOOR, "on", area=ROOM, device_class="door"),
        entity(HALL, "on", area="Hall", device_class="motion"),
    ]
    return home(states, environment(start + timedelta(minutes=122)), steps(start, events))


def test_a_mat_stirred_every_night_is_no_window_forced() -> None:
    seen = _parent_comes_in()
    (finding,) = break_in_sequence(seen)  # the window alone reads it as force
    assert explained_by_baselines(finding, nights(5), seen)
    # A sensor this home never saw go on (a glass-break on a pane) still reads as force.
    quiet = HomeBaselines(UTC)
    quiet.describe([EntityInfo(MAT, "", area=ROOM, device_class="vibration")])
    quiet.observe(DAY0, MAT, "off")
    assert not explained_by_baselines(finding, quiet, seen)
