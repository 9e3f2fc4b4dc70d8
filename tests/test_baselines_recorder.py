"""Baselines in a real hass with the recorder: history learned on start, stillness told."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.const import (
    CONF_EXCLUDE_ENTITIES,
    CONF_HISTORY_DAYS,
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
    SIGNIFICANT_DEBOUNCE,
)
from custom_components.anomaly_monitor.diagnostics import async_get_config_entry_diagnostics
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import analyze, put_in_area
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)

KITCHEN = "binary_sensor.kitchen_motion"
HALL = "binary_sensor.hall_motion"
ROSE = "person.rose"
MOTION = {"device_class": "motion"}


async def _live_a_week(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime
) -> None:
    """Six days of Rose at home: up from 07:00 to 21:00, passing a sensor every 20 min."""
    freezer.move_to(today - timedelta(days=6))
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    hass.states.async_set(KITCHEN, "off", MOTION)
    hass.states.async_set(HALL, "off", MOTION)
    for day in range(6, 0, -1):
        morning = today - timedelta(days=day) + timedelta(hours=7)
        for minute in range(0, 14 * 60, 20):
            sensor = KITCHEN if minute % 40 else HALL
            freezer.move_to(morning + timedelta(minutes=minute))
            hass.states.async_set(sensor, "on", MOTION)
            freezer.move_to(morning + timedelta(minutes=minute + 1))
            hass.states.async_set(sensor, "off", MOTION)
        await async_wait_recording_done(hass)


async def _setup(
    hass: HomeAssistant,
    days: int,
    watched: tuple[str, ...] = (KITCHEN, HALL),
    left_out: tuple[str, ...] = (),
) -> MockConfigEntry:
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options={
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: list(watched),
            CONF_EXCLUDE_ENTITIES: list(left_out),
            CONF_HISTORY_DAYS: days,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    return entry


def _rules(response: dict[str, Any]) -> list[str]:
    return [f["rule"] for f in response["verdict"]["findings"]]


@pytest.mark.parametrize(("days", "learned"), [(14, True), (0, False)])
async def test_history_is_learned_on_start_and_stillness_is_told(
    recorder_mock: Any,
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    days: int,
    learned: bool,
) -> None:
    """A week of routine in the recorder; today Rose moved last at 08:00.

    With the history learned on start, 3.5 hours of stillness at 11:30 is far beyond
    anything the week showed at those hours: told. With history off, the monitor starts
    from zero and only its conservative default (12 hours) would apply: not yet told.
    """
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    await _live_a_week(hass, freezer, today)
    freezer.move_to(today + timedelta(hours=7, minutes=59))
    hass.states.async_set(KITCHEN, "on", MOTION)
    freezer.move_to(today + timedelta(hours=8))
    hass.states.async_set(KITCHEN, "off", MOTION)
    await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=8, minutes=30))
    entry = await _setup(hass, days)
    # (Called directly: the test's moves in time expire the HTTP client's token.)
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    if learned:
        assert summary["history_status"] == "loaded"
        assert summary["history_rows"] > 400
        assert summary["days_with_quiet_spells"] >= 6
        assert summary["hours_of_day_learned"] == 24
    else:
        assert summary["history_status"] == "disabled"
        assert summary["days_with_quiet_spells"] == 0
    assert KITCHEN not in str(summary)  # counts only

    freezer.move_to(today + timedelta(hours=9, minutes=30))
    early = _rules(await analyze(hass, entry))
    assert "no_movement_while_home" not in early
    # Three times this home's usual quiet at 08-09 (19 min): told by where she was last
    # seen, two hours before the whole home's three-hour floor (``still_where_last_seen``).
    assert ("still_in_room_far_longer" in early) is learned

    freezer.move_to(today + timedelta(hours=11, minutes=30))
    response = await analyze(hass, entry)
    if not learned:
        assert "no_movement_while_home" not in _rules(response)
        return
    finding = next(
        f for f in response["verdict"]["findings"] if f["rule"] == "no_movement_while_home"
    )
    assert sorted(finding["evidence"]) == [HALL, KITCHEN]
    assert finding["subject"] == "home"
    assert "3 h 30 min" in finding["reasoning"]
    # Told to the homeowner: one notification for the one stillness, saying why in words
    # (at 09:30; the whole home's finding joined it).
    notes = [
        note
        for key, note in _async_get_or_create_notifications(hass).items()
        if key.startswith(f"{DOMAIN}_{entry.entry_id}_")
    ]
    assert len(notes) == 1
    assert "last seen moving 1 h 30 min ago" in notes[0]["message"]

    # Rose moves: the stillness is over.
    hass.states.async_set(HALL, "on", MOTION)
    await hass.async_block_till_done()
    assert "no_movement_while_home" not in _rules(await analyze(hass, entry))


async def test_learning_goes_on_from_the_live_stream_and_survives_a_reload(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Without history, live changes teach the baseline; a reload keeps what was learned."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    freezer.move_to(today)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    hass.states.async_set(KITCHEN, "off", MOTION)
    entry = await _setup(hass, 0)
    for minute in range(0, 600, 30):
        freezer.move_to(today + timedelta(hours=7, minutes=minute))
        async_fire_time_changed(hass)  # the keeper's tick learns the watcher's new changes
        hass.states.async_set(KITCHEN, "on" if minute % 60 else "off", MOTION)
        await hass.async_block_till_done()
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    assert keeper.current() is keeper.baselines  # reading catches up with the watcher
    assert keeper.baselines.events >= 19
    assert keeper.baselines.quiet.days_seen() == 1
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    reloaded = entry.runtime_data.baselines
    assert reloaded is not keeper
    assert reloaded is not None
    assert reloaded.baselines.events == keeper.baselines.events
    assert reloaded.baselines.quiet.days_seen() == 1
    # Removing the monitor forgets what it learned.
    assert await baseline_store(hass, entry.entry_id).async_load() is not None
    await hass.config_entries.async_remove(entry.entry_id)
    assert await baseline_store(hass, entry.entry_id).async_load() is None


async def test_a_busy_home_still_writes_its_baselines(
    recorder_mock: Any,
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_storage: dict[str, Any],
) -> None:
    """Changes every minute must not postpone the write for ever.

    Learned every 15 minutes from the watcher's buffer, written within 10 minutes after.
    """
    hass.states.async_set(ROSE, "home")
    hass.states.async_set(KITCHEN, "off", MOTION)
    entry = await _setup(hass, 0)
    key = f"{DOMAIN}.{entry.entry_id}.baselines"
    for minute in range(27):
        freezer.tick(timedelta(minutes=1))
        hass.states.async_set(KITCHEN, "on" if minute % 2 else "off", MOTION)
        async_fire_time_changed(hass)
        await hass.async_block_till_done()
    assert key in hass_storage
    assert hass_storage[key]["data"]["events"] >= 12


PLUG = "sensor.garage_plug_power"  # a chest freezer, by a name that says nothing
POWER = {"device_class": "power", "unit_of_measurement": "W", "friendly_name": "Garage plug"}


async def test_a_freezer_cycle_learned_from_the_recorder_tells_it_stopped(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Four days in the recorder of a plug running 20 min and resting 40, day and night.

    Learned on start, its cycle says it always starts again within 40 min: idle since 08:20
    (its last run 08:00-08:20, then standby only), it is not told at 10:10 (3 x 40 min =
    2 h) and is told at 10:40, with no word of its name (the word rule for fridges cannot
    see it).
    """
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    moment = today - timedelta(days=4)
    while moment < today + timedelta(hours=9):
        freezer.move_to(moment)
        hass.states.async_set(PLUG, "85.0", POWER)
        freezer.move_to(moment + timedelta(minutes=20))
        hass.states.async_set(PLUG, "1.5", POWER)
        moment += timedelta(hours=1)
    freezer.move_to(today + timedelta(hours=9))
    hass.states.async_set(PLUG, "0.4", POWER)  # the breaker tripped: standby only
    await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=9, minutes=30))
    entry = await _setup(hass, 14, (PLUG,))
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert summary["history_status"] == "loaded"
    assert summary["entities_with_durations"] == 1  # the plug's running and idle spells

    freezer.move_to(today + timedelta(hours=10, minutes=10))
    assert "cycle_stopped" not in _rules(await analyze(hass, entry))
    freezer.move_to(today + timedelta(hours=10, minutes=40))
    response = await analyze(hass, entry)
    finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "cycle_stopped")
    assert finding["evidence"] == [PLUG]
    assert "2 h 20 min" in finding["reasoning"]
    assert "within 40 min" in finding["reasoning"]
    assert "fridge_stopped_cycling" not in _rules(response)


