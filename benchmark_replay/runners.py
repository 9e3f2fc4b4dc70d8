"""The ways a scene can be analysed; each returns the ``anomaly_monitor.analyze`` response.

- ``ha``: a real in-process Home Assistant running the integration (what is scored).
- ``direct``: the core rule detector on a window built without HA (fast iteration).
- ``dev-ha``: a replay monitor the replay creates in a running Home Assistant (REST API).

All three share one small async protocol so the replay loop does not care which runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .home_scene import Scene


class SceneRunner(Protocol):
    """Analyses scenes one after another."""

    async def async_start(self) -> None:
        """Prepare (start HA, connect...)."""

    async def async_stop(self) -> None:
        """Release everything."""

    async def async_run(self, scene: Scene) -> Mapping[str, Any]:
        """The analyze response for one scene: ``{"verdict": ..., "window": ...}``."""


class HARunner:
    """In-process Home Assistant (imports HA and freezegun only when used)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        from .ha_runner import InProcessReplay

        self._replay = InProcessReplay(options)

    async def async_start(self) -> None:
        """Start HA and create the monitor's entry."""
        await self._replay.async_start()

    async def async_stop(self) -> None:
        """Stop HA."""
        await self._replay.async_stop()

    async def async_run(self, scene: Scene) -> Mapping[str, Any]:
        """Replay and analyse."""
        return (await self._replay.async_replay(scene)).response


class DirectRunner:
    """The integration's own detector on a window built from the scene without HA."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        detector = str(options.get("detector", "rules"))
        if detector != "rules":
            raise ValueError("direct mode runs the embedded detector only; use --mode ha for LLMs")
        self._options = dict(options)
        self._detector: Any = None

    async def async_start(self) -> None:
        """Build the detector the integration builds for these options (no HA needed)."""
        from types import SimpleNamespace

        from custom_components.anomaly_monitor.backends.detection import async_create_detectors

        # The factory only reads entry.options for the embedded detector.
        entry = SimpleNamespace(options=self._options, entry_id="direct", data={})
        self._detector, _ = await async_create_detectors(None, entry)  # type: ignore[arg-type]

    async def async_stop(self) -> None:
        """Nothing to stop."""

    async def async_run(self, scene: Scene) -> Mapping[str, Any]:
        """Build the window and run the rules."""
        from .direct import window_from_scene

        if self._detector is None:
            await self.async_start()
        window = window_from_scene(scene)
        verdict = await self._detector.async_analyze(window)
        sequence = window.sequence
        return {
            "verdict": verdict.as_dict(),
            "window": {
                "entities": len(window.snapshot),
                "transitions": sequence.raw_count,
                "entries": len(sequence.entries),
                "raw_tokens": sequence.raw_tokens,
                "tokens": sequence.tokens,
                "compression_ratio": round(sequence.ratio, 3),
                "start": window.start.isoformat() if window.start else None,
                "end": window.end.isoformat() if window.end else None,
            },
        }


def make_runner(mode: str, options: Mapping[str, Any], remote: Mapping[str, Any]) -> SceneRunner:
    """The runner for ``mode`` ("ha", "direct" or "dev-ha")."""
    if mode == "ha":
        return HARunner(options)
    if mode == "direct":
        return DirectRunner(options)
    if mode == "dev-ha":
        from .remote_ha import RemoteHARunner

        return RemoteHARunner(
            url=str(remote["url"]),
            token=str(remote["token"]),
            options=options,
        )
    raise ValueError(f"unknown mode {mode!r}")
