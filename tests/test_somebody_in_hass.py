"""Every tracker away is not an empty home when the home shows somebody inside (real hass).

The home of ``test_away_normal`` lived ten days (Alice out 08:00-17:00 on weekdays, the dog
in the living room, the walker at 12:00). On the eleventh morning Alice's phone goes off
at 07:50 while she stays in (a Shabbat, a flat battery) after unlocking the front door:
the hall and the bedroom go on moving, so "unlocked while nobody is home" is not told.
If instead she goes out by the front door and nothing moves after, the unlocked door is
told. Somebody untracked inside (a house-sitter) who goes out by the front door at 09:00
is not an entry; a door opened into the quiet home is told at once. Where nobody was ever
in while Alice was out (she lives alone), motion after she left is told.
"""

from __future__ import annotations

from collections.abc import Callable

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.core.models import Transition
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .helpers import analyze, monitor_options, put_in_area
from .test_away_normal import (
    ALICE,
    BACK,
    BEDROOM,
    DOOR,
    HALL,
    LIVING,
    LOCK,
    at,
    day_of_life,
    lived,
)

AWAY_RULES = {
    "motion_while_away",
    "activity_while_away",
    "entry_unsecured_while_away",
    "window_opened_while_away",
}
WATCHED = [DOOR, LOCK, HALL, LIVING, BEDROOM, BACK, ALICE]
DAY = 10  # a Thursday
_CLASSES = {DOOR: "door", BACK: "door", HALL: "motion", LIVING: "motion", BEDROOM: "motion"}


def _alone(day: int) -> list[Transition]:
    """Alice lives alone with the dog: no walker, nobody else ever in while she is out."""
    return [t for t in day_of_life(day) if t.entity_id not in (DOOR, LOCK, HALL)]