async def test_a_sensor_that_never_changes_is_profiled_from_its_current_state(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """No history, and a room sensor that reports only on change and does not change:
    its state at start-up is its first reading, and its hours are learned from it."""
    study = "sensor.study_temperature"
    hass.states.async_set(
        study, "19.5", {"device_class": "temperature", "unit_of_measurement": "°C"}
    )
    entry = await _setup(hass, 0, (study,))
    for _ in range(12):  # three hours of the keeper's 15-minute ticks
        freezer.tick(timedelta(minutes=15))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    hours = keeper.baselines.profiles.hours[study]
    learned = [v for values in hours for _, v in values]
    assert len(learned) >= 2  # two full hours, and the first if half of it was watched
    assert set(learned) == {19.5}


SWITCH, SWITCH_METER = "switch.plug_3", "sensor.plug_3_power"  # a heater, by plain names
METER_ATTRS = {"device_class": "power", "unit_of_measurement": "W"}


async def test_a_switch_whose_meter_no_longer_follows_learned_from_the_recorder(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Twelve mornings in the recorder: the study's plug on at 07:30, its meter at 1450 W two
    seconds later. Learned on start (the pair chosen by area and class: both in the study),
    today's plug on at 07:30 with the meter still at standby is not told at 07:44 and is
    told at 07:50 (15 minutes at least), naming the plug and its meter."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    put_in_area(hass, "Study", *(SWITCH, SWITCH_METER))
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    freezer.move_to(today - timedelta(days=12))
    hass.states.async_set(SWITCH, "off")
    hass.states.async_set(SWITCH_METER, "0.5", METER_ATTRS)
    for day in range(12, 0, -1):
        morning = today - timedelta(days=day) + timedelta(hours=7, minutes=30)
        for offset, entity_id, state in (
            (0, SWITCH, "on"),
            (2, SWITCH_METER, "1450.0"),
            (3600, SWITCH, "off"),
            (3602, SWITCH_METER, "0.5"),
        ):
            freezer.move_to(morning + timedelta(seconds=offset))
            hass.states.async_set(entity_id, state, METER_ATTRS if "power" in entity_id else {})
    freezer.move_to(today + timedelta(hours=7, minutes=30))
    hass.states.async_set(SWITCH, "on")  # and the heater draws nothing
    await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=7, minutes=31))
    entry = await _setup(hass, 14, (SWITCH, SWITCH_METER))
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert summary["history_status"] == "loaded"
    assert summary["related_pairs"] == 1

    freezer.move_to(today + timedelta(hours=7, minutes=44))
    assert "switched_on_without_power" not in _rules(await analyze(hass, entry))
    freezer.move_to(today + timedelta(hours=7, minutes=50))
    response = await analyze(hass, entry)
    finding = next(
        f for f in response["verdict"]["findings"] if f["rule"] == "switched_on_without_power"
    )
    assert finding["evidence"] == [SWITCH, SWITCH_METER]
    assert "has been on for 20 min" in finding["reasoning"]
    assert "within 2 s" in finding["reasoning"]
    assert "12 of 12 times learned" in finding["reasoning"]

    # The heater starts drawing: the link holds again, nothing more to tell.
    hass.states.async_set(SWITCH_METER, "1450.0", METER_ATTRS)
    await hass.async_block_till_done()
    assert "switched_on_without_power" not in _rules(await analyze(hass, entry))


