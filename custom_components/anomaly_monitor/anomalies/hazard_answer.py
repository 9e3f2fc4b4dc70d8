"""What the household does in answer to a hazard it was told is that hazard.

Held-out sets 11, 12, 14 and 15 (on e0e0738): the door to the flooded laundry opened 9 min
after the leak was told, "entry at an unused hour", pushed; the CO-filled room's door
opened, the RV door opened as the CO alarm sounded, the kitchen door opened two minutes
after the dryer's smoke with nobody tracked home, the cupboard under the leaking sink
opened: each pushed as a security event. Set 13: the dehumidifier unplugged three minutes
after its smoke, "its run cut short", pushed. Set 18 (Kalamaja): the flue iced, CO in the
kitchen at 07:05, the bedroom window opened with the back door; "heating with the bedroom
window open" pushed at 07:27: an opening, whichever rule finds it.

While a hazard is told, open and not yet acknowledged, a new anomaly (no hazard, no
graver, no sign of somebody inside) is its answer, shown and kept current but not pushed,
and acknowledged with it: a device cut within ``RESPONSE`` of the hazard's onset, or an
opening a security rule found, opened within ``RESPONSE`` of it (while nobody is home
too: somebody the trackers do not know, a neighbour, the fire brigade), or in a room the
hazard shows since its story began (``Seen.follows``). Once the hazard is over, not yet
answered, the door opened so and shut within ``airing.AIRING`` is its answer still.
Anything else is told until the homeowner acknowledges the hazard (a lock storm while the
smoke sounds), as is somebody moving inside while nobody is home, or the same door opened
long after; but not the motion of whoever was at the hazard before the door opened
(``at_the_hazard``): the grandmother who let the gas out airs it by the back door and walks
on through the hall, one of the household.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from ..core.escalation import INTRUSION_RULES
from ..core.models import EntityState, Transition
from ..core.open_states import is_opening
from .acknowledged_hold import may_be_held
from .acknowledged_seen import LEFT_OPEN_RULES, SECURITY, STILL_IN_A_ROOM, Seen, seen_as
from .at_the_hazard import somebody_at_hazard
from .meter_cut import cut_meter
from .open_anomaly import OpenAnomaly
from .store import parse_time


def answers_a_told_hazard(
    anomaly: OpenAnomaly,
    open_now: Iterable[OpenAnomaly],
    now: datetime,
    entities: Mapping[str, EntityState],
    transitions: Sequence[Transition] = (),
    *,
    ended: Iterable[OpenAnomaly] = (),
) -> str | None:
    """The signature of the hazard told and open (or over, ``ended``, not answered yet)
    whose answer ``anomaly`` (just opened) is, if any."""
    subject = entities.get(anomaly.subject)
    if anomaly.hazard or subject is None:
        return None
    told = [
        (a.signature, seen_as(a, now))
        for a in open_now
        if _in_the_home(a) and not a.acknowledged and a.signature != anomaly.signature
    ]
    # Over, on screen for an answer: the door opened to air it out, shut since (``airing``).
    told += [
        (a.signature, seen_as(a, over))
        for a in ended
        if _in_the_home(a) and a.signature != anomaly.signature and (over := parse_time(a.ended))
    ]
    if cut_meter(subject) and may_be_held(anomaly):
        response = False
    elif (anomaly.anomaly_type == SECURITY and subject.number is None) or (
        is_opening(subject.domain, subject.info.device_class)
    ):
        # An opening (whatever rule found it: the window open while the heating runs):
        # only as the hazard began (later, the same door is told; the area clause of
        # ``follows`` holds after an acknowledgement only).
        response = True
    else:
        return None
    return next(
        (
            g
            for g, s in told
            if s.follows(
                _household(anomaly, s, entities, transitions),
                entities,
                transitions,
                response=response,
                now=now,
            )
        ),
        None,
    )


def _in_the_home(told: OpenAnomaly) -> bool:
    """A hazard in the home, which a door opened may answer; not one about a person out
    (``not_back_as_usual``): their return through the door ends it, and the door left open
    and unlocked as the household then went out was held as its answer, never pushed
    (walk 44)."""
    return told.hazard and not told.subject.startswith("person.")


def _household(
    anomaly: OpenAnomaly,
    hazard: Seen,
    entities: Mapping[str, EntityState],
    transitions: Sequence[Transition],
) -> OpenAnomaly:
    """``anomaly`` without its motion while nobody is home when that motion is whoever was
    at ``hazard`` before the door opened (``at_the_hazard``); as it is otherwise."""
    members = [m for m in anomaly.members if m.rule not in INTRUSION_RULES]
    if (
        len(members) == len(anomaly.members)
        or not members
        or hazard.began is None
        or not somebody_at_hazard(
            hazard.evidence, hazard.began, anomaly.subject, entities, transitions
        )
    ):
        return anomaly
    return replace(anomaly, members=members)


def rescued(anomaly: OpenAnomaly, answered: str, ended: Iterable[OpenAnomaly]) -> bool:
    """``anomaly`` (the answer to ``answered``) is the door of the room somebody lay still
    in, left open once the stillness was over: whoever came is there with them. Shown as
    the stillness's part, it stood alone as soon as it was found (the stillness over:
    ``incident_parts.orphans``), "WC door left open … Check that the door is closed" beside
    "Over: Possible fall in WC" (walk 43); it starts acknowledged with it (the logbook)."""
    told = next((a for a in ended if a.signature == answered), None)
    return (
        told is not None
        and told.signature.partition(":")[0] == STILL_IN_A_ROOM
        and set(anomaly.rules) <= LEFT_OPEN_RULES
        and (over := parse_time(told.ended)) is not None
        and anomaly.subject in seen_as(told, over).evidence
    )
