"""Replay entries in a real hass: their own states and clock, nothing of or for the home."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from http import HTTPStatus
import inspect
from types import MappingProxyType
from typing import Any
from unittest.mock import patch

from homeassistant import config_entries
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized
from homeassistant.helpers import entity_registry as er, issue_registry as ir
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockUser, async_capture_events
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
import voluptuous as vol

from benchmark_replay import remote_ha
from benchmark_replay.entity_mapping import EntitySpec
from benchmark_replay.home_scene import TraceStep
from benchmark_replay.monitor_options import StatePayload
from custom_components.anomaly_monitor.anomalies.surfaces import Announcer
from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_REPLAY,
    CONF_USE_EXPOSED,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
    SERVICE_REPLAY_SAMPLE,
)
from custom_components.anomaly_monitor.dev_replay import entry as replay_entry
from custom_components.anomaly_monitor.dev_replay.entry import REPLAY_QUERY, SilentAnnouncer

from .helpers import ALICE, SMOKE, analyze, set_calm_home, setup_monitor

REPLAY_SMOKE = {"device_class": "smoke", "friendly_name": "Kitchen smoke"}


async def _create_replay_entry(hass: HomeAssistant) -> config_entries.ConfigEntry:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": "user", REPLAY_QUERY: True}
    )
    assert CONF_REPLAY in {str(key) for key in result["data_schema"].schema}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"name": "Replay", CONF_REPLAY: True}
    )
    assert result["type"] == "create_entry"
    await hass.async_block_till_done()
    return result["result"]


def _sample(entry_id: str, smoke: str, **extra: Any) -> dict[str, Any]:
    at = datetime(2025, 1, 15, 3, tzinfo=UTC).timestamp()  # a January night
    return {
        "config_entry_id": entry_id,
        "options": {CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: [SMOKE]},
        "areas": {SMOKE: "Kitchen"},
        "attributes": [{}, REPLAY_SMOKE],
        "before": [[ALICE, "not_home", 0, at], [SMOKE, "off", 1, at]],
        "steps": [[SMOKE, smoke, 1, at + 300]],
        "at": "2025-01-15T03:06:00+00:00",
    } | extra


async def _replay(hass: HomeAssistant, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    response = await hass.services.async_call(
        DOMAIN, "replay_sample", data, blocking=True, return_response=True, **kwargs
    )
    return dict(response or {})


async def test_normal_users_do_not_see_the_replay_option(hass: HomeAssistant) -> None:
    """A flow started without the replay's request has no replay option, nor one started
    in the frontend's advanced mode (it copies show_advanced_options into the context)."""
    for context in ({"source": "user"}, {"source": "user", "show_advanced_options": True}):
        result = await hass.config_entries.flow.async_init(DOMAIN, context=context)
        assert CONF_REPLAY not in {str(key) for key in result["data_schema"].schema}
        with pytest.raises(vol.Invalid):  # nor can it be sent without the field
            await hass.config_entries.flow.async_configure(
                result["flow_id"], {"name": "Replay", CONF_REPLAY: True}
            )


async def test_a_homeowners_install_never_has_the_replay_action(hass: HomeAssistant) -> None:
    """replay_sample exists only while a replay entry does (developer option)."""
    set_calm_home(hass)
    await setup_monitor(hass)
    assert not hass.services.has_service(DOMAIN, SERVICE_REPLAY_SAMPLE)
    replay = await _create_replay_entry(hass)
    assert hass.services.has_service(DOMAIN, SERVICE_REPLAY_SAMPLE)
    await hass.config_entries.async_reload(replay.entry_id)  # a sample reloads it: it stays
    assert hass.services.has_service(DOMAIN, SERVICE_REPLAY_SAMPLE)
    assert await hass.config_entries.async_remove(replay.entry_id)
    await hass.async_block_till_done()
    assert not hass.services.has_service(DOMAIN, SERVICE_REPLAY_SAMPLE)


async def test_over_rest_only_the_replays_call_gets_the_option(
    hass: HomeAssistant, hass_client: ClientSessionGenerator
) -> None:
    """The frontend's call to start the flow shows no replay option; benchmark_replay's call
    (remote_ha.py: a query parameter, since HA 2026.10 passes nothing else on) does."""
    # The flow sets up the integration's dependencies: before the app is served (frozen).
    for component in ("config", "repairs"):
        assert await async_setup_component(hass, component, {})
    client = await hass_client()
    url = "/api/config/config_entries/flow"
    fields = {}
    for query in ("", f"?{REPLAY_QUERY}=0", f"?{REPLAY_QUERY}=1"):
        for advanced in (False, True):  # the frontend's advanced mode asks for no replay
            body = {"handler": DOMAIN, "show_advanced_options": advanced}
            reply = await client.post(url + query, json=body)
            assert reply.status == HTTPStatus.OK
            flow = await reply.json()
            fields[query, advanced] = {field["name"] for field in flow["data_schema"]}
            await client.delete(f"{url}/{flow['flow_id']}")
    for advanced in (False, True):
        assert CONF_REPLAY not in fields["", advanced] | fields[f"?{REPLAY_QUERY}=0", advanced]
        assert CONF_REPLAY in fields[f"?{REPLAY_QUERY}=1", advanced]
    assert REPLAY_QUERY == remote_ha.REPLAY_QUERY


