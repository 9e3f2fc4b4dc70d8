"""Dev-HA mode: replay samples in a running Home Assistant without touching its home.

The replay creates its own *replay monitor* through the config flow over REST (the
option ``replay``, which only this call gets), sends each sample to it with the admin action
``anomaly_monitor.replay_sample`` and removes the entry when it stops (normally, on
Ctrl-C or on an error). A replay monitor keeps the replayed states in a table of its
own, never in Home Assistant's state machine, and shows nothing to the homeowner (see
``custom_components/anomaly_monitor/dev_replay/entry.py``): the home's states, entries,
notifications, repair issues, false-alarm marks and automations are left alone.

Each call carries the sample's states with their own timestamps and the clock to
analyse at, and returns only once the entry has reloaded with the sample's options, so
the verdicts are those of the in-process replay (``ha_runner``), sample for sample.
The replay keeps a few calls in flight (``PIPELINE``); HA runs them one at a time.
"""

from __future__ import annotations

from collections.abc import Mapping
import json
import re
from typing import Any

import aiohttp

from .home_scene import Scene
from .monitor_options import (
    REPLAY_LATITUDE,
    StatePayload,
    scene_areas,
    scene_options,
    states_before,
    watched_steps,
)

DOMAIN = "anomaly_monitor"
# The integration supports Home Assistant from this version on (hacs.json).
MIN_HA_VERSION = (2026, 2)
REPLAY_TITLE = "Benchmark replay"
REPLAY_QUERY = "anomaly_monitor_replay"  # dev_replay/entry.py's: asks the flow for the option
# A sample may wait for a slow model; the entry's own load is bounded at 120 s.
SAMPLE_TIMEOUT = 900.0
_BUSY_REASONS = ("replay_running", "already_configured", "already_in_progress")
# Samples in flight at once: HA judges one while the next ones are read and queued
# (replay_sample runs them one after another, in order). Two already keep HA busy;
# a few more absorb the client's slower samples (long traces).
PIPELINE = 4


class RemoteHAError(RuntimeError):
    """One sample failed; the message says why (the run goes on)."""


class RemoteHASetupError(RemoteHAError):
    """The replay cannot run against this Home Assistant; the message says what to do."""


