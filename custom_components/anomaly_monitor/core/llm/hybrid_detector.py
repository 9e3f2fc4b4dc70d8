"""Rules first, then an LLM that confirms and explains - and, only if allowed, dismisses or adds.

The rules always run and are the floor: if the LLM fails, their verdict stands. What the
LLM may change is the owner's choice, because a small local model is not a reliable judge
(measured in docs/benchmarks.md: a 0.5B model that dismissed medium findings cut the
rules' recall by half, and its own additions were false alarms):

- by default the label is the rules' one: the LLM only confirms, and when it agrees and
  cites the same devices its sentence joins the reasoning;
- with ``dismiss_up_to`` a rule finding at or below that severity is dropped when the LLM
  calls the window normal (a rejected rule hit); more serious findings always stand;
- with ``add_min_severity`` an anomaly the rules did not see is added when the LLM rates
  it at least that severe and cites real entities of the window;
- with a ``second_opinion`` judge, each finding the rules are unsure about (medium or low,
  never a safety hazard, never urgent) gets one scored yes/no question, and is dismissed
  only where the model's calibration for that question family says so
  (``second_opinion.py``, ``calibration.py``): a family without a measured benefit, a
  failed question or an unreadable answer leaves the finding standing;
- with an ``explainer``, once the model has answered, the most severe findings get one or
  two plain sentences for the homeowner (``explanations.py``), joined to their reasoning
  like the model's agreement, within what is left of the analysis' time budget; an
  explanation that fails its check, or none in time, leaves the rule's text alone;
- with an ``evidence_ranker``, the entities a rule is unsure belong to a finding (its
  context, its candidates) are asked about one by one and kept or added by the model's
  measured thresholds (``evidence_choice.py``): essential evidence and labels never change.
"""

from __future__ import annotations

from dataclasses import replace
import logging
import time

from ..detector import Detector
from ..models import ContextWindow, Finding, Severity, Verdict
from .backend import LLMError
from .evidence_choice import EvidenceRanker
from .explanations import Explainer, check, explained
from .second_opinion import SecondOpinionJudge

_LOGGER = logging.getLogger(__name__)


