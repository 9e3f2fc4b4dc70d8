"""A room far too hot is a possible fire, a room far too cold a heating failure; only what
no home produces is an impossible reading (hand-built homes, the rules and the detector)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.combined_detector import CombinedDetector
from custom_components.anomaly_monitor.core.feedback import FalseAlarm
from custom_components.anomaly_monitor.core.models import (
    AnomalyType,
    EntityState,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.rules.physical import reading_outside_physical_range
from custom_components.anomaly_monitor.core.rules.room_extremes import (
    room_heat_fire_risk,
    room_too_cold,
    room_too_hot,
)
from custom_components.anomaly_monitor.core.rules.temperature_bands import (
    Band,
    band_of,
    crossed_band,
)
from custom_components.anomaly_monitor.core.safety_floor import is_urgent

from .core_factories import NOON, entity, environment, home, window

BEDROOM = "sensor.bedroom_temperature"
SMOKE = "binary_sensor.bedroom_smoke"


def _bedroom(reading: str, *extra: EntityState, unit: str = "°C") -> list[EntityState]:
    return [
        entity(BEDROOM, reading, area="Bedroom", device_class="temperature", unit=unit),
        entity(SMOKE, "off", area="Bedroom", device_class="smoke"),
        entity("sensor.lounge_temperature", "21", area="Lounge", device_class="temperature"),
        *extra,
    ]


def test_a_bedroom_at_70_degrees_is_a_possible_fire_not_an_impossible_reading() -> None:
    states = _bedroom("70")
    assert not list(reading_outside_physical_range(home(states)))
    (fire,) = room_heat_fire_risk(home(states))
    assert fire.anomaly_type == AnomalyType.SAFETY_HAZARD
    assert fire.severity is Severity.HIGH  # alone: a failed sensor is as likely
    assert fire.evidence == (BEDROOM, SMOKE)  # the thermometer, and the room's smoke alarm
    assert fire.reasoning == (
        "Bedroom Temperature reads 70 °C: Bedroom is far hotter than a room gets (over 50 °C) "
        "without a fire or an overheating appliance, unless the sensor has failed. "
        "Bedroom Smoke has not gone off."
    )
    assert fire.recommendation.startswith("Check Bedroom now for fire or an overheating appliance")
    assert "If the room is normal, the sensor has failed" in fire.recommendation
    assert is_urgent(fire)  # announced before any model, never dismissed by one
    # A false alarm on it leaves no mark that could silence the next fire.
    assert not FalseAlarm.of(fire).covers(fire)
    assert not list(room_too_hot(home(states)))


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (
            [entity(SMOKE, "on", area="Bedroom", device_class="smoke")],
            "Bedroom Smoke reports smoke",
        ),
        (
            [
                entity(
                    "sensor.bedroom_radiator_temperature",
                    "48",
                    area="Bedroom",
                    device_class="temperature",
                    unit="°C",
                )
            ],
            "Bedroom Radiator Temperature reads 48 °C too",
        ),
    ],
)
def test_something_else_saying_the_same_makes_it_critical(
    extra: list[EntityState], says: str
) -> None:
    states = [s for s in _bedroom("70") if s.entity_id not in {e.entity_id for e in extra}]
    (fire,) = room_heat_fire_risk(home([*states, *extra]))
    assert fire.severity is Severity.CRITICAL
    assert says in fire.reasoning
    assert {e.entity_id for e in extra} <= set(fire.evidence)


def _readings(*values: tuple[float, str]) -> list[Transition]:
    return [Transition(NOON - timedelta(minutes=m), BEDROOM, v, "Bedroom") for m, v in values]


def test_a_climb_over_several_readings_is_critical_one_jump_is_not() -> None:
    climb = _readings((40, "21"), (20, "24"), (12, "38"), (6, "55"), (0, "70"))
    (fire,) = room_heat_fire_risk(home(_bedroom("70"), transitions=climb))
    assert fire.severity is Severity.CRITICAL
    assert "It rose from 21 °C within 20 min." in fire.reasoning  # it left 21 °C 20 min ago
    glitch_before = _readings((8, "-70"), (7, "21"), (5, "28"), (4, "36"), (3, "45"), (0, "70"))
    (fire,) = room_heat_fire_risk(home(_bedroom("70"), transitions=glitch_before))
    assert "It rose from 21 °C within 7 min." in fire.reasoning  # not from the -70 glitch
    # The walk's: a cold spell, back at 21 °C for 8 min, then the climb.
    cold_before = _readings((24, "-1"), (12, "21"), (4, "28"), (3, "36"), (2, "45"), (0, "70"))
    (fire,) = room_heat_fire_risk(home(_bedroom("70"), transitions=cold_before))
    assert "It rose from 21 °C within 4 min." in fire.reasoning  # not from the cold spell
    jump = _readings((40, "21"), (20, "21.5"), (0, "70"))  # 85 °C-style glitch: one step
    (glitch,) = room_heat_fire_risk(home(_bedroom("70"), transitions=jump))
    assert glitch.severity is Severity.HIGH


def test_a_smoky_room_at_42_degrees_is_the_fire_s_heat() -> None:
    """Below the fire line, a sounding smoke alarm says why the room is hot."""
    states = _bedroom("42", entity(SMOKE, "on", area="Bedroom", device_class="smoke"))
    states = [s for s in states if not (s.entity_id == SMOKE and s.state == "off")]
    (fire,) = room_heat_fire_risk(home(states))
    assert fire.severity is Severity.CRITICAL
    assert "while Bedroom Smoke reports smoke: the heat of a fire" in fire.reasoning
    assert not list(room_too_hot(home(states)))


def test_hot_rooms_in_fahrenheit_and_in_a_heat_wave() -> None:
    (fire,) = room_heat_fire_risk(home(_bedroom("158", unit="°F")))
    assert "reads 158 °F" in fire.reasoning
    assert "(over 122 °F)" in fire.reasoning
    (hot,) = room_too_hot(home(_bedroom("38")))
    assert hot.severity is Severity.MEDIUM
    assert hot.anomaly_type == AnomalyType.SAFETY_HAZARD
    assert "dangerous for people and pets" in hot.reasoning
    # 52 °C indoors in a 46 °C desert heat wave is the weather, told as a room too hot.
    desert = environment(outdoor_temperature=46.0)
    assert not list(room_heat_fire_risk(home(_bedroom("52"), desert)))
    (heat_wave,) = room_too_hot(home(_bedroom("52"), desert))
    assert "It is 46 °C outdoors." in heat_wave.reasoning


def test_a_thermometer_without_an_area_may_be_outdoors() -> None:
    porch = entity("sensor.porch", "55", device_class="temperature", unit="°C")
    for rule in (room_heat_fire_risk, room_too_hot, room_too_cold):
        assert not list(rule(home([porch])))
    frosty = entity("sensor.porch", "-25", device_class="temperature")
    assert not list(room_too_cold(home([frosty])))
    (fire,) = room_heat_fire_risk(home([entity("sensor.porch", "75", device_class="temperature")]))
    assert "far hotter than a home gets (over 60 °C)" in fire.reasoning
    assert fire.recommendation.startswith("Check where Porch is now for fire")


def test_a_cold_room_is_a_heating_failure_and_pipes_may_freeze() -> None:
    window_open = entity(
        "binary_sensor.bedroom_window", "on", area="Bedroom", device_class="window"
    )
    winter = environment(outdoor_temperature=-4.0)
    (cold,) = room_too_cold(home(_bedroom("3", window_open), winter))
    assert cold.severity is Severity.MEDIUM
    assert cold.anomaly_type == AnomalyType.SAFETY_HAZARD
    assert cold.evidence == (BEDROOM, "binary_sensor.bedroom_window")
    assert "close to freezing (under 5 °C)" in cold.reasoning
    assert "Bedroom Window is open." in cold.reasoning
    (freezing,) = room_too_cold(home(_bedroom("-2"), winter))
    assert freezing.severity is Severity.HIGH
    assert "water pipes can freeze and burst" in freezing.reasoning
    # The outdoors unknown: told.
    assert list(room_too_cold(home(_bedroom("3"), environment(outdoor_temperature=None))))


def test_a_place_kept_far_below_the_outdoors_is_cooled_not_a_failed_heating() -> None:
    # A fridge probe at 4 °C, a freezer at -18 °C on a 15 °C night, minutes after set-up
    # (nothing learned): a machine keeps them colder than the air outside, which no failed
    # heating or open window does.
    mild = environment(outdoor_temperature=15.0)
    assert not list(room_too_cold(home(_bedroom("4"), mild)))
    assert not list(room_too_cold(home(_bedroom("-18"), mild)))
    # A room near the outdoors' cold is told: the weather can be the cause (a 3 °C room
    # on a 6 °C day, a freezing room in a frost).
    assert list(room_too_cold(home(_bedroom("3"), environment(outdoor_temperature=6.0))))
    (frost,) = room_too_cold(home(_bedroom("-1"), environment(outdoor_temperature=-8.0)))
    assert frost.severity is Severity.HIGH


def test_only_what_no_home_produces_is_impossible() -> None:
    for reading in ("-70", "3276.7"):
        (impossible,) = reading_outside_physical_range(home(_bedroom(reading)))
        assert impossible.anomaly_type == AnomalyType.PHYSICAL_VIOLATION
        assert "an impossible reading" in impossible.reasoning
        assert "so the sensor is faulty" in impossible.reasoning
        for rule in (room_heat_fire_risk, room_too_hot, room_too_cold):
            assert not list(rule(home(_bedroom(reading))))
    humid = entity("sensor.bath_humidity", "150", area="Bath", device_class="humidity", unit="%")
    (wet,) = reading_outside_physical_range(home([humid]))
    assert "humidity cannot be above 100 %" in wet.reasoning


@pytest.mark.parametrize(
    ("value", "previous", "unit", "in_area", "urgent"),
    [
        (70.0, 21.0, "°C", True, True),  # the fire's heat arrives
        (72.0, 70.0, "°C", True, False),  # a sauna's next reading: no new look
        (158.0, 70.0, "°F", True, True),
        (-1.0, 6.0, "°C", True, True),  # the room freezes
        (3.0, 6.0, "°C", True, True),  # too cold now
        (3.0, 4.0, "°C", True, False),  # still too cold: nothing new
        (21.0, 70.0, "°C", True, True),  # back to normal: the occurrence is over
        (45.0, 70.0, "°C", True, True),  # from a fire's heat to a hot room
        (55.0, 21.0, "°C", False, False),  # outdoors in the sun
        (21.0, None, "°C", True, False),  # a first reading, livable
        (-70.0, None, "°C", False, True),  # a broken sensor
    ],
)
def test_which_readings_are_judged_at_once(
    value: float, previous: float | None, unit: str, in_area: bool, urgent: bool
) -> None:
    assert crossed_band(value, previous, unit, in_area) is urgent


def test_the_bands() -> None:
    assert [band_of(c, in_area=True) for c in (-61, -1, 4, 21, 36, 51, 1001)] == [
        Band.IMPOSSIBLE,
        Band.FREEZING,
        Band.COLD,
        Band.LIVABLE,
        Band.HOT,
        Band.FIRE,
        Band.IMPOSSIBLE,
    ]


START = datetime(2026, 1, 5, tzinfo=UTC)


def _learned(entity_id: str, values: list[float], days: int = 5) -> HomeBaselines:
    """``values`` repeated every 10 min for ``days`` days, ending a day before ``START``."""
    baselines = HomeBaselines(UTC)
    first = START - timedelta(days=days + 1)
    transitions = [
        Transition(first + timedelta(minutes=10 * i), entity_id, f"{v:g}", "Bedroom")
        for i, v in enumerate(values * (days * 144 // len(values)))
    ]
    for transition in transitions:
        baselines.learn(transition)
    return baselines


def _analysed(states: list[EntityState], baselines: HomeBaselines) -> list[str]:
    detector = CombinedDetector(baselines=lambda: baselines)
    return [
        f.rule
        for f in detector.findings(window(states, environment(START, outdoor_temperature=-3.0)))
    ]


def test_a_sauna_s_heat_and_a_freezer_s_cold_are_their_normal() -> None:
    """Learned over days, a sensor's own extremes are not told; a room's first are."""
    session = [20.0] * 120 + [45.0, 70.0, 80.0, 80.0, 80.0, 80.0] + [30.0] * 18
    sauna = _learned(BEDROOM, session)
    assert "room_heat_fire_risk" not in _analysed(_bedroom("80"), sauna)
    assert "room_heat_fire_risk" in _analysed(_bedroom("95"), sauna)  # hotter than ever
    room = _learned(BEDROOM, [20.0, 21.0, 22.0, 21.0])
    assert "room_heat_fire_risk" in _analysed(_bedroom("70"), room)
    assert "room_too_cold" in _analysed(_bedroom("2"), room)
    freezer = _learned(BEDROOM, [-18.0, -17.0, -19.0, -18.0])
    assert "room_too_cold" not in _analysed(_bedroom("-18"), freezer)
    # Another device saying fire is never a sensor's habit.
    smoky = [s for s in _bedroom("80") if s.entity_id != SMOKE]
    smoky.append(entity(SMOKE, "on", area="Bedroom", device_class="smoke"))
    assert "room_heat_fire_risk" in _analysed(smoky, sauna)


def test_a_fire_now_never_becomes_its_own_normal() -> None:
    """The live stream is learned before each analysis: a highest reached in the last
    hours is not part of the range yet, so the fire's own readings do not excuse it."""
    baselines = _learned(BEDROOM, [20.0, 21.0, 22.0, 21.0])
    fire = [
        Transition(START - timedelta(minutes=m), BEDROOM, v, "Bedroom")
        for m, v in ((30, "30"), (20, "50"), (10, "65"), (1, "70"))
    ]
    for transition in fire:
        baselines.learn(transition)
    assert "room_heat_fire_risk" in _analysed(_bedroom("70"), baselines)


