"""Findings about one subject are one incident: the homeowner hears about it once.

Several rules may see the same thing wrong: a front door that opened with nobody seen
(``unaccompanied_opening``) and then stayed open (``entry_left_open``); motion while
everybody is away seen by a rule and by a statistic. Each finding names its subject (the
entity or area that is wrong, or the whole home), and findings that share one are one
incident: one anomaly, one notification. The whole home is not one thing, though: motion
while everybody is away and lights that answer motion slowly are two problems, so findings
about the home are one incident only when they are of the same kind (``incident_key``).
``summary`` folds an incident's findings into the finding that stands for it: the most
severe leads (a safety hazard before anything else as severe), evidence is their union,
and an entity shown as evidence by one is not context; a sign of somebody inside that
joined it leads the advice. Every sign that a person at home lies still (a fall) is one
incident too (``core.stillness``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
import re

from .episodes import is_entry
from .escalation import POLICE_ADVICE, intrusion_sign, without_tracker_check
from .feedback import is_hazard
from .models import HOME_SUBJECT, Finding
from .stillness import STILLNESS_INCIDENT, is_stillness


def incident_key(subject: str, anomaly_type: str, rule: str = "") -> str:
    """What makes findings one incident: their subject (and, about the home, their kind);
    every sign that a person at home lies still is one (``core.stillness``)."""
    if is_stillness(rule):
        return STILLNESS_INCIDENT
    return f"{subject}:{anomaly_type}" if subject == HOME_SUBJECT else subject


def by_incident(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """Findings grouped by ``incident_key``, in the order given; one per rule (the first)."""
    groups: dict[str, list[Finding]] = {}
    seen: set[str] = set()
    for finding in findings:
        if finding.signature in seen:
            continue
        seen.add(finding.signature)
        key = incident_key(finding.subject, finding.anomaly_type, finding.rule)
        groups.setdefault(key, []).append(finding)
    return groups


def urgency(finding: Finding) -> tuple[int, bool]:
    """Orders findings of one incident: severity, then a safety hazard first."""
    return finding.severity.rank, is_hazard(finding.anomaly_type, finding.severity)


def lead(findings: Sequence[Finding]) -> Finding:
    """The finding whose words lead the incident (the first of equals)."""
    return max(findings, key=urgency)  # max keeps the first of equal keys


def summary(findings: Sequence[Finding], former: Sequence[Finding] = ()) -> Finding:
    """One finding for an incident: the lead's rule and words, everybody's evidence.

    Reasoning is every distinct reasoning, the lead's first; one that says the same kind
    of thing about devices already told is left out. The incident holds only while
    nobody is home if each of its findings does (one that holds regardless keeps it).
    ``former``: its members not found now; an entry among them still shapes the advice
    (the door's finding that the visitor's motion holds back is the break-in's entry).
    """
    first = lead(findings)
    ordered = [first, *(f for f in findings if f is not first)]
    if len(ordered) == 1 and not former:
        return first
    evidence: list[str] = []
    reasons: list[str] = []
    told: set[str] = set()  # the shown evidence of the findings whose words are in
    kinds: set[str] = set()
    for finding in ordered:
        evidence.extend(e for e in finding.evidence if e not in evidence)
        if not finding.reasoning or finding.reasoning in reasons:
            continue
        if finding.anomaly_type in kinds and told.issuperset(finding.shown_evidence):
            # The same kind about the same devices, in another rule's words ("Motion was
            # detected by Hall motion while everyone tracked was away." after "Motion in
            # Hall while nobody is home."): said already.
            continue
        reasons.append(finding.reasoning)
        told.update(finding.shown_evidence)
        kinds.add(finding.anomaly_type)
    shown = {e for f in ordered for e in f.shown_evidence}
    context = tuple(e for e in evidence if e not in shown and any(e in f.context for f in ordered))
    return replace(
        first,
        evidence=tuple(evidence),
        context=context,
        reasoning=_said_once(reasons),
        recommendation=_advice(first, ordered, former),
        while_away=all(f.while_away for f in ordered),
        # A moment past only if each of them tells that one (one about now keeps it now).
        home_then=first.home_then if all(f.home_then == first.home_then for f in ordered) else None,
    )


def _said_once(reasons: Sequence[str]) -> str:
    """The reasons joined, a sentence several of them end the same way with (the learning
    gate's "This home's normal is still being learned …", added to each finding pushed
    before it is learned) said once, at the end: a walk read it twice in one notice."""
    split = [_SENTENCE_END.split(reason.strip()) for reason in reasons]
    shared = [
        sentence
        for sentence in dict.fromkeys(s for sentences in split for s in sentences)
        if sum(sentence in sentences for sentences in split) > 1
    ]
    kept = [" ".join(s for s in sentences if s not in shared) for sentences in split]
    return " ".join(filter(None, (*kept, *shared)))


# Where one sentence ends and the next begins ("… home. This home's …").
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _advice(first: Finding, findings: Sequence[Finding], former: Sequence[Finding] = ()) -> str:
    """The lead's advice, with what the incidents that joined it ask (``core.episodes``:
    the back door found open after the window: "close it" too); a sign of somebody inside
    asks for more first ("check the cameras" before "lock it remotely":
    ``core.escalation``). Each ask is said once. During an entry while nobody is home (a
    member found now, or ``former``ly) the trackers are no likely reason for the motion:
    not asked; somebody inside after an entry, seen now or before, asks for the police
    (``POLICE_ADVICE``), also once the motion is over and the door opens again."""
    entry = any(is_entry(f) for f in (*findings, *former))
    signs = (*findings, *former) if entry else findings
    inside = next((f for f in signs if intrusion_sign(f) and f.recommendation), None)
    ordered = [first]
    if inside is not None and not intrusion_sign(first):
        ordered.insert(0, inside)
    if entry:  # another entry that joined this one (an episode): its own advice too
        ordered += [f for f in findings if f.subject != first.subject and is_entry(f)]
    said = [without_tracker_check(f.recommendation) if entry else f.recommendation for f in ordered]
    asks: list[str] = []
    for advice in said:
        ask = _first_ask(advice)
        if not advice or any(_first_ask(a) == ask for a in asks):
            continue
        # Another asks the same and more first ("Check the cameras or ask a neighbour to
        # look at the window"): said once, not "Check the cameras …; … Check the cameras …".
        if any(_first_ask(o) != ask and _first_ask(o).startswith(ask) for o in said if o):
            continue
        asks.append(advice)
    if entry and inside is not None and asks:
        asks.insert(1, POLICE_ADVICE)  # after "check the cameras": what to do if so
    return " ".join(asks) or first.recommendation


def _first_ask(advice: str) -> str:
    return re.split(r"[;.]", advice, maxsplit=1)[0].strip()
