"""A load's start hour as part of its routine (core).

Set 23: an oil heater on a plug, switched on at 20:25-21:05 on every evening learned and
running the night (10 h 40), switched on at 07:30 in the morning rush and forgotten in the
children's empty room: never told (judged by length only: three times 10 h 40). A load
whose every run began within a few hours of the day, running far from them with nobody in
its room, is told at its longest run or two hours, whichever comes first. Set 23's coffee
maker (1.4 kW brews, then its hot plate at 70 W until 45 min): the hot plate on for six
hours, never told (70 W under a compressor's draw): a meter that heats in its runs is an
element whatever it draws.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.durations import StateDurations
from custom_components.anomaly_monitor.core.baselines.long_runs import (
    appliance_running_far_longer,
)
from custom_components.anomaly_monitor.core.baselines.off_hours_runs import (
    band_span,
    hours_away,
    left_on_outside_its_hours,
    off_hours_run_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, Finding, Transition

from .core_factories import entity, environment, window
from .test_baselines_long_stays import since, view

MONDAY = datetime(2027, 1, 11, tzinfo=UTC)
HEATER = "switch.sonoff_1000b7e2a1"
MOTION = "binary_sensor.nursery_motion"
COFFEE = "sensor.kaffebryggare_power"


def _heater(nights: int, hour: int = 20) -> HomeBaselines:
    """``nights`` evenings switched on at ``hour``:25-ish for 10 h 40."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(HEATER, "", area="Nursery")])
    for night in range(nights):
        start = MONDAY + timedelta(days=night, hours=hour, minutes=25 + 7 * (night % 6))
        baselines.observe(start, HEATER, "on")
        baselines.observe(start + timedelta(minutes=640), HEATER, "off")
    return baselines


def _on(
    baselines: HomeBaselines, start: datetime, minutes: float, *motion: Transition
) -> list[Finding]:
    baselines.observe(start, HEATER, "on")
    heater = since(entity(HEATER, "on", area="Nursery"), start)
    sensor = entity(MOTION, "off", area="Nursery", device_class="motion")
    now = start + timedelta(minutes=minutes)
    home = HomeView(window([heater, sensor], environment(now), motion))
    return list(left_on_outside_its_hours(home, baselines))


def test_the_hours_of_a_band() -> None:
    """Hours 20 and 21: a band of two hours from 20; 23 and 00 across midnight: two from
    23; 07 is ten hours from 20-21, 23 two."""
    assert band_span(1 << 20 | 1 << 21) == (20, 2)
    assert band_span(1 << 23 | 1) == (23, 2)
    assert band_span(1 << 9) == (9, 1)
    assert band_span(0) is None
    assert hours_away(7, 1 << 20 | 1 << 21) == 10
    assert hours_away(23, 1 << 20 | 1 << 21) == 2


def test_the_start_hours_are_learned_and_stored() -> None:
    """Every stay keeps the hour it began at; stored and read back; a damaged part is
    dropped."""
    baselines = _heater(8)
    mask, counted = baselines.durations.start_hours(HEATER, "on")
    assert counted == 8
    assert mask == 1 << 20 | 1 << 21
    stored = baselines.durations.as_dict()
    back = StateDurations.from_dict(stored, UTC)
    assert back.start_hours(HEATER, "on") == (mask, 8)
    stored["starts"][HEATER]["on"] = "x,1"
    assert StateDurations.from_dict(stored, UTC).start_hours(HEATER, "on") == (0, 0)


def test_a_night_heater_on_in_the_morning_in_an_empty_room_is_told_at_two_hours() -> None:
    """Ten nights from 20:25-21:05; on at 07:30: not at 1 h 59, told at 2 h 01 (before:
    only past 32 h); due at 2 h."""
    baselines = _heater(10)
    start = MONDAY + timedelta(days=10, hours=7, minutes=30)
    assert _on(baselines, start, 119) == []
    heater = since(entity(HEATER, "on", area="Nursery"), start)
    assert off_hours_run_due(view(start + timedelta(minutes=119), heater), baselines) == (
        start + timedelta(hours=2)
    )
    [finding] = _on(baselines, start, 121)
    assert finding.rule == "left_on_past_its_routine"
    assert finding.evidence == (HEATER,)
    assert "only ever switched on between 20:00 and 22:00 (learned from 10 runs)" in (
        finding.reasoning
    )


