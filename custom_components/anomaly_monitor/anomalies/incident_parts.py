"""One incident, one notification: the parts shown in the notification of the incident told.

A new anomaly held as part of an incident told and open (the door opened in answer to the
smoke, a device the incident shows, a reading gone off with it, a room's reading after
its told problem: ``already_told``) is shown, not pushed. Walk of session 23: it still
had a notification and a repair issue of its own, so the homeowner read two incidents,
and acknowledging the smoke left the door's reminders on screen. A part now reads in the
incident's notification and repair issue ("Then: Front door open while nobody is home,
11:24"), which the homeowner answers once for all its parts (``answers``). A part told in
its own right (graver: somebody inside) stands alone again (``AnomalyTracker.update``), as
does one still lasting once its incident is over or answered (``orphans``), with the
other parts still lasting as its own.

Never a part of itself: ``shown_in`` leaves one told in its own right alone, and a stored
one naming itself loads standing alone (``store.parse_anomaly``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .open_anomaly import OpenAnomaly


def shown_in(
    anomaly: OpenAnomaly, told: OpenAnomaly | str, open_now: Iterable[OpenAnomaly]
) -> None:
    """``anomaly`` (just opened, held) is shown in the notification of ``told`` (an open
    anomaly or its signature), or of the incident that one is itself a part of."""
    signature = told if isinstance(told, str) else told.signature
    by_signature = {a.signature: a for a in open_now}
    if (root := by_signature.get(signature)) is not None and root.part_of in by_signature:
        signature = root.part_of
    if signature != anomaly.signature:
        anomaly.part_of = signature


def parts_of(signature: str, anomalies: Iterable[OpenAnomaly]) -> list[OpenAnomaly]:
    """The anomalies shown as parts of the incident ``signature``, in the order they began."""
    return sorted((a for a in anomalies if a.part_of == signature), key=lambda a: a.first_seen)


def root_of(
    anomaly: OpenAnomaly,
    open_now: Mapping[str, OpenAnomaly],
    ended: Mapping[str, OpenAnomaly],
) -> OpenAnomaly | None:
    """The incident whose notification shows ``anomaly``: on screen (open, or over and
    awaiting an answer), not answered. None: ``anomaly`` is shown on its own."""
    if not anomaly.part_of:
        return None
    root = open_now.get(anomaly.part_of) or ended.get(anomaly.part_of)
    if root is None or root.acknowledged or root.part_of:
        return None
    return root


def orphans(open_now: Mapping[str, OpenAnomaly]) -> list[OpenAnomaly]:
    """Open parts whose incident is no longer open (over, answered, forgotten): shown
    without it from now on, returned if they are to be shown (not answered). The door
    still open once the smoke is over must not read as part of an "Over: ..." notice. The
    parts of one incident stay one: the first begun, not answered, leads and the others are
    its parts (walk 38: the fridge door, its plug's cycle and its warm fridge, three
    notices once "Nobody up yet" they were shown in was over)."""
    leads: list[OpenAnomaly] = []
    for parts in _parts_left(open_now).values():
        lead: OpenAnomaly | None = None
        for anomaly in sorted(parts, key=lambda a: a.first_seen):
            anomaly.part_of = ""
            if anomaly.acknowledged:
                continue
            if lead is None:
                lead = anomaly
                leads.append(anomaly)
            else:
                anomaly.part_of = lead.signature
    return leads


def former_incidents(open_now: Mapping[str, OpenAnomaly]) -> set[str]:
    """The incidents no longer open whose parts ``orphans`` is to take away from them."""
    return set(_parts_left(open_now))


def _parts_left(open_now: Mapping[str, OpenAnomaly]) -> dict[str, list[OpenAnomaly]]:
    """The open parts of each incident no longer open, by that incident's signature."""
    left: dict[str, list[OpenAnomaly]] = {}
    for anomaly in open_now.values():
        if anomaly.part_of and anomaly.part_of not in open_now:
            left.setdefault(anomaly.part_of, []).append(anomaly)
    return left


def incidents(open_now: Iterable[OpenAnomaly]) -> list[OpenAnomaly]:
    """The open incidents as the homeowner reads them: a part shown in another open one's
    notification counts with it (the smoke and the door opened in answer: one)."""
    open_now = list(open_now)
    signatures = {a.signature for a in open_now}
    return [a for a in open_now if a.part_of not in signatures]
