"""Which anomaly the findings of one analysis join: an open one, or a new one.

Findings come grouped by incident (``core.incidents``: one subject). Each group joins the
open (or dismissed) anomaly it is a member of; a new one joins another incident of the
same analysis that covers it (its evidence within theirs, at least as severe), or an entry
while nobody is home that it follows (``core.episodes``), or an open hazard it reads one
sensor with (``hazard_readings``: one smoke), or an open anomaly about a device it shows,
being graver (``graver_of_told``; or one told and over minutes ago, its devices unchanged
since: ``graver_after_end``); else it opens a new anomaly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from ..core.baselines.drop_judge import DROP_RULES
from ..core.episodes import continues_an_episode, hosts_an_episode, is_entry
from ..core.escalation import intrusion_sign
from ..core.feedback import is_hazard
from ..core.incidents import summary
from ..core.models import AnomalyType, Finding
from .graver_of_told import graver_of_told
from .hazard_readings import hazard_reading_told
from .open_anomaly import Member, OpenAnomaly
from .open_entry import entry_shown
from .store import parse_time
from .supply_join import supply_out

# Incidents that say only that an appliance runs while nobody is home (left on, a timer).
LEFT_ON_RULES = frozenset({"appliance_active_while_away"})


def targets(
    groups: dict[str, list[Finding]],
    open_now: Sequence[OpenAnomaly],
    dismissed: Sequence[OpenAnomaly],
    now: datetime,
    just_over: Sequence[OpenAnomaly] = (),
) -> list[tuple[OpenAnomaly | None, list[Finding]]]:
    """The anomaly (``None``: a new one) the findings of each incident join, in order.

    A new incident that another incident of this analysis covers (its evidence within
    theirs, at least as severe: motion in the hall of the door that is unlocked while
    nobody is home) joins that one's anomaly rather than being told apart. It stays a
    member, so it never clears and returns as the other's evidence grows and shrinks
    (a light switched on where the motion is). A new incident about the empty home
    that follows an open entry while away joins it too (``core.episodes``). ``just_over``:
    told incidents over minutes ago, unchanged since, that a graver finding about their
    device opens again (``graver_after_end``).
    """
    every = (*open_now, *dismissed)
    resolved = {incident: _incidents(incident, group, every) for incident, group in groups.items()}
    summaries = {incident: summary(group) for incident, group in groups.items()}
    found_now = [a for pairs in resolved.values() for a, _ in pairs if a is not None]
    for incident, pairs in resolved.items():
        # Somebody inside follows the entry, whatever else the incident holds (an odd
        # hour's draw found with it is no sign of the empty home).
        sign = next((f for f in groups[incident] if intrusion_sign(f)), summaries[incident])
        if (own := pairs[0][0]) is not None and (entry := _episode(sign, open_now, now)):
            resolved[incident] = _inside_to_entry(own, entry, pairs)
        elif pairs[0][0] is None and (entry := _episode(summaries[incident], open_now, now)):
            resolved[incident] = [(entry, groups[incident])]
        elif pairs[0][0] is None and (shown := _shown_by(summaries[incident], open_now)):
            resolved[incident] = [(shown, groups[incident])]
        elif pairs[0][0] is None and (told := _load_told(summaries[incident], open_now)):
            resolved[incident] = [(told, groups[incident])]
        elif pairs[0][0] is None and (told := hazard_reading_told(summaries[incident], open_now)):
            resolved[incident] = [(told, groups[incident])]  # one smoke, two sensors
        elif pairs[0][0] is None and (entry := entry_shown(summaries[incident], open_now)):
            resolved[incident] = [(entry, groups[incident])]  # the forced window's heating
        elif pairs[0][0] is None and (out := supply_out(summaries[incident], found_now)):
            resolved[incident] = [(out, groups[incident])]  # what the outage cut
        elif pairs[0][0] is None and (
            told := graver_of_told(summaries[incident], open_now, just_over)
        ):
            resolved[incident] = [(told, groups[incident])]  # the told bed, now a stillness
        resolved[incident] = _hazard_apart(resolved[incident])
    hosts = {
        incident: host
        for incident, pairs in resolved.items()
        if pairs[0][0] is None
        and (host := _covering(incident, summaries) or _entry_of(incident, summaries))
    }
    targets: dict[tuple[str, str], tuple[OpenAnomaly | None, list[Finding]]] = {}
    # The covering incidents first: a new anomaly opens with their lead.
    for incident in sorted(resolved, key=lambda i: i in hosts):
        root, seen = incident, {incident}
        while root in hosts and hosts[root] not in seen:
            root = hosts[root]
            seen.add(root)
        for own, members in resolved[incident]:
            anomaly = own if root == incident else resolved[root][0][0]
            key = ("open", anomaly.signature) if anomaly is not None else ("new", root)
            targets.setdefault(key, (anomaly, []))[1].extend(members)
    return list(targets.values())


def _episode(
    finding: Finding, open_now: Sequence[OpenAnomaly], now: datetime
) -> OpenAnomaly | None:
    """The open entry while nobody is home whose doing ``finding`` may be."""
    if not continues_an_episode(finding):
        return None
    return next(
        (
            a
            for a in open_now
            if hosts_an_episode(a.anomaly_type, a.while_away, parse_time(a.first_seen), now)
        ),
        None,
    )


def _inside_to_entry(
    own: OpenAnomaly,
    entry: OpenAnomaly,
    pairs: list[tuple[OpenAnomaly | None, list[Finding]]],
) -> list[tuple[OpenAnomaly | None, list[Finding]]]:
    """Signs of somebody inside that would join an open incident of appliances left on
    while away join the entry told just before them instead: whoever opened the door
    moves about (one entry, one notification). An appliance left on says nobody is in,
    nor does a meter drawing at an odd hour (set 7, Baldivis: the lounge's compressor
    told drawing while away, then "at unusual hours"; the sliding door forced at 01:50,
    and the lounge's motion 24 s later joined the compressor's incident, pushed again as
    "graver" at the entry's own severity)."""
    if own is entry or not own.members or not all(_a_load(m) for m in own.members):
        return pairs
    findings = [f for _, members in pairs for f in members]
    inside = [f for f in findings if intrusion_sign(f)]
    if not inside:
        return pairs
    rest = [f for f in findings if not intrusion_sign(f)]
    return [(entry, inside), *([(own, rest)] if rest else [])]


def _hazard_apart(
    pairs: list[tuple[OpenAnomaly | None, list[Finding]]],
) -> list[tuple[OpenAnomaly | None, list[Finding]]]:
    """A hazard found on a device whose outage is the open anomaly opens its own: the
    detector answering with smoke is no longer the fault told, and the smoke's notice
    must say when the smoke began, not when the outage was told (walk 53: "since 08:52"
    for smoke at 09:42, the outage's notice gone). The rest stays with the outage."""
    apart: list[tuple[OpenAnomaly | None, list[Finding]]] = []
    for own, members in pairs:
        hazards = [f for f in members if is_hazard(f.anomaly_type, f.severity)]
        if own is None or not hazards or not _an_outage(own):
            apart.append((own, members))
            continue
        rest = [f for f in members if f not in hazards]
        apart.extend([(None, hazards), *([(own, rest)] if rest else [])])
    return apart


def _an_outage(anomaly: OpenAnomaly) -> bool:
    return bool(anomaly.members) and all(m.rule in DROP_RULES for m in anomaly.members)


def _a_load(member: Member) -> bool:
    """A finding that only says a load draws (left on while away, an odd hour's draw)."""
    return member.rule in LEFT_ON_RULES or member.anomaly_type == AnomalyType.ENERGY


def _shown_by(finding: Finding, open_now: Sequence[OpenAnomaly]) -> OpenAnomaly | None:
    """The open anomaly of the same rule that already shows ``finding``'s subject: the
    hall's smoke detector, told with the kitchen's, still sounding once the kitchen's
    cleared, is the same fire (not a new incident about the hall)."""
    return next(
        (a for a in open_now if finding.rule in a.rules and finding.subject in a.shown_evidence),
        None,
    )


def _load_told(finding: Finding, open_now: Sequence[OpenAnomaly]) -> OpenAnomaly | None:
    """The open anomaly about the meter of a load drawing in the empty home
    (``LEFT_ON_RULES``), when every meter it names is shown there: the engine heater told
    drawing at hours it never draws, still drawing once the family has left, is the same
    load left on (set 14: told twice), not a new incident. A plug's anomaly is about its
    switch (the meter's findings name the plug as their subject): the switch named with
    its meters here is the same load."""
    if finding.rule not in LEFT_ON_RULES:
        return None
    meters = [e for e in finding.evidence if e.startswith("sensor.")]
    plugs = [*meters, *(e for e in finding.evidence if e.startswith("switch."))]
    return next(
        (a for a in open_now if a.subject in plugs and all(m in a.shown_evidence for m in meters)),
        None,
    )


def _incidents(
    incident: str, findings: list[Finding], every: Sequence[OpenAnomaly]
) -> list[tuple[OpenAnomaly | None, list[Finding]]]:
    """The open (or dismissed) anomaly each finding of one incident joins.

    One anomaly per incident; a file written before anomalies had members may hold
    several, and then each finding joins the one its rule is a member of.
    """
    here = [a for a in every if incident in a.incidents]
    if len(here) <= 1:
        return [(here[0] if here else None, findings)]
    joins: dict[str, list[Finding]] = {}
    for finding in findings:
        anomaly = next((a for a in here if finding.rule in a.rules), None) or _kin(finding, here)
        joins.setdefault(anomaly.signature, []).append(finding)
    return [(a, joins[a.signature]) for a in here if a.signature in joins]


def _kin(finding: Finding, here: Sequence[OpenAnomaly]) -> OpenAnomaly:
    """The anomaly of one incident a finding of a rule none holds joins: a hazard the
    hazard's (a detector silent during its smoke is that fire, not its earlier outage)."""
    hazard = is_hazard(finding.anomaly_type, finding.severity)
    return next((a for a in here if a.hazard == hazard), here[0])


def _covering(incident: str, summaries: Mapping[str, Finding]) -> str | None:
    """Another incident whose findings (``summaries``: one per incident, in the order
    found) cover this one's evidence, at least as severe (of two with the same evidence,
    the earlier covers the later). A safety hazard's context (the entrance while nobody
    is home: who could respond) covers nothing: the lock's toggle storm is not the fire's."""
    mine = summaries[incident]
    evidence = set(mine.evidence)
    earlier = True
    for other, theirs in summaries.items():
        if other == incident:
            earlier = False
            continue
        wider = set(theirs.evidence)
        if is_hazard(theirs.anomaly_type, theirs.severity.value):
            wider -= set(theirs.context)
        if (
            evidence <= wider
            and theirs.severity.rank >= mine.severity.rank
            and (evidence != wider or earlier)
        ):
            return other
    return None


def _entry_of(incident: str, summaries: Mapping[str, Finding]) -> str | None:
    """Another incident of the same analysis that is an entry while nobody is home, when
    this one may be its doing (``core.episodes``). An entry found with another entry
    joins the one found before it (the most severe first): a lock unlocked and a door
    opened at once, with no area that says they are one entrance, are one entry, told
    once with both as evidence (walk 18: two pushes in the same second)."""
    if not continues_an_episode(mine := summaries[incident]):
        return None
    if is_entry(mine):
        before = list(summaries)[: list(summaries).index(incident)]
        return next((o for o in before if is_entry(summaries[o])), None)
    return next((o for o, f in summaries.items() if o != incident and is_entry(f)), None)
