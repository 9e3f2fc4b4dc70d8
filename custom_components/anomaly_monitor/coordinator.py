"""The coordinator: periodic and on-demand analysis of the watched home.

A significant change does two things:
- a safety check at once (rules only, a few ms, at most once a second): urgent findings
  (smoke, CO, gas, leak, heat, anything critical - ``core/safety_floor.py``) are
  announced without waiting for any model, even while a slow analysis is running;
- a full analysis after ``SIGNIFICANT_DEBOUNCE``; if one is running then, another runs
  right after it, so the change is always judged by an analysis that saw it.
Every analysis also announces the rules' urgent findings before it asks the model - and
every finding, when the model cannot take one back (a hybrid where the rules decide, the
default); the model's words then follow as an update of the same anomaly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import CALLBACK_TYPE, CoreState, HomeAssistant, callback
from homeassistant.helpers.debounce import Debouncer
from homeassistant.helpers.event import async_track_point_in_utc_time
from homeassistant.helpers.update_coordinator import DataUpdateCoordinator, UpdateFailed
from homeassistant.util import dt as dt_util

from .anomalies.across_restart import AcrossRestart
from .anomalies.before_start import news
from .anomalies.surfaces import Announcer
from .anomalies.tracker import CLEAR_AFTER, AnomalyTracker, OpenAnomaly
from .backends import llm_detector_of
from .const import (
    CONF_FALSE_ALARM_DAYS,
    CONF_INTERVAL,
    CONF_NOTIFY,
    CONF_PROFILE,
    CONF_WEATHER_ENTITY,
    CONF_WINDOW,
    DEFAULT_FALSE_ALARM_DAYS,
    DEFAULT_INTERVAL,
    DEFAULT_WINDOW,
    DOMAIN,
    LOGGER,
    SIGNIFICANT_DEBOUNCE,
)
from .core.baselines import HomeBaselines
from .core.baselines.usual_use import LEARN_DAYS
from .core.detector import Detector
from .core.feedback import FalseAlarm, findings_of, suppress
from .core.learning_gate import not_held
from .core.llm.backend import LLMBackend, LLMError
from .core.llm.prompts import false_alarm_example_from_mark
from .core.models import ContextWindow, EntityState, Finding, Verdict
from .core.safety_floor import urgent_findings
from .core.window import build_window
from .live.context_builder import (
    SnapshotCache,
    build_environment,
    build_snapshot,
    located_only,
)
from .live.offline_check import OfflineCheck
from .live.watcher import StateWatcher
from .recorder.baseline_keeper import BaselineKeeper
from .redaction import Redactor

# Small models have short contexts: only the newest marks are shown as examples.
MAX_FEEDBACK_EXAMPLES = 4
# An analysis this soon after another, with no new transition, judges the same window.
SAME_WINDOW_FOR = timedelta(seconds=30)
# Safety checks (rules only) run at once on a significant change, then at most this often.
SAFETY_CHECK_COOLDOWN = 1.0

type AnomalyMonitorConfigEntry = ConfigEntry[AnomalyMonitorRuntimeData]


# A device never seen yet is learned for this long once it reports.
LEARNING_UNKNOWN = timedelta(days=LEARN_DAYS)
_NOT_DEVICES = frozenset({"person", "device_tracker"})


@dataclass(slots=True)
class AnomalyMonitorRuntimeData:
    """Everything a loaded entry owns."""

    coordinator: AnomalyMonitorCoordinator
    backend: LLMBackend | None = None  # also plans instructions (check_instruction)
    baselines: BaselineKeeper | None = None  # the home's learned normal


@dataclass(frozen=True, slots=True)
class AnalysisResult:
    """One analysis: the verdict and what the window looked like."""

    verdict: Verdict
    analysed_at: datetime
    entities: int
    transitions: int
    entries: int
    raw_tokens: int
    tokens: int
    compression_ratio: float
    start: datetime | None
    end: datetime | None

    @classmethod
    def of(cls, verdict: Verdict, window: ContextWindow, now: datetime) -> AnalysisResult:
        """Summarise ``window`` next to its verdict."""
        sequence = window.sequence
        return cls(
            verdict=verdict,
            analysed_at=now,
            entities=len(window.snapshot),
            transitions=sequence.raw_count,
            entries=len(sequence.entries),
            raw_tokens=sequence.raw_tokens,
            tokens=sequence.tokens,
            compression_ratio=round(sequence.ratio, 3),
            start=window.start,
            end=window.end,
        )

    def as_dict(self) -> dict[str, Any]:
        """The service response and diagnostics form."""
        return {
            "verdict": self.verdict.as_dict(),
            "analysed_at": self.analysed_at.isoformat(),
            "window": {
                "entities": self.entities,
                "transitions": self.transitions,
                "entries": self.entries,
                "raw_tokens": self.raw_tokens,
                "tokens": self.tokens,
                "compression_ratio": self.compression_ratio,
                # One time zone (the window ends on HA's local clock): UTC, as analysed_at.
                "start": dt_util.as_utc(self.start).isoformat() if self.start else None,
                "end": dt_util.as_utc(self.end).isoformat() if self.end else None,
            },
        }


class AnomalyMonitorCoordinator(DataUpdateCoordinator[AnalysisResult | None]):
    """Builds a context window, asks the detector, and surfaces what it finds."""

    config_entry: AnomalyMonitorConfigEntry

    def __init__(
        self,
        hass: HomeAssistant,
        entry: AnomalyMonitorConfigEntry,
        detector: Detector,
        fallback: Detector | None = None,
    ) -> None:
        options = entry.options
        super().__init__(
            hass,
            LOGGER,
            config_entry=entry,
            name=DOMAIN,
            update_interval=timedelta(minutes=options.get(CONF_INTERVAL, DEFAULT_INTERVAL)),
        )
        # Plain callbacks behind debouncers: no task per event, a burst is judged once.
        self._safety_checks: Debouncer[Coroutine[Any, Any, None]] = Debouncer(
            hass,
            LOGGER,
            cooldown=SAFETY_CHECK_COOLDOWN,
            immediate=True,
            function=self._async_safety_check,
        )
        self._significant_changes: Debouncer[None] = Debouncer(
            hass,
            LOGGER,
            cooldown=SIGNIFICANT_DEBOUNCE.total_seconds(),
            immediate=False,
            function=self._async_want_analysis,
        )
        self._analysis_wanted = False
        self._follow_up: asyncio.Task[None] | None = None
        # Urgent anomalies announced by a safety check, and when: an analysis whose window
        # was built before that does not clear them.
        self._announced_early: dict[str, datetime] = {}
        self.data = None
        self.detector = detector
        self.fallback = fallback
        self.window = timedelta(minutes=options.get(CONF_WINDOW, DEFAULT_WINDOW))
        self.profile: str = options.get(CONF_PROFILE, "")
        self.redactor = Redactor.from_config({**entry.data, **options})
        self.weather_entity: str | None = options.get(CONF_WEATHER_ENTITY)
        self.watcher = StateWatcher(
            hass, options, self.window, self._async_on_significant, owner=entry
        )
        self.tracker = AnomalyTracker(
            hass,
            entry.entry_id,
            timedelta(days=options.get(CONF_FALSE_ALARM_DAYS, DEFAULT_FALSE_ALARM_DAYS)),
        )
        self._confirm_clear: CALLBACK_TYPE | None = None
        self._offline_check = OfflineCheck(hass, self._async_analyse_fresh)
        self.announcer = Announcer(
            hass,
            entry,
            options.get(CONF_NOTIFY, []),
            options.get(CONF_FALSE_ALARM_DAYS, DEFAULT_FALSE_ALARM_DAYS),
        )
        self.analyses = 0
        self._across_restart = AcrossRestart(hass)
        self._lock = asyncio.Lock()
        self._last_judged: tuple[int, datetime, ContextWindow, Verdict] | None = None
        self._known_states: SnapshotCache = {}  # the last snapshot's views (``build_snapshot``)
        # The home's learned normal (set once the baseline keeper runs): while a device's
        # normal is learned, only what cannot wait is pushed (``core.learning_gate``).
        self.learned: Callable[[], HomeBaselines | None] | None = None
        # "False alarm" teaches the learned normal too (``BaselineKeeper.async_taught``),
        # and removing it forgets that (``async_untaught``).
        self.teach: Callable[[OpenAnomaly], None] | None = None
        self.untaught: Callable[[list[FalseAlarm]], None] | None = None

    def now(self) -> datetime:
        """The time analyses happen at (a replay entry's is its sample's clock)."""
        return dt_util.utcnow()

    async def async_start(self) -> None:
        """Restore stored anomalies and start watching."""
        await self.tracker.async_load()
        for anomaly in self.tracker.forget_ended(dt_util.utcnow()):
            self.announcer.async_forget(anomaly)
        for anomaly in (*self.tracker.open.values(), *self.tracker.ended.values()):
            # Stored by an older version, or before the profile changed: scrub again.
            anomaly.reasoning = self.redactor.text(anomaly.reasoning)
            anomaly.recommendation = self.redactor.text(anomaly.recommendation)
            for member in anomaly.members:
                member.reasoning = self.redactor.text(member.reasoning)
                member.recommendation = self.redactor.text(member.recommendation)
        # Notifications do not survive restarts: shown again (an ended one: "Over: ...").
        for anomaly in self.tracker.open.values():
            await self.announcer.async_restore(anomaly)
        for anomaly in self.tracker.ended.values():
            await self.announcer.async_restore_ended(anomaly)
        if self.tracker.open:  # (a replay entry restores none, and has no clock yet)
            self._across_restart.async_restored(self.tracker.open, self.now())
        self._async_schedule_confirmation()
        self._async_teach_model()
        self.watcher.async_start()

    async def async_reshow_restored(self) -> None:
        """Show restored anomalies (open and ended) again once HA has started.

        Restored during start-up, their evidence read the states HA had then (often
        ``unknown``); now the notifications and issues show the real ones. Same ids, so
        this replaces and never notifies again.
        """
        for anomaly in list(self.tracker.open.values()):
            await self.announcer.async_reworded(anomaly)
        for anomaly in list(self.tracker.ended.values()):  # "Over: ..." too
            await self.announcer.async_restore_ended(anomaly)

    @callback
    def _async_teach_model(self) -> None:
        """The homeowner's newest false-alarm marks become the LLM's examples of normal."""
        if (llm := llm_detector_of(self.detector)) is None:
            return
        marks = sorted(
            self.tracker.false_alarms.values(), key=lambda m: m.marked_at or "", reverse=True
        )
        llm.examples = tuple(
            false_alarm_example_from_mark(m) for m in marks[:MAX_FEEDBACK_EXAMPLES]
        )
        llm.suppressed = set(self.tracker.false_alarms)  # LLM findings have no degree

    async def async_stop(self) -> None:
        """Stop watching and flush what must survive a restart."""
        self.watcher.async_stop()
        self._safety_checks.async_shutdown()
        self._significant_changes.async_shutdown()
        self._offline_check.async_cancel()
        if self._confirm_clear is not None:
            self._confirm_clear()
            self._confirm_clear = None
        await self.tracker.async_flush()

    @callback
    def _async_schedule_confirmation(self) -> None:
        """An anomaly went missing: analyse again when it may clear (hysteresis)."""
        if self._confirm_clear is not None:
            self._confirm_clear()
            self._confirm_clear = None
        if (since := self.tracker.pending_since()) is None:
            return

        @callback
        def _confirm(_: datetime) -> None:
            self._confirm_clear = None
            self._async_analyse_fresh()

        when = max(since + CLEAR_AFTER, dt_util.utcnow())
        self._confirm_clear = async_track_point_in_utc_time(self.hass, _confirm, when)

    @callback
    def _async_follow_offline(self, window: ContextWindow) -> None:
        """Analyse again when a device offline in ``window`` reaches its grace (or the
        limit its learned drops give)."""
        baselines = self.learned() if self.learned is not None else None
        self._offline_check.async_follow(window, baselines)

    @callback
    def _async_analyse_fresh(self) -> None:
        """Analyse soon on a fresh window, even if nothing was recorded since the last."""
        self._last_judged = None
        self._significant_changes.async_schedule_call()

    @callback
    def async_acknowledge(self, anomaly_id: str) -> None:
        """The homeowner has seen the anomaly: its notification goes, it stays open."""
        if (anomaly := self.tracker.acknowledge(anomaly_id)) is not None:
            self.announcer.async_acknowledged(anomaly)  # (an ended one: nothing stays)
            self.async_update_listeners()

    @callback
    def async_mark_false_alarm(self, anomaly_id: str) -> None:
        """The homeowner says this is normal: close it (a hazard: this occurrence only)."""
        if (anomaly := self.tracker.mark_false_alarm(anomaly_id)) is not None:
            if anomaly.ended is None:
                self.announcer.async_cleared(anomaly, reason="false_alarm")
            else:  # told as cleared when it ended: its reminders go
                LOGGER.debug("False alarm on ended anomaly %s", anomaly.key)
                self.announcer.async_forget(anomaly)
            if self.teach is not None and not anomaly.hazard:
                self.teach(anomaly)  # that device's normal widens, not only a mark
            self._async_teach_model()
            self._last_judged = None  # the same window may now be judged differently
            self.async_update_listeners()

    @callback
    def async_remove_false_alarm(self, mark_id: str) -> bool:
        """Forget one mark: its pattern is reported again. Whether it existed."""
        before = dict(self.tracker.false_alarms.items())
        if self.tracker.remove_mark(mark_id) is None:
            return False
        self._async_forget_feedback(before)
        return True

    @callback
    def async_clear_false_alarms(self) -> None:
        """Forget every mark."""
        before = dict(self.tracker.false_alarms.items())
        self.tracker.clear_false_alarms()
        self._async_forget_feedback(before)

    @callback
    def _async_forget_feedback(self, before: dict[str, FalseAlarm]) -> None:
        if self.untaught is not None:  # what the removed marks taught the normal goes too
            self.untaught([m for s, m in before.items() if s not in self.tracker.false_alarms])
        self._async_teach_model()
        self._last_judged = None  # the same window may now be judged differently
        self._significant_changes.async_schedule_call()  # and is: what was hidden shows

    @callback
    def _async_on_significant(self) -> None:
        self._safety_checks.async_schedule_call()
        self._significant_changes.async_schedule_call()

    @callback
    def async_baselines_learned(self) -> None:
        """The recorder's history is learned: judge again with it (the first analysis ran
        without; seen in a live hass: a room off its hours was told 15 min late)."""
        self._last_judged = None  # the same changes, judged by a baseline that knows more
        self._significant_changes.async_schedule_call()

    @callback
    def async_past_read(self) -> None:
        """The recorder's past of entities watched since the first analysis is in the
        window (a device offline since before a restart, restored by HA once it started):
        judge again with it, as the analysis its appearance asked for may have run first."""
        self._async_analyse_fresh()

    @callback
    def _async_want_analysis(self) -> None:
        """Analyse after a change; if an analysis is running, once more right after it.

        (HA's Debouncer drops a call while its function runs, and the running analysis
        judged the window from before the change: the request is kept as a flag instead.)
        """
        self._analysis_wanted = True
        if self._follow_up is None or self._follow_up.done():
            self._follow_up = self.config_entry.async_create_background_task(
                self.hass, self._async_analyse_while_wanted(), f"{DOMAIN} analysis after a change"
            )

    async def _async_analyse_while_wanted(self) -> None:
        while self._analysis_wanted:
            self._analysis_wanted = False
            await self.async_refresh()  # waits for a running analysis, then judges anew

    async def _async_safety_check(self) -> None:
        """Rules only, on the current states: announce urgent findings at once.

        Urgent rules read the states, not the events: the window is built without them,
        so a check costs the same during a storm of 20,000 buffered transitions. Before
        HA has started, states are incomplete: the first analysis checks them then.
        """
        if self.fallback is None or self.hass.state is not CoreState.running:
            return
        verdict = await self.fallback.async_analyze(self.build_states_window())
        for signature in await self._async_announce_urgent(verdict):
            self._announced_early[signature] = self.now()

    async def _async_announce_urgent(
        self, rules_verdict: Verdict, everything: bool = False, someone_home: bool = False
    ) -> list[str]:
        """Open and announce the urgent findings (``everything``: all) not yet open."""
        verdict = self.redactor.verdict(suppress(rules_verdict, self.tracker.false_alarms))
        findings = findings_of(verdict)
        urgent = self._pushable(findings if everything else urgent_findings(findings), someone_home)
        if not urgent:
            return []
        # Only these findings were judged: every other anomaly stays as it is.
        every = {*self.tracker.open, *self.tracker.dismissed}
        changes = self.tracker.update(urgent, self.now(), someone_home, keep=every)
        for anomaly in changes.opened:
            LOGGER.debug("Urgent finding announced before the model: %s", anomaly.rule)
            await self.announcer.async_opened(anomaly)
        if changes.opened:
            self.async_update_listeners()
        return [a.signature for a in changes.opened]

    async def _async_update_data(self) -> AnalysisResult:
        try:
            return await self.async_analyze()
        except Exception as err:
            raise UpdateFailed(
                translation_domain=DOMAIN,
                translation_key="analysis_failed",
                translation_placeholders={"error": self.redactor.text(str(err))},
            ) from err

    async def _async_judge(self) -> tuple[ContextWindow, Verdict]:
        """The detector's verdict on the current window, asked at most once per window.

        Nothing recorded (and nobody arrived or left) since an analysis moments ago means
        the same window: its verdict is reused rather than asking (perhaps a slow LLM) twice.
        """
        recorded, now = self.watcher.version, self.now()
        if (last := self._last_judged) is not None:
            last_recorded, last_time, window, verdict = last
            if last_recorded == recorded and timedelta(0) <= now - last_time <= SAME_WINDOW_FOR:
                return window, verdict
        window = self.build_window()
        if self.fallback is not None and self.detector is not self.fallback:
            # The rules are instant: their urgent findings do not wait for the model, nor
            # does any finding the model cannot take back (a hybrid where the rules decide).
            everything = bool(getattr(self.detector, "rules_decide", False))
            rules_verdict = await self.fallback.async_analyze(window)
            home = (window.environment.persons_home or 0) > 0
            await self._async_announce_urgent(rules_verdict, everything, someone_home=home)
        try:
            verdict = await self.detector.async_analyze(window)
        except Exception as err:
            if self.fallback is None:
                raise
            if not isinstance(err, LLMError):  # LLMErrors are the backend's repair issue
                LOGGER.exception("Detector %s failed; the rules judge", self.detector.name)
            # The model gave no verdict: the rules still judge.
            verdict = await self.fallback.async_analyze(window)
        # Model text may echo the profile: nothing downstream (storage, entities, events,
        # notifications, issues, diagnostics, the action's response) sees it unscrubbed.
        verdict = self.redactor.verdict(verdict)
        llm = llm_detector_of(self.detector)
        # A verdict given without the model is not kept: next time the model is asked again.
        self._last_judged = (
            (recorded, now, window, verdict) if llm is None or llm.available else None
        )
        return window, verdict

    def _snapshot(self) -> list[EntityState]:
        """The watched entities' states, with their areas, devices and homeowner's roles."""
        watcher = self.watcher
        return build_snapshot(
            self.hass,
            watcher.entity_ids,
            watcher.areas,
            devices=watcher.devices,
            roles=watcher.roles,
            known=self._known_states,
        )

    def _pushable(self, findings: Iterable[Finding], someone_home: bool) -> list[Finding]:
        """What may open an anomaly now: not what waits for its devices' normal."""
        baselines = self.learned() if self.learned is not None else None
        return not_held(findings, baselines, self.now(), someone_home)

    def learning_status(self) -> dict[str, datetime] | None:
        """The watched devices whose normal is still being learned, and until when (None
        without baselines). Until then only what cannot wait is pushed about them."""
        baselines = self.learned() if self.learned is not None else None
        if baselines is None:
            return None
        now = self.now()
        status: dict[str, datetime] = {}
        for entity_id in self.watcher.entity_ids:
            if entity_id.partition(".")[0] in _NOT_DEVICES:
                continue  # who is home is followed, not learned as a device's use
            if baselines.learning(entity_id, now):
                until = baselines.learning_until(entity_id)
                status[entity_id] = until if until is not None else now + LEARNING_UNKNOWN
        return status

    def build_window(self) -> ContextWindow:
        """The context window ending now."""
        now = self.now()
        watcher = self.watcher
        return build_window(
            self._snapshot(),
            build_environment(self.hass, self.weather_entity),
            located_only(self.hass, watcher.buffer.snapshot(now)),
            profile=self.profile,
            start=now - self.window,
        )

    def build_states_window(self) -> ContextWindow:
        """The current states and environment, without the events (safety checks)."""
        return build_window(
            self._snapshot(),
            build_environment(self.hass, self.weather_entity),
            [],
            profile=self.profile,
            start=self.now() - self.window,
        )

    async def async_analyze(self) -> AnalysisResult:
        """Analyse now and update every surface. Analyses never overlap."""
        async with self._lock:
            if self.tracker.expire_marks(self.now()):
                self._async_teach_model()  # an expired mark no longer teaches or hides
                self._last_judged = None
            started = self.now()
            # This analysis judges every change so far: a pending one for them is moot
            # (changes from now on schedule their own).
            self._significant_changes.async_cancel()
            self._analysis_wanted = False
            window, verdict = await self._async_judge()
            verdict = suppress(verdict, self.tracker.false_alarms)
            now = self.now()
            # Announced by a safety check after this window was built: the next analysis
            # (already wanted) judges them; this one must not clear them.
            early = self._announced_early
            keep = {sig for sig, at in early.items() if at >= started}
            self._announced_early = {sig: early[sig] for sig in keep}
            keep |= self._across_restart.unseen(self.tracker.open, now)
            if not window.transitions:
                # Nothing changed in the whole window (a quiet night): the window's
                # statistics judged nothing, and a condition that ended would have left a
                # change in it. No anomaly is missed (a door open all night is not ended
                # and told again at the first change of the morning).
                keep |= set(self.tracker.open)
            worded = {s: (a.reasoning, a.recommendation) for s, a in self.tracker.open.items()}
            someone_home = (window.environment.persons_home or 0) > 0
            states = {s.entity_id: s.state for s in window.snapshot}
            pushable = self._pushable(findings_of(verdict), someone_home)
            tracked = (*self.tracker.open.values(), *self.tracker.dismissed.values())
            pushable = news(pushable, window.transitions, self.watcher.started_at, states, tracked)
            changes = self.tracker.update(pushable, now, someone_home, keep=keep, states=states)
            for signature, anomaly in self.tracker.open.items():
                now_worded = (anomaly.reasoning, anomaly.recommendation)
                if worded.get(signature, now_worded) != now_worded:
                    # The model's explanation; the advice once everybody has left.
                    await self.announcer.async_reworded(anomaly)
                elif anomaly not in changes.opened:  # its evidence's states as they are now
                    await self.announcer.async_refreshed(anomaly)
            for anomaly in changes.opened:
                await self.announcer.async_opened(anomaly)
            for anomaly in changes.cleared:
                if anomaly.ended is None:  # acknowledged: nothing is left to answer
                    self.announcer.async_cleared(anomaly)
                else:
                    await self.announcer.async_ended(anomaly)
            for anomaly in changes.forgotten:
                self.announcer.async_forget(anomaly)
            self._async_schedule_confirmation()
            self._async_follow_offline(window)
            self.analyses += 1
            return AnalysisResult.of(verdict, window, now)
