"""What the monitor is given for one replayed sample: options, areas, states and clock.

Both ways of running the integration (in-process, ``ha_runner``; a live Home Assistant,
``remote_ha``) take these from here, so they replay exactly the same home.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
import json
from typing import Any

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_PROFILE,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    CONF_WEATHER_ENTITY,
    CONF_WINDOW,
)
from custom_components.anomaly_monitor.core.home import UNAVAILABLE_STATES

from .entity_mapping import LIGHT_LEVEL_ENTITY, WEATHER_ENTITY, EntitySpec
from .home_scene import Scene, SnapshotScene, TraceStep


def parse_option_items(items: Sequence[str]) -> dict[str, Any]:
    """``--option KEY=JSON`` values as monitor options (a value that is not JSON is text)."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--option needs KEY=VALUE, got {item!r}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


# Periodic analysis must never fire on its own during a replay: the service decides.
REPLAY_INTERVAL_MINUTES = 24 * 60
# The replayed home's latitude: northern hemisphere, so seasons are as the samples name them.
REPLAY_LATITUDE = 52.37


def scene_options(scene: Scene, base: Mapping[str, Any]) -> dict[str, Any]:
    """Entry options for one sample: watch exactly its device entities.

    The sample's environment entities (persons, sun, weather) are not devices: the default
    safety coverage, which would add the persons, is off.
    """
    included = set(scene.mapping.entity_ids)
    if isinstance(scene, SnapshotScene):
        included.add(LIGHT_LEVEL_ENTITY)  # outdoor light only exists as an entity
    options = dict(base)
    options.update(
        {
            CONF_USE_EXPOSED: False,
            CONF_WATCH_SAFETY: False,
            CONF_INCLUDE_ENTITIES: sorted(included),
            CONF_WINDOW: scene.window_minutes,
            CONF_INTERVAL: REPLAY_INTERVAL_MINUTES,
            CONF_PROFILE: scene.profile,
        }
    )
    weather = _weather_entity(scene)
    if weather is not None:
        options[CONF_WEATHER_ENTITY] = weather
    else:
        options.pop(CONF_WEATHER_ENTITY, None)
    return options


def _weather_entity(scene: Scene) -> str | None:
    if isinstance(scene, SnapshotScene):
        return WEATHER_ENTITY
    weathers = sorted(e for e in scene.mapping.entity_ids if e.startswith("weather."))
    return weathers[0] if weathers else None


def states_before(scene: Scene) -> list[TraceStep]:
    """States present before the monitor starts, each with the time it is set at.

    A snapshot: every state at its clock. A trace: its environment at the first event.
    One that reads no state (``unavailable``, ``unknown``) is set before the window: a
    sample says a device is offline, not since when, and the direct path takes an outage
    whose start the window does not show as long (``core/offline.py``). Set at the clock,
    the monitor reads it from HA as begun then (``StateWatcher._record_no_states``: a
    device HA writes unavailable while it starts gets its grace from there).
    """
    if isinstance(scene, SnapshotScene):
        steps = [TraceStep(scene.clock, s) for s in (*scene.environment, *scene.devices)]
    else:
        steps = [TraceStep(scene.start, s) for s in scene.environment]
    before = scene.clock - timedelta(minutes=scene.window_minutes, seconds=1)
    return [
        TraceStep(before, step.spec) if step.spec.state in UNAVAILABLE_STATES else step
        for step in steps
    ]


def watched_steps(scene: Scene) -> tuple[TraceStep, ...]:
    """State changes the monitor watches (a trace's events), in order."""
    return () if isinstance(scene, SnapshotScene) else scene.steps


def scene_areas(scene: Scene) -> dict[str, str | None]:
    """Area of each device entity: a snapshot's devices, a trace's first report of each."""
    if isinstance(scene, SnapshotScene):
        return {s.entity_id: s.area for s in scene.devices}
    areas: dict[str, str | None] = {}
    for step in scene.steps:
        areas.setdefault(step.spec.entity_id, step.spec.area)
    return areas


class StatePayload:
    """States as ``anomaly_monitor.replay_sample`` takes them: compact, attributes shared."""

    def __init__(self) -> None:
        self.attributes: list[dict[str, Any]] = []
        self._index: dict[Any, int] = {}

    def state(self, step: TraceStep) -> list[Any]:
        """``[entity_id, state, attributes index, POSIX timestamp]`` for one state."""
        spec: EntitySpec = step.spec
        attributes = dict(spec.attributes)
        try:
            # With the types: 1, 1.0 and True are equal keys but render differently.
            key: Any = tuple(sorted((k, type(v), v) for k, v in attributes.items()))
            hash(key)
        except TypeError:  # a list or dict value
            key = json.dumps(attributes, sort_keys=True, default=str)
        if (index := self._index.get(key)) is None:
            index = self._index[key] = len(self.attributes)
            self.attributes.append(attributes)
        # The same float the in-process replay gives HA's async_set.
        return [spec.entity_id, spec.state, index, step.when.timestamp()]