def test_a_run_near_its_hours_few_runs_or_somebody_in_the_room_is_not_told() -> None:
    """On at 18:10 (two hours before the band): not told at 3 h (judged by length); six
    nights learned: not told; somebody moving in the room since 07:30: not told."""
    baselines = _heater(10)
    start = MONDAY + timedelta(days=10, hours=18, minutes=10)
    assert _on(baselines, start, 180) == []
    baselines = _heater(6)
    start = MONDAY + timedelta(days=6, hours=7, minutes=30)
    assert _on(baselines, start, 180) == []
    baselines = _heater(10)
    start = MONDAY + timedelta(days=10, hours=7, minutes=30)
    moved = Transition(start + timedelta(minutes=20), MOTION, "on", "Nursery")
    assert _on(baselines, start, 180, moved) == []


def test_a_load_used_at_every_hour_has_no_band() -> None:
    """Runs begun at 07, 13 and 20 (a plug used all day): no band, never judged here."""
    baselines = HomeBaselines(UTC)
    for day in range(9):
        start = MONDAY + timedelta(days=day, hours=(7, 13, 20)[day % 3])
        baselines.observe(start, HEATER, "on")
        baselines.observe(start + timedelta(minutes=60), HEATER, "off")
    start = MONDAY + timedelta(days=10, hours=2)
    assert _on(baselines, start, 180) == []


