"""What the current options would have told about the last days of this home's recorder.

The integration's own coordinator, watcher, window, rules and tracker over a table of
replayed states (a replay entry's, :mod:`..dev_replay.entry`), at the recorded moments: the
rows are read from the recorder a few hours at a time (in its executor), every change is
recorded as the watcher records a live one, a significant change gets its safety check at
once and an analysis 10 s later, and the periodic analysis runs at the option's interval.
The baselines learn from the replayed changes as they pass, as a monitor started N days ago
would have. Nothing reaches the homeowner: no notification, notify target, repair issue or
event (the announcer only records), and nothing is stored.

The rules and statistics judge: a language model over weeks of windows would take hours,
and with the default hybrid the rules decide what is told anyway.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.util import dt as dt_util

from ..anomalies.surfaces import event_data
from ..anomalies.tracker import OpenAnomaly
from ..const import (
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_ENTITIES,
    CONF_INTERVAL,
    CONF_NOTIFY,
    CONF_REPLAY,
    CONF_SENSITIVITY,
    CONF_USE_EXPOSED,
    DEFAULT_INTERVAL,
    DEFAULT_SENSITIVITY,
    DOMAIN,
    SIGNIFICANT_DEBOUNCE,
)
from ..core.baselines.home_baselines import HomeBaselines
from ..core.combined_detector import CombinedDetector
from ..core.models import ContextWindow, EntityInfo
from ..core.window import build_window
from ..dev_replay.entry import ReplayCoordinator, ReplayWatcher, SilentAnnouncer
from ..dev_replay.home import ReplaySession
from ..live.context_builder import KEPT_ATTRIBUTES, build_environment, build_snapshot
from ..live.state_summary import split_summary
from ..recorder.rows import history_rows
from ..runtime import AnomalyMonitorConfigEntry

# Recorder rows read at a time: a busy home's six hours are a few MB.
CHUNK = timedelta(hours=6)
# Notifications listed one by one in the response (the counts are always complete).
MAX_LISTED = 200
# Attributes that say what an entity is, replayed with every state. ``device_trackers``:
# a person without any (onboarding's owner, ``unknown`` for good) is nobody live counts;
# without it the preview counted the owner, "nobody home" never held, and a break-in live
# told was not in the preview (walk 10).
_DESCRIBING = ("friendly_name", "device_class", "unit_of_measurement", "device_trackers")


@dataclass(slots=True)
class Told:
    """One notification the monitor would have sent."""

    when: datetime
    rule: str
    severity: str
    anomaly_type: str
    evidence: list[str]
    reasoning: str

    def as_dict(self) -> dict[str, Any]:
        """The response's form."""
        return {
            "time": dt_util.as_local(self.when).isoformat(timespec="seconds"),
            "rule": self.rule,
            "severity": self.severity,
            "type": self.anomaly_type,
            "evidence": list(self.evidence),
            "reasoning": self.reasoning[:300],
        }


class RecordingAnnouncer(SilentAnnouncer):
    """Shows nothing; remembers what would have been told (as the live event says it)."""

    def __init__(self, entry: ConfigEntry, session: ReplaySession) -> None:
        self.told: list[Told] = []
        self._entry = entry
        self._session = session

    async def async_opened(self, anomaly: OpenAnomaly) -> None:
        """A notification the homeowner would have had."""
        data = event_data(self._entry, anomaly)
        self.told.append(
            Told(
                when=self._session.clock or dt_util.utcnow(),
                rule=data["rule"],
                severity=data["severity"],
                anomaly_type=data["anomaly_type"],
                evidence=list(data["evidence"]),
                reasoning=data["reasoning"],
            )
        )


class PreviewWatcher(ReplayWatcher):
    """Records replayed changes; a significant one tells the preview."""

    def __init__(self, hass: HomeAssistant, options: Mapping[str, Any], coordinator: Any) -> None:
        super().__init__(hass, options, coordinator)
        self._on_significant = coordinator.async_significant