async def test_replay_entry_judges_its_own_states_at_its_own_clock(hass: HomeAssistant) -> None:
    """The home's smoke detector is calm and Alice is home; the replay's smoke goes off
    while its resident is away. The replay sees only its own home, the home sees nothing."""
    set_calm_home(hass)
    home = await setup_monitor(hass)
    analyses = home.runtime_data.coordinator.analyses
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    replay = await _create_replay_entry(hass)
    home_states = {s.entity_id: s for s in hass.states.async_all()}

    response = await _replay(hass, _sample(replay.entry_id, "on"))

    verdict = response["verdict"]
    assert verdict["label"] == "anomaly"
    assert verdict["evidence"] == [SMOKE]
    assert response["analysed_at"] == "2025-01-15T03:06:00+00:00"
    assert response["window"]["transitions"] == 1
    assert response["window"]["entities"] == 1
    # The home: same states, no anomaly announced, no issue, and analyze still finds it alone.
    await hass.async_block_till_done()
    assert {s.entity_id: s for s in hass.states.async_all()} == home_states
    assert hass.states.get(SMOKE).state == "off"
    assert detected == []
    assert not [key for key in ir.async_get(hass).issues if key[0] == DOMAIN]
    assert er.async_entries_for_config_entry(er.async_get(hass), replay.entry_id) == []
    assert (await analyze(hass))["verdict"]["label"] == "normal"
    assert home.runtime_data.coordinator.analyses == analyses + 1

    calm = await _replay(hass, _sample(replay.entry_id, "off"))
    assert calm["verdict"]["label"] == "normal"
    assert calm["window"]["transitions"] == 0  # same state again: no change, as in HA


async def test_replay_sample_refuses_other_entries_and_non_admins(
    hass: HomeAssistant, hass_read_only_user: MockUser
) -> None:
    """The home's monitor is never reconfigured through replay_sample."""
    set_calm_home(hass)
    home = await setup_monitor(hass)
    options = dict(home.options)
    with pytest.raises(ServiceValidationError):
        await _replay(hass, _sample(home.entry_id, "on"))
    assert dict(home.options) == options
    replay = await _create_replay_entry(hass)
    with pytest.raises(Unauthorized):
        await _replay(
            hass,
            _sample(replay.entry_id, "on"),
            context=Context(user_id=hass_read_only_user.id),
        )


async def test_one_replay_at_a_time(hass: HomeAssistant) -> None:
    """A second replay monitor is refused while the first is in use."""
    await _create_replay_entry(hass)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": "user", REPLAY_QUERY: True}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"name": "Replay", CONF_REPLAY: True}
    )
    assert result["type"] == "abort"
    assert result["reason"] == "replay_running"


def test_shared_attributes_keep_their_types() -> None:
    """1, 1.0 and True are equal in Python but not in a window: never shared."""
    payload = StatePayload()
    when = datetime(2025, 1, 15, tzinfo=UTC)
    states = [
        payload.state(TraceStep(when, EntitySpec("light.a", "on", MappingProxyType({"b": v}))))
        for v in (1, 1.0, True, 1)
    ]
    assert [s[2] for s in states] == [0, 1, 2, 0]
    assert payload.attributes == [{"b": 1}, {"b": 1.0}, {"b": True}]
    assert states[0][3] == when.timestamp()


def test_the_silent_announcer_covers_every_surface() -> None:
    """Every way the Announcer reaches the homeowner has a silent stand-in for replays."""
    surfaces = {name for name in vars(Announcer) if name.startswith("async_")}
    assert surfaces
    assert surfaces <= set(vars(SilentAnnouncer))
    assert not issubclass(SilentAnnouncer, Announcer)
    for name in surfaces:  # awaited where the Announcer's is awaited
        real, silent = getattr(Announcer, name), getattr(SilentAnnouncer, name)
        assert inspect.iscoroutinefunction(real) == inspect.iscoroutinefunction(silent), name


async def test_pipelined_samples_run_one_after_another(hass: HomeAssistant) -> None:
    """A client may send the next samples before the last one returned (the replay keeps a
    few in flight): each is judged on its own states, as if sent alone."""
    replay = await _create_replay_entry(hass)
    at = datetime(2025, 1, 15, 3, tzinfo=UTC).timestamp()
    alarm = _sample(replay.entry_id, "on")  # the smoke detector goes off
    # Already sounding when the monitor starts, then quiet again: another home's story.
    cleared = _sample(replay.entry_id, "off", before=[[ALICE, "home", 0, at], [SMOKE, "on", 1, at]])
    samples = [alarm, cleared, alarm, cleared]
    create = replay_entry.async_create_detectors

    async def create_after_a_pause(*args: Any) -> Any:
        await asyncio.sleep(0)  # as a model backend's setup does (it does I/O)
        return await create(*args)

    with patch.object(replay_entry, "async_create_detectors", create_after_a_pause):
        alone = [await _replay(hass, sample) for sample in samples]
        together = await asyncio.gather(*(_replay(hass, sample) for sample in samples))

    assert alone[0]["verdict"]["label"] == "anomaly"
    assert alone[1]["verdict"]["label"] == "normal"
    assert together == alone
