"""Instruction check core: parser + validator on a hand-built home (no Home Assistant)."""

from __future__ import annotations

import pytest

from custom_components.anomaly_monitor.core.instructions import (
    Area,
    DeviceCapability,
    Feature,
    FeatureKind,
    HomeCapabilities,
    PlannedOperation,
    PlannerMode,
    RefusalCode,
    RefusedPart,
    async_plan_instruction,
)
from custom_components.anomaly_monitor.core.instructions.clauses import split_clauses

from .instruction_features import action, number, option


def _home() -> HomeCapabilities:
    """Living room (dimmable lamp, AC, speaker), bedroom (on/off lamp, fan), garage door."""
    lamp = "light.living_room_lamp"
    ac = "climate.living_room_ac"
    speaker = "media_player.living_room_speaker"
    bed_lamp = "light.bedroom_lamp"
    fan = "fan.bedroom_fan"
    door = "cover.garage_door"
    return HomeCapabilities(
        areas=(
            Area("living_room", "Living room"),
            Area("bedroom", "Bedroom", ("sleeping room",)),
            Area("garage", "Garage"),
        ),
        devices=(
            DeviceCapability(
                "d1",
                "Lamp",
                "living_room",
                frozenset({"light"}),
                (
                    action("turn_on", lamp, "light.turn_on"),
                    action("turn_off", lamp, "light.turn_off"),
                    number(
                        "brightness", lamp, "light.turn_on", "brightness_pct", 0, 100, current=60
                    ),
                ),
            ),
            DeviceCapability(
                "d2",
                "Air conditioner",
                "living_room",
                frozenset({"air_conditioner"}),
                (
                    action("turn_on", ac, "climate.turn_on"),
                    action("turn_off", ac, "climate.turn_off"),
                    number(
                        "temperature",
                        ac,
                        "climate.set_temperature",
                        "temperature",
                        16,
                        30,
                        current=22,
                    ),
                    option(
                        "mode",
                        ac,
                        "climate.set_hvac_mode",
                        "hvac_mode",
                        options=("cool", "heat", "fan_only"),
                        current="cool",
                    ),
                ),
            ),
            DeviceCapability(
                "d3",
                "Speaker",
                "living_room",
                frozenset({"media_player"}),
                (
                    action("play", speaker, "media_player.media_play"),
                    number(
                        "volume",
                        speaker,
                        "media_player.volume_set",
                        "volume_level",
                        0,
                        100,
                        current=50,
                        scale=0.01,
                    ),
                ),
            ),
            DeviceCapability(
                "d4",
                "Bedside lamp",
                "bedroom",
                frozenset({"light"}),
                (
                    action("turn_on", bed_lamp, "light.turn_on"),
                    action("turn_off", bed_lamp, "light.turn_off"),
                ),
            ),
            DeviceCapability(
                "d5",
                "Fan",
                "bedroom",
                frozenset({"fan"}),
                (
                    action("turn_on", fan, "fan.turn_on"),
                    Feature(
                        frozenset({"mode", "speed"}),
                        FeatureKind.OPTION,
                        fan,
                        "fan.set_preset_mode",
                        "preset_mode",
                        options=("low", "medium", "high"),
                        current="low",
                    ),
                ),
            ),
            DeviceCapability(
                "d6",
                "Garage door",
                "garage",
                frozenset({"garage_door"}),
                (
                    action("open", door, "cover.open_cover"),
                    action("close", door, "cover.close_cover"),
                ),
            ),
        ),
    )


async def _plan(text: str) -> list[PlannedOperation | RefusedPart]:
    plan = await async_plan_instruction(text, _home(), mode=PlannerMode.PARSER)
    assert plan.planner == "parser"
    return list(plan.steps)


def _op(step: PlannedOperation | RefusedPart) -> tuple[str, str, dict[str, object]]:
    assert isinstance(step, PlannedOperation), step
    return step.entity_id, step.service, dict(step.data)


