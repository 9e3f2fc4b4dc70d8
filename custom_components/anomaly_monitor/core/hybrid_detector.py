"""Rules first, then an LLM that confirms, rejects or adds - without more false alarms.

The rules always run and are the floor: if the LLM fails, their verdict stands. The LLM
may only *lower* the false-alarm rate on what the rules report and is held to a higher
bar for what it adds:

- a rule finding at or above ``protect_severity`` (default high: smoke, gas, a door open
  while away...) stands whatever the LLM says;
- a lower rule finding is kept when the LLM also calls the window an anomaly, and
  dropped when the LLM calls it normal (a rejected rule hit);
- an anomaly the rules did not see is added only when the LLM rates it at least
  ``add_min_severity`` (default high) and cites real entities of the window.
"""

from __future__ import annotations

from dataclasses import replace
import logging

from .detector import Detector
from .llm import LLMError
from .models import ContextWindow, Finding, Severity, Verdict

_LOGGER = logging.getLogger(__name__)


class HybridDetector:
    """Combines a rule detector with an LLM detector."""

    def __init__(
        self,
        rules: Detector,
        llm: Detector,
        *,
        name: str = "hybrid",
        protect_severity: Severity = Severity.HIGH,
        add_min_severity: Severity | None = Severity.HIGH,
    ) -> None:
        self.rules = rules
        self.llm = llm
        self.name = name
        self.protect_severity = protect_severity
        self.add_min_severity = add_min_severity  # None: the LLM never adds
        self.last_llm_verdict: Verdict | None = None
        self.last_llm_error: LLMError | None = None

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Rule verdict, refined by the LLM when it answers."""
        rule_verdict = await self.rules.async_analyze(window)
        try:
            llm_verdict = await self.llm.async_analyze(window)
        except LLMError as err:
            self.last_llm_verdict, self.last_llm_error = None, err
            _LOGGER.debug("LLM unavailable, rule verdict stands: %s", err)
            return replace(rule_verdict, detector=self.name)
        self.last_llm_verdict, self.last_llm_error = llm_verdict, None
        return self.combine(rule_verdict, llm_verdict)

    def combine(self, rule_verdict: Verdict, llm_verdict: Verdict) -> Verdict:
        """Merge the two verdicts by the policy in the module docstring."""
        kept: list[Finding] = []
        rejected: list[Finding] = []
        for finding in rule_verdict.findings:
            if finding.severity.rank >= self.protect_severity.rank or llm_verdict.is_anomaly:
                kept.append(finding)
            else:
                rejected.append(finding)

        covered = {entity for finding in kept for entity in finding.evidence}
        for finding in llm_verdict.findings if llm_verdict.is_anomaly else ():
            new_entities = set(finding.evidence) - covered
            if (
                self.add_min_severity is not None
                and new_entities
                and finding.severity.rank >= self.add_min_severity.rank
            ):
                kept.append(finding)
                covered.update(finding.evidence)

        if not kept:
            reasoning = llm_verdict.reasoning if rejected else rule_verdict.reasoning
            if rejected:
                reasoning = f"Rule findings judged normal by the LLM: {reasoning}"
            return replace(Verdict.normal(self.name, reasoning), raw=llm_verdict.raw)
        return replace(Verdict.from_findings(kept, self.name), raw=llm_verdict.raw)
