"""Secret canaries: a password in the backend URL, an API key, a notify target and a
distinctive household profile, echoed back by a loopback model and by its error pages,
must appear in no log line (DEBUG included), diagnostics, repair issue, notification,
event, entity state, stored anomaly or action response.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
import html
import json
import logging
from typing import Any

from aiohttp import web
from homeassistant.components import persistent_notification
from homeassistant.const import CONF_API_KEY, MATCH_ALL
from homeassistant.core import Event, HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.anomaly_monitor import backends
from custom_components.anomaly_monitor.backends import async_validate_backend
from custom_components.anomaly_monitor.const import (
    BACKEND_OPENAI,
    CONF_BACKEND,
    CONF_BASE_URL,
    CONF_DETECTOR,
    CONF_MODEL,
    CONF_NOTIFY,
    CONF_PROFILE,
    DETECTOR_HYBRID,
    DETECTOR_LLM,
    DOMAIN,
)
from custom_components.anomaly_monitor.core.llm.backend import LLMError
from custom_components.anomaly_monitor.core.llm.detector import LLMDetector
from custom_components.anomaly_monitor.redaction import PROFILE_REPLACEMENT

from .helpers import SMOKE, analyze, monitor_options, set_calm_home

PASSWORD = "Canary-Pass-7731"
API_KEY = "sk-canary-5be1c0de9f"
TARGET = "notify.mobile_app_canary_phone"
PROFILE = "Priya works night shifts at the Zephyr Foundry and sleeps until noon on weekdays."
# The Authorization header the HTTP client builds from the URL's credentials.
BASIC = base64.b64encode(f"priya:{PASSWORD}".encode()).decode()
# What must never be seen (the profile by its distinctive words, any case).
CANARIES = (PASSWORD, API_KEY, BASIC, "mobile_app_canary_phone", "zephyr", "priya", "foundry")


class CanaryModel:
    """A chat server that echoes the household profile it was sent, in a reply or an error."""

    def __init__(self) -> None:
        self.mode = "echo"
        self.url = ""
        self.echoed: list[str] = []

    async def chat(self, request: web.Request) -> web.StreamResponse:
        raw = await request.text()
        auth = request.headers.get("Authorization", "")
        if self.mode == "unauthorized":
            return web.Response(status=401, text=f"Invalid key {auth[7:]} for this account")
        if self.mode == "error_page":  # the request echoed back, as some proxies do
            start = max(raw.find("Household"), 0)
            echo = f"{auth} sent {raw[start : start + 160]}"
            self.echoed.append(echo)
            page = f"<html><body><p>Bad gateway for {html.escape(echo)}</p></body></html>"
            return web.Response(status=502, text=page, content_type="text/html")
        prompt = "\n".join(m["content"] for m in json.loads(raw)["messages"])
        line = next((x for x in prompt.splitlines() if "Zephyr" in x), "")
        self.echoed.append(line)
        answer = {
            "label": "anomaly",
            "evidence": [SMOKE],
            "anomaly_type": "safety_hazard",
            "severity": "critical",
            "reasoning": f"Smoke in the kitchen. {line} Credentials {auth}.",
            "recommendation": f"Wake them up: {PROFILE.lower()}",
        }
        content = json.dumps(answer)
        return web.json_response({"choices": [{"message": {"content": content}}]})


@pytest.fixture
async def model(socket_enabled: None) -> AsyncIterator[CanaryModel]:
    """The canary model on a loopback port."""
    canary = CanaryModel()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", canary.chat)
    runner = web.AppRunner(app, shutdown_timeout=0.1, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    canary.url = f"127.0.0.1:{runner.addresses[0][1]}"
    yield canary
    await runner.cleanup()


class _OneRetry(LLMDetector):
    """The monitor's LLM detector without real-time backoff between tries."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs, retries=1, backoff=0.0)


