"""The options' "People who live here without a tracked phone": a count the homeowner
gives, read before the household profile's words (``core.phoneless_residents``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor.const import (
    CONF_PHONELESS,
    CONF_PROFILE,
    CONF_USE_EXPOSED,
    CONF_WEATHER_ENTITY,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm.prompts import PromptForm, render_window
from custom_components.anomaly_monitor.core.models import (
    CompressedSequence,
    ContextWindow,
    Environment,
    SequenceEntry,
)
from custom_components.anomaly_monitor.core.phoneless_residents import (
    has_phoneless_resident,
    phoneless_count,
)

from .helpers import set_calm_home, setup_monitor

GRANDMOTHER = "Our grandmother Hortensia lives with us; she has no phone."


@pytest.mark.parametrize(
    ("profile", "count", "phoneless"),
    [
        (GRANDMOTHER, None, True),  # not set: the profile says it
        ("Two adults, both work.", None, False),
        ("Two adults, both work.", 1, True),  # the count says what the profile does not
        (GRANDMOTHER, 0, False),  # the homeowner's answer wins over the words
        ("", 3, True),
    ],
)
def test_the_count_when_set_else_the_profile(
    profile: str, count: int | None, phoneless: bool
) -> None:
    assert has_phoneless_resident(profile, count) is phoneless


@pytest.mark.parametrize(
    ("stored", "count"),
    [(2, 2), (1.0, 1), (0, 0), (None, None), (True, None), (-1, None), ("2", None)],
)
def test_only_a_count_is_read_from_the_stored_options(stored: object, count: int | None) -> None:
    assert phoneless_count(stored) == count
    assert phoneless_count(float("nan")) is None


def _household_field(schema: Any, key: str) -> Any:
    household = next(v for k, v in schema.schema.items() if str(k) == "household")
    return next(k for k in household.schema.schema if str(k) == key)


async def test_set_in_the_options_the_entry_reloads_and_reads_it(hass: HomeAssistant) -> None:
    """Saved as a whole number; the reloaded monitor builds its windows with it."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, **{CONF_PROFILE: "Two adults, both work."})
    before = entry.runtime_data.coordinator
    assert before.phoneless_residents is None
    assert before.build_window().phoneless_residents is None

    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert _household_field(result["data_schema"], CONF_PHONELESS).description is None
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            CONF_USE_EXPOSED: False,
            "household": {CONF_PROFILE: "Two adults, both work.", CONF_PHONELESS: 2.0},
        },
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_PHONELESS] == 2
    assert isinstance(entry.options[CONF_PHONELESS], int)
    coordinator = entry.runtime_data.coordinator
    assert coordinator is not before  # reloaded
    assert coordinator.phoneless_residents == 2
    assert coordinator.build_window().phoneless_residents == 2

    # The form shows it again; emptied, it is unset and the profile speaks again.
    result = await hass.config_entries.options.async_init(entry.entry_id)
    field = _household_field(result["data_schema"], CONF_PHONELESS)
    assert field.description == {"suggested_value": 2}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_USE_EXPOSED: False, "household": {CONF_PROFILE: GRANDMOTHER}}
    )
    await hass.async_block_till_done()
    assert CONF_PHONELESS not in entry.options
    assert entry.runtime_data.coordinator.phoneless_residents is None


async def test_asked_when_the_monitor_is_added(hass: HomeAssistant) -> None:
    """The setup form has the same field; left empty it is not stored."""
    set_calm_home(hass)
    for household, stored in (({CONF_PHONELESS: 1}, 1), ({}, None)):
        result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"],
            {"name": "Home", CONF_USE_EXPOSED: False, "household": household},
        )
        await hass.async_block_till_done()
        entry = result["result"]
        assert entry.options.get(CONF_PHONELESS) == stored
        assert entry.runtime_data.coordinator.phoneless_residents == stored
        await hass.config_entries.async_remove(entry.entry_id)


async def test_emptying_the_weather_entity_unsets_it(hass: HomeAssistant) -> None:
    """The same for the other household field without a default."""
    set_calm_home(hass)
    entry = await setup_monitor(hass, **{CONF_WEATHER_ENTITY: "weather.home"})
    result = await hass.config_entries.options.async_init(entry.entry_id)
    await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_USE_EXPOSED: False, "household": {}}
    )
    await hass.async_block_till_done()
    assert CONF_WEATHER_ENTITY not in entry.options


@pytest.mark.parametrize("count", [-1, 21])
async def test_a_count_out_of_bounds_is_refused(hass: HomeAssistant, count: int) -> None:
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    with pytest.raises(InvalidData, match=CONF_PHONELESS):
        await hass.config_entries.options.async_configure(
            result["flow_id"], {"household": {CONF_PHONELESS: count}}
        )


@pytest.mark.parametrize(
    ("options", "household"),
    [
        (
            {CONF_PROFILE: GRANDMOTHER},
            {"somebody_without_tracked_phone": True, "said_by": "household profile"},
        ),
        (
            {CONF_PROFILE: GRANDMOTHER, CONF_PHONELESS: 0},
            {"somebody_without_tracked_phone": False, "said_by": "setting"},
        ),
    ],
)
async def test_diagnostics_say_whose_word_it_is_never_the_profile(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    options: dict[str, object],
    household: dict[str, object],
) -> None:
    """A count and a yes or no; the profile (a name, who has no phone) stays out."""
    assert await async_setup_component(hass, "diagnostics", {})
    set_calm_home(hass)
    entry = await setup_monitor(hass, **options)
    diagnostics = await get_diagnostics_for_config_entry(hass, hass_client, entry)
    assert diagnostics["household"] == household
    assert diagnostics["entry"]["options"].get(CONF_PHONELESS) == options.get(CONF_PHONELESS)
    assert "Hortensia" not in str(diagnostics)
    assert "grandmother" not in str(diagnostics)


def _window(count: int | None) -> ContextWindow:
    now = datetime(2026, 3, 2, 14, 0)
    entry = SequenceEntry(now, now, "binary_sensor.hall_motion", "Hall", "off", "on")
    return ContextWindow(
        snapshot=(),
        environment=Environment(local_time=now, persons_home=0, persons_total=2),
        sequence=CompressedSequence((entry,), raw_count=1, raw_tokens=10, tokens=10),
        start=now - timedelta(hours=2),
        end=now,
        phoneless_residents=count,
    )


def test_the_model_is_told_the_count_it_cannot_see_in_the_persons() -> None:
    said = "People living here without a tracked phone: 2."
    assert said in render_window(_window(2), PromptForm.SEQUENCE)
    assert "without a tracked phone" not in render_window(_window(None), PromptForm.SEQUENCE)