class PreviewCoordinator(ReplayCoordinator):
    """A replay coordinator that the preview drives, its safety checks included."""

    def __init__(
        self, hass: HomeAssistant, entry: AnomalyMonitorConfigEntry, session: ReplaySession
    ) -> None:
        rules = CombinedDetector(
            sensitivity=entry.options.get(CONF_SENSITIVITY, DEFAULT_SENSITIVITY),
            baselines=self.current_baselines,
            offload=hass.async_add_executor_job,  # the rules' statistics off the loop
        )
        super().__init__(hass, entry, rules, rules, session)
        # The first analysis a new coordinator asks for, on HA's real clock: the preview
        # analyses only at replayed moments.
        self._significant_changes.async_cancel()
        self.watcher = PreviewWatcher(hass, entry.options, self)
        self.announcer: RecordingAnnouncer = RecordingAnnouncer(entry, session)  # type: ignore[assignment]
        self.significant_at: datetime | None = None
        self.significant_changes = 0
        self.learning: HomeBaselines | None = None
        self._learned = 0

    @callback
    def async_significant(self) -> None:
        """A significant change: an analysis after the debounce (the first one counts)."""
        self.significant_changes += 1
        if self.significant_at is None:
            self.significant_at = self.now() + SIGNIFICANT_DEBOUNCE

    def current_baselines(self) -> HomeBaselines | None:
        """The baselines, having learned every change recorded so far."""
        if self.learning is None:
            return None
        watcher = self.watcher
        for transition in watcher.buffer.newest(watcher.recorded - self._learned):
            self.learning.learn(transition)
        self._learned = watcher.recorded
        return self.learning

    async def async_safety_check(self) -> None:
        """The rules on the states now, as a live significant change asks."""
        await self._async_safety_check()

    def build_states_window(self) -> ContextWindow:
        """The replayed states, without the events."""
        now, watcher, states = self.now(), self.watcher, self.session.states
        return build_window(
            build_snapshot(self.hass, watcher.entity_ids, watcher.areas, states),
            build_environment(self.hass, self.weather_entity, states=states, now=now),
            [],
            profile=self.profile,
            start=now - self.window,
            phoneless_residents=self.phoneless_residents,
        )


@dataclass(slots=True)
class PreviewResult:
    """What the preview found."""

    start: datetime
    end: datetime
    watched: int
    rows: int = 0
    analyses: int = 0
    told: list[Told] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The action's response."""
        per_day: Counter[str] = Counter()
        per_entity: Counter[str] = Counter()
        per_rule: Counter[str] = Counter()
        for item in self.told:
            per_day[dt_util.as_local(item.when).date().isoformat()] += 1
            per_entity.update(set(item.evidence))
            per_rule[item.rule] += 1
        return {
            "from": dt_util.as_local(self.start).isoformat(timespec="seconds"),
            "to": dt_util.as_local(self.end).isoformat(timespec="seconds"),
            "watched_entities": self.watched,
            "recorded_changes": self.rows,
            "analyses": self.analyses,
            "detector": "rules",
            "notifications": len(self.told),
            "per_day": dict(sorted(per_day.items())),
            "per_entity": dict(per_entity.most_common()),
            "per_rule": dict(per_rule.most_common()),
            "told": [item.as_dict() for item in self.told[:MAX_LISTED]],
        }


