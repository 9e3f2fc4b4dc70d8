"""``anomaly_monitor.check_instruction`` in a real hass with registries and mock services."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import json
from typing import Any

from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_mock_service

from custom_components.anomaly_monitor.const import DOMAIN
from custom_components.anomaly_monitor.core.llm.backend import Message
from custom_components.anomaly_monitor.instructions.home import async_build_home_capabilities
from custom_components.anomaly_monitor.instructions.service import (
    SERVICE_CHECK_INSTRUCTION,
    async_register_instruction_service,
)

MIXED = (
    "Set the living room lamp to 40 percent brightness, turn on the fan in the kitchen, "
    "set the kitchen light brightness to 50, set the air conditioner to 35 degrees, "
    "and set the diffuser intensity in the kitchen to 70."
)


def _entity(  # noqa: PLR0917 - mirrors the registry call it wraps
    hass: HomeAssistant,
    domain: str,
    object_id: str,
    device_id: str | None,
    name: str,
    state: str,
    attributes: Mapping[str, Any],
) -> str:
    # The registry's name too: newer HAs match Assist's names on it, not on the state.
    entry = er.async_get(hass).async_get_or_create(
        domain,
        "test_home",
        object_id,
        suggested_object_id=object_id,
        device_id=device_id,
        original_name=name,
    )
    hass.states.async_set(entry.entity_id, state, {"friendly_name": name, **attributes})
    return entry.entity_id


def _device(hass: HomeAssistant, entry_id: str, key: str, name: str, area_id: str) -> str:
    registry = dr.async_get(hass)
    device = registry.async_get_or_create(
        config_entry_id=entry_id, identifiers={("test_home", key)}, name=name
    )
    registry.async_update_device(device.id, area_id=area_id)
    return device.id


@pytest.fixture
def home(hass: HomeAssistant) -> dict[str, str]:
    """A living room (dimmable lamp, AC) and a kitchen (on/off light, diffuser)."""
    areas = ar.async_get(hass)
    living = areas.async_create("Living room").id
    kitchen = areas.async_create("Kitchen").id
    source = MockConfigEntry(domain="test_home")
    source.add_to_hass(hass)
    ids = {
        "lamp": _entity(
            hass,
            "light",
            "living_room_lamp",
            _device(hass, source.entry_id, "lamp", "Lamp", living),
            "Lamp",
            "on",
            {"supported_color_modes": ["brightness"], "brightness": 128},
        ),
        "ac": _entity(
            hass,
            "climate",
            "living_room_ac",
            _device(hass, source.entry_id, "ac", "Air conditioner", living),
            "Air conditioner",
            "cool",
            {
                "hvac_modes": ["off", "cool", "heat"],
                "min_temp": 16,
                "max_temp": 30,
                "temperature": 22,
                "supported_features": 1 | 128 | 256,
            },
        ),
        "kitchen_light": _entity(
            hass,
            "light",
            "kitchen_light",
            _device(hass, source.entry_id, "kitchen_light", "Kitchen light", kitchen),
            "Kitchen light",
            "off",
            {"supported_color_modes": ["onoff"]},
        ),
    }
    diffuser = _device(hass, source.entry_id, "diffuser", "Diffuser", kitchen)
    ids["diffuser"] = _entity(hass, "switch", "diffuser", diffuser, "Diffuser", "off", {})
    ids["diffuser_intensity"] = _entity(
        hass,
        "number",
        "diffuser_intensity",
        diffuser,
        "Diffuser Intensity",
        "30",
        {"min": 0, "max": 100, "step": 1},
    )
    async_register_instruction_service(hass)
    return ids


async def _check(hass: HomeAssistant, instruction: str, **extra: Any) -> dict[str, Any]:
    response = await hass.services.async_call(
        DOMAIN,
        SERVICE_CHECK_INSTRUCTION,
        {"instruction": instruction, **extra},
        blocking=True,
        return_response=True,
    )
    assert isinstance(response, dict)
    json.dumps(response)  # the response must be JSON-serialisable
    return response


async def test_capabilities_come_from_registries(hass: HomeAssistant, home: dict[str, str]) -> None:
    """Areas, device grouping, kinds from names, ranges from attributes."""
    capabilities = async_build_home_capabilities(hass)
    assert {a.name for a in capabilities.areas} == {"Living room", "Kitchen"}
    diffuser = next(d for d in capabilities.devices if d.name == "Diffuser")
    assert diffuser.kinds == frozenset({"aromatherapy"})
    intensity = next(f for f in diffuser.features if "intensity" in f.names)
    assert (intensity.entity_id, intensity.minimum, intensity.maximum, intensity.current) == (
        home["diffuser_intensity"],
        0,
        100,
        30,
    )
    lamp = next(d for d in capabilities.devices if d.name == "Lamp")
    assert next(f for f in lamp.features if "brightness" in f.names).current == 50


async def test_unavailable_and_disabled_entities_are_not_offered(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """A device that cannot act now is refused, not planned."""
    hass.states.async_set(home["kitchen_light"], "unavailable")
    response = await _check(hass, "Turn on the kitchen light")
    assert response["operations"] == []
    assert response["refused"][0]["code"] == "unknown_device"
    er.async_get(hass).async_update_entity(home["lamp"], disabled_by=er.RegistryEntryDisabler.USER)
    response = await _check(hass, "Turn on the lamp in the living room")
    assert response["refused"][0]["code"] == "unknown_device"


async def test_plan_lists_valid_calls_and_refusals(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """Each part is planned or refused with a reason; nothing runs without execute."""
    calls = async_mock_service(hass, "light", "turn_on")
    response = await _check(hass, MIXED)
    assert response["planner"] == "parser"
    assert response["executed"] is False
    assert [(op["entity_id"], op["service"], op["data"]) for op in response["operations"]] == [
        (home["lamp"], "light.turn_on", {"brightness_pct": 40}),
        (home["diffuser_intensity"], "number.set_value", {"value": 70}),
    ]
    assert [part["code"] for part in response["refused"]] == [
        "unknown_device",
        "unsupported_attribute",
        "out_of_range",
    ]
    assert "Kitchen" in response["refused"][0]["reason"]
    assert "16–30" in response["refused"][2]["reason"]
    assert calls == []


async def test_execute_runs_only_the_valid_calls(hass: HomeAssistant, home: dict[str, str]) -> None:
    """With execute, the lamp and the diffuser are driven; nothing else is called."""
    light_calls = async_mock_service(hass, "light", "turn_on")
    number_calls = async_mock_service(hass, "number", "set_value")
    climate_calls = async_mock_service(hass, "climate", "set_temperature")
    response = await _check(hass, MIXED, execute=True)
    assert response["executed"] is True
    assert [r["success"] for r in response["results"]] == [True, True]
    assert [dict(c.data) for c in light_calls] == [
        {"entity_id": home["lamp"], "brightness_pct": 40}
    ]
    assert len(number_calls) == 1
    assert number_calls[0].data["value"] == 70
    assert climate_calls == []


async def test_a_failing_call_does_not_stop_the_others(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """The failure is reported; the next valid call still runs."""

    async def broken(call: ServiceCall) -> None:
        raise HomeAssistantError("device did not answer")

    hass.services.async_register("climate", "set_hvac_mode", broken)
    switch_calls = async_mock_service(hass, "switch", "turn_on")
    response = await _check(
        hass, "Set the air conditioner to heat mode and turn on the diffuser", execute=True
    )
    assert response["results"][0]["success"] is False
    assert "did not answer" in response["results"][0]["error"]
    assert response["results"][1]["success"] is True
    assert len(switch_calls) == 1


async def test_bad_calls_get_clear_errors(hass: HomeAssistant, home: dict[str, str]) -> None:
    """An empty instruction gets a translated error; an unknown monitor is named."""
    for blank in ("", "   "):
        with pytest.raises(ServiceValidationError) as err:
            await _check(hass, blank)
        assert err.value.translation_key == "instruction_empty"
    with pytest.raises(ServiceValidationError):
        await _check(hass, "Turn on the lamp", config_entry_id="not-an-entry")


class _ScriptedBackend:
    """A tiny LLM backend that answers from a script and records what it was asked."""

    name = "scripted"

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.requests: list[tuple[Sequence[Message], Mapping[str, Any] | None]] = []

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        self.requests.append((messages, schema))
        return self.reply

    async def async_close(self) -> None:
        return None


async def test_llm_reads_what_the_parser_cannot(hass: HomeAssistant, home: dict[str, str]) -> None:
    """An unreadable clause goes to the backend; its answer is still validated."""
    backend = _ScriptedBackend(
        json.dumps(
            {
                "operations": [
                    {
                        "text": "make the living room cosy",
                        "device": "light",
                        "area": "Living room",
                        "action": "set",
                        "attribute": "brightness",
                        "value": "120",
                        "change": "absolute",
                    }
                ]
            }
        )
    )
    async_register_instruction_service(hass, backend_getter=lambda entry: backend)
    response = await _check(hass, "Make the living room cosy and turn on the kitchen light")
    assert response["planner"] == "hybrid"
    (messages, schema) = backend.requests[0]
    assert messages[-1]["content"] == "Make the living room cosy"
    assert schema is not None
    area_enum = schema["properties"]["operations"]["items"]["properties"]["area"]["enum"]
    assert {"Living room", "Kitchen"} <= set(area_enum)
    # 120 % is outside the lamp's range: the LLM's plan is refused, the parser's part stands.
    assert response["refused"][0]["code"] == "out_of_range"
    assert [op["entity_id"] for op in response["operations"]] == [home["kitchen_light"]]


async def test_execute_works_without_asking_for_a_response(
    hass: HomeAssistant, home: dict[str, str]
) -> None:
    """Automations may call the action for its effect alone."""
    switch_calls = async_mock_service(hass, "switch", "turn_on")
    await hass.services.async_call(
        DOMAIN,
        SERVICE_CHECK_INSTRUCTION,
        {"instruction": "Turn on the diffuser in the kitchen", "execute": True},
        blocking=True,
    )
    assert [c.data["entity_id"] for c in switch_calls] == [home["diffuser"]]
