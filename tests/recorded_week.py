"""A week of a home lived by the test's real hass with the recorder (a file on disk).

The home and its week are a home-benchmark scenario (``fixtures/home/recorded_week.yaml``:
routines, a dog-walker with the key, incidents on the later days, a restart), planned by
the benchmark's seeded planner. The week begins on the first Monday of January two years
from now, so the clock only ever moves forward from the hass the test started, and the
week is the same every time the test runs within a year.

The clock jumps from one due timer to the next (the loop's clock is freezegun's, so a
timer is due when the frozen clock reaches it), each fired at its own moment (the first
microsecond whose clock reaches it), as the replay's simulated clock does: a quiet hour
costs a few loop turns, not 720 ticks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
import json
import math
from pathlib import Path
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.recorder import get_instance, history
from homeassistant.components.recorder.core import Recorder
from homeassistant.components.recorder.tasks import RecorderTask
from homeassistant.components.recorder.util import session_scope
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er, issue_registry as ir
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_fire_time_changed_exact,
)
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
)

from benchmark_replay.home.effects import Change
from benchmark_replay.home.observer import Observations, Observer
from benchmark_replay.home.scenario import Scenario, load_scenario
from benchmark_replay.home.sim_devices import base_attributes
from benchmark_replay.home.timeline import Plan, Restart, build_plan
from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, CONF_USE_EXPOSED, DOMAIN

SCENARIO = Path(__file__).parent / "fixtures" / "home" / "recorded_week.yaml"
# More timers due at one moment than this is a timer loop, not a home.
MAX_TIMERS_AT_ONE_MOMENT = 10_000
# The frozen clock is at most a float (0.24 µs) short of a timer at its microsecond.
_MICROSECONDS_TO_REACH_A_TIMER = 3


@dataclass(slots=True)
class LivedWeek:
    """What the week was and what the homeowner was told."""

    scenario: Scenario
    plan: Plan
    attributes: dict[str, dict[str, Any]]
    seen: Observations
    entry: MockConfigEntry
    options: dict[str, Any]
    timer_steps: int = 0


def week_scenario(today: date) -> Scenario:
    """The scenario, its week moved to the first Monday of January two years on."""
    scenario = load_scenario(SCENARIO)
    first = date(today.year + 2, 1, 1)
    monday = first + timedelta(days=(7 - first.weekday()) % 7)
    return Scenario(scenario.path, {**scenario.data, "start": monday})


def watched(scenario: Scenario) -> list[str]:
    """The devices the homeowner picked (persons, trackers and weather are read anyway)."""
    return sorted(e["entity_id"] for e in scenario.data["home"]["entities"])


async def live_week(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> LivedWeek:
    """Set the home up, start the monitor at the week's start and live the whole plan."""
    scenario = week_scenario(datetime.now(UTC).date())
    plan = build_plan(scenario)
    data = scenario.data
    await hass.config.async_set_time_zone(data["timezone"])
    hass.config.latitude, hass.config.longitude = data["latitude"], data["longitude"]
    freezer.move_to(scenario.start)
    async_fire_time_changed_exact(hass)  # what was due before the week: once, now
    await hass.async_block_till_done(wait_background_tasks=True)
    attributes = base_attributes(scenario)
    _register(hass, scenario, attributes)
    for entity_id, (state, extra) in plan.initial.items():
        hass.states.async_set(entity_id, state, {**attributes.get(entity_id, {}), **(extra or {})})
    seen = Observations()
    Observer(hass, seen).async_start()
    options = {CONF_USE_EXPOSED: False, CONF_INCLUDE_ENTITIES: watched(scenario)}
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=options)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    week = LivedWeek(scenario, plan, attributes, seen, entry, options)
    current = {e: (s, a) for e, (s, a) in plan.initial.items()}
    for step in plan.steps:
        week.timer_steps += await advance_to(hass, freezer, step.when)
        if isinstance(step, Change):
            current[step.entity_id] = (step.state, step.attributes)
            extra = step.attributes or {}
            hass.states.async_set(
                step.entity_id, step.state, {**attributes.get(step.entity_id, {}), **extra}
            )
            await hass.async_block_till_done(wait_background_tasks=True)
        elif isinstance(step, Restart):
            await restart(hass, entry, current, attributes)
        else:
            raise AssertionError(f"the week has no {type(step).__name__}")
    week.timer_steps += await advance_to(hass, freezer, plan.end)
    await async_wait_recording_done(hass)
    return week