class RemoteHARunner:
    """Replays scenes into the replay monitor it creates in the HA at ``url``."""

    pipeline = PIPELINE  # async_run may be called again before the last call returned

    def __init__(
        self,
        url: str,
        token: str,
        options: Mapping[str, Any] | None = None,
        session: aiohttp.ClientSession | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.options = dict(options or {})
        self.entry_id: str | None = None
        self._headers = {"Authorization": f"Bearer {token}"}
        self._session = session
        self._own_session = session is None

    async def async_start(self) -> None:
        """Check the HA and create the replay monitor; a clear error if it cannot run."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        try:
            config = await self._request("GET", "/api/config")
        except RemoteHAError as err:
            raise RemoteHASetupError(self._explain_start(err)) from None
        if not isinstance(config, dict) or "version" not in config:
            raise RemoteHASetupError(f"{self.url} does not answer like Home Assistant")
        version = str(config["version"])
        if _version(version) < MIN_HA_VERSION:
            raise RemoteHASetupError(
                f"Home Assistant {version} at {self.url} is too old: the replay needs "
                f"{'.'.join(map(str, MIN_HA_VERSION))} or newer"
            )
        self.entry_id = await self._create_entry()

    def _explain_start(self, err: RemoteHAError) -> str:
        status = getattr(err, "status", None)
        if status == 401:
            return (
                f"Home Assistant at {self.url} rejected the token: create a long-lived access "
                "token (your profile > Security) and pass it with --token"
            )
        if status == 403:
            return "the token's user is not an administrator: the replay needs an admin's token"
        if status == 404:
            return (
                f"{self.url} has no Home Assistant REST API (HTTP 404 for /api/config): "
                "check --ha-url (e.g. http://127.0.0.1:8123) and that the api integration "
                "(default_config) is enabled"
            )
        return f"cannot use Home Assistant at {self.url}: {err}"

    async def _create_entry(self) -> str:
        """Run the config flow for a replay monitor and return its entry id."""
        try:
            flow = await self._request(
                "POST",
                # The query asks for the developer's replay field (dev_replay/entry.py).
                f"/api/config/config_entries/flow?{REPLAY_QUERY}=1",
                {"handler": DOMAIN},
            )
        except RemoteHAError as err:
            if getattr(err, "status", None) in (401, 403):
                raise RemoteHASetupError(
                    "the token's user is not an administrator: the replay needs an admin's "
                    "long-lived access token"
                ) from None
            if getattr(err, "status", None) in (400, 404):
                raise RemoteHASetupError(
                    f"{DOMAIN} is not installed on the Home Assistant at {self.url}: copy "
                    "custom_components/anomaly_monitor into its config/custom_components "
                    "folder and restart it"
                ) from None
            raise RemoteHASetupError(f"cannot start the replay monitor's flow: {err}") from None
        fields = {f.get("name") for f in flow.get("data_schema") or []}
        if flow.get("type") != "form" or "replay" not in fields:
            await self._abort_flow(flow)
            raise RemoteHASetupError(
                f"the {DOMAIN} installed on {self.url} has no replay monitor: install this "
                "version of custom_components/anomaly_monitor there and restart it"
            )
        result = await self._request(
            "POST",
            f"/api/config/config_entries/flow/{flow['flow_id']}",
            {"name": REPLAY_TITLE, "replay": True, "use_exposed_entities": False},
        )
        if result.get("type") == "abort" and result.get("reason") in _BUSY_REASONS:
            raise RemoteHASetupError(
                f"another benchmark replay is running on {self.url}: wait until it ends "
                "(one that was killed is removed after 30 s without activity; then run again)"
            )
        if result.get("type") != "create_entry":
            raise RemoteHASetupError(f"the replay monitor was not created: {_brief(result)}")
        created = result.get("result")
        entry_id = created.get("entry_id") if isinstance(created, dict) else created
        if not entry_id:
            raise RemoteHASetupError(f"the replay monitor was not created: {_brief(result)}")
        return str(entry_id)

    async def _abort_flow(self, flow: Mapping[str, Any]) -> None:
        if flow.get("flow_id"):
            await self._request(
                "DELETE", f"/api/config/config_entries/flow/{flow['flow_id']}", allow=(404,)
            )

    async def async_stop(self) -> None:
        """Remove the replay monitor (and everything it held) and close the session."""
        try:
            if self.entry_id is not None and self._session is not None:
                await self._request(
                    "DELETE", f"/api/config/config_entries/entry/{self.entry_id}", allow=(404,)
                )
                self.entry_id = None
        finally:
            if self._own_session and self._session is not None:
                await self._session.close()
            self._session = None

    async def async_run(self, scene: Scene) -> Mapping[str, Any]:
        """Replay one scene in the replay monitor and return its analyze response."""
        if self.entry_id is None:
            raise RemoteHASetupError("call async_start() first")
        states = StatePayload()
        payload = {
            "config_entry_id": self.entry_id,
            "options": scene_options(scene, self.options),
            "areas": scene_areas(scene),
            "before": [states.state(step) for step in states_before(scene)],
            "steps": [states.state(step) for step in watched_steps(scene)],
            "attributes": states.attributes,
            "at": scene.clock.isoformat(),
            "latitude": REPLAY_LATITUDE,
        }
        try:
            reply = await self._request(
                "POST",
                f"/api/services/{DOMAIN}/replay_sample?return_response",
                payload,
                timeout=SAMPLE_TIMEOUT,
            )
        except RemoteHAError as err:
            if "not_a_replay_entry" in str(err) or "not a replay monitor" in str(
                err
            ):  # removed by another run: stop here
                raise RemoteHASetupError(
                    "the replay monitor was removed while the replay ran"
                ) from None
            raise
        response = reply.get("service_response") if isinstance(reply, dict) else None
        if not isinstance(response, dict) or "verdict" not in response:
            raise RemoteHAError(f"replay_sample returned no verdict: {_brief(reply)}")
        return response

    async def _request(
        self,
        method: str,
        path: str,
        payload: Any = None,
        allow: tuple[int, ...] = (),
        timeout: float | None = None,
    ) -> Any:
        if self._session is None:
            raise RemoteHASetupError("call async_start() first")
        try:
            async with self._session.request(
                method,
                self.url + path,
                json=payload,
                headers=self._headers,
                timeout=aiohttp.ClientTimeout(total=timeout) if timeout else None,
            ) as reply:
                if reply.status in allow:
                    return None
                text = await reply.text()
                if reply.status >= 400:
                    error = RemoteHAError(
                        f"{method} {path.partition('?')[0]} -> HTTP {reply.status}: "
                        f"{_message(text)}"
                    )
                    error.status = reply.status  # type: ignore[attr-defined]
                    raise error
        except aiohttp.InvalidURL:
            raise RemoteHASetupError(f"{self.url} is not a valid URL for --ha-url") from None
        except (aiohttp.ClientConnectionError, TimeoutError) as err:
            raise RemoteHASetupError(
                f"cannot reach Home Assistant at {self.url} ({type(err).__name__}: {err}); "
                "check --ha-url and that it is running"
            ) from None
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text


def _version(text: str) -> tuple[int, int]:
    """``2026.2.3`` -> (2026, 2); anything unreadable counts as new enough."""
    match = re.match(r"(\d+)\.(\d+)", text)
    return (int(match[1]), int(match[2])) if match else (9999, 0)


def _message(text: str) -> str:
    """The ``message`` of an HA error body, or the body, on one short line."""
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        body = None
    message = body.get("message") if isinstance(body, dict) else None
    return " ".join(str(message or text).split())[:300]


def _brief(value: Any) -> str:
    return " ".join(str(value).split())[:300]