CLIMATE, ROOM = "climate.living_room", "sensor.living_temperature"
ROOM_ATTRS = {"device_class": "temperature", "unit_of_measurement": "°C"}


def _thermostat(hass: HomeAssistant, action: str, room: str) -> None:
    hass.states.async_set(
        CLIMATE, "heat", {"hvac_action": action, "temperature": 21, "current_temperature": room}
    )


async def test_heating_that_does_not_warm_learned_from_the_recorder(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Twelve mornings in the recorder: the thermostat heating from 06:00 (its mode "heat"
    all along: only its ``hvac_action`` says when it heats), the room 17.0 → 17.3 → 18.0 °C
    by 06:40. The history is read with the thermostat's attributes, so its onsets are
    learned on start; today the room stays at 17.0: not told at 07:50 (3 × 40 min = 2 h),
    told at 08:10, naming the thermostat and the thermometer."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    put_in_area(hass, "Living room", *(CLIMATE, ROOM))
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    freezer.move_to(today - timedelta(days=12))
    _thermostat(hass, "idle", "17.0")
    hass.states.async_set(ROOM, "17.0", ROOM_ATTRS)
    for day in range(12, 0, -1):
        morning = today - timedelta(days=day) + timedelta(hours=6)
        for minutes, action, room in (
            (0, "heating", "17.0"),
            (20, None, "17.3"),
            (40, None, "18.0"),
        ):
            freezer.move_to(morning + timedelta(minutes=minutes))
            if action:
                _thermostat(hass, action, room)
            hass.states.async_set(ROOM, room, ROOM_ATTRS)
        freezer.move_to(morning + timedelta(hours=3))
        _thermostat(hass, "idle", "18.0")
        freezer.move_to(morning + timedelta(hours=15))
        hass.states.async_set(ROOM, "17.0", ROOM_ATTRS)
    freezer.move_to(today + timedelta(hours=6))
    _thermostat(hass, "heating", "17.0")  # the boiler does not fire
    await async_wait_recording_done(hass)

    freezer.move_to(today + timedelta(hours=6, minutes=5))
    entry = await _setup(hass, 14, (CLIMATE, ROOM))
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    stats = keeper.baselines.relations.pairs[(CLIMATE, ROOM)]
    assert (stats.onsets, stats.followed) == (12, 12)

    freezer.move_to(today + timedelta(hours=7, minutes=50))
    assert "heating_not_warming" not in _rules(await analyze(hass, entry))
    freezer.move_to(today + timedelta(hours=8, minutes=10))
    response = await analyze(hass, entry)
    finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "heating_not_warming")
    assert finding["evidence"] == [CLIMATE, ROOM]
    assert "heating for 2 h 10 min, set to 21 °C" in finding["reasoning"]
    assert "within 40 min" in finding["reasoning"]
    assert "12 of 12 times learned" in finding["reasoning"]


