"""Two devices that changed at one moment and stayed so are one trouble, told once.

Set 17 (Maârif): the grandmother fell in the bathroom at 03:20. "The bathroom door has been
shut for 35 min" was told at 03:55; at 04:20 "her room's door has been open for 1 h" was
pushed too: she opened one and shut the other on her way, the same night walk. Set 17
(Cluj): the front door opened and its lock unlocked at 03:50, "door open" told at 04:05,
"lock unlocked far longer than usual" pushed at 04:50. Set 16: the bathroom door shut at
11:20 and she was last seen there at 11:20, told as two incidents. Each time the second
finding is about a device the first did not show, so ``told_device`` calls it news, but
both began with one act of one person.

A new anomaly (no hazard, nothing "while nobody is home", no sign of somebody inside, no
graver) is part of a told, open anomaly (told in its own right, not shown in another)
when its subject reads a word that it took within ``SAME_MOMENT`` of the moment the told
one's subject took its word (not both only the moment Home Assistant started:
``ha_start``), and neither subject nor any word device the new one shows has changed
since the told one was first told. A door opened again, a lock locked and
unlocked again, is news; so is anything found while nobody is home (an entry is judged on
its own: ``core.escalation``), and a window elsewhere opened while the told one's story
began, when that one is a fall whose own door shut later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from ..core.escalation import INTRUSION_RULES
from ..core.models import EntityState
from .ha_start import StartSpan, both_at_start
from .not_working import gone_offline
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time

# One act of one person: a door shut and another opened on the way, a lock unlocked and
# its door opened, a motion sensor clearing after the person it saw shut the door.
SAME_MOMENT = timedelta(minutes=2)


def _word_since(entity_id: str, entities: Mapping[str, EntityState]) -> datetime | None:
    """When ``entity_id`` took the word it reads (None: a number, or unknown)."""
    state = entities.get(entity_id)
    if state is None or state.number is not None:
        return None
    return state.last_changed


def _began_with(
    anomaly: OpenAnomaly,
    other: OpenAnomaly,
    entities: Mapping[str, EntityState],
    start: StartSpan | None,
) -> bool:
    told = parse_time(other.first_seen)
    mine = _word_since(anomaly.subject, entities)
    theirs = _word_since(other.subject, entities)
    if told is None or mine is None or theirs is None or theirs > told:
        return False  # the told one's subject moved since it was told: its moment is gone
    if abs(mine - theirs) > SAME_MOMENT or both_at_start(start, mine, theirs):
        return False  # apart, or only both set as Home Assistant started (``ha_start``)
    # Nothing it shows that reads a word moved since the told one was told (a reading
    # follows its device).
    words = [entities.get(e) for e in anomaly.shown_evidence]
    return all(
        w.last_changed is not None and w.last_changed <= told
        for w in words
        if w is not None and w.number is None
    )


def _news(anomaly: OpenAnomaly) -> bool:
    """Told on its own whatever began with it: a hazard, an entry, somebody inside, a
    device gone offline (no act of a person: walk 54b's smoke detector, 33 s before a
    leak elsewhere, was read as part of it and never told)."""
    return (
        not anomaly.shown_evidence
        or anomaly.hazard
        or anomaly.while_away
        or any(m.while_away or m.rule in INTRUSION_RULES for m in anomaly.members)
        or gone_offline(anomaly)
    )


def same_onset(
    anomaly: OpenAnomaly,
    told: Iterable[OpenAnomaly],
    entities: Mapping[str, EntityState],
    start: StartSpan | None = None,
) -> OpenAnomaly | None:
    """The open told anomaly whose moment ``anomaly`` (just opened) began at; None: news.
    ``start``: Home Assistant's last start, a moment no two devices share as an act."""
    if _news(anomaly):
        return None
    return next(
        (
            other
            for other in told
            if other.ended is None
            and not other.part_of  # told in its own right, not itself shown in another
            and other.signature != anomaly.signature
            and other.shown_evidence
            and rank(anomaly.severity) <= rank(other.severity)
            and _began_with(anomaly, other, entities, start)
        ),
        None,
    )
