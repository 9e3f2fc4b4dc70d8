"""Who may make the actions act: the caller's context and control permission, over every API."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized, UnknownUser
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockUser, async_mock_service
from pytest_homeassistant_custom_component.typing import (
    ClientSessionGenerator,
    WebSocketGenerator,
)
import voluptuous as vol

from custom_components.anomaly_monitor.const import CONF_REPLAY, DOMAIN
from custom_components.anomaly_monitor.dev_replay.entry import REPLAY_QUERY
from custom_components.anomaly_monitor.instructions.service import (
    SERVICE_CHECK_INSTRUCTION,
    async_register_instruction_service,
)

from .helpers import set_calm_home, setup_monitor

PLUG = "input_boolean.heater_plug"
GARAGE = "cover.garage_door"
TURN_ON = {"instruction": "Turn on the heater plug", "execute": True}


@pytest.fixture
async def devices(hass: HomeAssistant) -> None:
    """A real input_boolean, a garage door and the integration's actions."""
    assert await async_setup_component(
        hass, "input_boolean", {"input_boolean": {"heater_plug": {"name": "Heater plug"}}}
    )
    hass.states.async_set(
        GARAGE,
        "closed",
        {"friendly_name": "Garage door", "device_class": "garage", "supported_features": 3},
    )
    assert await async_setup_component(hass, DOMAIN, {})


async def _check(
    hass: HomeAssistant, instruction: str, user: MockUser | None, **data: Any
) -> dict[str, Any]:
    response = await hass.services.async_call(
        DOMAIN,
        SERVICE_CHECK_INSTRUCTION,
        {"instruction": instruction, **data},
        blocking=True,
        return_response=True,
        context=Context(user_id=user.id if user else None),
    )
    assert response is not None
    return dict(response)


async def _setup_apis(hass: HomeAssistant) -> None:
    """REST and websocket, both before the first client: serving freezes the app's router,
    and on HA 2026.10 a ``websocket_api`` set up after that fails to add its view."""
    assert await async_setup_component(hass, "api", {})
    assert await async_setup_component(hass, "websocket_api", {})


def _plug(hass: HomeAssistant) -> str:
    state = hass.states.get(PLUG)
    assert state is not None
    return state.state


async def test_read_only_user_cannot_turn_on_through_the_instruction(
    hass: HomeAssistant, devices: None, hass_read_only_user: MockUser
) -> None:
    """HA refuses the read-only user's direct call; check_instruction refuses it too."""
    with pytest.raises(Unauthorized):
        await hass.services.async_call(
            "input_boolean",
            "turn_on",
            {"entity_id": PLUG},
            blocking=True,
            context=Context(user_id=hass_read_only_user.id),
        )
    with pytest.raises(Unauthorized) as err:
        await _check(hass, "Turn on the heater plug", hass_read_only_user, execute=True)
    assert err.value.entity_id == PLUG
    assert _plug(hass) == "off"
    # Planning alone acts on nothing: any user may ask what would happen.
    planned = await _check(hass, "Turn on the heater plug", hass_read_only_user)
    assert planned["operations"][0]["entity_id"] == PLUG


async def test_garage_door_is_refused_before_anything_runs(
    hass: HomeAssistant, devices: None, hass_read_only_user: MockUser
) -> None:
    """The check covers every target first: no call at all when one is not allowed."""
    opened = async_mock_service(hass, "cover", "open_cover")  # bare service: no check of its own
    with pytest.raises(Unauthorized):
        await _check(hass, "Open the garage door", hass_read_only_user, execute=True)
    assert opened == []


async def test_admin_acts_with_their_own_context(
    hass: HomeAssistant, devices: None, hass_admin_user: MockUser
) -> None:
    """The admin's instruction runs, and the new state says who changed it."""
    response = await _check(hass, "Turn on the heater plug", hass_admin_user, execute=True)
    assert all(result["success"] for result in response["results"])
    state = hass.states.get(PLUG)
    assert state is not None
    assert state.state == "on"
    assert state.context.user_id == hass_admin_user.id


async def test_automation_without_user_acts_as_home_assistant(
    hass: HomeAssistant, devices: None
) -> None:
    """A call with no user (an automation) is HA acting for itself, as with HA's own actions."""
    await _check(hass, "Turn on the heater plug", None, execute=True)
    state = hass.states.get(PLUG)
    assert state is not None
    assert state.state == "on"
    assert state.context.user_id is None