@pytest.mark.parametrize("days", [14, 0])
async def test_a_sensor_that_appears_after_the_monitor_is_profiled_from_the_live_stream(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory, days: int
) -> None:
    """A room sensor with no state yet when the monitor starts (its integration sets up
    later, or it is added afterwards) was described without its device class and never
    profiled: diagnostics showed 0 hour profiles after hours of live readings (a live
    walk). Described at its first change, its hours are learned."""
    study = "sensor.study_temperature"
    entry = await _setup(hass, days, (study,))
    attributes = {"device_class": "temperature", "unit_of_measurement": "°C"}
    for step in range(10):  # 2.5 hours of readings, the keeper ticking every 15 minutes
        hass.states.async_set(study, f"{19.5 + step / 10:.1f}", attributes)
        freezer.tick(timedelta(minutes=15))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert summary["entities_with_hour_profiles"] == 1


async def test_the_outdoor_temperature_is_learned_hour_by_hour(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The weather entity's temperature is read at every tick and its hours learned (so a
    room cooling with a cold snap can be told from a fault); nothing of it in diagnostics
    but a count."""
    hass.states.async_set("weather.home", "cloudy", {"temperature": 4.5})
    study = "sensor.study_temperature"
    hass.states.async_set(
        study, "19.5", {"device_class": "temperature", "unit_of_measurement": "°C"}
    )
    entry = await _setup(hass, 0, (study,))
    for step in range(12):  # three hours of ticks, the weather a little colder each hour
        if step % 4 == 0:
            hass.states.async_set("weather.home", "cloudy", {"temperature": 4.5 - step / 4})
        freezer.tick(timedelta(minutes=15))
        async_fire_time_changed(hass)
        await hass.async_block_till_done()
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    learned = [v for values in keeper.baselines.profiles.hours["outdoor"] for _, v in values]
    assert 2 <= len(learned) <= 3
    assert all(2.0 <= value <= 4.5 for value in learned)
    summary = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert summary["entities_with_hour_profiles"] == 1  # the study; the weather apart
    assert summary["outdoor_hours_learned"] in {1, 2}  # days (the three hours may span midnight)


async def _four_days_of_a_freezer_plug(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, today: datetime
) -> None:
    """The plug ran 20 min of every hour for four days; since 09:00 standby only."""
    moment = today - timedelta(days=4)
    hass.states.async_set(HALL, "off", MOTION)
    while moment < today + timedelta(hours=9):
        freezer.move_to(moment)
        hass.states.async_set(PLUG, "85.0", POWER)
        freezer.move_to(moment + timedelta(minutes=20))
        hass.states.async_set(PLUG, "1.5", POWER)
        moment += timedelta(hours=1)
    freezer.move_to(today + timedelta(hours=9))
    hass.states.async_set(PLUG, "0.4", POWER)
    await async_wait_recording_done(hass)


@pytest.mark.parametrize("change", ["plug_added", "days_raised"])
async def test_history_the_stored_baselines_never_read_is_learned_after_an_options_change(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory, change: str
) -> None:
    """Seen in a live hass: a plug the homeowner added to the watched entities after the
    first start never had its history learned (the stored baselines had read up to then,
    so only what came after was read), and neither had older days once *Learn from
    history* was raised. Both start the learning over from the recorder; a reload with
    nothing new reads only what is new."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    await _four_days_of_a_freezer_plug(hass, freezer, today)
    freezer.move_to(today + timedelta(hours=9, minutes=30))
    if change == "plug_added":
        # Every power meter is watched by default: the homeowner had left this one out.
        entry = await _setup(hass, 14, (HALL,), (PLUG,))
        options = {**entry.options, CONF_INCLUDE_ENTITIES: [HALL, PLUG], CONF_EXCLUDE_ENTITIES: []}
    else:
        entry = await _setup(hass, 1, (HALL, PLUG))
        options = {**entry.options, CONF_HISTORY_DAYS: 14}
    before = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert before["history_status"] == "loaded"
    assert before["history_rebuilt"] is False

    freezer.move_to(today + timedelta(hours=9, minutes=40))
    hass.config_entries.async_update_entry(entry, options=options)
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    after = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert after["history_status"] == "loaded"
    assert after["history_rebuilt"] is True
    assert after["history_rows"] > 150  # four days of the plug's cycles
    assert after["entities_with_durations"] == 1

    freezer.move_to(today + timedelta(hours=10, minutes=40))
    response = await analyze(hass, entry)
    finding = next(f for f in response["verdict"]["findings"] if f["rule"] == "cycle_stopped")
    assert finding["evidence"] == [PLUG]

    # Nothing new: the next start reads only the minutes since.
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    again = (await async_get_config_entry_diagnostics(hass, entry))["baselines"]
    assert again["history_rebuilt"] is False
    assert again["history_rows"] < 20
    assert again["entities_with_durations"] == 1


