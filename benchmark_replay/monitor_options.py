"""The monitor entry's options for one replayed sample."""

from __future__ import annotations

from collections.abc import Mapping
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

from .entity_mapping import LIGHT_LEVEL_ENTITY, WEATHER_ENTITY
from .home_scene import Scene, SnapshotScene

# Periodic analysis must never fire on its own during a replay: the service decides.
REPLAY_INTERVAL_MINUTES = 24 * 60


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
