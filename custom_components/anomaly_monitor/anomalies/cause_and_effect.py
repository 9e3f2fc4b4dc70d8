"""A meter and the level it moves are one trouble: found on one, then the other, told once.

Blind set 22 (El Alto): the water cut in the night, the pump started on its timer at 07:05
and ran dry. "The roof tank reads 31 %, far below anything it read" was told at 07:18;
"the pump has been on for 1 h 15 min" was pushed at 08:20. Set 8 (Coyoacán): the pump
"drawing far below its draw", then the tank "far below its range" 15 min later, pushed
too. One dry-running pump, told twice: the home had shown on every start of the pump that
the tank's level moves after it (``core.baselines.follow_ups``: the pump and the tank it
fills, learned from the home's own history, never from names).

A new anomaly (no hazard, nothing while nobody is home, no sign of somebody inside, no
graver) is part of an anomaly told and still open when one shows a meter and the other a
level (or temperature) that moved the same way after every start of that meter seen, at
least ``MIN_STARTS`` of them (``linked``): the cause and its effect. A level that moved
after only some of the starts, or a device the pair does not name, is news; so is either
once the other is over.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ..core.baselines.follow_ups import FollowUps
from ..core.escalation import INTRUSION_RULES
from ..core.models import AnomalyType
from .open_anomaly import OpenAnomaly, rank

# The starts of a meter a level must have followed, every one, to be its effect here
# (fewer than the follow-up judge asks: joining two findings tells less, never nothing).
MIN_STARTS = 2


def linked(follow_ups: FollowUps) -> frozenset[tuple[str, str]]:
    """The (meter, level) pairs whose level moved one way after every start seen."""
    return frozenset(
        key
        for key, pair in follow_ups.pairs.items()
        if pair.onsets >= MIN_STARTS and pair.onsets in (pair.ups, pair.downs)
    )


def _news(anomaly: OpenAnomaly) -> bool:
    return (
        anomaly.hazard
        or anomaly.while_away
        or anomaly.anomaly_type in (AnomalyType.SECURITY, AnomalyType.OCCUPANCY_MISMATCH)
        or any(m.while_away or m.rule in INTRUSION_RULES for m in anomaly.members)
    )


def _paired(one: Iterable[str], other: Iterable[str], pairs: Collection[tuple[str, str]]) -> bool:
    mine, theirs = set(one), set(other)
    return any(
        (cause in mine and effect in theirs) or (cause in theirs and effect in mine)
        for cause, effect in pairs
    )


def cause_or_effect(
    anomaly: OpenAnomaly, told: Iterable[OpenAnomaly], pairs: Collection[tuple[str, str]]
) -> OpenAnomaly | None:
    """The open told anomaly whose meter or level ``anomaly`` (just opened) shows the
    other end of (``pairs``: ``linked``); None when it is news."""
    if not pairs or _news(anomaly):
        return None
    return next(
        (
            other
            for other in told
            if other.ended is None
            and other.signature != anomaly.signature
            and not _news(other)
            and rank(anomaly.severity) <= rank(other.severity)
            and _paired(
                (anomaly.subject, *anomaly.shown_evidence),
                (other.subject, *other.shown_evidence),
                pairs,
            )
        ),
        None,
    )
