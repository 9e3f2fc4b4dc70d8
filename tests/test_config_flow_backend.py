"""Config flow with an LLM backend: checked before saving, reconfigure, reauth on 401,
and one repair issue while the backend stays down."""

from __future__ import annotations

from collections.abc import AsyncIterator
import json
from typing import Any

from aiohttp import web
from homeassistant import config_entries
from homeassistant.const import CONF_API_KEY
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
import pytest

from custom_components.anomaly_monitor.backends import llm_detector_of
from custom_components.anomaly_monitor.const import (
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_DETECTOR,
    CONF_INCLUDE_ENTITIES,
    CONF_MODEL,
    CONF_REQUEST_TIMEOUT,
    CONF_USE_EXPOSED,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm.explanations import SYSTEM as EXPLAIN_SYSTEM

from .helpers import ALICE, FRONT_LOCK, SMOKE, analyze, set_calm_home


class FakeOpenAI:
    """A loopback OpenAI-compatible chat server whose behaviour a test can change."""

    def __init__(self) -> None:
        self.key = "secret"
        self.down = False
        self.requests = 0
        self.url = ""
        self.last_body: dict[str, Any] = {}  # of the last verdict asked (not an explanation)

    async def chat(self, request: web.Request) -> web.Response:
        self.requests += 1
        body = await request.json()
        if body["messages"][0]["content"] != EXPLAIN_SYSTEM:
            self.last_body = body
        if self.down:
            return web.Response(status=503, text="overloaded")
        if request.headers.get("Authorization") != f"Bearer {self.key}":
            return web.Response(status=401, text="bad key")
        reply = {"label": "normal", "evidence": [], "reasoning": "All calm."}
        return web.json_response(
            {"choices": [{"message": {"role": "assistant", "content": json.dumps(reply)}}]}
        )


@pytest.fixture
async def fake_openai(socket_enabled: None) -> AsyncIterator[FakeOpenAI]:
    """Serve FakeOpenAI on 127.0.0.1."""
    server = FakeOpenAI()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", server.chat)
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    server.url = f"http://127.0.0.1:{port}/v1"
    yield server
    await runner.cleanup()


async def _start(
    hass: HomeAssistant, detector: str = "hybrid", include: tuple[str, ...] = (SMOKE,)
) -> dict[str, Any]:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {
            "name": "Home",
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: list(include),
            CONF_DETECTOR: detector,
        },
    )
    if detector == "hybrid":  # its two switches come first, off by default
        assert result["step_id"] == "hybrid"
        result = await hass.config_entries.flow.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.MENU
    return await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "openai"}
    )


async def _create_entry(
    hass: HomeAssistant,
    fake_openai: FakeOpenAI,
    detector: str = "hybrid",
    include: tuple[str, ...] = (SMOKE,),
) -> config_entries.ConfigEntry:
    """A monitor whose backend is the fake server, created through the flow."""
    result = await _start(hass, detector, include)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {
            CONF_BASE_URL: fake_openai.url,
            CONF_MODEL: "tiny",
            CONF_API_KEY: "secret",
            CONF_REQUEST_TIMEOUT: 10,
        },
    )
    # The first analysis runs in the background: done before a test changes the server.
    await hass.async_block_till_done(wait_background_tasks=True)
    assert result["type"] is FlowResultType.CREATE_ENTRY
    return result["result"]


async def test_backend_is_checked_before_the_entry_is_created(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """A wrong key is refused in the form; the right one creates a hybrid monitor."""
    set_calm_home(hass)
    result = await _start(hass)
    assert result["step_id"] == "openai"
    form = {CONF_BASE_URL: fake_openai.url, CONF_MODEL: "tiny", CONF_REQUEST_TIMEOUT: 10}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], form | {CONF_API_KEY: "wrong"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "invalid_auth"}

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], form | {CONF_API_KEY: "secret"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    entry = result["result"]
    assert entry.data[CONF_BACKEND] == "openai"
    assert entry.data[CONF_API_KEY] == "secret"
    assert entry.options[CONF_DETECTOR] == "hybrid"
    before = fake_openai.requests
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Smoke!"})
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke!"})
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Smoke!"})
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "normal"
    assert fake_openai.requests > before  # the model was asked


async def test_credentials_in_the_url_and_an_api_key_are_refused_by_name(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """A proxy's user:password in the URL and an API key both need the Authorization header:
    aiohttp refuses such a request before it is sent. Seen in a live Home Assistant: the
    form said "answered, but not with a usable reply (unknown model?)". It says why now."""
    set_calm_home(hass)
    result = await _start(hass)
    with_user = fake_openai.url.replace("http://", "http://walk:pa55@")
    form = {CONF_BASE_URL: with_user, CONF_MODEL: "tiny", CONF_REQUEST_TIMEOUT: 10}
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], form | {CONF_API_KEY: "secret"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "credentials_twice"}
    assert fake_openai.requests == 0
    # Without the key the URL's credentials are sent (as Basic auth): the server answers.
    result = await hass.config_entries.flow.async_configure(result["flow_id"], form)
    assert result["errors"] == {"base": "invalid_auth"}  # this server wants its Bearer key
    assert fake_openai.requests == 1


async def test_unreachable_backend_is_refused(hass: HomeAssistant, socket_enabled: None) -> None:
    """Nothing listens on the port: cannot_connect, nothing is created."""
    result = await _start(hass, "llm")
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_BASE_URL: "http://127.0.0.1:9/v1", CONF_MODEL: "m", CONF_REQUEST_TIMEOUT: 5},
    )
    assert result["errors"] == {"base": "cannot_connect"}
    assert not hass.config_entries.async_entries(DOMAIN)