def _refusal(step: PlannedOperation | RefusedPart) -> RefusalCode:
    assert isinstance(step, RefusedPart), step
    return step.code


async def test_valid_single_operation_uses_room_synonym() -> None:
    """ "lounge" is a living room; "lamps" finds the light."""
    (step,) = await _plan("Please switch off the lamps in the lounge.")
    assert _op(step) == ("light.living_room_lamp", "light.turn_off", {})


async def test_area_alias_from_registry() -> None:
    """An alias the area registry holds is understood."""
    (step,) = await _plan("Turn on the light in the sleeping room")
    assert _op(step) == ("light.bedroom_lamp", "light.turn_on", {})


async def test_relative_change_resolved_from_current_value() -> None:
    """Dimming by 20 from 60 asks for 40; raising the AC by 10 from 22 is clipped to 30."""
    (dim,) = await _plan("Dim the living room lamp by 20%.")
    assert _op(dim) == ("light.living_room_lamp", "light.turn_on", {"brightness_pct": 40})
    (warm,) = await _plan("Raise the air conditioner temperature in the living room by 10 degrees")
    assert _op(warm)[2] == {"temperature": 30}


async def test_volume_is_scaled_to_home_assistant_units() -> None:
    """People speak of volume 0–100; Home Assistant wants 0–1."""
    (step,) = await _plan("Set the speaker volume in the living room to 35")
    assert _op(step) == (
        "media_player.living_room_speaker",
        "media_player.volume_set",
        {"volume_level": 0.35},
    )


async def test_mute_and_extremes() -> None:
    """ "Mute" is volume 0; "to the maximum" is the top of the range."""
    (mute,) = await _plan("Mute the speaker in the living room.")
    assert _op(mute)[2] == {"volume_level": 0.0}
    (top,) = await _plan("Set the lamp brightness in the living room to the maximum.")
    assert _op(top)[2] == {"brightness_pct": 100}


async def test_option_by_word_and_by_level() -> None:
    """ "fan only" is an option; "one level up" moves along the option list."""
    (mode,) = await _plan("Put the living room air conditioner on fan only mode")
    assert _op(mode) == (
        "climate.living_room_ac",
        "climate.set_hvac_mode",
        {"hvac_mode": "fan_only"},
    )
    (speed,) = await _plan("Increase the bedroom fan speed by one level")
    assert _op(speed)[2] == {"preset_mode": "medium"}


async def test_unique_device_needs_no_area() -> None:
    """There is one garage door, so no room has to be named."""
    (step,) = await _plan("Open the garage door")
    assert _op(step) == ("cover.garage_door", "cover.open_cover", {})


async def test_device_missing_in_area_is_refused() -> None:
    """The bedroom has no air conditioner."""
    (step,) = await _plan("Turn on the air conditioner in the bedroom.")
    assert _refusal(step) is RefusalCode.UNKNOWN_DEVICE
    assert isinstance(step, RefusedPart)
    assert "Bedroom" in step.reason


async def test_unsupported_attribute_is_refused() -> None:
    """The bedside lamp only switches on and off."""
    (step,) = await _plan("Set the brightness of the light in the bedroom to 50.")
    assert _refusal(step) is RefusalCode.UNSUPPORTED_ATTRIBUTE


async def test_out_of_range_and_invalid_option_are_refused() -> None:
    """35 °C is above the AC's maximum; "dry" is not one of its modes."""
    (hot,) = await _plan("Set the air conditioner in the living room to 35 degrees.")
    assert _refusal(hot) is RefusalCode.OUT_OF_RANGE
    assert isinstance(hot, RefusedPart)
    assert "16–30" in hot.reason
    (dry,) = await _plan("Set the living room air conditioner to dry mode.")
    assert _refusal(dry) is RefusalCode.INVALID_OPTION


async def test_unknown_area_and_ambiguous_device() -> None:
    """An attic does not exist; "the light" alone could be either lamp."""
    (attic,) = await _plan("Turn on the light in the attic room")
    assert _refusal(attic) is RefusalCode.UNKNOWN_AREA
    (either,) = await _plan("Turn on the light")
    assert _refusal(either) is RefusalCode.AMBIGUOUS_DEVICE


