"""Run one scenario's plan through a real, in-process Home Assistant, restarts included.

Each HA instance lives on its own :class:`SimLoop`; a restart stops the instance cleanly
(``hass.async_stop``: stop events, final writes) and starts a new one on the same config
folder, whose registries, config entry and the monitor's store are read back from disk.
Device states come back as a real restart brings them: ``unknown`` for a second, then
what the device reads (HA writes ``unknown`` for its entities while it starts, before the
monitor is set up; trackers ``unknown`` for a few minutes is part of the plan). What the
homeowner saw before and after is compared.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
import logging
import tempfile
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM

from custom_components.anomaly_monitor.const import CONF_INCLUDE_ENTITIES, CONF_PROFILE

from ..ha_runner import RAM_DIR, async_create_hass
from ..monitor_entry import async_start_monitor
from ..wall_clock import wall_clock
from .effects import Change
from .feedback import (
    FeedbackResult,
    async_feedback_without_issue,
    async_fix_flow,
    async_remove_mark,
    issue_for,
)
from .observer import Alarm, Observations, Observer, visible_issues
from .restart_loss import expired_while_down
from .scenario import Scenario
from .scenario_schema import FAHRENHEIT
from .sim_clock import SimClock, SimLoop, advance_to, settle
from .sim_devices import async_register_home, base_attributes
from .timeline import GRACE, Feedback, IncidentSpan, Outage, Plan, Restart

# After a restart, compare what the homeowner sees once the new instance has settled.
RESTART_SETTLE = timedelta(seconds=30)
# How long each device reads ``unknown`` at a restart; persons and trackers follow the
# plan (``unknown_after_restart``), the sun and zones are HA's own.
START_UP_BLIP = timedelta(seconds=1)
_NO_START_UP_BLIP = frozenset({"person", "device_tracker", "sun", "zone"})


@dataclass(slots=True)
class RunRecord:
    """Everything a run produced, for scoring."""

    scenario: Scenario
    plan: Plan
    seen: Observations
    feedback: list[FeedbackResult] = field(default_factory=list)
    wall_s: float = 0.0
    timer_steps: int = 0
    error: str | None = None
    temperature_unit: str = ""  # Home Assistant's, as the run configured it


class HomeRun:
    """One scenario run; not re-entrant."""

    def __init__(self, scenario: Scenario, plan: Plan, options: Mapping[str, Any]) -> None:
        self.scenario = scenario
        self.plan = plan
        self.options = dict(options)
        self.record = RunRecord(scenario=scenario, plan=plan, seen=Observations())
        self.base = base_attributes(scenario)
        self.current: dict[str, tuple[str, Mapping[str, Any] | None]] = dict(plan.initial)
        self.clock = SimClock(scenario.start)
        self._before_restart: dict[str, Any] | None = None
        self._down_until: datetime | None = None  # a power cut: HA is down until then
        self._registered = False

    def run(self) -> RunRecord:
        """Run the whole plan (blocking); errors end the run and are recorded."""
        started = wall_clock()
        quiet = logging.getLogger("homeassistant")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # a simulated fortnight would flood the log
        self.clock.start()
        try:
            with tempfile.TemporaryDirectory(prefix="home-bench-", dir=RAM_DIR) as config_dir:
                index = 0
                while True:
                    with asyncio.Runner(loop_factory=SimLoop) as runner:
                        self.clock.attach(runner.get_loop())  # type: ignore[arg-type]
                        index = runner.run(self._segment(config_dir, index))
                    if self._down_until is not None:
                        index = self._while_down(index)
                        if self.clock.now < self.plan.end:
                            continue
                    if index >= len(self.plan.steps):
                        break
        except Exception as err:
            logging.getLogger(__name__).exception("scenario %s failed", self.scenario.name)
            self.record.error = f"{type(err).__name__}: {err}"
        finally:
            self.clock.stop()
            quiet.setLevel(level)
        self.record.wall_s = wall_clock() - started
        return self.record

    async def _segment(self, config_dir: str, index: int) -> int:
        """One HA instance: from ``index`` to the next restart (returned) or the end."""
        data = self.scenario.data
        hass = await async_create_hass(
            config_dir,
            latitude=data["latitude"],
            longitude=data["longitude"],
            time_zone=data["timezone"],
            load_entries=True,
            setup=False,
        )
        if data["home"]["temperature_unit"] == FAHRENHEIT:
            hass.config.units = US_CUSTOMARY_SYSTEM
        observer = Observer(hass, self.record.seen)
        try:
            if not self._registered:
                await async_register_home(hass, self.scenario.data["home"], self.current, self.base)
                self._registered = True
            restarted = self._before_restart is not None
            self.record.temperature_unit = hass.config.units.temperature_unit
            blips = 0
            for entity_id, (state, attributes) in self.current.items():
                # HA writes ``unknown`` for each device while it starts, then what the
                # device reads (seen in a live hass: 0.4 s for a template entity).
                blip = restarted and entity_id.partition(".")[0] not in _NO_START_UP_BLIP
                blips += blip
                self._write(hass, entity_id, "unknown" if blip else state, attributes)
            if restarted and self._before_restart is not None:
                self._before_restart |= {"unknown_at_start": blips, "back": self.clock.now}
            observer.async_start()
            await async_start_monitor(hass, self._entry_options())
            await settle(hass)
            if restarted:
                await advance_to(hass, self.clock, self.clock.now + START_UP_BLIP)
                for entity_id, (state, attributes) in self.current.items():
                    if entity_id.partition(".")[0] not in _NO_START_UP_BLIP:
                        self._write(hass, entity_id, state, attributes)
                await settle(hass)
                await advance_to(hass, self.clock, self.clock.now + RESTART_SETTLE)
                self._compare_restart(hass)
            steps = self.plan.steps
            while index < len(steps):
                step = steps[index]
                index += 1
                self.record.timer_steps += await advance_to(hass, self.clock, step.when)
                if isinstance(step, Change):
                    self._apply(hass, step)
                    # Changes at the same moment land together, as a device burst does.
                    while index < len(steps) and isinstance(steps[index], Change):
                        nxt = steps[index]
                        if nxt.when != step.when:
                            break
                        self._apply(hass, nxt)  # type: ignore[arg-type]
                        index += 1
                    await settle(hass)
                elif isinstance(step, Feedback):
                    await self._feedback(hass, step)
                elif isinstance(step, Restart):
                    self._before_restart = self._snapshot(hass)
                    return index
                elif isinstance(step, Outage):
                    self._before_restart = self._snapshot(hass)
                    self._down_until = step.until
                    return index
            self.record.timer_steps += await advance_to(hass, self.clock, self.plan.end)
            return index
        finally:
            observer.async_stop()
            await hass.async_stop()

    def _entry_options(self) -> dict[str, Any]:
        """The monitor as a homeowner adds it: every option at its default."""
        options = dict(self.options)
        profile = self.scenario.data["household"]["profile"]
        if profile:
            options.setdefault(CONF_PROFILE, profile)
        if watch := self.scenario.data["household"]["watch"]:
            # The homeowner added these in the options flow (beside the default coverage).
            included = options.get(CONF_INCLUDE_ENTITIES) or []
            options[CONF_INCLUDE_ENTITIES] = sorted({*included, *watch})
        return options

    def _write(
        self, hass: HomeAssistant, entity_id: str, state: str, attributes: Mapping[str, Any] | None
    ) -> None:
        merged = {**self.base.get(entity_id, {}), **(attributes or {})}
        hass.states.async_set(entity_id, state, merged, timestamp=self.clock.now.timestamp())

    def _apply(self, hass: HomeAssistant, change: Change) -> None:
        state, attributes = self._remember(change)
        self._write(hass, change.entity_id, state, attributes)

    def _remember(self, change: Change) -> tuple[str, Mapping[str, Any] | None]:
        """The device's state after ``change`` (kept for a restart)."""
        previous = self.current.get(change.entity_id)
        attributes = change.attributes
        if attributes is None and previous is not None and change.source == "noise":
            attributes = previous[1]  # a device coming back reports what it had
        self.current[change.entity_id] = (change.state, attributes)
        return change.state, attributes

    def _while_down(self, index: int) -> int:
        """A power cut: the devices live on unseen; the homeowner cannot act meanwhile."""
        until = min(self._down_until or self.clock.now, self.plan.end)
        steps = self.plan.steps
        while index < len(steps) and steps[index].when < until:
            step = steps[index]
            index += 1
            if isinstance(step, Change):
                self._remember(step)
            elif isinstance(step, Feedback):
                self.record.feedback.append(
                    FeedbackResult(
                        step.when,
                        step.action,
                        step.incident,
                        False,
                        "Home Assistant was down (power cut)",
                        possible=False,
                    )
                )
        self._down_until = None
        self.clock.set(until)
        return index

    def _local(self, moment: datetime) -> str:
        return moment.astimezone(self.scenario.tz).isoformat(timespec="seconds")

    def _snapshot(self, hass: HomeAssistant) -> dict[str, Any]:
        return {
            "when": self.clock.now,
            "notifications": {
                k: {"title": v.title, "message": v.message}
                for k, v in self.record.seen.visible.items()
            },
            "issues": visible_issues(hass),
        }

    def _compare_restart(self, hass: HomeAssistant) -> None:
        before = self._before_restart or {}
        after_notes = set(self.record.seen.visible)
        after_issues = visible_issues(hass)
        since = before.get("when", self.clock.now)
        gone = sorted(set(before.get("notifications", {})) - after_notes)
        gone_issues = sorted(set(before.get("issues", {})) - set(after_issues))
        expired = expired_while_down(
            [*gone, *gone_issues], self.record.seen.cleared, self.clock.now
        )
        lost_notes = [n for n in gone if n not in expired]
        lost_issues = [i for i in gone_issues if i not in expired]
        cleared = [c.anomaly_id for c in self.record.seen.cleared if c.when >= since]
        self.record.seen.restarts.append(
            {
                "when": self._local(since),
                "notifications_before": len(before.get("notifications", {})),
                "notifications_after": len(after_notes),
                "issues_before": len(before.get("issues", {})),
                "issues_after": len(after_issues),
                "lost_notifications": lost_notes,
                "lost_issues": lost_issues,
                "lost": len(lost_notes) + len(lost_issues),
                "expired_while_down": sorted(expired),
                "cleared_after_restart": cleared,
                "down_minutes": round((before.get("back", since) - since).total_seconds() / 60, 1),
                "devices_unknown_at_start": before.get("unknown_at_start", 0),
            }
        )
        self._before_restart = None

    async def _feedback(self, hass: HomeAssistant, step: Feedback) -> None:
        span = next(i for i in self.plan.incidents if i.id == step.incident)
        alarm = latest_alarm_for(span, self.record.seen.alarms, self.clock.now)
        result = FeedbackResult(step.when, step.action, step.incident, False, "")
        if alarm is None:
            # Never told: nothing to acknowledge or call a false alarm, and so no mark to
            # remove (the action rightly refuses a call naming no mark). A detection miss,
            # scored as one in recall; the action is not judged.
            result.detail = "the homeowner had not been told about this incident by then"
            result.told = False
        elif step.action == "remove_mark":
            result.done, result.detail = await async_remove_mark(hass, alarm)
        elif (issue_id := issue_for(hass, alarm.anomaly_id)) is not None:
            result.done, result.detail = await async_fix_flow(hass, issue_id, step.action)
        else:  # the anomaly cleared and took its repair issue along: what else is there
            cleared = [c for c in self.record.seen.cleared if c.anomaly_id == alarm.anomaly_id]
            why = (
                f"the anomaly had cleared at {self._local(cleared[-1].when)} and its repair "
                "issue was gone"
                if cleared
                else "the anomaly had no open repair issue"
            )
            result.done, result.detail, result.possible = await async_feedback_without_issue(
                hass, alarm, step.action, why
            )
        if alarm is not None:
            result.anomaly_id = alarm.anomaly_id
        self.record.feedback.append(result)
        await settle(hass)


def latest_alarm_for(span: IncidentSpan, alarms: list[Alarm], now: datetime) -> Alarm | None:
    """The newest alarm about this incident: on its entities, since it began and until
    ``GRACE`` after it ended (feedback may come hours later, about that notification)."""
    last = min(now, span.end + GRACE)
    candidates = [
        a for a in alarms if span.start <= a.when <= last and span.entities & set(a.evidence)
    ]
    return candidates[-1] if candidates else None
