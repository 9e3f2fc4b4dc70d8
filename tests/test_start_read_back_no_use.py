"""A lock read back as HA starts was used by nobody (walk 59's left 1; ``opening_uses``).

Walk 59: the front door stood open in the empty home, its lock locked and untouched; HA
restarted at 13:56 and the template lock read ``unlocked`` for a second before it read
``locked`` again. Motion in the hall at 13:57 was told with "It is never used at 13:56"
and "Front door lock was used at 13:56 before it, a time nothing usually comes in": the
restart's read-back taken for somebody turning the key. Nobody did; the door's own
opening is what the words may say. Here with the recorder, as HA reads the window back.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import EVENT_HOMEASSISTANT_STARTED
from homeassistant.core import CoreState, HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from custom_components.anomaly_monitor.core.baselines import HomeBaselines

from .helpers import (
    ALICE,
    FRONT_LOCK,
    LIVING_TEMP,
    SMOKE,
    analyze,
    pass_time,
    put_in_area,
    set_calm_home,
    setup_monitor,
)
from .left_open_while_away import DOOR, DOOR_ATTRS, LOCK_ATTRS, MORNING, messages
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
)

HALL_MOTION = "binary_sensor.hall_motion"
MOTION_ATTRS = {"device_class": "motion", "friendly_name": "Hall motion"}
WATCHED = [SMOKE, FRONT_LOCK, DOOR, HALL_MOTION, ALICE, LIVING_TEMP]


async def _door_open_in_the_empty_home(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> MockConfigEntry:
    """10:00 Alice home, the door shut and locked; out by it at 10:02 (locked behind her);
    the door opened at 10:25 (the lock untouched, locked) and left open till 10:35."""
    freezer.move_to(MORNING)
    put_in_area(hass, "Hall", DOOR, FRONT_LOCK, HALL_MOTION)
    set_calm_home(hass)
    hass.states.async_set(FRONT_LOCK, "locked", LOCK_ATTRS)
    hass.states.async_set(DOOR, "off", DOOR_ATTRS)
    hass.states.async_set(HALL_MOTION, "off", MOTION_ATTRS)
    entry = await setup_monitor(hass, learned=True, include_entities=WATCHED)
    await pass_time(hass, freezer, timedelta(minutes=2))
    for entity_id, state, attributes in (  # Alice out by the front door at 10:02
        (HALL_MOTION, "on", MOTION_ATTRS),
        (FRONT_LOCK, "unlocked", LOCK_ATTRS),
        (DOOR, "on", DOOR_ATTRS),
        (DOOR, "off", DOOR_ATTRS),
        (FRONT_LOCK, "locked", LOCK_ATTRS),
        (HALL_MOTION, "off", MOTION_ATTRS),
        (ALICE, "not_home", {"friendly_name": "Alice"}),
    ):
        hass.states.async_set(entity_id, state, attributes)
        await pass_time(hass, freezer, timedelta(seconds=5))
    await pass_time(hass, freezer, MORNING + timedelta(minutes=25) - dt_util.utcnow())
    hass.states.async_set(DOOR, "on", DOOR_ATTRS)  # 10:25, nobody home
    await pass_time(hass, freezer, MORNING + timedelta(minutes=35) - dt_util.utcnow())
    await async_wait_recording_done(hass)
    return entry


async def _restart(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    entry: MockConfigEntry,
    reads: dict[str, list[str]],
) -> None:
    """HA stops and starts again at 10:35: every state set afresh (its last change the
    start's), each entity of ``reads`` reading its states one after another within the
    start."""
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    hass.set_state(CoreState.starting)
    before = {s.entity_id: s for s in hass.states.async_all()}
    for entity_id, state in before.items():  # HA writes every state afresh as it starts
        first = reads.get(entity_id, [state.state])[0]
        hass.states.async_set(entity_id, first, state.attributes, force_update=True)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    for entity_id, (_, *later) in reads.items():
        for state in later:
            freezer.tick(timedelta(milliseconds=600))
            hass.states.async_set(entity_id, state, before[entity_id].attributes)
    await hass.async_block_till_done()
    freezer.tick(timedelta(seconds=2))
    hass.set_state(CoreState.running)
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STARTED)
    await hass.async_block_till_done(wait_background_tasks=True)


async def _motion_after(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: MockConfigEntry
) -> str:
    """Hall motion at 10:37 (past the start's blink); every reasoning said of it."""
    await pass_time(hass, freezer, timedelta(minutes=2))
    hass.states.async_set(HALL_MOTION, "on", MOTION_ATTRS)
    await pass_time(hass, freezer, timedelta(seconds=20))
    response = await analyze(hass, entry)
    said = [f["reasoning"] for f in response["verdict"]["findings"]]
    said += [n["message"] for n in messages(hass)]
    return "\n".join(said)


async def test_a_lock_read_back_as_ha_starts_is_no_use(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk 59's restart: the motion after it is told of the door's opening at 10:25, not
    of the lock read back at 10:35 (main: "Front door lock was used at 10:35 before it")."""
    entry = await _door_open_in_the_empty_home(hass, freezer)
    reads = {DOOR: ["unknown", "on"], FRONT_LOCK: ["unlocked", "locked"]}
    await _restart(hass, freezer, entry, reads)
    said = await _motion_after(hass, freezer, entry)
    assert "Front door has stood open since 10:25" in said  # told, and from its opening
    assert "used at 10:35" not in said


async def test_a_lock_unlocked_while_ha_was_down_is_a_use(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The check can fail: locked before the start and read ``unlocked`` as it settles,
    the key was turned while HA was down: a use, at the moment it was read."""
    entry = await _door_open_in_the_empty_home(hass, freezer)
    reads = {DOOR: ["unknown", "on"], FRONT_LOCK: ["unknown", "unlocked"]}
    await _restart(hass, freezer, entry, reads)
    said = await _motion_after(hass, freezer, entry)
    assert "used at 10:35" in said


def test_a_lock_read_back_as_ha_starts_is_learned_as_no_use() -> None:
    """The baselines' stream (``start_blinks``): locked since 09:00, the home empty;
    learning resumes at 10:35 and the lock reads ``unlocked`` for a second: no unlock is
    learned, no opening of the away spell. Unlocked for good, it is learned at its time."""
    day = datetime(2026, 3, 10, tzinfo=UTC)
    for lasting in (False, True):
        baselines = HomeBaselines(UTC)
        baselines.observe(day + timedelta(hours=9), FRONT_LOCK, "locked")
        baselines.observe(day + timedelta(hours=9, minutes=30), ALICE, "not_home")
        baselines.resumed = day + timedelta(hours=10, minutes=35)
        read = day + timedelta(hours=10, minutes=35, seconds=1)
        baselines.observe(read, FRONT_LOCK, "unlocked")
        if not lasting:
            baselines.observe(read + timedelta(seconds=1), FRONT_LOCK, "locked")
        baselines.advance(read + timedelta(minutes=5))
        opened = [when for when, e, _ in baselines.away.spell if e == FRONT_LOCK]
        assert (FRONT_LOCK in baselines.unlocks, opened) == (lasting, [read] if lasting else [])


def test_a_lock_back_through_unknown_at_a_start_reads_its_state() -> None:
    """A lock that comes back through ``unknown`` (held as a blip) and reads unlocked is
    learned unlocked at once, as before: only a lock read straight from locked blinks."""
    day = datetime(2026, 3, 10, tzinfo=UTC)
    baselines = HomeBaselines(UTC)
    baselines.observe(day + timedelta(hours=9), FRONT_LOCK, "locked")
    baselines.resumed = day + timedelta(hours=10, minutes=35)
    read = day + timedelta(hours=10, minutes=35, seconds=1)
    baselines.observe(read, FRONT_LOCK, "unknown")
    baselines.observe(read + timedelta(seconds=1), FRONT_LOCK, "unlocked")
    assert baselines.durations.current[FRONT_LOCK][0] == "unlocked"
