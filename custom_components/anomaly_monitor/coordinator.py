"""The coordinator: when the watched home is analysed, and the homeowner's answers.

A significant change does two things:
- a safety check at once (rules only, a few ms, at most once a second, but a hazard
  sensor raising its alarm is checked at once whatever checks ran before): urgent findings
  (smoke, CO, gas, leak, heat, anything critical - ``core/safety_floor.py``) are
  announced without waiting for any model, even while a slow analysis is running;
- a full analysis after ``SIGNIFICANT_DEBOUNCE``; if one is running then, another runs
  right after it, so the change is always judged by an analysis that saw it.
An analysis also runs periodically, when an anomaly may clear, when the recorder's past
or history is read, and at once (no debounce) when something the last analysis saw waiting
reaches its limit (``live/offline_check.py``: a grace, a learned stay, a quiet). The
analysis itself is ``analysis/home_analyser.py``.

While the recorder's history is read at set-up (seconds; at most ``HISTORY_WAIT``), full
analyses wait for it, so that the first one judges by what it teaches (session 17's walk:
the first analysis, before the history, told the lock "still being learned (until 05
Dec)" in a home with 12 days of history). Safety checks do not wait, and the first
analysis is preceded by one: smoke at start-up is told at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from datetime import datetime
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import CALLBACK_TYPE, CoreState, HomeAssistant, callback
from homeassistant.helpers.debounce import Debouncer
from homeassistant.helpers.event import async_track_point_in_utc_time
from homeassistant.util import dt as dt_util

from .analysis.home_analyser import HomeAnalyser
from .analysis.monitor_data import MonitorData
from .anomalies.motion_clearing import MotionClearing
from .anomalies.shown import async_listen_dismissed
from .anomalies.surfaces import notification_prefix
from .anomalies.telling import async_restore_stored
from .anomalies.tracker import OpenAnomaly
from .const import (
    CONF_SENSITIVITY,
    DEFAULT_SENSITIVITY,
    DOMAIN,
    LOGGER,
    SIGNIFICANT_DEBOUNCE,
)
from .core.detector import Detector
from .core.feedback import FalseAlarm
from .core.models import ContextWindow
from .live.offline_check import OfflineCheck
from .recorder.baseline_keeper import BaselineKeeper
from .recorder.window_history import WindowPast

# Safety checks (rules only) run at once on a significant change, then at most this often.
SAFETY_CHECK_COOLDOWN = 1.0
# Full analyses wait at most this long (seconds) for the recorder's history at set-up.
HISTORY_WAIT = 60.0


class AnomalyMonitorCoordinator(HomeAnalyser):
    """Decides when the home is analysed, and answers the homeowner's feedback."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: ConfigEntry,
        detector: Detector,
        fallback: Detector | None = None,
        keeper: BaselineKeeper | None = None,
    ) -> None:
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
        # When each hazard sensor's alarm was last checked at once (loop time).
        self._hazard_checked: dict[str, float] = {}
        self._follow_up: asyncio.Task[None] | None = None
        super().__init__(hass, entry, detector, fallback, keeper)
        self._confirm_clear: CALLBACK_TYPE | None = None
        self._offline_check = OfflineCheck(hass, self._async_analyse_due)
        # The window's past, read back from the recorder once HA runs (and for entities
        # watched later: the watcher tells them).
        self._past = WindowPast(hass, entry, self.watcher, self.async_past_read)
        # "Now motion in …" leaves the screen when the motion clears, without an analysis.
        self._motion_clearing = MotionClearing(hass, self.tracker, self.announcer)
        self._history_waited = False  # waited once (read, or HISTORY_WAIT passed)
        self._stop_dismissals: CALLBACK_TYPE = lambda: None

    @callback
    def _async_analysis_began(self) -> None:
        """This analysis judges every change so far: a pending one for them is moot
        (changes from now on schedule their own)."""
        self._significant_changes.async_cancel()
        self._analysis_wanted = False

    async def async_start(self) -> None:
        """Restore stored anomalies and start watching."""
        await async_restore_stored(
            self.tracker,
            self.announcer,
            self.redactor,
            dt_util.utcnow(),
            self.config_entry.options.get(CONF_SENSITIVITY, DEFAULT_SENSITIVITY),
        )
        self._stop_dismissals = async_listen_dismissed(self.hass, self._async_notice_dismissed)
        if self.tracker.open:  # (a replay entry restores none, and has no clock yet)
            self._across_restart.async_restored(self.tracker.open, self.now())
        self._async_schedule_confirmation()
        self._async_teach_model()
        self.watcher.async_start()
        self._motion_clearing.async_start()
        if self.keeper is not None:  # stored baselines now, the recorder's history later
            await self.keeper.async_start(self.watcher, self.async_baselines_learned)
        self.data = self.current_data()

    async def async_first_analysis(self) -> None:
        """Once HA has started: the restored anomalies shown again, the safety check (it
        reads the states now, and must not wait for the recorder), then the window's past
        (a door open since before a restart) before the analysis judges it."""
        await self.async_reshow_restored()
        await self._async_safety_check_now()  # what cannot wait, while the history is read
        await self._past.async_fill()  # waits for the recorder's queue (up to seconds)
        await self.async_refresh()

    async def _async_update_data(self) -> MonitorData:
        await self._async_history_read()
        return await super()._async_update_data()

    async def _async_history_read(self) -> None:
        """Wait for the recorder's history at set-up (once, at most ``HISTORY_WAIT``)."""
        if self._history_waited or self.keeper is None:
            return
        try:
            await asyncio.wait_for(self.keeper.history_done.wait(), HISTORY_WAIT)
        except TimeoutError:
            LOGGER.debug("The recorder's history is still being read; analysing without it")
        self._history_waited = True

    @callback
    def _async_newly_watched(self, entity_ids: frozenset[str]) -> None:
        self._past.async_newly_watched(entity_ids)

    async def async_reshow_restored(self) -> None:
        """Show restored anomalies (open and ended) again once HA has started.

        Restored during start-up, their evidence read the states HA had then (often
        ``unknown``); now the notifications and issues show the real ones. Same ids, so
        this replaces and never notifies again.
        """
        for anomaly in list(self.tracker.open.values()):
            await self.announcer.async_restore(anomaly)
        for anomaly in list(self.tracker.ended.values()):  # "Over: ..." too
            await self.announcer.async_restore_ended(anomaly)

    async def async_stop(self) -> None:
        """Stop learning and watching; write what must survive a restart."""
        if self.keeper is not None:
            await self.keeper.async_stop()
        self.watcher.async_stop()
        self._motion_clearing.async_stop()
        self._stop_dismissals()
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
        if (clears := self.tracker.clears_at()) is None:
            return

        @callback
        def _confirm(_: datetime) -> None:
            self._confirm_clear = None
            self._async_analyse_fresh()

        when = max(clears, dt_util.utcnow())
        self._confirm_clear = async_track_point_in_utc_time(self.hass, _confirm, when)

    @callback
    def _async_follow_offline(self, window: ContextWindow) -> None:
        """Analyse again when a device offline in ``window`` reaches its grace (or the
        limit its learned drops give)."""
        baselines = self._baselines()
        self._offline_check.async_follow(window, baselines)

    @callback
    def _async_analyse_fresh(self) -> None:
        """Analyse soon on a fresh window, even if nothing was recorded since the last."""
        self.judge.forget()
        self._significant_changes.async_schedule_call()

    @callback
    def _async_analyse_due(self) -> None:
        """Analyse now: something the last analysis saw waiting reaches its limit (a grace,
        a learned stay, a quiet). The debounce gathers a burst of changes into one analysis;
        a limit is one moment, and waiting the debounce after it made a limit the story's
        own deadline (an hour's stay, a fall found at the hour) told seconds too late."""
        self.judge.forget()
        self._significant_changes.async_cancel()  # this analysis judges those changes too
        self._async_want_analysis()

    @callback
    def _async_notice_dismissed(self, note_id: str) -> None:
        """The homeowner dismissed a notification: if it is one of this monitor's, the
        tracker remembers it (a restart does not write it again)."""
        prefix = notification_prefix(self.config_entry.entry_id)
        if note_id.startswith(prefix):
            self.tracker.notice_dismissed(note_id.removeprefix(prefix))

    @callback
    def async_acknowledge(self, anomaly_id: str) -> None:
        """The homeowner has seen the anomaly: its notification goes, it stays open."""
        parts = self._parts(anomaly_id)
        if (anomaly := self.tracker.acknowledge(anomaly_id)) is not None:
            self.announcer.async_acknowledged(anomaly)  # (an ended one: nothing stays)
            for part in parts:  # shown in its notification: answered with it
                self.announcer.async_forget(part)
            self.async_update_listeners()

    def _parts(self, anomaly_id: str) -> list[OpenAnomaly]:
        tracker = self.tracker
        anomaly = tracker.by_key(anomaly_id) or tracker.ended_by_key(anomaly_id)
        return tracker.parts(anomaly) if anomaly is not None else []

    @callback
    def async_mark_false_alarm(self, anomaly_id: str) -> None:
        """The homeowner says this is normal: close it (a hazard: this occurrence only)."""
        parts = self._parts(anomaly_id)
        if (anomaly := self.tracker.mark_false_alarm(anomaly_id)) is not None:
            # Ended or open, the same: its reminders go and automations (and the
            # logbook) hear it was a false alarm; an ended one was "resolved" before.
            self.announcer.async_cleared(anomaly, reason="false_alarm")
            for part in parts:  # shown in its notification: answered with it, not marked
                self.announcer.async_forget(part)
            if self.keeper is not None and not anomaly.hazard:
                self.keeper.async_taught(anomaly)  # that device's normal widens, not only a mark
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
        if self.keeper is not None:  # what the removed marks taught the normal goes too
            marks = self.tracker.false_alarms
            self.keeper.async_untaught([m for s, m in before.items() if s not in marks])
        self._async_teach_model()
        self.judge.forget()  # the same window may now be judged differently
        self._significant_changes.async_schedule_call()  # and is: what was hidden shows

    @callback
    def _async_on_significant(self) -> None:
        self._safety_checks.async_schedule_call()
        self._significant_changes.async_schedule_call()

    @callback
    def _async_on_hazard(self, entity_id: str) -> None:
        """Checked now: the once-a-second limit keeps a storm of changes cheap, but a
        hazard that follows another change within that second must not wait for it. A
        sensor flapping within the second goes through the limit (its first alarm was
        checked at once)."""
        self._significant_changes.async_schedule_call()
        now = self.hass.loop.time()
        last = self._hazard_checked.get(entity_id)
        if last is not None and now - last < SAFETY_CHECK_COOLDOWN:
            self._safety_checks.async_schedule_call()
            return
        self._hazard_checked[entity_id] = now
        self.config_entry.async_create_background_task(
            self.hass, self._async_safety_check_now(), f"{DOMAIN} safety check of a hazard"
        )

    async def _async_safety_check_now(self) -> None:
        async with self._safety_checks.async_lock():  # never beside a running check
            await self._async_safety_check()

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