async def test_unknown_user_is_refused(hass: HomeAssistant, devices: None) -> None:
    """A context naming a user that does not exist is refused, not trusted."""
    with pytest.raises(UnknownUser):
        await hass.services.async_call(
            DOMAIN,
            SERVICE_CHECK_INSTRUCTION,
            TURN_ON,
            blocking=True,
            return_response=True,
            context=Context(user_id="no-such-user"),
        )
    assert _plug(hass) == "off"


async def test_read_only_user_over_rest_and_websocket(
    hass: HomeAssistant,
    devices: None,
    hass_client: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    hass_read_only_access_token: str,
) -> None:
    """Over the real APIs the read-only user is refused as by HA's own action; nothing changes."""
    await _setup_apis(hass)
    client = await hass_client(hass_read_only_access_token)
    url = f"/api/services/{DOMAIN}/{SERVICE_CHECK_INSTRUCTION}?return_response"
    reply = await client.post(url, json=TURN_ON)
    assert reply.status == HTTPStatus.UNAUTHORIZED

    ws = await hass_ws_client(hass, hass_read_only_access_token)
    answers = []
    for message in (
        {"domain": "input_boolean", "service": "turn_on", "service_data": {"entity_id": PLUG}},
        {
            "domain": DOMAIN,
            "service": SERVICE_CHECK_INSTRUCTION,
            "service_data": TURN_ON,
            "return_response": True,
        },
    ):
        await ws.send_json_auto_id({"type": "call_service", **message})
        answers.append(await ws.receive_json())
    # HA's WebSocket API reports Unauthorized from an action as an error named "Unauthorized".
    assert [answer["success"] for answer in answers] == [False, False]
    assert answers[0]["error"] == answers[1]["error"]
    assert answers[1]["error"]["message"] == "Unauthorized"
    assert _plug(hass) == "off"

    # Planning only reads: the read-only user may ask what would happen.
    reply = await client.post(url, json={"instruction": "Turn on the heater plug"})
    assert reply.status == HTTPStatus.OK


async def _analyze_as(hass: HomeAssistant, user_id: str | None) -> dict[str, Any]:
    response = await hass.services.async_call(
        DOMAIN, "analyze", {}, blocking=True, return_response=True, context=Context(user_id=user_id)
    )
    assert response is not None
    return dict(response)


async def test_read_only_user_cannot_make_the_monitor_analyse(  # noqa: PLR0917 - fixtures
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    hass_read_only_access_token: str,
    hass_read_only_user: MockUser,
    hass_admin_user: MockUser,
) -> None:
    """``analyze`` refreshes the monitor now: it may open anomalies, push to the notify
    targets and fire the events automations act on. As HA's ``homeassistant.update_entity``
    it needs control of the monitor's entities: a read-only user is refused before anything
    runs (seen in a live Home Assistant: the read-only user's analyze ran and could notify).
    Any other user, and an automation, may."""
    await _setup_apis(hass)
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    coordinator = entry.runtime_data.coordinator
    before = coordinator.analyses
    with pytest.raises(Unauthorized):
        await _analyze_as(hass, hass_read_only_user.id)
    client = await hass_client(hass_read_only_access_token)
    reply = await client.post(f"/api/services/{DOMAIN}/analyze?return_response", json={})
    assert reply.status == HTTPStatus.UNAUTHORIZED
    ws = await hass_ws_client(hass, hass_read_only_access_token)
    await ws.send_json_auto_id(
        {"type": "call_service", "domain": DOMAIN, "service": "analyze", "return_response": True}
    )
    answer = await ws.receive_json()
    assert answer["success"] is False
    assert answer["error"]["message"] == "Unauthorized"
    assert coordinator.analyses == before  # nothing ran

    # A user whose policy reads everything but controls only another entity: refused too.
    hass_admin_user.groups = []
    hass_admin_user.mock_policy({"entities": {"all": {"read": True}, "entity_ids": {PLUG: True}}})
    with pytest.raises(Unauthorized):
        await _analyze_as(hass, hass_admin_user.id)
    # Control of the monitor's entities (as every non-admin user has), or no user at all.
    hass_admin_user.mock_policy({"entities": {"all": True}})
    for user_id in (hass_admin_user.id, None):
        assert (await _analyze_as(hass, user_id))["verdict"]["label"] == "normal"
    assert coordinator.analyses == before + 2


