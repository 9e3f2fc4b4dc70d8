"""The devices of a situation already told, unchanged since: shown, not pushed again.

Held-out set 8: a teenager slips out of the front door at 01:26; "opened from inside at
night" names the door and its lock, told at 01:31, and asks to check the door is shut and
locked. An hour later another rule finds the same lock "unlocked far longer than usual"
and pushed it as a new anomaly: the lock had not moved since it was told. Set 9: a salon
door left unlocked overnight, "unlocked while asleep" told at 02:06, over when somebody
woke, and pushed again at 03:38 about the same lock, unlocked since 14:53.

A new anomaly (no hazard, no sign of somebody inside) whose shown evidence is all within
an anomaly told and not yet answered (open, or over and still taking feedback), no
graver, about the same thing (its subject shown there too; over for less than
``TOLD_HOLD``) is that situation: it is
shown, kept current, but not pushed, as long as each of its devices that reads a word
(a lock, a door, a switch: a number drifts and says nothing) reads as it did when that
one was last found and has not changed since. A lock locked and unlocked again, a door
opened again, is news. A reading of its area going off is that situation too, while a
told anomaly is open (``reading_consequence``), or once it is over while its devices
still read as they did (set 14: the bedroom air conditioner's run "cut short", over as
that rule's window moved on with the unit still off, then the bedroom "creeping above
its hours" 15 min later). Acknowledged ones are ``acknowledged_hold``'s.

A sensor that only reads a number is the same situation while it stays off the same way,
no nearer where it read when the told one was last found (set 11: an RV fridge's
thermometer "above its own band", over as that rule's window moved on, then "creeping
above its hours" 30 min later, warmer still: one fridge warming, told twice). Back
towards normal since, it is news.

An appliance found drawing while nobody is home is no sign of anybody inside when it is
a device told left on, unchanged since (set 26, Cusco: the water heater switched on by
hand at 21:00 and forgotten, "on past its routine" told at 23:00 and still open; the
family out at 08:00 and "drawing while nobody is home" pushed at 08:07 on the same switch,
never touched since; set 5, Bengaluru: the geyser the same, its bathroom's motion sensor
shown clear beside it). Only that (``APPLIANCE_RULES``, every load it shows within the
told one, each that reads a word unchanged since, its room's motion sensors clear): the
same switch turned on again while away, a load the told one did not show, or motion
there, is told.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from datetime import datetime, timedelta

from ..core.baselines.away_habits import APPLIANCE_RULES
from ..core.device_roles import named_as_one, same_device
from ..core.escalation import INTRUSION_RULES
from ..core.home import is_motion
from ..core.models import AnomalyType, EntityState, parse_number
from ..core.verdict import about_a_whole
from .evidence_hold import reads_as
from .open_anomaly import OpenAnomaly, rank
from .reading_consequence import reading_consequence
from .staying_off import AnyOf
from .store import parse_time

# A situation over this long is not "in front of the homeowner" any more (an open one is).
TOLD_HOLD = timedelta(hours=3)


def told_unchanged(
    anomaly: OpenAnomaly,
    told: Iterable[OpenAnomaly],
    entities: Mapping[str, EntityState],
    now: datetime,
    drawing_on: Container[str] = (),
    *,
    staying_off: Container[str] = (),
) -> OpenAnomaly | None:
    """The anomaly of ``told`` (told, not answered) whose situation ``anomaly`` (just
    opened) is, its devices unchanged since; None when it is news."""
    shown = set(anomaly.shown_evidence)
    if not shown or anomaly.hazard or any(rule in INTRUSION_RULES for rule in anomaly.rules):
        return None
    told = list(told)
    words = {e: entities[e] for e in shown if e in entities and entities[e].number is None}
    if anomaly.anomaly_type == AnomalyType.OCCUPANCY_MISMATCH:
        if not words or not _only_loads(anomaly):
            return None  # a sign of somebody inside, or a meter alone: news
        # The room's motion sensors shown reading clear say nobody is there (set 5's
        # geyser, its bathroom's sensor beside it): the load's own devices are what count.
        still = {e for e, s in words.items() if is_motion(s)}
        if any(words[e].state != "off" for e in still):
            return None  # somebody moving there: news
        load_words = {e: s for e, s in words.items() if e not in still}
        # A meter follows its switch (one device: set 5's "Geyser Switch 1" and "Geyser
        # Power"); a meter of another load, shown without its switch, is news.
        loads = {
            e
            for e in shown - still
            if e in load_words
            or (meter := entities.get(e)) is None
            or not any(same_device(meter, w) for w in load_words.values())
        }
        # A load drawing while away: the same switch told left on, untouched since.
        return next(
            (o for o in told if _same(anomaly, o, loads, load_words, now, since_told=True)),
            None,
        )
    for other in told:
        if (
            _lasts(anomaly, other, entities, now)
            and not other.acknowledged
            and other.signature != anomaly.signature
            and rank(anomaly.severity) <= rank(other.severity)
            and reading_consequence(anomaly, other.shown_evidence, entities)
        ):
            return other  # the room's readings going off while the problem told there lasts
    if not words:  # only readings: whether they moved on says nothing, how far they are does
        return next(
            (
                o
                for o in told
                if _still_off(
                    anomaly, o, shown, entities, now, drawing_on=drawing_on, staying_off=staying_off
                )
            ),
            None,
        )
    return next(
        (o for o in told if _same(anomaly, o, shown, words, now, drawing_on=drawing_on)), None
    )


def _only_loads(anomaly: OpenAnomaly) -> bool:
    """Every finding of ``anomaly`` says only that a load draws: while nobody is home
    (``APPLIANCE_RULES``), or too long or at an odd hour (an energy finding about the same
    plug, found with it: set 33, Quito's fan heater told "at hours it never draws", paused
    by its thermostat, then "drawing while nobody is home" and "on past its routine" at
    its next heat, its switch on throughout)."""
    if set(anomaly.rules) <= APPLIANCE_RULES:
        return True
    return (
        any(m.rule in APPLIANCE_RULES for m in anomaly.members)
        and all(
            m.rule in APPLIANCE_RULES or m.anomaly_type == AnomalyType.ENERGY
            for m in anomaly.members
        )
        and set(anomaly.rules) <= {m.rule for m in anomaly.members}
    )


def _lasts(
    anomaly: OpenAnomaly, other: OpenAnomaly, entities: Mapping[str, EntityState], now: datetime
) -> bool:
    """``other`` is open, or over less than ``TOLD_HOLD`` ago with its devices reading as
    they did when last found (the air conditioner still cut: its rule's window moved on,
    the problem did not), ``anomaly`` about another device (the same one is
    ``_still_off``'s)."""
    if other.ended is None:
        return True
    ended = parse_time(other.ended)
    return (
        ended is not None
        and anomaly.subject not in other.shown_evidence
        and now - ended <= TOLD_HOLD
        and bool(other.readings)
        and all(
            (state := entities.get(e)) is not None and reads_as(before, state.state)
            for e, before in other.readings.items()
        )
    )


def _answered_or_apart(
    anomaly: OpenAnomaly,
    other: OpenAnomaly,
    now: datetime,
    drawing_on: Container[str] = (),
    *,
    untouched: bool = False,
) -> bool:
    """``other`` cannot hold ``anomaly``: answered, itself, over too long (its meter
    drawing on since excepted: ``drawing_on``; a switch untouched since it was told too:
    ``untouched``, judged by the caller), or milder."""
    seen = parse_time(other.last_seen)
    ended = parse_time(other.ended)
    long_over = ended is not None and now - ended > TOLD_HOLD
    return (
        other.acknowledged
        or (other.signature == anomaly.signature and other.ended is None)
        or seen is None
        or (long_over and not untouched and other.signature not in drawing_on)
        or rank(anomaly.severity) > rank(other.severity)
    )


def _still_off(
    anomaly: OpenAnomaly,
    other: OpenAnomaly,
    shown: set[str],
    entities: Mapping[str, EntityState],
    now: datetime,
    *,
    drawing_on: Container[str] = (),
    staying_off: Container[str] = (),
) -> bool:
    """The same sensor, off the same way as when ``other`` told it and no nearer since;
    or the same meter's run, drawing on since ``other`` was over (``drawing_on``: its own
    subject, or the meter a load told about the home showed, ``_its_meter``); or the
    same reading, as far off the same way at every analysis since ``other`` was over
    (``staying_off``: past ``TOLD_HOLD``)."""
    followed = AnyOf(drawing_on, staying_off)
    if _answered_or_apart(anomaly, other, now, followed) or not shown <= set(other.shown_evidence):
        return False
    if other.ended is not None and other.signature in drawing_on and _its_meter(anomaly, other):
        return True
    if anomaly.subject != other.subject:
        return False
    found, told = anomaly.magnitude, other.magnitude
    if not found or not told or (found < 0) != (told < 0):
        return False  # no side known, or the other side (too cold after too warm)
    if other.ended is not None and other.signature in staying_off:
        return True
    reading = entities.get(anomaly.subject)
    before = parse_number(other.readings.get(anomaly.subject, ""))
    now_reads = reading.number if reading is not None else None
    if before is None or now_reads is None:
        return False
    return now_reads >= before if found > 0 else now_reads <= before


def _its_meter(anomaly: OpenAnomaly, other: OpenAnomaly) -> bool:
    """About the meter ``other`` followed: its own subject, or the meter a load told about
    the home or a room showed (set 18, Rincón: "appliances draw power while nobody is home"
    at 10:30, over at 19:45 with the mini-split drawing on, then "drawn 720 W since 10:30 at
    hours it never draws" about its meter, pushed at 19:57: one run)."""
    return anomaly.subject == other.subject or (
        about_a_whole(other.subject) and anomaly.subject in other.shown_evidence
    )


def _same(
    anomaly: OpenAnomaly,
    other: OpenAnomaly,
    shown: set[str],
    words: Mapping[str, EntityState],
    now: datetime,
    *,
    since_told: bool = False,
    drawing_on: Container[str] = (),
) -> bool:
    """``since_told``: unchanged since ``other`` was first told, not only since it was
    last found (a switch turned off and on again while its rule still finds it).
    ``drawing_on``: its meter's run went on since it was over (set 28: a pump on its
    switch, told drawing at 09:40 at hours it never draws, over as its usual hours came,
    drawing on unchanged, found again at 14:37: the same run, its switch untouched)."""
    seen = parse_time(other.first_seen if since_told else other.last_seen)
    # Untouched since it was first told (checked below), a load left on lasts however
    # long ago it was over: only a switch that reads a word says so.
    untouched = since_told and bool(words)
    if seen is None or _answered_or_apart(anomaly, other, now, drawing_on, untouched=untouched):
        return False
    theirs = other.shown_evidence

    def within(entity_id: str) -> bool:
        return entity_id in theirs or any(named_as_one(entity_id, e) for e in theirs)

    about_it = anomaly.subject in (other.subject, *other.evidence) or within(anomaly.subject)
    if about_a_whole(anomaly.subject):  # the home drawing: about the told one's device,
        # or about the same room as the told one, its loads within the told one's
        about_it = anomaly.subject == other.subject or any(
            e == other.subject or named_as_one(e, other.subject) for e in shown
        )
    if not all(within(e) for e in shown) or not about_it:
        return False
    for entity_id, state in words.items():
        before = other.readings.get(entity_id)
        if before is None or not reads_as(before, state.state):
            return False
        if state.last_changed is not None and state.last_changed > seen:
            return False  # moved and came back since it was told: news
    return True
