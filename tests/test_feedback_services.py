"""False-alarm marks can be listed and removed (actions, administrators only)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.exceptions import ServiceValidationError, Unauthorized
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from custom_components.anomaly_monitor.const import (
    CONF_FALSE_ALARM_DAYS,
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    DOMAIN,
)
from custom_components.anomaly_monitor.flows.false_alarm_form import false_alarm_choices

from .helpers import ALICE, FRONT_LOCK, analyze, set_calm_home, setup_monitor


async def _list(hass: HomeAssistant, **data: str) -> list[dict]:
    response = await hass.services.async_call(
        DOMAIN, "list_false_alarms", data, blocking=True, return_response=True
    )
    assert response is not None
    return list(response["false_alarms"])  # type: ignore[arg-type]


async def _marked_door(hass: HomeAssistant):
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    await analyze(hass, entry)
    coordinator = entry.runtime_data.coordinator
    (anomaly,) = coordinator.tracker.open.values()
    coordinator.async_mark_false_alarm(anomaly.key)
    assert (await analyze(hass, entry))["verdict"]["label"] == "normal"
    return entry


async def test_list_then_remove_a_mark_reports_the_pattern_again(hass: HomeAssistant) -> None:
    entry = await _marked_door(hass)
    (mark,) = await _list(hass)
    assert (mark["rule"], mark["subject"]) == ("entry_unsecured_while_away", FRONT_LOCK)
    assert mark["marked_at"] < mark["expires_at"]

    await hass.services.async_call(
        DOMAIN, "remove_false_alarm", {"false_alarm_id": mark["false_alarm_id"]}, blocking=True
    )
    assert await _list(hass) == []
    assert (await analyze(hass, entry))["verdict"]["label"] == "anomaly"


async def test_remove_all_and_unknown_ids(hass: HomeAssistant) -> None:
    entry = await _marked_door(hass)
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            DOMAIN, "remove_false_alarm", {"false_alarm_id": "nope"}, blocking=True
        )
    assert err.value.translation_key == "false_alarm_not_found"
    assert len(await _list(hass, config_entry_id=entry.entry_id)) == 1
    await hass.services.async_call(
        DOMAIN, "remove_false_alarm", {"false_alarm_id": "all"}, blocking=True
    )
    assert await _list(hass) == []


async def test_only_administrators_change_marks(
    hass: HomeAssistant, hass_read_only_user: MockUser
) -> None:
    await _marked_door(hass)
    for service, data in (
        ("list_false_alarms", {}),
        ("remove_false_alarm", {"false_alarm_id": "all"}),
    ):
        with pytest.raises(Unauthorized):
            await hass.services.async_call(
                DOMAIN,
                service,
                data,
                blocking=True,
                return_response=service == "list_false_alarms",
                context=Context(user_id=hass_read_only_user.id),
            )
    assert len(await _list(hass)) == 1


async def test_the_false_alarm_step_names_the_entities_of_a_mark(hass: HomeAssistant) -> None:
    """A statistic's reasoning is in entity ids; the homeowner ticks names."""
    entry = await _marked_door(hass)
    tracker = entry.runtime_data.coordinator.tracker
    (mark,) = tracker.marks()
    tracker.false_alarms.add(replace(mark, reasoning=f"{FRONT_LOCK} stayed unlocked for 3 h."))
    ((choice,),) = [false_alarm_choices(hass, entry)]
    assert choice["label"].startswith("Front door stayed unlocked for 3 h. (")


async def test_the_false_alarm_step_names_once_and_keeps_the_date(hass: HomeAssistant) -> None:
    """Walk of session 25: "Roof tank level: Roof tank level fell from 89% to 80% … somethi…"
    said the name twice and lost the date to the clip; a reasoning that does not begin
    with the name still gets it."""
    entry = await _marked_door(hass)
    tracker = entry.runtime_data.coordinator.tracker
    (mark,) = tracker.marks()
    long = f"{FRONT_LOCK} stayed unlocked for 3 h; " + "it is never unlocked so long. " * 8
    tracker.false_alarms.add(replace(mark, reasoning=long))
    ((choice,),) = [false_alarm_choices(hass, entry)]
    label = choice["label"]
    assert label.startswith("Front door stayed unlocked for 3 h;")
    assert label.endswith(f"… ({(mark.marked_at or '')[:10]})")
    assert label.count("Front door") == 1
    tracker.false_alarms.add(replace(mark, reasoning="Unlocked for 3 h."))
    ((choice,),) = [false_alarm_choices(hass, entry)]
    assert choice["label"].startswith("Front door: Unlocked for 3 h. (")


async def test_options_flow_forgets_ticked_marks_and_sets_their_lifetime(
    hass: HomeAssistant,
) -> None:
    """The options form, then the false-alarm step: ticked marks go, the lifetime is kept."""
    entry = await _marked_door(hass)
    (mark,) = await _list(hass)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    form = dict(result["data_schema"]({}))  # the form's defaults, as the UI would send
    form["notifications"] = {**form["notifications"], CONF_FALSE_ALARM_DAYS: 7}
    form[CONF_INCLUDE_ENTITIES] = list(entry.options[CONF_INCLUDE_ENTITIES])
    form[CONF_USE_EXPOSED] = False
    result = await hass.config_entries.options.async_configure(result["flow_id"], form)
    assert result["step_id"] == "false_alarms"
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {"forget": [mark["false_alarm_id"]]}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert entry.options[CONF_FALSE_ALARM_DAYS] == 7
    assert await _list(hass) == []
    assert entry.runtime_data.coordinator.tracker.mark_lifetime == timedelta(days=7)
    assert (await analyze(hass, entry))["verdict"]["label"] == "anomaly"