def _next_due(hass: HomeAssistant) -> float | None:
    handles = hass.loop._scheduled  # type: ignore[attr-defined]
    live = [h.when() for h in handles if not h.cancelled()]
    return min(live) if live else None


def _due(hass: HomeAssistant, now: float) -> list[str]:
    """The timers due at ``now`` (what keeps firing), for the error that names them."""
    handles = hass.loop._scheduled  # type: ignore[attr-defined]
    return [repr(h) for h in handles if not h.cancelled() and h.when() <= now][:10]


async def advance_to(hass: HomeAssistant, freezer: FrozenDateTimeFactory, when: datetime) -> int:
    """Fire every timer due up to ``when`` at its own moment; how many moments."""
    target = when.timestamp()
    steps = stuck = 0
    now = hass.loop.time()
    while (due := _next_due(hass)) is not None and due <= target:
        stuck = stuck + 1 if due <= now else 0
        if stuck > MAX_TIMERS_AT_ONE_MOMENT:
            raise RuntimeError(
                f"timers keep firing at {datetime.fromtimestamp(now, UTC)}: {_due(hass, now)}"
            )
        now = max(due, now)
        _move_clock_to(hass, freezer, now)
        async_fire_time_changed_exact(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
        steps += 1
    freezer.move_to(when)
    return steps


def _move_clock_to(hass: HomeAssistant, freezer: FrozenDateTimeFactory, due: float) -> None:
    """Freeze the clock at the first microsecond at which the loop's clock reaches ``due``.

    A datetime holds microseconds, the loop's clock is the float freezegun makes of it
    (seconds + microseconds / 1e6), and HA arms a point in time at a float sum
    (loop.time() + point - time.time()). From 2004 to 2038 a timestamp's floats are 0.24 µs
    apart, so a timer can be armed one float above its own microsecond's clock: the test
    helper runs only the timers the loop's clock has reached, so at that microsecond the
    timer stays due and is never run (the week stalled so, "timers keep firing", whenever
    HA's random microsecond of the recorder's timers was such a one); the next one runs it."""
    moment = datetime.fromtimestamp(math.ceil(due * 1e6) / 1e6, UTC)
    for _ in range(_MICROSECONDS_TO_REACH_A_TIMER):
        freezer.move_to(moment)
        if hass.loop.time() >= due:
            return
        moment += timedelta(microseconds=1)
    raise RuntimeError(f"the loop's clock {hass.loop.time()} does not reach the timer at {due}")


class _NewRecorderRun(RecorderTask):
    """The recorder's run ends and a new one begins now, as when HA restarts."""

    def run(self, instance: Recorder) -> None:
        runs = instance.recorder_runs_manager
        with session_scope(session=instance.get_session()) as session:
            runs.end(session)
        runs.reset()
        with session_scope(session=instance.get_session()) as session:
            runs.start(session)


async def restart(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    current: Mapping[str, tuple[str, Mapping[str, Any] | None]],
    attributes: Mapping[str, Mapping[str, Any]],
) -> None:
    """Home Assistant restarts now: the monitor stops (its stores written) and starts
    again; the recorder begins a new run; the states are written anew (last changed now)
    and what lived only in memory (notifications, non-persistent repairs) is gone."""
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    get_instance(hass).queue_task(_NewRecorderRun())
    await async_wait_recording_done(hass)
    for notification_id in list(persistent_notification._async_get_or_create_notifications(hass)):
        persistent_notification.async_dismiss(hass, notification_id)
    for domain, issue_id in list(ir.async_get(hass).issues):
        if domain == DOMAIN:
            ir.async_delete_issue(hass, DOMAIN, issue_id)
    for entity_id, (state, extra) in current.items():
        merged = {**attributes.get(entity_id, {}), **(extra or {})}
        hass.states.async_set(entity_id, state, merged, force_update=True)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)