async def test_mixed_multi_device_instruction_keeps_order() -> None:
    """Valid and invalid parts come back in the order they were asked."""
    steps = await _plan(
        "Turn on the lamp in the bedroom, set the bedroom lamp brightness to 30, "
        "close the garage door and then set the living room AC to heat mode."
    )
    assert [type(s).__name__ for s in steps] == [
        "PlannedOperation",
        "RefusedPart",
        "PlannedOperation",
        "PlannedOperation",
    ]
    assert _op(steps[3])[2] == {"hvac_mode": "heat"}


async def test_ellipsis_and_pronouns_reuse_the_previous_device() -> None:
    """ "…and 10 in the bedroom" repeats the setting; "it" is the previous device."""
    steps = await _plan("Set the light brightness to 80 in the living room and 10 in the bedroom")
    assert _op(steps[0])[2] == {"brightness_pct": 80}
    assert _refusal(steps[1]) is RefusalCode.UNSUPPORTED_ATTRIBUTE
    steps = await _plan("Turn on the air conditioner in the living room and set it to 18 degrees")
    assert [_op(s)[1] for s in steps] == ["climate.turn_on", "climate.set_temperature"]


async def test_nonsense_is_not_understood_and_nothing_is_planned() -> None:
    """Text without a device or action yields a refusal, never a call."""
    (step,) = await _plan("purple monkey dishwasher")
    assert _refusal(step) is RefusalCode.NOT_UNDERSTOOD


async def test_bad_input_raises_clear_errors() -> None:
    """Empty and over-long instructions are rejected with a message."""
    with pytest.raises(ValueError, match="empty"):
        await async_plan_instruction("   ", _home())
    with pytest.raises(ValueError, match="longer"):
        await async_plan_instruction("turn on the light " * 200, _home())


def test_split_clauses() -> None:
    """Commas, "and"+verb and leading room phrases split; "X and Y" nouns do not."""
    assert split_clauses("Turn on the fan and the light in the kitchen") == [
        "Turn on the fan and the light in the kitchen"
    ]
    assert split_clauses("In the kitchen, turn on the fan and dim the light.") == [
        "turn on the fan In the kitchen",
        "dim the light In the kitchen",
    ]
    assert len(split_clauses("Open the blinds, close the door; then start the vacuum")) == 3


async def test_follow_up_value_keeps_the_previous_device_and_room() -> None:
    """ "…to 30, then to 50" stays on the living room lamp, not the next clause's room."""
    steps = await _plan(
        "Set the living room lamp brightness to 30, then to 50, and turn on the bedroom lamp"
    )
    assert [_op(s) for s in steps] == [
        ("light.living_room_lamp", "light.turn_on", {"brightness_pct": 30}),
        ("light.living_room_lamp", "light.turn_on", {"brightness_pct": 50}),
        ("light.bedroom_lamp", "light.turn_on", {}),
    ]


async def test_one_missing_device_is_refused_once() -> None:
    """Two requests about the same missing fan give one refusal; other parts keep theirs."""
    (step,) = await _plan("Turn on the fan in the living room and raise its speed by one level")
    assert _refusal(step) is RefusalCode.UNKNOWN_DEVICE
    steps = await _plan(
        "Turn on the fan in the living room, raise its speed by one level and dim the lamp "
        "in the living room to 20"
    )
    assert [type(s).__name__ for s in steps] == ["RefusedPart", "RefusedPart", "PlannedOperation"]


async def test_maximize_and_minimize_are_extremes() -> None:
    """ "Maximize the volume" is the top of the range, "minimize the brightness" the bottom."""
    (loud,) = await _plan("Maximize the speaker volume in the living room")
    assert _op(loud)[2] == {"volume_level": 1.0}
    (dark,) = await _plan("Minimize the brightness of the living room lamp")
    assert _op(dark)[2] == {"brightness_pct": 0}
