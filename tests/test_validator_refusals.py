"""The instruction validator on intents as the parser or an LLM planner hands them over.

Each test is a request a person could make of a small home, and checks the planned
service call or the refusal reason that the user reads back.
"""

from __future__ import annotations

from custom_components.anomaly_monitor.core.instructions import (
    Area,
    DeviceCapability,
    Feature,
    HomeCapabilities,
    PlannedOperation,
    RefusalCode,
    RefusedPart,
)
from custom_components.anomaly_monitor.core.instructions.intents import (
    DECREASE,
    INCREASE,
    SET,
    Intent,
    PlanStep,
)
from custom_components.anomaly_monitor.core.instructions.validator import (
    resolve_option,
    validate_intent,
)

from .instruction_features import action, number, option, text

LAMP = "light.living_room_lamp"
AC = "climate.living_room_ac"
RADIATOR = "climate.bedroom_radiator"
DEHUMIDIFIER = "humidifier.bedroom_dehumidifier"
HUMIDIFIER = "humidifier.nursery_humidifier"
BLINDS = "cover.study_blinds"


def _humidity(entity_id: str) -> Feature:
    return number("humidity", entity_id, "humidifier.set_humidity", "humidity", 30, 80, current=50)


def _home() -> HomeCapabilities:
    """A flat whose AC has not reported yet and whose radiator has no upper limit."""
    return HomeCapabilities(
        areas=(
            Area("living_room", "Living room"),
            Area("bedroom", "Bedroom"),
            Area("nursery", "Nursery"),
            Area("study", "Study"),
        ),
        devices=(
            DeviceCapability(
                "lamp",
                "Lamp",
                "living_room",
                frozenset({"light"}),
                (
                    action("turn_on", LAMP, "light.turn_on"),
                    action("turn_off", LAMP, "light.turn_off"),
                    number(
                        "brightness", LAMP, "light.turn_on", "brightness_pct", 0, 100, current=60
                    ),
                    text("color", LAMP, "light.turn_on", "color_name"),
                ),
            ),
            DeviceCapability(
                "ac",
                "Air conditioner",
                "living_room",
                frozenset({"air_conditioner"}),
                (
                    action("turn_on", AC, "climate.turn_on"),
                    number("temperature", AC, "climate.set_temperature", "temperature", 16, 30),
                    option(
                        "mode",
                        AC,
                        "climate.set_hvac_mode",
                        "hvac_mode",
                        options=("cool", "heat", "fan_only"),
                    ),
                ),
            ),
            DeviceCapability(
                "radiator",
                "Radiator",
                "bedroom",
                frozenset({"heater"}),
                (
                    number(
                        "temperature",
                        RADIATOR,
                        "climate.set_temperature",
                        "temperature",
                        minimum=5,
                        current=20,
                    ),
                ),
            ),
            DeviceCapability(
                "dehumidifier",
                "Dehumidifier",
                "bedroom",
                frozenset({"dehumidifier"}),
                (_humidity(DEHUMIDIFIER),),
            ),
            DeviceCapability(
                "humidifier",
                "Humidifier",
                "nursery",
                frozenset({"humidifier"}),
                (_humidity(HUMIDIFIER),),
            ),
            DeviceCapability(
                "blinds",
                "Blinds",
                "study",
                frozenset({"blinds"}),
                (
                    action("open", BLINDS, "cover.open_cover"),
                    number(
                        "position",
                        BLINDS,
                        "cover.set_cover_position",
                        "position",
                        0,
                        100,
                        current=100,
                    ),
                    option(
                        "level",
                        BLINDS,
                        "select.select_option",
                        "option",
                        options=("down", "half", "up"),
                        current="up",
                    ),
                ),
            ),
        ),
    )


def _one(intent: Intent) -> PlanStep:
    (step,) = validate_intent(intent, _home())
    return step


def _call(intent: Intent) -> tuple[str, str, dict[str, object]]:
    step = _one(intent)
    assert isinstance(step, PlannedOperation), step
    return step.entity_id, step.service, dict(step.data)


def _refused(intent: Intent, code: RefusalCode) -> str:
    step = _one(intent)
    assert isinstance(step, RefusedPart), step
    assert step.code is code, step
    return step.reason


def test_area_the_planner_invented_is_refused() -> None:
    """An LLM planner naming an area id the home lacks gets a refusal, not a call."""
    reason = _refused(
        Intent("Turn on the attic light", "turn_on", "light", area_id="attic"),
        RefusalCode.UNKNOWN_AREA,
    )
    assert "attic" in reason


def test_action_without_any_device_is_not_understood() -> None:
    reason = _refused(Intent("Switch it on", "turn_on"), RefusalCode.NOT_UNDERSTOOD)
    assert "no device" in reason


def test_device_kind_missing_from_the_whole_home() -> None:
    reason = _refused(
        Intent("Open the garage door", "open", "garage_door"), RefusalCode.UNKNOWN_DEVICE
    )
    assert reason == "there is no garage door in the home"


def test_setting_without_a_device_finds_the_only_device_that_has_it() -> None:
    """ "Set the humidity in the bedroom to 45": only the dehumidifier there has one."""
    assert _call(
        Intent(
            "Set the bedroom humidity to 45", SET, area_id="bedroom", attribute="humidity", value=45
        )
    ) == (DEHUMIDIFIER, "humidifier.set_humidity", {"humidity": 45})


