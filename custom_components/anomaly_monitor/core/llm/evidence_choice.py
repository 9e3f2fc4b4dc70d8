"""Evidence choice: a model ranks the entities a rule is unsure belong to its finding.

A rule knows which entities *show* its problem (the essential evidence: a smoke detector
that went off, the thermostat heating past its target). Around them it often has
entities it is less sure of: context it adds to the evidence (the motion sensor of the
room, the entrance while away) and candidates it does not claim (the other rooms'
thermometers of a heating fault, the motion sensor a slow light answered). Each of those
gets one short question - "Is <device> part of this problem?" - scored like a second
opinion (P(yes) from the first answer token, ``second_opinion.async_ask``):

- essential evidence is never asked about and never removed (a safety hazard keeps every
  entity that shows it);
- context stays unless P(yes) is under ``EvidencePolicy.drop_below``;
- a candidate joins only if P(yes) reaches ``EvidencePolicy.add_from``;
- a question that fails, times out or cannot be read changes nothing.

Only evidence changes: the findings, their severities, signatures and therefore the
verdict's label stay the rules' own. Which thresholds a model gets is measured on the
development data (``scripts/bench_evidence_choice.py``) and stored with its calibration;
a model without one is never asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
import time
from typing import Any

from ..models import ContextWindow, Finding, Verdict
from .backend import LLMBackend, Message
from .calibration import EvidencePolicy
from .second_opinion import SYSTEM, async_ask_before, device_text, question_facts
from .window_text import quote

ESSENTIAL, CONTEXT, CANDIDATE = "essential", "context", "candidate"
MAX_QUESTIONS = 8  # per analysis: each costs a (mostly cached) prompt evaluation
QUESTION = "Is the device asked about part of this problem? Answer yes or no."


@dataclass(frozen=True, slots=True)
class EvidenceOptions:
    """A finding's entities by how sure the rule is of them."""

    essential: tuple[str, ...]  # show the problem: always kept
    context: tuple[str, ...]  # in the evidence, but the rule is unsure: may be dropped
    candidates: tuple[str, ...]  # not in the evidence: may be added

    @property
    def asked(self) -> tuple[str, ...]:
        """The entities a model is asked about: context first, then candidates."""
        return self.context + self.candidates


def options_of(finding: Finding) -> EvidenceOptions:
    """What of ``finding``'s evidence is essential, context or candidate.

    A finding whose evidence is all context (no entity shows the problem on its own) keeps
    all of it: there must be something to point at.
    """
    essential = finding.shown_evidence
    context = tuple(e for e in finding.evidence if e in finding.context)
    if not essential:
        essential, context = finding.evidence, ()
    candidates = tuple(dict.fromkeys(c for c in finding.candidates if c not in finding.evidence))
    return EvidenceOptions(essential, context, candidates)


@dataclass(frozen=True, slots=True)
class CandidateOpinion:
    """The model's answer about one entity of one finding."""

    signature: str
    entity_id: str
    role: str  # CONTEXT or CANDIDATE
    p_yes: float | None  # None: no opinion
    source: str
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """For diagnostics and the benchmark."""
        return {
            "signature": self.signature,
            "entity_id": self.entity_id,
            "role": self.role,
            "p_yes": None if self.p_yes is None else round(self.p_yes, 4),
            "source": self.source,
            "seconds": round(self.seconds, 3),
        }


def build_candidate_question(
    finding: Finding, window: ContextWindow, entity_id: str
) -> list[Message]:
    """One question about one entity: the finding (its essential evidence), then the device.

    The finding's facts come first and are the same for each of its entities, so a backend
    that keeps its prompt cache evaluates only the last lines again.
    """
    essential = options_of(finding).essential
    facts = question_facts(replace(finding, evidence=essential), window)
    state = window.by_id().get(entity_id)
    asked = device_text(state) if state is not None else quote(entity_id, 60)
    data = "\n".join([*facts, f"Device asked about: {asked}"])
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"<data>\n{data}\n</data>\n{QUESTION}"},
    ]


