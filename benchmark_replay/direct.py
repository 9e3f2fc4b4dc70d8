"""Build a core ``ContextWindow`` straight from a sample, without Home Assistant.

For fast iteration on rules (a few ms per sample, no HA instance). It uses the same
entity mapping as the in-HA replay and mimics what HA and the integration's watcher do
with the updates (a repeated state is no transition; transitions carry the same one-line
summary; every named device entity is watched, automations included; the window ends
at the analysis time and is as long as the configured window), but the scored numbers
come from the in-HA path, where the integration's own glue builds the window. A test
checks that both agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from custom_components.anomaly_monitor.core.compression import DEFAULT_TOKEN_BUDGET
from custom_components.anomaly_monitor.core.models import (
    ContextWindow,
    EntityInfo,
    EntityState,
    Environment,
    Transition,
    parse_number,
)
from custom_components.anomaly_monitor.core.occupancy import count_presence
from custom_components.anomaly_monitor.core.window import build_window, season_of
from custom_components.anomaly_monitor.live.context_builder import KEPT_ATTRIBUTES
from custom_components.anomaly_monitor.live.state_summary import summarize_state

from .entity_mapping import LIGHT_LEVEL_ENTITY, SUN_ENTITY, EntitySpec
from .home_scene import Scene, SnapshotScene, TraceScene, scene_for
from .smartbench_loader import CDSample, CISample


def entity_state(spec: EntitySpec, last_changed: datetime | None) -> EntityState:
    """The core's view of a fake entity."""
    return EntityState(
        info=EntityInfo(
            entity_id=spec.entity_id,
            name=spec.name,
            area=spec.area,
            device_class=spec.device_class,
            unit=spec.unit,
        ),
        state=spec.state,
        # Only what the integration keeps from HA attributes (live/context_builder.py).
        attributes={k: v for k, v in spec.attributes.items() if k in KEPT_ATTRIBUTES},
        last_changed=last_changed,
    )


def environment_from(specs: Iterable[EntitySpec], clock: datetime) -> Environment:
    """Environment the way the integration reads it from weather, sun and person entities."""
    weather: EntitySpec | None = None
    daylight: bool | None = None
    light_level: float | None = None
    home, unknown, total = count_presence(s.state for s in specs if s.domain == "person")
    for spec in specs:
        if spec.domain == "weather" and weather is None:
            weather = spec
        elif spec.entity_id == SUN_ENTITY:
            daylight = spec.state == "above_horizon"
        elif spec.entity_id == LIGHT_LEVEL_ENTITY:
            number = parse_number(spec.state)
            light_level = number / 100 if number is not None else None
    outdoor = parse_number(weather.attributes.get("temperature")) if weather else None
    return Environment(
        local_time=clock,
        season=season_of(clock.date()),
        weather=weather.state if weather else None,
        outdoor_temperature=outdoor,
        daylight=daylight,
        light_level=light_level,
        persons_home=home if total else None,
        persons_total=total or None,
        persons_unknown=unknown,
    )


def window_from_scene(scene: Scene, token_budget: int = DEFAULT_TOKEN_BUDGET) -> ContextWindow:
    """The window a detector sees for ``scene``."""
    if isinstance(scene, SnapshotScene):
        # The replay also watches the outdoor light level sensor (see ha_runner).
        watched = [
            *scene.devices,
            *(s for s in scene.environment if s.entity_id == LIGHT_LEVEL_ENTITY),
        ]
        return build_window(
            [entity_state(spec, scene.clock) for spec in watched],
            environment_from(scene.environment, scene.clock),
            [],
            profile=scene.profile,
            start=scene.clock - timedelta(minutes=scene.window_minutes),
            token_budget=token_budget,
        )
    return _trace_window(scene, token_budget)


def _trace_window(scene: TraceScene, token_budget: int) -> ContextWindow:
    current: dict[str, tuple[EntitySpec, datetime]] = {}
    summaries: dict[str, str] = {}
    transitions: list[Transition] = []
    for step in scene.steps:
        spec = step.spec
        previous = current.get(spec.entity_id)
        changed = step.when if previous is None or previous[0].state != spec.state else previous[1]
        current[spec.entity_id] = (spec, changed)  # HA keeps last_changed on attribute moves
        summary = summarize_state(spec.domain, spec.state, spec.attributes)
        if summaries.get(spec.entity_id) == summary:
            continue  # the monitor records no transition when nothing it shows changed
        summaries[spec.entity_id] = summary
        transitions.append(Transition(step.when, spec.entity_id, summary, spec.area))
    final = [spec for spec, _ in current.values()]
    snapshot = [entity_state(spec, changed) for spec, changed in current.values()]
    return build_window(
        snapshot,
        environment_from([*scene.environment, *final], scene.clock),
        transitions,
        profile=scene.profile,
        start=scene.clock - timedelta(minutes=scene.window_minutes),
        token_budget=token_budget,
    )


def window_for(
    sample: CISample | CDSample, token_budget: int = DEFAULT_TOKEN_BUDGET
) -> tuple[ContextWindow, Scene]:
    """The window for a sample and the scene it came from (its mapping scores evidence)."""
    scene = scene_for(sample)
    return window_from_scene(scene, token_budget), scene