def test_setting_without_a_device_refuses_when_none_or_several_have_it() -> None:
    none_here = _refused(
        Intent(
            "Set the living room humidity to 45",
            SET,
            area_id="living_room",
            attribute="humidity",
            value=45,
        ),
        RefusalCode.UNKNOWN_DEVICE,
    )
    assert none_here == "no device in Living room has a humidity setting"
    several = _refused(
        Intent("Set the humidity to 45", SET, attribute="humidity", value=45),
        RefusalCode.AMBIGUOUS_DEVICE,
    )
    assert "several devices in the home" in several


def test_action_the_device_does_not_offer() -> None:
    """The radiator has only a setpoint: it cannot be stopped (nor switched off instead)."""
    reason = _refused(
        Intent("Stop the bedroom radiator", "stop", "heater", area_id="bedroom"),
        RefusalCode.UNSUPPORTED_ACTION,
    )
    assert reason == "Radiator cannot stop"
    # "Open" falls back to switching on when a lamp has nothing to open.
    opened = Intent("Open the living room lamp", "open", "light", area_id="living_room")
    assert _call(opened) == (LAMP, "light.turn_on", {})


def test_free_text_setting_is_passed_on_and_needs_a_value() -> None:
    """A colour is free text: it goes to the light as given, and must be given."""
    color = Intent(
        "Make the lamp warm white",
        SET,
        "light",
        area_id="living_room",
        attribute="color",
        value="warm white",
    )
    assert _call(color) == (LAMP, "light.turn_on", {"color_name": "warm white"})
    missing = Intent(
        "Change the lamp colour", SET, "light", area_id="living_room", attribute="color"
    )
    assert "no value given for Lamp" in _refused(missing, RefusalCode.MISSING_VALUE)


def test_option_word_without_attribute_picks_the_setting_that_offers_it() -> None:
    """ "Put the AC on heating": "heating" is a synonym of the "heat" mode."""
    intent = Intent(
        "Put the AC on heating", SET, "air_conditioner", area_id="living_room", value="heating"
    )
    assert _call(intent) == (AC, "climate.set_hvac_mode", {"hvac_mode": "heat"})
    assert resolve_option("ventilation", ("cool", "heat", "fan_only")) == "fan_only"
    assert resolve_option("turbo", ("cool", "heat", "fan_only")) is None


def test_levels_with_a_direction_move_along_the_directional_setting() -> None:
    """ "Move the blinds down two levels" shifts the up/half/down setting, not the position."""
    intent = Intent(
        "Move the study blinds down two levels",
        DECREASE,
        "blinds",
        area_id="study",
        value=2,
        steps=True,
    )
    assert _call(intent) == (BLINDS, "select.select_option", {"option": "down"})


def test_turn_up_without_amount_moves_a_tenth_of_the_range() -> None:
    intent = Intent(
        "Turn up the lamp", INCREASE, "light", area_id="living_room", attribute="brightness"
    )
    assert _call(intent)[2] == {"brightness_pct": 70}


def test_radiator_without_upper_limit() -> None:
    """No maximum: "turn it up" and "to the max" cannot be resolved; 2° is below its 5° floor."""
    up = Intent("Turn up the radiator", INCREASE, "heater", attribute="temperature")
    assert "by how much" in _refused(up, RefusalCode.MISSING_VALUE)
    top = Intent("Radiator to the max", SET, "heater", attribute="temperature", value="max")
    assert _refused(top, RefusalCode.MISSING_VALUE) == "Radiator temperature has no maximum"
    cold = Intent("Set the radiator to 2 degrees", SET, "heater", attribute="temperature", value=2)
    assert "outside Radiator temperature's range 5–∞" in _refused(cold, RefusalCode.OUT_OF_RANGE)


def test_word_where_a_number_is_needed_is_refused() -> None:
    intent = Intent(
        "Set the lamp brightness to cosy",
        SET,
        "light",
        area_id="living_room",
        attribute="brightness",
        value="cosy",
    )
    assert _refused(intent, RefusalCode.MISSING_VALUE) == "no number given for Lamp brightness"


def test_relative_change_needs_a_known_current_value() -> None:
    """The AC has not reported its setpoint or mode yet: "+2°" and "next mode" cannot be done."""
    warmer = Intent(
        "Raise the AC by 2 degrees",
        INCREASE,
        "air_conditioner",
        attribute="temperature",
        value=2,
        relative=True,
    )
    assert "current Air conditioner temperature is unknown" in _refused(
        warmer, RefusalCode.MISSING_VALUE
    )
    next_mode = Intent(
        "Next AC mode", INCREASE, "air_conditioner", attribute="mode", value=1, steps=True
    )
    assert "current Air conditioner mode is unknown" in _refused(
        next_mode, RefusalCode.MISSING_VALUE
    )


def test_number_for_an_option_setting_is_refused_with_the_choices() -> None:
    intent = Intent("Set the AC mode to 3", SET, "air_conditioner", attribute="mode", value=3)
    reason = _refused(intent, RefusalCode.INVALID_OPTION)
    assert reason == "Air conditioner mode takes one of: cool, heat, fan_only; none was given"