def _coffee(runs: int) -> HomeBaselines:
    """Brews at 09:00 and 15:00: 1420 W for 6 min, then the hot plate at 70 W, off at
    45 min."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(COFFEE, "", area="Kitchen", device_class="power", unit="W")])
    for n in range(runs):
        start = MONDAY + timedelta(days=n // 2, hours=9 + 6 * (n % 2))
        baselines.observe(start, COFFEE, "1420")
        baselines.observe(start + timedelta(minutes=6), COFFEE, "70")
        baselines.observe(start + timedelta(minutes=45), COFFEE, "0")
    return baselines


def _plate(baselines: HomeBaselines, start: datetime, minutes: float) -> list[Finding]:
    baselines.observe(start, COFFEE, "1420")
    baselines.observe(start + timedelta(minutes=6), COFFEE, "70")
    meter = entity(COFFEE, "70", device_class="power", unit="W", area="Kitchen")
    home = view(start + timedelta(minutes=minutes), since(meter, start))
    return list(appliance_running_far_longer(home, baselines))


def test_a_hot_plate_at_70_w_past_three_times_its_runs_is_told() -> None:
    """Four brews learned, each 45 min; the plate on at 70 W: not at 2 h 14, told at
    2 h 16 as a timed routine."""
    baselines = _coffee(4)
    start = MONDAY + timedelta(days=2, hours=9, minutes=5)
    assert _plate(baselines, start, 134) == []
    [finding] = _plate(baselines, start, 136)
    assert finding.rule == "left_on_past_its_routine"
    assert "has drawn 70 W" in finding.reasoning


def test_a_small_load_that_never_heated_is_judged_as_before() -> None:
    """The same runs at 70 W throughout (electronics, a compressor): not told at 6 h."""
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(COFFEE, "", area="Kitchen", device_class="power", unit="W")])
    for n in range(4):
        start = MONDAY + timedelta(days=n // 2, hours=9 + 6 * (n % 2))
        baselines.observe(start, COFFEE, "70")
        baselines.observe(start + timedelta(minutes=45), COFFEE, "0")
    start = MONDAY + timedelta(days=2, hours=9, minutes=5)
    baselines.observe(start, COFFEE, "70")
    meter = entity(COFFEE, "70", device_class="power", unit="W", area="Kitchen")
    home = view(start + timedelta(hours=6), since(meter, start))
    assert list(appliance_running_far_longer(home, baselines)) == []


def test_a_night_heater_still_on_hours_past_the_hour_it_is_always_switched_off() -> None:
    """Set 23 as replayed: ten nights on at 20:25-21:00 and off at 07:05-07:40; on since 20:59 and
    never switched off in the morning. Judged by length only at 32 h; now told once it is
    past its longest run and three hours past every hour it was switched off at (10:00),
    not at 09:59 nor with somebody moving in its room since 08:00."""
    baselines = _heater(10)
    start = MONDAY + timedelta(days=10, hours=20, minutes=59)
    due = MONDAY + timedelta(days=11, hours=10)
    assert _on(baselines, start, (due - start).total_seconds() / 60 - 1) == []
    [finding] = _on(baselines, start, (due - start).total_seconds() / 60 + 1)
    assert finding.rule == "left_on_past_its_routine"
    assert "is always switched off between 07:00 and 08:00 (learned from 10 runs)" in (
        finding.reasoning
    )
    moved = Transition(due - timedelta(minutes=90), MOTION, "on", "Nursery")
    assert _on(baselines, start, (due - start).total_seconds() / 60 + 1, moved) == []


def test_a_plug_always_on_is_judged_by_its_meter_and_told_with_its_switch() -> None:
    """A plug kept on (its switch never changes) whose meter drew on ten evenings from
    20:xx for an hour: drawing since 08:10 is told past its hour (its longest run), the
    switch first in the evidence; at 59 min not yet."""
    plug, meter = "switch.tapo_p110", "sensor.tapo_p110_current_power"
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(meter, "", area="Den", device_class="power", unit="W")])
    for night in range(10):
        start = MONDAY + timedelta(days=night, hours=20, minutes=5 * night)
        baselines.observe(start, meter, "1200")
        baselines.observe(start + timedelta(minutes=60), meter, "0")
    start = MONDAY + timedelta(days=10, hours=8, minutes=10)
    baselines.observe(start, meter, "1200")
    switch = entity(plug, "on", area="Den")
    drawing = since(entity(meter, "1200", device_class="power", unit="W", area="Den"), start)
    assert (
        list(
            left_on_outside_its_hours(
                view(start + timedelta(minutes=59), switch, drawing), baselines
            )
        )
        == []
    )
    [finding] = left_on_outside_its_hours(
        view(start + timedelta(minutes=61), switch, drawing), baselines
    )
    assert finding.evidence == (plug, meter)
    assert "only ever starts drawing between 20:00 and 21:00 (learned from 10 runs)" in (
        finding.reasoning
    )


def test_a_blanket_drawing_again_at_an_hour_it_is_always_on_is_not_told() -> None:
    """Set 15: an electric blanket on every night from 20:30 to 06:15, its plug pulled at
    00:20 and drawing again from 00:36 (as replayed): begun far from 20:00-21:00, but at an
    hour it draws on every night learned: not told at 3 h. The same begun at 09:36 is."""
    blanket = "sensor.frazada_power"
    baselines = HomeBaselines(UTC)
    baselines.describe([EntityInfo(blanket, "", area="Bedroom", device_class="power", unit="W")])
    baselines.watching([blanket], MONDAY)
    baselines.observe(MONDAY, blanket, "0.0")
    for night in range(10):
        start = MONDAY + timedelta(days=night, hours=20, minutes=30)
        baselines.observe(start, blanket, "58.0")
        baselines.observe(start + timedelta(hours=9, minutes=45), blanket, "0.0")
        baselines.advance(start + timedelta(hours=12))
    start = MONDAY + timedelta(days=10, hours=0, minutes=36) + timedelta(days=1)
    baselines.observe(start, blanket, "31.0")
    drawing = since(entity(blanket, "31.0", device_class="power", unit="W", area="Bedroom"), start)
    home = view(start + timedelta(hours=3), drawing)
    assert list(left_on_outside_its_hours(home, baselines)) == []
    baselines.observe(start + timedelta(hours=3, minutes=1), blanket, "0.0")
    later = start + timedelta(hours=9)  # the same run begun at 09:36: an hour it never draws
    baselines.observe(later, blanket, "31.0")
    drawing = since(entity(blanket, "31.0", device_class="power", unit="W", area="Bedroom"), later)
    [finding] = left_on_outside_its_hours(view(later + timedelta(minutes=121), drawing), baselines)
    assert "only ever starts drawing between 20:00 and 01:00 (learned from 11" in finding.reasoning