class HybridDetector:
    """Combines a rule detector with an LLM detector."""

    def __init__(
        self,
        rules: Detector,
        llm: Detector,
        *,
        name: str = "hybrid",
        dismiss_up_to: Severity | None = None,
        add_min_severity: Severity | None = None,
        second_opinion: SecondOpinionJudge | None = None,
        explainer: Explainer | None = None,
        evidence_ranker: EvidenceRanker | None = None,
    ) -> None:
        self.rules = rules
        self.llm = llm
        self.name = name
        self.dismiss_up_to = dismiss_up_to  # None: the LLM never dismisses a rule finding
        self.add_min_severity = add_min_severity  # None: the LLM never adds
        self.second_opinion = second_opinion  # None: no scored questions
        self.explainer = explainer  # None: the rules' own words only
        self.evidence_ranker = evidence_ranker  # None: the rules' evidence as it is
        self.last_llm_verdict: Verdict | None = None
        self.last_llm_error: LLMError | None = None

    @property
    def rules_decide(self) -> bool:
        """Whether every rule finding stands whatever the model answers (the default).

        Then the model only confirms, explains or adds: a finding can be told before it
        answers, and its words follow (as for urgent findings). With dismissal, second
        opinions or evidence ranking the model may remove or reshape a finding first.
        """
        return (
            self.dismiss_up_to is None
            and self.second_opinion is None
            and self.evidence_ranker is None
        )

    async def async_analyze(self, window: ContextWindow, checks: Verdict | None = None) -> Verdict:
        """Rule verdict, refined by the LLM when it answers.

        ``checks``: the rules' verdict on ``window`` when the caller has it already (the
        integration runs the checks once per analysis and tells their urgent findings first).
        """
        started = time.monotonic()
        rule_verdict = checks if checks is not None else await self.rules.async_analyze(window)
        if self.second_opinion is not None and rule_verdict.findings:
            opinions = await self.second_opinion.async_opinions(rule_verdict.findings, window)
            rule_verdict = without_dismissed(
                rule_verdict, {o.signature for o in opinions if o.dismissed}
            )
        if self.evidence_ranker is not None and rule_verdict.findings:
            rule_verdict = await self.evidence_ranker.async_refine(rule_verdict, window)
        try:
            llm_verdict = await self.llm.async_analyze(window)
        except Exception as err:  # whatever the model side raised, the rules' verdict stands
            if not isinstance(err, LLMError):
                _LOGGER.debug("LLM detector raised", exc_info=True)
                err = LLMError(f"{type(err).__name__}: {err}"[:300])
            self.last_llm_verdict, self.last_llm_error = None, err
            _LOGGER.debug("LLM unavailable, rule verdict stands: %s", err)
            return replace(rule_verdict, detector=self.name)
        self.last_llm_verdict, self.last_llm_error = llm_verdict, None
        verdict = self.combine(rule_verdict, llm_verdict, window)
        if self.explainer is None or not verdict.findings:
            return verdict
        # The explanations share the analysis' budget (the model's request timeout).
        budget = float(getattr(self.llm, "timeout", self.explainer.timeout))
        texts = await self.explainer.async_explain(verdict.findings, window, started + budget)
        if not texts:
            return verdict
        findings = [
            explained(f, texts[f.signature]) if f.signature in texts else f
            for f in verdict.findings
        ]
        return replace(verdict, findings=tuple(findings))

    def _dismissable(self, finding: Finding) -> bool:
        return self.dismiss_up_to is not None and finding.severity.rank <= self.dismiss_up_to.rank

    def combine(
        self, rule_verdict: Verdict, llm_verdict: Verdict, window: ContextWindow | None = None
    ) -> Verdict:
        """Merge the two verdicts by the policy in the module docstring.

        With the ``window``, the model's agreement joins a finding only as far as it passes
        the explanations' check against that finding (``explanations.check``): it is shown
        to the homeowner, and a reply may echo anything ("Because [household profile] ...",
        seen in a live Home Assistant) or claim a state the home refutes.
        """
        kept: list[Finding] = []
        rejected: list[Finding] = []
        for finding in rule_verdict.findings:
            if llm_verdict.is_anomaly or not self._dismissable(finding):
                kept.append(finding)
            else:
                rejected.append(finding)

        covered = {entity for finding in kept for entity in finding.evidence}
        confirmed = llm_verdict.is_anomaly and bool(covered & set(llm_verdict.evidence))
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
        if confirmed and llm_verdict.reasoning:
            # The model's sentence joins each finding it confirms: the open anomaly (same
            # signature) shows it once the model has answered.
            cited = set(llm_verdict.evidence)
            kept = [
                replace(f, reasoning=f"{f.reasoning} The model agrees: {agreement}")
                if cited & set(f.evidence)
                and (agreement := _agreement(llm_verdict.reasoning, f, window))
                else f
                for f in kept
            ]
        verdict = replace(Verdict.from_findings(kept, self.name), raw=llm_verdict.raw)
        if (
            window is None
            and confirmed
            and llm_verdict.reasoning
            and "The model agrees" not in verdict.reasoning
        ):
            verdict = replace(
                verdict, reasoning=f"{verdict.reasoning} The model agrees: {llm_verdict.reasoning}"
            )
        return verdict


def _agreement(reasoning: str, finding: Finding, window: ContextWindow | None) -> str | None:
    """The model's reasoning as it may join ``finding``: checked when the window is known."""
    if window is None:
        return reasoning
    return check(reasoning, finding, window)[0]


def without_dismissed(verdict: Verdict, dismissed: set[str]) -> Verdict:
    """``verdict`` without the findings whose signature the second opinion dismissed."""
    if not dismissed:
        return verdict
    kept = [f for f in verdict.findings if f.signature not in dismissed]
    if kept:
        return replace(Verdict.from_findings(kept, verdict.detector), raw=verdict.raw)
    gone = " ".join(f.reasoning for f in verdict.findings)
    return Verdict.normal(
        verdict.detector,
        f"Judged not worth telling by the model's calibrated second opinion: {gone}",
    )
