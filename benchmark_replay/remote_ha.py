"""Dev-HA mode: replay scenes into a running Home Assistant over its REST API.

Per sample: delete the previous sample's fake states, set the new ones
(``POST /api/states/<entity_id>``), point the monitor entry at them through its
options flow (which reloads the entry, as a user's change would), and call
``anomaly_monitor.analyze`` with ``?return_response``.

Limits of a live instance, stated in docs/benchmarks.md: its clock cannot be moved,
so a trace's events arrive in order but seconds apart instead of at their timestamps
(CD scores from this mode are not comparable with the in-process ones); and states
set over REST have no registry entry, hence no area. The monitor entry keeps its own
detector settings: pass ``--entry-id`` to choose it, or the only one is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import aiohttp

from .entity_mapping import EntitySpec
from .home_scene import Scene, SnapshotScene
from .monitor_options import scene_options

DOMAIN = "anomaly_monitor"
# The options flow's lower bound for the window (minutes).
MIN_WINDOW_MINUTES = 5


class RemoteHAError(RuntimeError):
    """The dev HA answered something unexpected; the message says what."""


class RemoteHARunner:
    """Replays scenes into a Home Assistant reachable at ``url`` with ``token``."""

    def __init__(
        self,
        url: str,
        token: str,
        options: Mapping[str, Any] | None = None,
        entry_id: str | None = None,
        session: aiohttp.ClientSession | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.entry_id = entry_id
        self.options = dict(options or {})
        self._headers = {"Authorization": f"Bearer {token}"}
        self._session = session
        self._own_session = session is None
        self._set: set[str] = set()

    async def async_start(self) -> None:
        """Open the session and find the monitor entry."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600))
        if self.entry_id is None:
            entries = await self._request(
                "GET", f"/api/config/config_entries/entry?domain={DOMAIN}"
            )
            loaded = [e for e in entries if e.get("state") == "loaded"]
            if len(loaded) != 1:
                raise RemoteHAError(f"found {len(loaded)} loaded {DOMAIN} entries; pass --entry-id")
            self.entry_id = str(loaded[0]["entry_id"])

    async def async_stop(self) -> None:
        """Remove the fake states and close the session."""
        try:
            await self._clear()
        finally:
            if self._own_session and self._session is not None:
                await self._session.close()
            self._session = None

    async def async_run(self, scene: Scene) -> Mapping[str, Any]:
        """Replay one scene and return the analyze response."""
        await self._clear()
        if isinstance(scene, SnapshotScene):
            for spec in (*scene.environment, *scene.devices):
                await self._set_state(spec)
            await self._configure(scene)
        else:
            for spec in scene.environment:
                await self._set_state(spec)
            await self._configure(scene)
            for step in scene.steps:
                await self._set_state(step.spec)
        reply = await self._request(
            "POST",
            f"/api/services/{DOMAIN}/analyze?return_response",
            {"config_entry_id": self.entry_id},
        )
        response = reply.get("service_response") if isinstance(reply, dict) else None
        if not isinstance(response, dict):
            raise RemoteHAError(f"analyze returned no response: {str(reply)[:200]}")
        return response

    async def _configure(self, scene: Scene) -> None:
        """Run the entry's options flow with this sample's entities, window and profile."""
        options = scene_options(scene, {})
        flow = await self._request(
            "POST", "/api/config/config_entries/options/flow", {"handler": self.entry_id}
        )
        current = {
            field["name"]: (field.get("description") or {}).get("suggested_value")
            for field in flow.get("data_schema", [])
        }
        user_input = {k: v for k, v in current.items() if v is not None}
        user_input.update(
            {
                "use_exposed_entities": False,
                "include_entities": options["include_entities"],
                "include_domains": [],
                "include_areas": [],
                "exclude_entities": [],
                "window_length": max(MIN_WINDOW_MINUTES, int(options["window_length"])),
                "analysis_interval": int(options["analysis_interval"]),
                "household_profile": options.get("household_profile", ""),
            }
        )
        if "weather_entity" in options:
            user_input["weather_entity"] = options["weather_entity"]
        else:
            user_input.pop("weather_entity", None)
        for key in ("sensitivity",):
            if key in self.options:
                user_input[key] = self.options[key]
        result = await self._request(
            "POST", f"/api/config/config_entries/options/flow/{flow['flow_id']}", user_input
        )
        if result.get("type") != "create_entry":
            raise RemoteHAError(f"options flow refused the replay options: {result}")

    async def _set_state(self, spec: EntitySpec) -> None:
        await self._request(
            "POST",
            f"/api/states/{quote(spec.entity_id)}",
            {"state": spec.state, "attributes": dict(spec.attributes)},
        )
        self._set.add(spec.entity_id)

    async def _clear(self) -> None:
        for entity_id in sorted(self._set):
            await self._request("DELETE", f"/api/states/{quote(entity_id)}", allow=(404,))
        self._set.clear()

    async def _request(
        self, method: str, path: str, payload: Any = None, allow: tuple[int, ...] = ()
    ) -> Any:
        if self._session is None:
            raise RemoteHAError("call async_start() first")
        async with self._session.request(
            method, self.url + path, json=payload, headers=self._headers
        ) as reply:
            if reply.status in allow:
                return None
            if reply.status >= 400:
                text = await reply.text()
                raise RemoteHAError(f"{method} {path} -> HTTP {reply.status}: {text[:300]}")
            if reply.content_type == "application/json":
                return await reply.json()
            return await reply.text()