async def test_backend_down_raises_one_issue_and_reauth_on_401(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """Down: rules keep working and one repair issue shows; back: it goes; 401: reauth."""
    set_calm_home(hass)
    entry = await _create_entry(hass, fake_openai)
    issue_id = f"backend_unavailable_{entry.entry_id}"
    llm = llm_detector_of(entry.runtime_data.coordinator.detector)
    assert llm is not None
    llm.backoff = 0.0  # retries still happen, without the waits between them

    fake_openai.down = True
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"  # the rules still report the smoke
    assert response["verdict"]["evidence"] == [SMOKE]
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is not None
    await analyze(hass, entry)
    assert len([i for (d, i) in ir.async_get(hass).issues if d == DOMAIN and "backend" in i]) == 1

    fake_openai.down = False
    await analyze(hass, entry)
    assert ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None

    fake_openai.key = "rotated"
    hass.states.async_set(SMOKE, "off", {"device_class": "smoke", "friendly_name": "Smoke"})
    await analyze(hass, entry)
    await hass.async_block_till_done()
    flows = hass.config_entries.flow.async_progress_by_handler(DOMAIN)
    assert [f["context"]["source"] for f in flows] == ["reauth"]
    result = await hass.config_entries.flow.async_configure(
        flows[0]["flow_id"], {CONF_API_KEY: "rotated"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reauth_successful"
    assert entry.data[CONF_API_KEY] == "rotated"


async def test_reconfigure_changes_the_model(hass: HomeAssistant, fake_openai: FakeOpenAI) -> None:
    """Reconfigure checks the new settings and reloads the entry with them."""
    set_calm_home(hass)
    result = await _start(hass)
    form = {
        CONF_BASE_URL: fake_openai.url,
        CONF_MODEL: "tiny",
        CONF_API_KEY: "secret",
        CONF_REQUEST_TIMEOUT: 10,
    }
    result = await hass.config_entries.flow.async_configure(result["flow_id"], form)
    await hass.async_block_till_done()
    entry = result["result"]

    result = await hass.config_entries.flow.async_init(
        DOMAIN,
        context={"source": config_entries.SOURCE_RECONFIGURE, "entry_id": entry.entry_id},
    )
    assert result["type"] is FlowResultType.MENU
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "openai"}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], form | {CONF_MODEL: "bigger"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    assert entry.data[CONF_MODEL] == "bigger"


async def test_llm_only_monitor_falls_back_to_rules_while_down(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """With the LLM detector alone, a dead backend still leaves the rules judging."""
    set_calm_home(hass)
    entry = await _create_entry(hass, fake_openai, "llm")
    llm = llm_detector_of(entry.runtime_data.coordinator.detector)
    assert llm is not None
    llm.backoff = 0.0
    fake_openai.down = True
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"
    assert response["verdict"]["detector"] == "rules+statistics"


async def test_false_alarm_marks_become_examples_for_the_model(
    hass: HomeAssistant, fake_openai: FakeOpenAI
) -> None:
    """A pattern marked as a false alarm is shown to the model as an example of normal."""
    set_calm_home(hass)
    entry = await _create_entry(hass, fake_openai, include=(SMOKE, FRONT_LOCK, ALICE))
    coordinator = entry.runtime_data.coordinator
    # Not a hazard: a hazard's false alarm dismisses one occurrence and teaches nothing.
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    hass.states.async_set(FRONT_LOCK, "unlocked", {"friendly_name": "Front door"})
    await analyze(hass, entry)
    turns_before = len(fake_openai.last_body["messages"])
    (anomaly,) = coordinator.tracker.open.values()
    coordinator.async_mark_false_alarm(anomaly.key)

    llm = llm_detector_of(coordinator.detector)
    assert llm is not None
    assert len(llm.examples) == 1
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await analyze(hass, entry)
    messages = fake_openai.last_body["messages"]
    assert len(messages) == turns_before + 2  # one example: a user turn and its answer
    example_answer = json.loads(messages[-2]["content"])
    assert example_answer["label"] == "normal"
    assert anomaly.reasoning in messages[-3]["content"]