async def _home_at(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hours: float,
    life: Callable[[int], list[Transition]] = day_of_life,
) -> None:
    """The monitor set up at ``hours`` on the eleventh day, ten days learned, Alice home."""
    freezer.move_to(at(DAY, hours))
    await hass.config.async_set_time_zone("UTC")
    put_in_area(hass, "Hall", DOOR, LOCK, HALL)
    put_in_area(hass, "Living", LIVING)
    put_in_area(hass, "Bedroom", BEDROOM)
    put_in_area(hass, "Kitchen", BACK)
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    hass.states.async_set(LOCK, "locked", {"friendly_name": "Front door lock"})
    for entity_id, device_class in _CLASSES.items():
        hass.states.async_set(entity_id, "off", {"device_class": device_class})
    entry = MockConfigEntry(
        domain=DOMAIN, title="Home", options=monitor_options(**{CONF_INCLUDE_ENTITIES: WATCHED})
    )
    entry.add_to_hass(hass)
    await baseline_store(hass, entry.entry_id).async_save(lived(DAY, life).as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


async def _live(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, *steps: tuple[float, str, str]
) -> set[str]:
    """Each (hour, entity, state) in turn, an analysis after each; the away rules told."""
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    for hours, entity_id, state in steps:
        freezer.move_to(at(DAY, hours))
        attributes = {"device_class": _CLASSES[entity_id]} if entity_id in _CLASSES else {}
        hass.states.async_set(entity_id, state, attributes)
        await hass.async_block_till_done()
        await analyze(hass)
        await hass.async_block_till_done()
    return {e.data["rule"] for e in detected} & AWAY_RULES


def _minutes(hours: float, minutes: float) -> float:
    return hours + minutes / 60


async def test_a_phone_off_while_she_stays_in_is_not_an_empty_home(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await _home_at(hass, freezer, 7.5)
    told = await _live(
        hass,
        freezer,
        (_minutes(7, 40), BEDROOM, "on"),
        (_minutes(7, 41), BEDROOM, "off"),
        (_minutes(7, 45), LOCK, "unlocked"),  # unlocked for the day, the door shut
        (_minutes(7, 50), ALICE, "not_home"),  # her phone off: no door opened
        (_minutes(7, 58), HALL, "on"),
        (_minutes(7, 59), HALL, "off"),
        (_minutes(8, 5), BEDROOM, "on"),
        (_minutes(8, 6), BEDROOM, "off"),
        (_minutes(8, 20), HALL, "on"),
        (_minutes(8, 21), HALL, "off"),
    )
    assert told == set()


async def test_the_door_left_unlocked_as_she_went_out_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await _home_at(hass, freezer, 7.5)
    told = await _live(
        hass,
        freezer,
        (_minutes(7, 40), BEDROOM, "on"),
        (_minutes(7, 41), BEDROOM, "off"),
        (_minutes(7, 45), LOCK, "unlocked"),
        (_minutes(7, 48), DOOR, "on"),  # out by the front door
        (_minutes(7, 48.5), DOOR, "off"),
        (_minutes(7, 50), ALICE, "not_home"),
        (_minutes(8, 20), BACK, "off"),  # nothing moves; the monitor looks again
    )
    assert "entry_unsecured_while_away" in told


async def test_somebody_inside_going_out_is_not_an_entry(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Alice has gone out; the house-sitter (no tracker) gets up and goes out at 09:00."""
    await _home_at(hass, freezer, 7.9)
    await _live(hass, freezer, (8.0, ALICE, "not_home"))
    told = await _live(
        hass,
        freezer,
        (_minutes(8, 30), BEDROOM, "on"),  # the sitter (told or not: not the point here)
        (_minutes(8, 31), BEDROOM, "off"),
        (_minutes(8, 50), HALL, "on"),
        (_minutes(8, 51), HALL, "off"),
    )
    told = await _live(
        hass,
        freezer,
        (9.0, LOCK, "unlocked"),
        (_minutes(9, 0.2), DOOR, "on"),
        (_minutes(9, 0.5), DOOR, "off"),
        (_minutes(9, 1), LOCK, "locked"),
    )
    assert "entry_unsecured_while_away" not in told


async def test_a_door_opened_into_the_quiet_empty_home_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    await _home_at(hass, freezer, 7.9)
    await _live(hass, freezer, (8.0, ALICE, "not_home"))
    told = await _live(hass, freezer, (9.0, LOCK, "unlocked"), (_minutes(9, 0.2), DOOR, "on"))
    assert "entry_unsecured_while_away" in told


async def test_a_door_opened_after_the_one_inside_went_out_is_told(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The house-sitter went out at 09:00 and nothing moved since: the back door opening
    at 09:30 is somebody coming in, told at once."""
    await _home_at(hass, freezer, 7.9)
    await _live(hass, freezer, (8.0, ALICE, "not_home"))
    await _live(
        hass,
        freezer,
        (_minutes(8, 50), HALL, "on"),
        (_minutes(8, 51), HALL, "off"),
        (9.0, LOCK, "unlocked"),
        (_minutes(9, 0.2), DOOR, "on"),
        (_minutes(9, 0.5), DOOR, "off"),
        (_minutes(9, 1), LOCK, "locked"),
    )
    told = await _live(hass, freezer, (9.5, BACK, "on"))
    assert "entry_unsecured_while_away" in told


async def test_motion_after_she_went_out_is_told_where_nobody_stays_in(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Alice lives alone: the home was never lived in while she was out, so the bedroom
    moving 20 min after she left by the front door is not "somebody who stayed in"."""
    await _home_at(hass, freezer, 7.5, _alone)
    told = await _live(
        hass,
        freezer,
        (_minutes(7, 40), BEDROOM, "on"),
        (_minutes(7, 41), BEDROOM, "off"),
        (_minutes(7, 48), DOOR, "on"),
        (_minutes(7, 48.5), DOOR, "off"),
        (_minutes(7, 50), ALICE, "not_home"),
        (_minutes(8, 10), BEDROOM, "on"),
    )
    assert told & {"motion_while_away", "activity_while_away"}


async def test_a_motion_sensor_back_from_a_radio_drop_is_nobody_inside(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The bedroom's sensor drops off the network in the quiet empty home and comes back
    "off": nobody moved. The back door forced ten minutes later is an entry, told at once
    (not "opened by somebody inside")."""
    await _home_at(hass, freezer, 7.9)
    await _live(hass, freezer, (8.0, ALICE, "not_home"))
    await _live(
        hass,
        freezer,
        (_minutes(9, 5), BEDROOM, "unavailable"),
        (_minutes(9, 8), BEDROOM, "off"),
    )
    told = await _live(hass, freezer, (_minutes(9, 18), BACK, "on"))
    assert "entry_unsecured_while_away" in told


async def test_motion_ending_before_a_door_still_shows_somebody_inside(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """The same hour, but the bedroom moved (on, then off) before the back door opened:
    somebody inside opened it, as before the radio drop was told apart."""
    await _home_at(hass, freezer, 7.9)
    await _live(hass, freezer, (8.0, ALICE, "not_home"))
    await _live(
        hass,
        freezer,
        (_minutes(9, 5), BEDROOM, "on"),
        (_minutes(9, 8), BEDROOM, "off"),
    )
    told = await _live(hass, freezer, (_minutes(9, 18), BACK, "on"))
    assert "entry_unsecured_while_away" not in told
