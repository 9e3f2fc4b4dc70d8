"""``check_instruction`` reading HA-Assist-style English against a test home with floors.

The home (benchmark_replay/assist/home.py) has two floors, seven areas, named and aliased
lights, fans, covers, locks, thermostats, a playing TV, a vacuum and two heaters in the
office. Sentences follow HA's own templates; the expected calls are what Assist's intent
handlers do (the benchmark scripts/bench_assist_sentences.py checks that on ~600 sentences
against HA's conversation agent itself).
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component
import pytest

from benchmark_replay.assist.home import AssistHome, async_build_assist_home
from custom_components.anomaly_monitor.const import DOMAIN
from custom_components.anomaly_monitor.core.instructions import async_plan_instruction
from custom_components.anomaly_monitor.instructions.home import async_build_home_capabilities
from custom_components.anomaly_monitor.instructions.service import (
    SERVICE_CHECK_INSTRUCTION,
    async_register_instruction_service,
)

FIRST_FLOOR_LIGHTS = {
    "light.overhead_light",
    "light.floor_lamp",
    "light.kitchen_lighting",
    "light.hallway_light",
    "light.desk_lamp",
    "light.garage_light",
}
ALL_LIGHTS = FIRST_FLOOR_LIGHTS | {"light.bedroom_lamp", "light.bathroom_light"}


@pytest.fixture
async def home(hass: HomeAssistant) -> AssistHome:
    """The test home, with the action registered."""
    hass.config.language = "en"
    assert await async_setup_component(hass, "homeassistant", {})
    built = await async_build_assist_home(hass)
    async_register_instruction_service(hass)
    return built


async def _check(hass: HomeAssistant, instruction: str, **extra: Any) -> dict[str, Any]:
    response = await hass.services.async_call(
        DOMAIN,
        SERVICE_CHECK_INSTRUCTION,
        {"instruction": instruction, **extra},
        blocking=True,
        return_response=True,
    )
    assert isinstance(response, dict)
    return response


def _calls(response: dict[str, Any]) -> set[tuple[str, str, tuple[tuple[str, Any], ...]]]:
    return {
        (op["service"], op["entity_id"], tuple(sorted(op["data"].items())))
        for op in response["operations"]
    }


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # names and aliases
        (
            "set Overhead Light brightness to one hundred percent",
            {("light.turn_on", "light.overhead_light", (("brightness_pct", 100),))},
        ),
        (
            "bedroom lamp maximum brightness",
            {("light.turn_on", "light.bedroom_lamp", (("brightness_pct", 100),))},
        ),
        ("turn on the ceiling light", {("light.turn_on", "light.overhead_light", ())}),
        # plain on/off with an area
        (
            "can you turn the lights on in the living room?",
            {
                ("light.turn_on", "light.overhead_light", ()),
                ("light.turn_on", "light.floor_lamp", ()),
            },
        ),
        ("kitchen lighting off", {("light.turn_off", "light.kitchen_lighting", ())}),
        # floors and the whole home
        (
            "activate first floor lights",
            {("light.turn_on", e, ()) for e in FIRST_FLOOR_LIGHTS},
        ),
        # (HA 2026.10's templates only turn every light off, no longer on)
        ("turn off every light everywhere", {("light.turn_off", e, ()) for e in ALL_LIGHTS}),
        (
            "turn off the upstairs lights",
            {
                ("light.turn_off", "light.bedroom_lamp", ()),
                ("light.turn_off", "light.bathroom_light", ()),
            },
        ),
        # locks, media, vacuum, covers, climate, fans
        ("Lock the front door", {("lock.lock", "lock.front_door", ())}),
        ("unlock the back door", {("lock.unlock", "lock.back_door", ())}),
        ("next track", {("media_player.media_next_track", "media_player.living_room_tv", ())}),
        (
            "previous track on the television",
            {("media_player.media_previous_track", "media_player.living_room_tv", ())},
        ),
        ("start Rosie", {("vacuum.start", "vacuum.robot_vacuum", ())}),
        (
            "return the robot vacuum to base",
            {("vacuum.return_to_base", "vacuum.robot_vacuum", ())},
        ),
        ("open the garage door", {("cover.open_cover", "cover.garage_door", ())}),
        (
            "set the bedroom blinds to 40%",
            {("cover.set_cover_position", "cover.bedroom_blinds", (("position", 40),))},
        ),
        (
            "set the bedroom temperature to 19 degrees",
            {("climate.set_temperature", "climate.bedroom_thermostat", (("temperature", 19.0),))},
        ),
        (
            "set the ceiling fan speed to 60%",
            {("fan.turn_on", "fan.ceiling_fan", (("percentage", 60.0),))},
        ),
        # an alias names one of the office's two heaters
        ("turn on the heater", {("switch.turn_on", "switch.office_heater", ())}),
    ],
)
async def test_assist_sentences_plan_assist_calls(
    hass: HomeAssistant, home: AssistHome, sentence: str, expected: set[Any]
) -> None:
    """Each sentence plans exactly the calls Assist's handlers make, and nothing is refused."""
    response = await _check(hass, sentence, device_id=home.satellite_device_id)
    assert response["refused"] == []
    assert _calls(response) == expected