def choose(finding: Finding, p_yes: Mapping[str, float | None], policy: EvidencePolicy) -> Finding:
    """``finding`` with its evidence chosen by the answers ``p_yes`` (entity -> P(yes)).

    Essential evidence always stays, in its order; then the context kept; then the
    candidates added. Nothing but ``evidence`` and ``context`` changes.
    """
    options = options_of(finding)
    kept_context = tuple(
        e
        for e in options.context
        if policy.drop_below is None or (p := p_yes.get(e)) is None or p >= policy.drop_below
    )
    added = tuple(
        e
        for e in options.candidates
        if policy.add_from is not None and (p := p_yes.get(e)) is not None and p >= policy.add_from
    )
    evidence = tuple(e for e in finding.evidence if e in options.essential or e in kept_context)
    evidence += tuple(e for e in options.essential if e not in evidence) + added
    if evidence == finding.evidence:
        return finding
    context = tuple(e for e in finding.context if e in evidence)
    return replace(finding, evidence=evidence, context=context)


def apply_choices(
    verdict: Verdict, opinions: Sequence[CandidateOpinion], policy: EvidencePolicy
) -> Verdict:
    """``verdict`` with each finding's evidence chosen by ``opinions``: same label and findings."""
    if not verdict.findings or not opinions or not policy.acts:
        return verdict
    by_finding: dict[str, dict[str, float | None]] = {}
    for opinion in opinions:
        by_finding.setdefault(opinion.signature, {})[opinion.entity_id] = opinion.p_yes
    findings = [choose(f, by_finding.get(f.signature, {}), policy) for f in verdict.findings]
    if all(new is old for new, old in zip(findings, verdict.findings, strict=True)):
        return verdict
    evidence: list[str] = []
    for finding in findings:  # in the verdict's order (most severe first), as from_findings
        evidence.extend(e for e in finding.evidence if e not in evidence)
    # Only evidence changes: label, reasoning, lead finding and severity stay the rules'.
    return replace(verdict, evidence=tuple(evidence), findings=tuple(findings))


class EvidenceRanker:
    """Asks the model about each finding's context and candidates, within one time budget."""

    def __init__(
        self,
        backend: LLMBackend,
        policy: EvidencePolicy,
        *,
        timeout: float = 30.0,
        max_questions: int = MAX_QUESTIONS,
    ) -> None:
        self.backend = backend
        self.policy = policy
        self.timeout = timeout  # for all the questions of one analysis together
        self.max_questions = max_questions
        self.last_opinions: list[CandidateOpinion] = []

    def wanted(self, findings: Sequence[Finding]) -> list[tuple[Finding, str, str]]:
        """(finding, entity, role) worth a question under the policy, most severe first."""
        asked: list[tuple[Finding, str, str]] = []
        for finding in sorted(findings, key=lambda f: -f.severity.rank):
            options = options_of(finding)
            if self.policy.drop_below is not None:
                asked.extend((finding, e, CONTEXT) for e in options.context)
            if self.policy.add_from is not None:
                asked.extend((finding, e, CANDIDATE) for e in options.candidates)
        return asked[: self.max_questions]

    async def async_opinions(
        self, findings: Sequence[Finding], window: ContextWindow
    ) -> list[CandidateOpinion]:
        """One opinion per wanted entity; failures are no opinion, never an exception."""
        opinions: list[CandidateOpinion] = []
        deadline = time.monotonic() + self.timeout
        for finding, entity_id, role in self.wanted(findings):
            started = time.monotonic()
            p_yes, source = await async_ask_before(
                self.backend,
                build_candidate_question(finding, window, entity_id),
                deadline,
                "Evidence question",
            )
            opinions.append(
                CandidateOpinion(
                    finding.signature, entity_id, role, p_yes, source, time.monotonic() - started
                )
            )
        self.last_opinions = opinions
        return opinions

    async def async_refine(self, verdict: Verdict, window: ContextWindow) -> Verdict:
        """``verdict`` with its findings' evidence chosen by the model's answers."""
        if not verdict.findings or not self.policy.acts:
            return verdict
        opinions = await self.async_opinions(verdict.findings, window)
        return apply_choices(verdict, opinions, self.policy)
