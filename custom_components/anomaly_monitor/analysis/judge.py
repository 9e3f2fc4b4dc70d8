"""Judge a window: the detector's verdict, asked at most once per window."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta

from ..backends import llm_detector_of
from ..const import LOGGER
from ..core.detector import Detector
from ..core.feedback import FalseAlarm
from ..core.llm.backend import LLMError
from ..core.llm.hybrid_detector import HybridDetector
from ..core.llm.prompts import false_alarm_example_from_mark
from ..core.models import ContextWindow, Verdict
from ..core.safety_floor import SafetyFloorDetector

# Small models have short contexts: only the newest marks are shown as examples.
MAX_FEEDBACK_EXAMPLES = 4
# An analysis this soon after another, with no new transition, judges the same window.
SAME_WINDOW_FOR = timedelta(seconds=30)

# Announces a verdict's urgent findings (every finding: ``everything``) before the model.
type AnnounceEarly = Callable[[Verdict, bool, bool], Awaitable[object]]


class WindowJudge:
    """The entry's detector, the checks it falls back on, and the last window it judged."""

    def __init__(self, detector: Detector, fallback: Detector | None) -> None:
        self.detector = detector
        self.fallback = fallback
        self._last: tuple[int, datetime, ContextWindow, Verdict] | None = None

    def forget(self) -> None:
        """The same window may now be judged differently: ask again next time."""
        self._last = None

    def teach_model(self, false_alarms: Mapping[str, FalseAlarm]) -> None:
        """The homeowner's newest false-alarm marks become the LLM's examples of normal."""
        if (llm := llm_detector_of(self.detector)) is None:
            return
        marks = sorted(false_alarms.values(), key=lambda m: m.marked_at or "", reverse=True)
        llm.examples = tuple(
            false_alarm_example_from_mark(m) for m in marks[:MAX_FEEDBACK_EXAMPLES]
        )
        # LLM findings have no degree; a lapsed mark no longer hides anything.
        llm.suppressed = {sig for sig, mark in false_alarms.items() if not mark.lapsed}

    async def async_judge(
        self,
        build_window: Callable[[], ContextWindow],
        recorded: int,
        now: datetime,
        announce: AnnounceEarly,
    ) -> tuple[ContextWindow, Verdict]:
        """The detector's verdict on the current window, asked at most once per window.

        Nothing recorded (and nobody arrived or left) since an analysis moments ago means
        the same window: its verdict is reused rather than asking (perhaps a slow LLM) twice.
        The verdict is as the detector gave it: the caller scrubs and filters it
        (``anomalies/intake.py``), as it does the findings ``announce`` gets.
        """
        if (last := self._last) is not None:
            last_recorded, last_time, window, verdict = last
            if last_recorded == recorded and timedelta(0) <= now - last_time <= SAME_WINDOW_FOR:
                return window, verdict
        window = build_window()
        if self.fallback is None or self.detector is self.fallback:
            verdict = await self._async_checks_only(window)
        else:
            verdict = await self._async_checks_then_model(window, announce)
        llm = llm_detector_of(self.detector)
        # A verdict given without the model is not kept: next time the model is asked again.
        self._last = (recorded, now, window, verdict) if llm is None or llm.available else None
        return window, verdict

    async def _async_checks_only(self, window: ContextWindow) -> Verdict:
        """No model: the checks judge (once more if they raised, as any detector's fallback)."""
        try:
            return await self.detector.async_analyze(window)
        except Exception:
            if self.fallback is None:
                raise
            LOGGER.exception("Detector %s failed; the rules judge", self.detector.name)
            return await self.fallback.async_analyze(window)

    async def _async_checks_then_model(
        self, window: ContextWindow, announce: AnnounceEarly
    ) -> Verdict:
        """The checks (rules, statistics, baselines) run once; their findings are told
        before the model is asked and handed to it; they stand when it gives no verdict."""
        assert self.fallback is not None
        checks = await self.fallback.async_analyze(window)
        # The checks are instant: their urgent findings do not wait for the model, nor does
        # any finding the model cannot take back (a hybrid where the rules decide).
        everything = bool(getattr(self.detector, "rules_decide", False))
        await announce(checks, everything, (window.environment.persons_home or 0) > 0)
        try:
            if isinstance(self.detector, HybridDetector | SafetyFloorDetector):
                return await self.detector.async_analyze(window, checks)
            return await self.detector.async_analyze(window)
        except Exception as err:
            if not isinstance(err, LLMError):  # LLMErrors are the backend's repair issue
                LOGGER.exception("Detector %s failed; the rules judge", self.detector.name)
            return checks  # the model gave no verdict: the checks still judge