async def test_the_home_is_judged_again_once_its_history_is_learned(
    recorder_mock: Any, hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Seen in a live hass: the first analysis after the start ran before the history was
    learned (it loads in the background), so a room off its hours was told only by the
    next periodic analysis, 15 min later. Once learned, the home is judged again."""
    await hass.config.async_set_time_zone("Europe/Brussels")
    today = dt_util.start_of_local_day(dt_util.now() - timedelta(days=1))
    await _four_days_of_a_freezer_plug(hass, freezer, today)
    freezer.move_to(today + timedelta(hours=10, minutes=40))  # idle 2 h 20 min: told at once
    entry = await _setup(hass, 14, (HALL, PLUG))
    coordinator = entry.runtime_data.coordinator
    freezer.tick(SIGNIFICANT_DEBOUNCE + timedelta(seconds=1))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert coordinator.data.analysis is not None
    assert "cycle_stopped" in _rules({"verdict": coordinator.data.analysis.verdict.as_dict()})


async def test_onboardings_owner_is_not_learned_from_the_recorder(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk 44: onboarding's owner (no tracker, ``unknown`` for ever), watched as an
    exposed entity, was learned from the recorder's rows: its never-known place kept the
    baselines from ever knowing the home empty (the leaving grace never held)."""
    today = dt_util.start_of_local_day(dt_util.now())
    freezer.move_to(today - timedelta(hours=5))
    owner = ("person.owner", "unknown", {"device_trackers": [], "friendly_name": "Owner"})
    hass.states.async_set(*owner)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    hass.states.async_set(KITCHEN, "off", MOTION)
    freezer.move_to(today - timedelta(hours=4))
    hass.states.async_set(ROSE, "not_home", {"friendly_name": "Rose"})
    await async_wait_recording_done(hass)
    freezer.move_to(today - timedelta(hours=3))
    entry = await _setup(hass, 1, watched=(KITCHEN, "person.owner"))
    keeper = entry.runtime_data.baselines
    assert keeper is not None
    assert keeper.history_status == "loaded"
    assert "person.owner" not in keeper.baselines.quiet.presence
    assert keeper.baselines.quiet.occupied is False