def test_a_flue_probe_watched_all_week_is_judged_by_its_first_fire() -> None:
    """Set 5's wood stove: the flue probe read 41 °F all week, the stove is lit on Friday
    (told: the first such heat), and on Saturday it reads 185 °F again: it has been read
    for days, and Friday's 615 °F is its normal. Watched for hours only: still told."""
    baselines = HomeBaselines(UTC)
    baselines.watching([BEDROOM], START - timedelta(days=5))
    friday = START - timedelta(days=1)
    for minutes, value in ((0, "85"), (12, "220"), (30, "320"), (110, "300"), (440, "50")):
        baselines.learn(Transition(friday + timedelta(minutes=minutes), BEDROOM, value, "Bedroom"))
    assert "room_heat_fire_risk" not in _analysed(_bedroom("85"), baselines)
    fresh = HomeBaselines(UTC)
    fresh.watching([BEDROOM], START - timedelta(hours=30))
    # Cold until the stove was lit (as set 5's probe): no hot place (``hot_places``).
    cold_then_lit = ((-300, "5"), (0, "85"), (12, "220"), (30, "320"), (110, "300"), (440, "50"))
    for minutes, value in cold_then_lit:
        fresh.learn(Transition(friday + timedelta(minutes=minutes), BEDROOM, value, "Bedroom"))
    assert "room_heat_fire_risk" in _analysed(_bedroom("85"), fresh)