def _register(hass: HomeAssistant, scenario: Scenario, attributes: Mapping[str, Any]) -> None:
    """Areas and registry entries with each device's name, class and unit."""
    areas = ar.async_get(hass)
    area_ids = {name: areas.async_create(name).id for name in scenario.data["home"]["areas"]}
    registry = er.async_get(hass)
    for spec in scenario.data["home"]["entities"]:
        entity_id = spec["entity_id"]
        domain, _, object_id = entity_id.partition(".")
        created = registry.async_get_or_create(
            domain,
            "test",
            entity_id,
            suggested_object_id=object_id,
            original_device_class=spec.get("device_class"),
            original_name=attributes[entity_id]["friendly_name"],
            unit_of_measurement=spec.get("unit"),
        )
        assert created.entity_id == entity_id
        if spec.get("area"):
            registry.async_update_entity(entity_id, area_id=area_ids[spec["area"]])


def context_yaml(week: LivedWeek, restarts: list[datetime]) -> dict[str, Any]:
    """The YAML beside a History CSV: the home's zone, place, restarts and devices."""
    data = week.scenario.data
    return {
        "timezone": data["timezone"],
        "latitude": data["latitude"],
        "longitude": data["longitude"],
        "restarts": [t.isoformat() for t in restarts],
        "entities": {
            entity_id: {
                k: v
                for k, v in {
                    "name": attrs.get("friendly_name"),
                    "area": _area_of(week.scenario, entity_id),
                    "device_class": attrs.get("device_class"),
                    "unit": attrs.get("unit_of_measurement"),
                }.items()
                if v is not None
            }
            for entity_id, attrs in week.attributes.items()
        },
    }


def _area_of(scenario: Scenario, entity_id: str) -> str | None:
    for spec in scenario.data["home"]["entities"]:
        if spec["entity_id"] == entity_id:
            return spec.get("area")
    return None


def core_config(week: LivedWeek) -> dict[str, Any]:
    """HA's ``core.config`` store of the live hass (zone and place)."""
    data = week.scenario.data
    return {
        "version": 1,
        "minor_version": 4,
        "key": "core.config",
        "data": {
            "time_zone": data["timezone"],
            "latitude": data["latitude"],
            "longitude": data["longitude"],
        },
    }


def config_folder(hass_storage: Mapping[str, Any], week: LivedWeek, folder: Path) -> Path:
    """HA's config folder as the live hass stored it: its registries and its zone."""
    storage = folder / ".storage"
    storage.mkdir(parents=True)
    for key in ("core.entity_registry", "core.device_registry", "core.area_registry"):
        (storage / key).write_text(json.dumps(hass_storage[key], default=str))
    (storage / "core.config").write_text(json.dumps(core_config(week)))
    return folder


def csv_rows(hass: HomeAssistant, week: LivedWeek) -> Iterator[str]:
    """The History panel's "Download data" of the home's devices over the week: one
    entity after another, each in time order."""
    start, end = week.scenario.start, week.plan.end
    states = history.get_significant_states(  # from just before the states at the start
        hass,
        start - timedelta(seconds=1),
        end,
        sorted(week.plan.initial),
        significant_changes_only=False,
    )
    yield "entity_id,state,last_changed"
    for entity_id, items in states.items():
        for item in items:
            stamp = item.last_changed.isoformat(timespec="milliseconds").replace("+00:00", "Z")
            yield f"{entity_id},{item.state},{stamp}"
