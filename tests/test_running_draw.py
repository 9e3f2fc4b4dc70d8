"""A meter running far below every draw it ran at (core, no Home Assistant): a pump running
dry. The ids say nothing of what the meters power."""

from __future__ import annotations

from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.running_draw import (
    running_far_below_its_draw,
)
from custom_components.anomaly_monitor.core.models import EntityInfo

from .core_factories import entity
from .test_baselines_long_stays import since, view
from .test_meter_habits import DAY0, HOB, RELAY, fed, hob, relay

MORNING = DAY0 + timedelta(days=10, hours=6, minutes=10)


def _pump_and_washer(baselines: HomeBaselines, day: datetime) -> None:
    """The relay pumps 760 W for 35 min each morning; the plug washes (2 kW heating,
    then a motor at 150-450 W, a spin at 400 W)."""
    baselines.observe(day + timedelta(hours=6, minutes=10), RELAY, "760")
    baselines.observe(day + timedelta(hours=6, minutes=45), RELAY, "0")
    start = day + timedelta(hours=10)
    for minutes, watts in ((0, "2000"), (15, "180"), (40, "420"), (65, "400"), (75, "0.5")):
        baselines.observe(start + timedelta(minutes=minutes), HOB, watts)


def test_a_pump_running_dry_far_below_its_draw_is_told() -> None:
    """Ten mornings at 760 W; the eleventh it runs at 405 W (set 17 b's pump with the
    ground tank empty). Told after 10 min; before: only once past its routine."""
    baselines = fed(10, each=_pump_and_washer, until=MORNING - timedelta(minutes=5))
    baselines.observe(MORNING, RELAY, "405")
    baselines.advance(MORNING + timedelta(minutes=12))
    dry = relay("405", MORNING)
    assert (
        list(running_far_below_its_draw(view(MORNING + timedelta(minutes=5), dry), baselines)) == []
    )
    [finding] = running_far_below_its_draw(view(MORNING + timedelta(minutes=12), dry), baselines)
    assert finding.evidence == (RELAY,)
    assert "405 W since" in finding.reasoning
    assert "always drew 760 W while running: it runs, but not as it usually does" in (
        finding.reasoning
    )


def test_a_washer_motor_phase_and_a_usual_run_are_not_far_below() -> None:
    baselines = fed(10, each=_pump_and_washer, until=MORNING - timedelta(minutes=5))
    baselines.observe(MORNING, RELAY, "755")
    baselines.advance(MORNING + timedelta(minutes=30))
    usual = view(MORNING + timedelta(minutes=30), relay("755", MORNING))
    assert list(running_far_below_its_draw(usual, baselines)) == []
    washing = MORNING + timedelta(hours=4)
    baselines.observe(washing, HOB, "160")
    baselines.advance(washing + timedelta(minutes=30))
    motor = view(washing + timedelta(minutes=30), hob("160", washing))
    assert list(running_far_below_its_draw(motor, baselines)) == []


def _steady_pump(draws: tuple[str, ...]) -> HomeBaselines:
    """Ten days, a pump run each morning and evening at ``draws`` (one a run, in turn)."""
    turn = iter(draws * 20)

    def each(baselines: HomeBaselines, day: datetime) -> None:
        for hour in (6, 19):
            start = day + timedelta(hours=hour, minutes=10)
            baselines.observe(start, RELAY, next(turn))
            baselines.observe(start + timedelta(minutes=3), RELAY, "0")

    return fed(10, each=each, until=MORNING - timedelta(minutes=5))


def test_a_steady_motor_drawing_a_fifth_less_is_told() -> None:
    """Set 19 d: a well pump whose runs draw 745-750 W, its foot valve gone, runs at
    515 W (0.69 of its draw): not pumping. Told after 10 min; before this change only at
    the timed floor (30 min), as 0.6 of its draw judged every motor alike."""
    baselines = _steady_pump(("745", "750", "748"))
    baselines.observe(MORNING, RELAY, "515")
    baselines.advance(MORNING + timedelta(minutes=12))
    dry = relay("515", MORNING)
    [finding] = running_far_below_its_draw(view(MORNING + timedelta(minutes=12), dry), baselines)
    assert "515 W since" in finding.reasoning
    assert "always drew 745 to 750 W while running" in finding.reasoning