async def test_compound_sentence_across_areas(hass: HomeAssistant, home: AssistHome) -> None:
    """Each clause is read on its own: the lock is not looked for in the living room."""
    response = await _check(
        hass, "set the living room thermostat to 21 degrees and lock the front door"
    )
    assert response["refused"] == []
    assert _calls(response) == {
        ("climate.set_temperature", "climate.living_room_thermostat", (("temperature", 21),)),
        ("lock.lock", "lock.front_door", ()),
    }


async def test_here_uses_the_speaker_area(hass: HomeAssistant, home: AssistHome) -> None:
    """ "here" is the satellite's area (from area_id or device_id); without it, refused."""
    lights_here = {
        ("light.turn_on", "light.overhead_light", ()),
        ("light.turn_on", "light.floor_lamp", ()),
    }
    by_device = await _check(hass, "turn on the lights here", device_id=home.satellite_device_id)
    assert _calls(by_device) == lights_here
    office = await _check(hass, "turn on the lights in this room", area_id=home.areas["office"])
    assert _calls(office) == {("light.turn_on", "light.desk_lamp", ())}

    unknown = await _check(hass, "turn on the lights here")
    assert unknown["operations"] == []
    assert [part["code"] for part in unknown["refused"]] == ["no_speaker_area"]
    assert "area_id" in unknown["refused"][0]["reason"]


async def test_what_the_home_lacks_is_refused(hass: HomeAssistant, home: AssistHome) -> None:
    """A device, area or feature the home does not have is refused with a reason."""
    for sentence, code in (
        ("turn on the fan in the kitchen", "unknown_device"),
        ("turn on the lights in the attic", "unknown_area"),
        ("set the garage light brightness to 50%", "unsupported_action"),
        ("set the living room thermostat to 60 degrees", "out_of_range"),
        ("open the shutters here", "unknown_device"),
    ):
        response = await _check(hass, sentence, device_id=home.satellite_device_id)
        assert response["operations"] == [], sentence
        assert response["refused"], sentence
        assert response["refused"][0]["code"] == code, (sentence, response["refused"])
        assert response["refused"][0]["reason"]


async def test_a_lock_that_wants_a_code_is_not_unlocked_by_text(
    hass: HomeAssistant, home: AssistHome
) -> None:
    """Unlocking a lock with a code format is refused; locking it is fine."""
    state = hass.states.get("lock.front_door")
    assert state is not None
    hass.states.async_set(
        state.entity_id, "locked", {**state.attributes, "code_format": "^\\d{4}$"}
    )
    unlock = await _check(hass, "unlock the front door")
    assert unlock["operations"] == []
    assert "code" in unlock["refused"][0]["reason"]
    lock = await _check(hass, "lock the front door")
    assert _calls(lock) == {("lock.lock", "lock.front_door", ())}


async def test_bad_context_and_empty_instruction(hass: HomeAssistant, home: AssistHome) -> None:
    """Unknown area/device ids and blank text get translated errors, not a bare failure."""
    for extra, key in (
        ({"area_id": "nowhere"}, "unknown_speaker_area"),
        ({"device_id": "no-such-device"}, "unknown_speaker_device"),
    ):
        with pytest.raises(ServiceValidationError) as err:
            await _check(hass, "turn on the lights here", **extra)
        assert err.value.translation_key == key
    with pytest.raises(ServiceValidationError) as err:
        await _check(hass, "  ")
    assert err.value.translation_key == "instruction_empty"


async def test_without_templates_the_parser_still_plans(
    hass: HomeAssistant, home: AssistHome
) -> None:
    """No reader (templates missing): the parser's reading, as before."""
    capabilities = async_build_home_capabilities(hass)
    plan = await async_plan_instruction("Turn off the kitchen lighting", capabilities)
    assert plan.planner == "parser"
    assert [(op.service, op.entity_id) for op in plan.operations] == [
        ("light.turn_off", "light.kitchen_lighting")
    ]


async def test_new_names_aliases_and_areas_are_read_at_once(
    hass: HomeAssistant, home: AssistHome
) -> None:
    """The templates' names, areas and floors are kept between calls (not rebuilt per call)
    but follow the home: an alias, a new entity and an area's new alias count at once."""
    porch = "turn on the porch light"
    assert _calls(await _check(hass, porch)) == set()
    entities = er.async_get(hass)
    garage = entities.async_get("light.garage_light")
    assert garage is not None
    aliases = type(garage.aliases)((*garage.aliases, "Porch light"))  # a list on newer HAs
    entities.async_update_entity(garage.entity_id, aliases=aliases)
    assert _calls(await _check(hass, porch)) == {("light.turn_on", "light.garage_light", ())}

    reading = "turn off the reading nook lamp"
    assert _calls(await _check(hass, reading)) == set()
    hass.states.async_set(  # a new light, not in any registry yet
        "light.reading_nook_lamp",
        "on",
        {"friendly_name": "Reading nook lamp", "supported_color_modes": ["onoff"]},
    )
    assert _calls(await _check(hass, reading)) == {
        ("light.turn_off", "light.reading_nook_lamp", ())
    }

    den = "turn on the lights in the den"
    assert _calls(await _check(hass, den)) == set()
    ar.async_get(hass).async_update(home.areas["living_room"], aliases={"den"})
    assert _calls(await _check(hass, den)) == {
        ("light.turn_on", "light.overhead_light", ()),
        ("light.turn_on", "light.floor_lamp", ()),
    }