@pytest.mark.parametrize(
    ("service", "data", "key"),
    [
        ("analyze", {}, "entry_required"),
        ("analyze", {"config_entry_id": "not-an-entry"}, "entry_not_found"),
        (SERVICE_CHECK_INSTRUCTION, {"instruction": "   "}, "instruction_empty"),
        (SERVICE_CHECK_INSTRUCTION, {"instruction": "x" * 5000}, "instruction_too_long"),
        (
            SERVICE_CHECK_INSTRUCTION,
            {"instruction": "Turn on the plug", "config_entry_id": "nope"},
            "entry_not_found",
        ),
    ],
)
async def test_bad_input_is_a_4xx_with_a_translated_message(  # noqa: PLR0917 - fixtures
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    hass_ws_client: WebSocketGenerator,
    hass_read_only_access_token: str,
    service: str,
    data: dict[str, Any],
    key: str,
) -> None:
    """Two monitors and no entry, an unknown entry, an empty instruction: 400, never 500."""
    await _setup_apis(hass)
    set_calm_home(hass)
    await setup_monitor(hass)
    await setup_monitor(hass)
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(DOMAIN, service, data, blocking=True, return_response=True)
    assert err.value.translation_key == key
    message = str(err.value)
    assert message
    assert message != key  # the translation, not the bare key

    for token in (None, hass_read_only_access_token):  # the admin, then a read-only user
        client = await hass_client(token) if token else await hass_client()
        reply = await client.post(f"/api/services/{DOMAIN}/{service}?return_response", json=data)
        assert reply.status == HTTPStatus.BAD_REQUEST

    ws = await hass_ws_client(hass)
    await ws.send_json_auto_id(
        {
            "type": "call_service",
            "domain": DOMAIN,
            "service": service,
            "service_data": data,
            "return_response": True,
        }
    )
    answer = await ws.receive_json()
    assert answer["success"] is False
    assert answer["error"]["message"] == message


async def test_not_loaded_and_no_monitor(hass: HomeAssistant) -> None:
    """An unloaded monitor and a home without any are named as such."""
    set_calm_home(hass)
    entry = await setup_monitor(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    for data, key in (
        ({"config_entry_id": entry.entry_id}, "entry_not_loaded"),
        ({}, "no_entry_loaded"),
    ):
        with pytest.raises(ServiceValidationError) as err:
            await hass.services.async_call(
                DOMAIN, "analyze", data, blocking=True, return_response=True
            )
        assert err.value.translation_key == key
        assert isinstance(err.value, vol.Invalid)  # what HA's REST API answers with 400


class _NoModel:
    """A backend that must not be asked: the parser reads the instruction alone."""

    name = "unused"

    async def async_generate(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("not asked")

    async def async_close(self) -> None:
        return None


async def test_which_monitor_plans_when_none_is_named(hass: HomeAssistant, devices: None) -> None:
    """Several monitors: the one with a model plans; two with a model need a name."""
    set_calm_home(hass)
    first, second = await setup_monitor(hass), await setup_monitor(hass)
    with_model = {first.entry_id}
    chosen: list[str] = []

    def getter(entry: Any) -> _NoModel | None:
        if entry is None or entry.entry_id not in with_model:
            return None
        chosen.append(entry.entry_id)
        return _NoModel()

    async_register_instruction_service(hass, backend_getter=getter)
    await _check(hass, "Turn on the heater plug", None)
    assert chosen[-1] == first.entry_id

    with_model.add(second.entry_id)
    with pytest.raises(ServiceValidationError) as err:
        await _check(hass, "Turn on the heater plug", None)
    assert err.value.translation_key == "entry_required"
    planned = await _check(hass, "Turn on the heater plug", None, config_entry_id=second.entry_id)
    assert planned["operations"]
    assert chosen[-1] == second.entry_id


async def test_replay_sample_is_for_admins_and_answers_bad_input_with_400(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    hass_read_only_access_token: str,
) -> None:
    """The benchmark replay's action: a read-only user is refused; a wrong entry is a 400."""
    assert await async_setup_component(hass, "api", {})
    set_calm_home(hass)
    entry = await setup_monitor(hass)  # a monitor of the home, not a replay monitor
    # The action exists only while a developer's replay entry does.
    flow = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": "user", REPLAY_QUERY: True}
    )
    await hass.config_entries.flow.async_configure(
        flow["flow_id"], {"name": "Replay", CONF_REPLAY: True}
    )
    await hass.async_block_till_done()
    url = f"/api/services/{DOMAIN}/replay_sample?return_response"
    data = {"config_entry_id": entry.entry_id, "options": {}, "at": "2026-11-30T12:00:00+00:00"}
    reply = await (await hass_client(hass_read_only_access_token)).post(url, json=data)
    assert reply.status == HTTPStatus.UNAUTHORIZED
    reply = await (await hass_client()).post(url, json=data)
    assert reply.status == HTTPStatus.BAD_REQUEST
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            DOMAIN, "replay_sample", data, blocking=True, return_response=True
        )
    assert err.value.translation_key == "not_a_replay_entry"
