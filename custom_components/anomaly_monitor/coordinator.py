"""The coordinator: periodic and on-demand analysis of the watched home.

A significant change does two things:
- a safety check at once (rules only, a few ms, at most once a second): urgent findings
  (smoke, CO, gas, leak, heat, anything critical - ``core/safety_floor.py``) are
  announced without waiting for any model, even while a slow analysis is running;
- a full analysis after ``SIGNIFICANT_DEBOUNCE``; if one is running then, another runs
  right after it, so the change is always judged by an analysis that saw it.
With a model, an analysis runs the checks (rules, statistics, baselines) once
(``analysis/judge.py``): it announces their urgent findings before it asks the model - and
every finding, when the model cannot take one back (a hybrid where the rules decide, the
default) - and hands them to the model step; the model's words then follow as an update of
the same anomaly. Every verdict is taken in one order (``anomalies/intake.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from homeassistant.core import CALLBACK_TYPE, CoreState, HomeAssistant, callback
from homeassistant.helpers.debounce import Debouncer
from homeassistant.helpers.event import async_track_point_in_utc_time
from homeassistant.helpers.update_coordinator import DataUpdateCoordinator, UpdateFailed
from homeassistant.util import dt as dt_util

from .analysis.judge import WindowJudge
from .analysis.monitor_data import MonitorData
from .analysis.result import AnalysisResult
from .anomalies.across_restart import AcrossRestart
from .anomalies.intake import pushable, taken
from .anomalies.surfaces import Announcer
from .anomalies.telling import async_restore_stored, async_tell, wording
from .anomalies.tracker import CLEAR_AFTER, AnomalyTracker, OpenAnomaly
from .backends.health import model_health
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
from .core.detector import Detector
from .core.feedback import FalseAlarm, findings_of
from .core.models import ContextWindow, Finding, Verdict
from .core.safety_floor import urgent_findings
from .live.context_builder import SnapshotCache
from .live.offline_check import OfflineCheck
from .live.watcher import StateWatcher
from .live.windows import live_window
from .recorder.learning_status import learning_status
from .redaction import Redactor

if TYPE_CHECKING:
    from .runtime import AnomalyMonitorConfigEntry

# Safety checks (rules only) run at once on a significant change, then at most this often.
SAFETY_CHECK_COOLDOWN = 1.0


class AnomalyMonitorCoordinator(DataUpdateCoordinator[MonitorData]):
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
        self._analysis: AnalysisResult | None = None  # the newest one
        self.judge = WindowJudge(detector, fallback)
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
        await async_restore_stored(self.tracker, self.announcer, self.redactor, dt_util.utcnow())
        if self.tracker.open:  # (a replay entry restores none, and has no clock yet)
            self._across_restart.async_restored(self.tracker.open, self.now())
        self._async_schedule_confirmation()
        self._async_teach_model()
        self.watcher.async_start()
        self.data = self.current_data()

    def current_data(self) -> MonitorData:
        """What the entities and diagnostics show, as it is now."""
        tracker, watcher = self.tracker, self.watcher
        return MonitorData(
            analysis=self._analysis,
            analyses=self.analyses,
            open_anomalies=tuple(tracker.open.values()),
            ended_anomalies=tuple(tracker.ended.values()),
            false_alarm_patterns=tuple(tracker.false_alarms),
            watched=frozenset(watcher.entity_ids),
            events_seen=watcher.events_seen,
            buffered_transitions=len(watcher.buffer),
            dropped_transitions=watcher.buffer.dropped,
            learning=self.learning_status(),
            detector=self.detector.name,
            model=model_health(self.detector),
        )

    @callback
    def async_update_listeners(self) -> None:
        """Tell the entities, with the data made afresh."""
        self.data = self.current_data()
        super().async_update_listeners()

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

    @property
    def detector(self) -> Detector:
        """The detector the entry asks for."""
        return self.judge.detector

    @property
    def fallback(self) -> Detector | None:
        """The checks (rules, statistics, baselines) that judge without a model."""
        return self.judge.fallback

    @callback
    def _async_teach_model(self) -> None:
        """The homeowner's newest false-alarm marks become the LLM's examples of normal."""
        self.judge.teach_model(self.tracker.false_alarms)

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
        self.judge.forget()
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
            self.judge.forget()  # the same window may now be judged differently
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
        self.judge.forget()  # the same window may now be judged differently
        self._significant_changes.async_schedule_call()  # and is: what was hidden shows

    @callback
    def _async_on_significant(self) -> None:
        self._safety_checks.async_schedule_call()
        self._significant_changes.async_schedule_call()

    @callback
    def async_baselines_learned(self) -> None:
        """The recorder's history is learned: judge again with it (the first analysis ran
        without; seen in a live hass: a room off its hours was told 15 min late)."""
        self.judge.forget()  # the same changes, judged by a baseline that knows more
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
        verdict = taken(rules_verdict, self.redactor, self.tracker.false_alarms)
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

    async def _async_update_data(self) -> MonitorData:
        try:
            await self.async_analyze()
        except Exception as err:
            raise UpdateFailed(
                translation_domain=DOMAIN,
                translation_key="analysis_failed",
                translation_placeholders={"error": self.redactor.text(str(err))},
            ) from err
        return self.current_data()

    def _pushable(self, findings: Iterable[Finding], someone_home: bool) -> list[Finding]:
        """What may open an anomaly now: not what waits for its devices' normal."""
        baselines = self.learned() if self.learned is not None else None
        return pushable(findings, baselines, self.now(), someone_home)

    def learning_status(self) -> dict[str, datetime] | None:
        """The watched devices whose normal is still being learned, and until when (None
        without baselines). Until then only what cannot wait is pushed about them."""
        baselines = self.learned() if self.learned is not None else None
        if baselines is None:
            return None
        return learning_status(baselines, self.watcher.entity_ids, self.now())

    def build_window(self) -> ContextWindow:
        """The context window ending now."""
        return self._live_window(events=True)

    def build_states_window(self) -> ContextWindow:
        """The current states and environment, without the events (safety checks)."""
        return self._live_window(events=False)

    def _live_window(self, *, events: bool) -> ContextWindow:
        return live_window(
            self.hass,
            self.watcher,
            now=self.now(),
            length=self.window,
            profile=self.profile,
            weather_entity=self.weather_entity,
            known=self._known_states,
            events=events,
        )

    async def async_analyze(self) -> AnalysisResult:
        """Analyse now and update every surface. Analyses never overlap."""
        async with self._lock:
            if self.tracker.expire_marks(self.now()):
                self._async_teach_model()  # an expired mark no longer teaches or hides
                self.judge.forget()
            started = self.now()
            # This analysis judges every change so far: a pending one for them is moot
            # (changes from now on schedule their own).
            self._significant_changes.async_cancel()
            self._analysis_wanted = False
            window, verdict = await self.judge.async_judge(
                self.build_window,
                self.watcher.version,
                self.now(),
                self._async_announce_urgent,
            )
            verdict = taken(verdict, self.redactor, self.tracker.false_alarms)
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
            before = wording(self.tracker)
            someone_home = (window.environment.persons_home or 0) > 0
            states = {s.entity_id: s.state for s in window.snapshot}
            opening = self._pushable(findings_of(verdict), someone_home)
            changes = self.tracker.update(opening, now, someone_home, keep=keep, states=states)
            await async_tell(self.announcer, self.tracker, changes, before)
            self._async_schedule_confirmation()
            self._async_follow_offline(window)
            self.analyses += 1
            self._analysis = AnalysisResult.of(verdict, window, now)
            return self._analysis
