"""The analysis of the watched home: its window judged, the verdict taken into anomalies.

``HomeAnalyser`` owns what one analysis needs (the watcher, the judge, the tracker and the
announcer) and runs it: the window is built (``live/windows.py``), judged
(``analysis/judge.py``: with a model the checks run once, their urgent findings are told
first), taken in one order (``anomalies/intake.py``) and told (``anomalies/telling.py``).
*When* it runs - periodically, after a significant change, for a safety check - is the
coordinator's (``coordinator.py``); a replay or preview entry analyses only when asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime, timedelta

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.update_coordinator import DataUpdateCoordinator, UpdateFailed
from homeassistant.util import dt as dt_util

from ..anomalies.across_restart import AcrossRestart
from ..anomalies.before_start import news
from ..anomalies.cause_and_effect import linked
from ..anomalies.intake import pushable, taken
from ..anomalies.surfaces import Announcer
from ..anomalies.telling import async_reword, async_shown_again, async_tell, wording
from ..anomalies.through_the_blink import held_through_blink
from ..anomalies.tracker import AnomalyTracker
from ..backends.health import model_health
from ..const import (
    CONF_FALSE_ALARM_DAYS,
    CONF_INTERVAL,
    CONF_NOTIFY,
    CONF_PHONELESS,
    CONF_PROFILE,
    CONF_WEATHER_ENTITY,
    CONF_WINDOW,
    DEFAULT_FALSE_ALARM_DAYS,
    DEFAULT_INTERVAL,
    DEFAULT_WINDOW,
    DOMAIN,
    LOGGER,
)
from ..core.baselines import HomeBaselines
from ..core.baselines.told_stays import tell_stays
from ..core.detector import Detector
from ..core.feedback import findings_of
from ..core.models import ContextWindow, Finding, Verdict
from ..core.pets import has_pets
from ..core.phoneless_residents import has_phoneless_resident, phoneless_count
from ..core.safety_floor import urgent_findings
from ..live.context_builder import SnapshotCache, start_blink_ends
from ..live.watcher import StateWatcher
from ..live.windows import live_window
from ..recorder.baseline_keeper import BaselineKeeper
from ..recorder.learning_status import learning_status
from ..redaction import Redactor
from .judge import WindowJudge
from .monitor_data import MonitorData
from .result import AnalysisResult


class HomeAnalyser(DataUpdateCoordinator[MonitorData]):
    """Builds a context window, asks the detector, and surfaces what it finds."""

    config_entry: ConfigEntry

    def __init__(
        self,
        hass: HomeAssistant,
        entry: ConfigEntry,
        detector: Detector,
        fallback: Detector | None = None,
        keeper: BaselineKeeper | None = None,
    ) -> None:
        """``keeper``: the home's learned normal (a replay or preview has none): while a
        device's normal is learned, only what cannot wait is pushed (``core.learning_gate``);
        "False alarm" teaches it too, and removing the mark forgets that."""
        options = entry.options
        super().__init__(
            hass,
            LOGGER,
            config_entry=entry,
            name=DOMAIN,
            update_interval=timedelta(minutes=options.get(CONF_INTERVAL, DEFAULT_INTERVAL)),
        )
        # Urgent anomalies announced by a safety check, and when: an analysis whose window
        # was built before that does not clear them.
        self._announced_early: dict[str, datetime] = {}
        self._analysis: AnalysisResult | None = None  # the newest one
        self.judge = WindowJudge(detector, fallback)
        self.window = timedelta(minutes=options.get(CONF_WINDOW, DEFAULT_WINDOW))
        self.profile: str = options.get(CONF_PROFILE, "")
        # The homeowner's count of people here without a tracked phone (None: the profile says).
        self.phoneless_residents = phoneless_count(options.get(CONF_PHONELESS))
        self.redactor = Redactor.from_config({**entry.data, **options})
        self.weather_entity: str | None = options.get(CONF_WEATHER_ENTITY)
        self.watcher = StateWatcher(
            hass,
            options,
            self.window,
            self._async_on_significant,
            owner=entry,
            on_newly_watched=self._async_newly_watched,
            on_hazard=self._async_on_hazard,
        )
        self.tracker = AnomalyTracker(
            hass,
            entry.entry_id,
            timedelta(days=options.get(CONF_FALSE_ALARM_DAYS, DEFAULT_FALSE_ALARM_DAYS)),
        )
        self.announcer = Announcer(
            hass,
            entry,
            options.get(CONF_NOTIFY, []),
            options.get(CONF_FALSE_ALARM_DAYS, DEFAULT_FALSE_ALARM_DAYS),
            incidents=self.tracker,
        )
        self.analyses = 0
        self._across_restart = AcrossRestart(hass)
        self._lock = asyncio.Lock()
        self._known_states: SnapshotCache = {}  # the last snapshot's views (``build_snapshot``)
        self.keeper = keeper
        self._fresh: MonitorData | None = None  # the data the running refresh made

    # --- what the coordinator decides (``coordinator.py``; a replay's does nothing) ------

    @callback
    def _async_on_significant(self) -> None:
        """A significant change was recorded."""

    @callback
    def _async_on_hazard(self, entity_id: str) -> None:
        """A hazard sensor has just raised its alarm (a significant change too)."""
        self._async_on_significant()

    @callback
    def _async_newly_watched(self, entity_ids: frozenset[str]) -> None:
        """The watcher watches these entities now."""

    @callback
    def _async_analysis_began(self) -> None:
        """An analysis began: it judges every change recorded so far."""

    @callback
    def _async_schedule_confirmation(self) -> None:
        """An anomaly went missing: analyse again when it may clear."""

    @callback
    def _async_follow_offline(self, window: ContextWindow) -> None:
        """Analyse again when a device offline in ``window`` reaches its grace."""

    # --- the analysis ---------------------------------------------------------------------

    def now(self) -> datetime:
        """The time analyses happen at (a replay entry's is its sample's clock)."""
        return dt_util.utcnow()

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

    def _baselines(self) -> HomeBaselines | None:
        """The home's learned normal, having learned every change recorded so far."""
        return self.keeper.current() if self.keeper is not None else None

    def current_data(self) -> MonitorData:
        """What the entities and diagnostics show, as it is now."""
        tracker, watcher = self.tracker, self.watcher
        return MonitorData(
            analysis=self._analysis,
            analyses=self.analyses,
            open_anomalies=tuple(tracker.open.values()),
            ended_anomalies=tuple(tracker.ended.values()),
            past_anomalies=tuple(tracker.past.values()),
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
        """Tell the entities, with the data made afresh (an analysis's own data, made
        just before in the same step of the loop, is not made twice)."""
        if self._fresh is None or self.data is not self._fresh:
            self.data = self.current_data()
        self._fresh = None
        super().async_update_listeners()

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
        before = wording(self.tracker)
        changes = self.tracker.update(urgent, self.now(), someone_home, keep=every)
        await async_reword(self.announcer, self.tracker, before)  # a second detector: named
        for anomaly in changes.opened:
            LOGGER.debug("Urgent finding announced before the model: %s", anomaly.rule)
            await self.announcer.async_opened(anomaly)
        await async_shown_again(self.announcer, changes)
        for anomaly in changes.forgotten:  # ended past its day: off the screen as it goes
            self.announcer.async_forget(anomaly)  # (else a restart was what removed it)
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
        # HA's refresh stores it and tells the listeners right after (``always_update``).
        self._fresh = self.current_data()
        return self._fresh

    def _pushable(self, findings: Iterable[Finding], someone_home: bool) -> list[Finding]:
        """What may open an anomaly now: not what waits for its devices' normal."""
        baselines = self._baselines()
        profile = self.profile
        return pushable(
            findings,
            baselines,
            self.now(),
            someone_home,
            has_pets(profile),
            phoneless=has_phoneless_resident(profile, self.phoneless_residents),
        )

    def learning_status(self) -> dict[str, datetime] | None:
        """The watched devices whose normal is still being learned, and until when (None
        without baselines). Until then only what cannot wait is pushed about them."""
        baselines = self._baselines()
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
            phoneless_residents=self.phoneless_residents,
            weather_entity=self.weather_entity,
            known=self._known_states,
            events=events,
            started=self._ha_started(),
        )

    def _ha_started(self) -> tuple[datetime, datetime | None] | None:
        """HA's start when the monitor came up with it (not a reload: a span of a moment)."""
        span = self.tracker.ha_start
        if span is None or (span.ended is not None and span.ended <= span.began):
            return None
        return span.began, span.ended

    async def async_analyze(self) -> AnalysisResult:
        """Analyse now and update every surface. Analyses never overlap."""
        async with self._lock:
            if self.tracker.expire_marks(self.now()):
                self._async_teach_model()  # an expired mark no longer teaches or hides
                self.judge.forget()
            started = self.now()
            self._async_analysis_began()
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
            # Who is home unknown for a start's blink: what was told while away stays.
            blinking = start_blink_ends(self.hass, window.environment.ha_started, now)
            keep |= held_through_blink(self.tracker.open, someone_home, blinking is not None)
            states = {s.entity_id: s.state for s in window.snapshot}
            opening = self._pushable(findings_of(verdict), someone_home)
            tracked = (*self.tracker.open.values(), *self.tracker.dismissed.values())
            opening = news(
                opening,
                window.transitions,
                self.watcher.started_at,
                states,
                tracked,
                home_until=self.tracker.home_until,
            )
            entities = {s.entity_id: s for s in window.snapshot}
            baselines = self._baselines()
            changes = self.tracker.update(
                opening,
                now,
                someone_home,
                keep=keep,
                states=states,
                entities=entities,
                transitions=window.transitions,
                # A meter and the level it moves: one trouble (``cause_and_effect``).
                linked=linked(baselines.follow_ups) if baselines is not None else (),
            )
            if baselines is not None:  # a stay told as trouble teaches no normal
                told = (m for a in self.tracker.open.values() for m in a.members if m.active)
                tell_stays(baselines.durations, ((m.rule, m.evidence) for m in told))
            if self.tracker.marks_lapsed:
                self.tracker.marks_lapsed = False
                self._async_teach_model()
            await async_tell(self.announcer, self.tracker, changes, before)
            self._async_schedule_confirmation()
            self._async_follow_offline(window)
            self.analyses += 1
            self._analysis = AnalysisResult.of(verdict, window, now)
            return self._analysis