class PreviewRun:
    """One preview of one monitor; not re-entrant."""

    def __init__(self, hass: HomeAssistant, entry: AnomalyMonitorConfigEntry, days: int) -> None:
        self.hass = hass
        live = entry.runtime_data.coordinator.watcher
        self.watched = sorted(live.entity_ids)
        self.end = dt_util.utcnow()
        self.start = self.end - timedelta(days=days)
        options = {k: v for k, v in entry.options.items() if k != CONF_NOTIFY}
        options |= {
            CONF_REPLAY: True,
            CONF_USE_EXPOSED: False,
            CONF_INCLUDE_ENTITIES: self.watched,
            CONF_EXCLUDE_ENTITIES: [],
        }
        self.entry: AnomalyMonitorConfigEntry = ConfigEntry(  # never added to HA
            data={},
            discovery_keys=MappingProxyType({}),
            domain=DOMAIN,
            minor_version=1,
            options=options,
            source="user",
            subentries_data=None,
            title=entry.title,
            unique_id=None,
            version=1,
        )
        self.session = ReplaySession(areas=dict(live.areas), latitude=hass.config.latitude)
        self.interval = timedelta(minutes=entry.options.get(CONF_INTERVAL, DEFAULT_INTERVAL))
        # What each entity is, from its state now (names, classes, units do not change).
        self.attributes: dict[str, dict[str, Any]] = {}
        self.infos: list[EntityInfo] = []
        for entity_id in self.watched:
            state = hass.states.get(entity_id)
            attributes = dict(state.attributes) if state else {}
            self.attributes[entity_id] = {
                k: v for k, v in attributes.items() if k in KEPT_ATTRIBUTES or k in _DESCRIBING
            }
            device_class = attributes.get("device_class")
            unit = attributes.get("unit_of_measurement")
            self.infos.append(
                EntityInfo(
                    entity_id=entity_id,
                    name="",
                    area=live.areas.get(entity_id),
                    device_class=device_class if isinstance(device_class, str) else None,
                    unit=unit if isinstance(unit, str) else None,
                )
            )

    async def async_run(self) -> PreviewResult:
        """Replay the recorder's days; the coordinator analyses at their moments."""
        from homeassistant.helpers.recorder import get_instance

        hass, session = self.hass, self.session
        session.clock = self.start
        coordinator = PreviewCoordinator(hass, self.entry, session)
        coordinator.learning = HomeBaselines(dt_util.get_default_time_zone())
        coordinator.learning.describe(self.infos)
        await coordinator.async_start()
        result = PreviewResult(self.start, self.end, len(self.watched))
        next_tick = self.start + self.interval
        recorder = get_instance(hass)
        try:
            chunk = self.start
            while chunk < self.end:
                chunk_end = min(chunk + CHUNK, self.end)
                rows = await recorder.async_add_executor_job(
                    history_rows, hass, chunk, chunk_end, self.watched
                )
                for when, entity_id, summary in rows:
                    next_tick = await self._analyse_until(coordinator, result, when, next_tick)
                    state, activity = split_summary(entity_id.partition(".")[0], summary)
                    attributes = self.attributes.get(entity_id, {}) | activity
                    change = session.states.set(entity_id, state, attributes, when.timestamp())
                    if change is None or when <= self.start:
                        continue  # nothing new, or the state when the preview begins
                    result.rows += 1
                    session.clock = max(session.clock or when, when)
                    asked = coordinator.significant_changes
                    coordinator.watcher.record(*change)
                    if coordinator.significant_changes != asked:
                        await coordinator.async_safety_check()
                del rows
                chunk = chunk_end
                await asyncio.sleep(0)  # between chunks, the loop serves everybody else
            await self._analyse_until(coordinator, result, self.end, next_tick)
        finally:
            await coordinator.async_stop()
        result.told = coordinator.announcer.told
        return result

    async def _analyse_until(
        self,
        coordinator: PreviewCoordinator,
        result: PreviewResult,
        until: datetime,
        next_tick: datetime,
    ) -> datetime:
        """Run every analysis due before ``until``: periodic ones and those after a change."""
        while True:
            due = next_tick
            if coordinator.significant_at is not None:
                due = min(due, coordinator.significant_at)
            if due > until:
                return next_tick
            self.session.clock = due
            if coordinator.learning is not None:
                coordinator.learning.advance(due)
            coordinator.significant_at = None
            await coordinator.async_analyze()
            result.analyses += 1
            # HA's coordinator counts its interval from the newest analysis, whatever ran it.
            next_tick = due + self.interval
            await asyncio.sleep(0)