def test_a_motor_of_varied_draws_or_an_element_on_a_low_supply_is_not_told() -> None:
    """A motor whose runs draw 560-760 W (its load varies) at 515 W, and a 2 kW element
    at 1,600 W (its draw follows the supply's voltage): not far below their draws."""
    baselines = _steady_pump(("560", "760", "680"))
    baselines.observe(MORNING, RELAY, "515")
    baselines.advance(MORNING + timedelta(minutes=30))
    varied = view(MORNING + timedelta(minutes=30), relay("515", MORNING))
    assert list(running_far_below_its_draw(varied, baselines)) == []
    baselines = _steady_pump(("2000", "2010", "2005"))
    baselines.observe(MORNING, RELAY, "1600")
    baselines.advance(MORNING + timedelta(minutes=30))
    sagging = view(MORNING + timedelta(minutes=30), relay("1600", MORNING))
    assert list(running_far_below_its_draw(sagging, baselines)) == []


AC = "sensor.sonoff_pow_5e21_power"  # ids that say nothing of an air conditioner
AIR = "sensor.lumi_weather_9_temperature"
NIGHT = DAY0 + timedelta(days=1, hours=1, minutes=30)  # the second night, 01:30


def _first_day_of_cooling() -> HomeBaselines:
    """A window air conditioner on a metering plug, first seen on day one: 860 W for a nap
    from 13:00 to 15:00, 870 W from 20:45 on; its room (same area) from 27 °C to 25.6 °C.
    At 01:30 on the second night its compressor stops, the fan runs on at 72 W."""
    baselines = HomeBaselines(DAY0.tzinfo)
    baselines.describe(
        [
            EntityInfo(AC, "", area="Bedroom", device_class="power", unit="W"),
            EntityInfo(AIR, "", area="Bedroom", device_class="temperature", unit="°C"),
        ]
    )
    for at, entity_id, state in (
        (timedelta(hours=0), AIR, "27.0"),
        (timedelta(hours=13), AC, "860"),
        (timedelta(hours=15), AC, "0"),
        (timedelta(hours=20, minutes=45), AC, "870"),
        (timedelta(hours=21, minutes=45), AIR, "26.0"),
        (timedelta(hours=23, minutes=50), AIR, "25.6"),
        (NIGHT - DAY0, AC, "72"),
    ):
        baselines.observe(DAY0 + at, entity_id, state)
    return baselines


def _night(baselines: HomeBaselines, now: datetime, room: str) -> list[str]:
    baselines.advance(now)
    meter = since(entity(AC, "72", area="Bedroom", device_class="power", unit="W"), NIGHT)
    air = entity(AIR, room, area="Bedroom", device_class="temperature", unit="°C")
    return [f.reasoning for f in running_far_below_its_draw(view(now, meter, air), baselines)]


def test_in_its_first_days_an_air_conditioner_on_fan_only_is_told_as_its_room_climbs() -> None:
    """Set 25 d: one run learned, a day seen. Not told on its draw alone (a machine's
    first days), nor with its room up 1.8 °C; told with it up 3.2 °C on the hour before."""
    baselines = _first_day_of_cooling()
    assert _night(baselines, NIGHT + timedelta(minutes=40), "25.7") == []
    baselines.observe(NIGHT + timedelta(minutes=30), AIR, "27.4")
    assert _night(baselines, NIGHT + timedelta(minutes=40), "27.4") == []
    baselines.observe(NIGHT + timedelta(minutes=80), AIR, "28.8")
    [told] = _night(baselines, NIGHT + timedelta(minutes=81), "28.8")
    assert "72 W since 01:30" in told
    assert "in the run learned it always drew 860 W while running" in told
    assert "reads 28.8 °C, up from 25.6 in the hour before: it does not cool its room" in told