@pytest.fixture
def seen(
    hass: HomeAssistant, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> list[Event]:
    """Every log line at DEBUG and every event on the bus, from here on."""
    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr(backends, "LLMDetector", _OneRetry)
    events: list[Event] = []
    hass.bus.async_listen(MATCH_ALL, events.append)
    return events


async def _setup(hass: HomeAssistant, data: dict[str, Any], detector: str) -> MockConfigEntry:
    assert await async_setup_component(hass, "diagnostics", {})
    set_calm_home(hass)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        data={CONF_BACKEND: BACKEND_OPENAI, CONF_MODEL: "canary", **data},
        options=monitor_options(
            **{CONF_DETECTOR: detector, CONF_PROFILE: PROFILE, CONF_NOTIFY: [TARGET]}
        ),
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def _everything_shown(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    entry: MockConfigEntry,
    *,
    caplog: pytest.LogCaptureFixture,
    events: list[Event],
    hass_storage: dict[str, Any],
    extra: Any = None,
) -> str:
    """All a person, an automation or a log reader can see, as one lower-case text."""
    await entry.runtime_data.coordinator.tracker.async_flush()
    issues = [
        {"id": i.issue_id, "placeholders": i.translation_placeholders, "data": i.data}
        for i in ir.async_get(hass).issues.values()
    ]
    notifications = [
        {"title": n["title"], "message": n["message"]}
        for n in persistent_notification._async_get_or_create_notifications(hass).values()
    ]
    shown = {
        "logs": caplog.text,
        "diagnostics": await get_diagnostics_for_config_entry(hass, hass_client, entry),
        "issues": issues,
        "notifications": notifications,
        "events": [e.as_dict() for e in events],
        "states": [s.as_dict() for s in hass.states.async_all()],
        "stored": hass_storage.get(f"{DOMAIN}.{entry.entry_id}"),
        "extra": extra,
    }
    return json.dumps(shown, default=str).lower()


def _assert_no_canary(text: str) -> None:
    leaked = [canary for canary in CANARIES if canary.lower() in text]
    assert leaked == []


async def test_model_echo_of_profile_and_credentials_is_never_shown(  # noqa: PLR0917 - fixtures
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    model: CanaryModel,
    seen: list[Event],
    caplog: pytest.LogCaptureFixture,
    hass_storage: dict[str, Any],
) -> None:
    """The model repeats the profile and the Basic credentials; every surface shows neither."""
    entry = await _setup(
        hass, {CONF_BASE_URL: f"http://priya:{PASSWORD}@{model.url}/v1"}, DETECTOR_LLM
    )
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    response = await analyze(hass, entry)

    assert any("Zephyr" in line for line in model.echoed)  # the model did echo the profile
    verdict = response["verdict"]
    assert verdict["label"] == "anomaly"
    assert PROFILE_REPLACEMENT in verdict["reasoning"]
    # The smoke finding is the rules' floor (detector llm keeps it, with its own advice);
    # the model's sentence joins it, redacted.
    assert "The model agrees" in verdict["reasoning"]
    assert "Could not send anomaly" in caplog.text  # the missing notify target was logged
    shown = await _everything_shown(
        hass,
        hass_client,
        entry,
        caplog=caplog,
        events=seen,
        hass_storage=hass_storage,
        extra=response,
    )
    assert "smoke in the kitchen" in shown  # the model's own words are kept
    _assert_no_canary(shown)


async def test_error_pages_echoing_the_request_are_never_shown(  # noqa: PLR0917 - fixtures
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    model: CanaryModel,
    seen: list[Event],
    caplog: pytest.LogCaptureFixture,
    hass_storage: dict[str, Any],
) -> None:
    """A 502 page quoting the key and the prompt, then a 401 quoting the key: the rules judge,
    the repair issue and the logs say why, and nothing secret is in them."""
    model.mode = "error_page"
    entry = await _setup(
        hass, {CONF_BASE_URL: f"http://{model.url}/v1", CONF_API_KEY: API_KEY}, DETECTOR_HYBRID
    )
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    response = await analyze(hass, entry)
    assert any("Zephyr" in echo and API_KEY in echo for echo in model.echoed)
    assert response["verdict"]["label"] == "anomaly"  # the rules still report the smoke
    issue = ir.async_get(hass).async_get_issue(DOMAIN, f"backend_unavailable_{entry.entry_id}")
    assert issue is not None
    assert issue.translation_placeholders is not None
    assert "502" in issue.translation_placeholders["reason"]

    model.mode = "unauthorized"
    entry.runtime_data.coordinator.judge.forget()  # ask the model again now
    await analyze(hass, entry)
    await hass.async_block_till_done()
    assert list(entry.async_get_active_flows(hass, {"reauth"}))  # the key was rejected
    shown = await _everything_shown(
        hass,
        hass_client,
        entry,
        caplog=caplog,
        events=seen,
        hass_storage=hass_storage,
        extra=response,
    )
    assert "unavailable" in shown  # the failures were logged and shown
    _assert_no_canary(shown)


@pytest.mark.parametrize("with_key", [False, True])
async def test_url_credentials_in_connection_errors_are_never_shown(  # noqa: PLR0917 - fixtures
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    model: CanaryModel,
    seen: list[Event],
    caplog: pytest.LogCaptureFixture,
    hass_storage: dict[str, Any],
    with_key: bool,
) -> None:
    """A closed port behind a URL with a password, or a password and an API key together
    (which the HTTP client refuses to combine): a backend failure with no secret in it."""
    port = model.url.rsplit(":", 1)[1]
    url = (
        f"http://priya:{PASSWORD}@{model.url}/v1"
        if with_key
        else f"http://priya:{PASSWORD}@127.0.0.1:{int(port) ^ 1}/v1"
    )
    data = {CONF_BASE_URL: url} | ({CONF_API_KEY: API_KEY} if with_key else {})
    entry = await _setup(hass, data, DETECTOR_HYBRID)
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    response = await analyze(hass, entry)
    assert response["verdict"]["label"] == "anomaly"
    assert ir.async_get(hass).async_get_issue(DOMAIN, f"backend_unavailable_{entry.entry_id}")
    with pytest.raises(LLMError) as err:  # what the config flow checks, with the same data
        await async_validate_backend(hass, entry.data)
    shown = await _everything_shown(
        hass,
        hass_client,
        entry,
        caplog=caplog,
        events=seen,
        hass_storage=hass_storage,
        extra=[response, str(err.value)],
    )
    _assert_no_canary(shown)


async def test_validation_error_without_secrets(hass: HomeAssistant, socket_enabled: None) -> None:
    """The config flow's check of a wrong URL names the server, not its password."""
    config = {
        CONF_BACKEND: BACKEND_OPENAI,
        CONF_MODEL: "m",
        CONF_BASE_URL: f"http://priya:{PASSWORD}@127.0.0.1:9/v1",
    }
    with pytest.raises(LLMError) as err:
        await async_validate_backend(hass, config)
    assert "127.0.0.1:9" in str(err.value)
    assert PASSWORD not in str(err.value)
    assert err.value.__cause__ is None  # a traceback would print the original message


async def test_a_hybrid_shows_no_agreement_that_echoes_the_profile(
    hass: HomeAssistant, model: CanaryModel, seen: list[Event]
) -> None:
    """The hybrid's "The model agrees: ..." is shown in the fire's notification. A reply
    that echoes the profile and the credentials was shown there, scrubbed (a live walk:
    "The model agrees: Because [household profile], and your key is Bearer **REDACTED**,
    this matters."): it is checked as an explanation is, and this one is left out."""
    entry = await _setup(
        hass, {CONF_BASE_URL: f"http://{model.url}/v1", CONF_API_KEY: API_KEY}, DETECTOR_HYBRID
    )
    hass.states.async_set(SMOKE, "on", {"device_class": "smoke", "friendly_name": "Smoke"})
    response = await analyze(hass, entry)
    await hass.async_block_till_done()
    assert any("Zephyr" in line for line in model.echoed)  # the model did echo the profile
    assert response["verdict"]["label"] == "anomaly"
    (note,) = persistent_notification._async_get_or_create_notifications(hass).values()
    assert note["title"] == "Smoke in the home"  # the detector has no area here
    assert "The model agrees" not in note["message"]
    assert PROFILE_REPLACEMENT.replace("[", "\\[") not in note["message"]
    assert PROFILE_REPLACEMENT not in response["verdict"]["reasoning"]