def test_a_meter_seen_for_less_than_half_a_day_is_not_judged() -> None:
    """Its lowest draw learned from an hour is no draw of its own yet: at 72 W with its
    room 3 °C up, an hour after it was first seen, it is not told."""
    baselines = HomeBaselines(DAY0.tzinfo)
    baselines.describe(
        [
            EntityInfo(AC, "", area="Bedroom", device_class="power", unit="W"),
            EntityInfo(AIR, "", area="Bedroom", device_class="temperature", unit="°C"),
        ]
    )
    baselines.observe(DAY0, AIR, "27.0")
    baselines.observe(DAY0 + timedelta(hours=13), AC, "860")
    young = DAY0 + timedelta(hours=14)
    baselines.observe(young, AC, "72")
    baselines.advance(young + timedelta(minutes=20))
    meter = since(entity(AC, "72", area="Bedroom", device_class="power", unit="W"), young)
    air = entity(AIR, "30.0", area="Bedroom", device_class="temperature", unit="°C")
    found = running_far_below_its_draw(view(young + timedelta(minutes=20), meter, air), baselines)
    assert list(found) == []


def _cooled_by_a_cycling_unit(days: int) -> HomeBaselines:
    """A window air conditioner on a metering plug that never rests: every 4 h its
    compressor draws 560 W, its room reads 24.7 °C, its thermostat idles the compressor and
    the fan alone draws 95 W, the room reads 25.7 °C, the compressor comes back."""
    baselines = HomeBaselines(DAY0.tzinfo)
    baselines.describe(
        [
            EntityInfo(AC, "", area="Bedroom", device_class="power", unit="W"),
            EntityInfo(AIR, "", area="Bedroom", device_class="temperature", unit="°C"),
        ]
    )
    for cycle in range(days * 6):
        start = DAY0 + timedelta(hours=4 * cycle)
        for minutes, entity_id, state in (
            (0, AC, "560"),
            (20, AIR, "24.7"),
            (70, AC, "95"),
            (130, AIR, "25.7"),
            (150, AC, "545"),
        ):
            baselines.observe(start + timedelta(minutes=minutes), entity_id, state)
    return baselines


def test_a_fan_under_its_phase_draw_is_told_once_its_room_is_hotter_than_ever() -> None:
    """Set 28: the compressor quits at 01:20 on the fourth night, the fan draws 62 W (its
    fan phase learned at 95 W: not "far" below it); the room climbs. Told once it reads
    2 °C up on the hour before and 2 °C over anything it read (at 28.9 °C); not at 26.9 °C
    (1.9 °C over the hour before)."""
    baselines = _cooled_by_a_cycling_unit(3)
    quit_at = DAY0 + timedelta(days=3, hours=1, minutes=20)
    baselines.observe(quit_at, AC, "62")
    meter = since(entity(AC, "62", area="Bedroom", device_class="power", unit="W"), quit_at)

    def told(now: datetime, room: str) -> list[str]:
        baselines.observe(now - timedelta(minutes=1), AIR, room)
        baselines.advance(now)
        air = entity(AIR, room, area="Bedroom", device_class="temperature", unit="°C")
        return [f.reasoning for f in running_far_below_its_draw(view(now, meter, air), baselines)]

    assert told(quit_at + timedelta(minutes=31), "26.9") == []
    [finding] = told(quit_at + timedelta(minutes=91), "28.9")
    assert "62 W since 01:20" in finding
    assert "always drew 95 to 560 W while running" in finding
    assert "reads 28.9 °C, up from" in finding
    assert "it does not cool its room" in finding


def test_a_fan_under_its_phase_draw_in_a_room_no_hotter_than_ever_is_not_told() -> None:
    """The same 62 W with the room up 2.2 °C on the hour before, but within 2 °C of the
    27.5 °C it read on an afternoon learned: a warm hour, not a cooling gone."""
    baselines = _cooled_by_a_cycling_unit(3)
    baselines.observe(DAY0 + timedelta(days=1, hours=15), AIR, "27.5")
    baselines.observe(DAY0 + timedelta(days=1, hours=15, minutes=30), AIR, "25.7")
    quit_at = DAY0 + timedelta(days=3, hours=1, minutes=20)
    baselines.observe(quit_at, AC, "62")
    now = quit_at + timedelta(minutes=91)
    baselines.observe(now - timedelta(minutes=1), AIR, "27.9")
    baselines.advance(now)
    meter = since(entity(AC, "62", area="Bedroom", device_class="power", unit="W"), quit_at)
    air = entity(AIR, "27.9", area="Bedroom", device_class="temperature", unit="°C")
    assert list(running_far_below_its_draw(view(now, meter, air), baselines)) == []
