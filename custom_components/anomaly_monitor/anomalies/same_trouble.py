"""What makes two findings one trouble: the one table the tracker asks before it notifies.

Every way a new anomaly can be the trouble the homeowner was already told about is a row
of ``SAME_TROUBLE``, asked in order; the first that answers decides. Each row's test lives
in its own file (the reason it holds, and the homes that showed it, are written there);
this table is only where they meet, so two rows cannot disagree about the same pair.

Two guards stand above every row: a new safety hazard is always pushed, and so is a sign
of somebody inside while nobody is home. Only rows that say so hold one: a room too hot
or too cold (a hazard at medium) as a told fire's heat or a told heating failure's cold,
a further sign of a stay already told (which tells a new kind of sign itself:
``AwayStays.broke_out``), the motion of whoever was at a told hazard (``hazard_answer``)
and somebody come to a told hazard's own room while it is still found
(``at_the_hazard_room``).

Two kinds of sameness are settled before this table, and are not rows of it. Findings
of one incident join before any anomaly opens, as members of one anomaly: by subject
(and kind: ``core.incidents``; every sign of one person lying still, an incident not
over while nothing has moved since it was told: ``stillness_on``) and by
``joining.targets`` (an entry's episode, a load or a fire already shown, what a supply
outage cut). And the same anomaly found again soon after its end, its evidence unchanged
(``reopening``; a false alarm taken back, ``unmarked``), opens in place.
The table judges a new anomaly against others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..core.escalation import INTRUSION_RULES
from ..core.models import EntityState, Transition
from .at_the_hazard_room import at_the_hazard_room
from .cause_and_effect import cause_or_effect
from .ha_start import StartSpan
from .hazard_answer import answers_a_told_hazard, rescued
from .hazard_handled import handled_during_hazard
from .hazard_source import hazard_it_runs_by
from .heat_source import failing_from_told_source, stopped_heat_source
from .heat_spells import failing_where_told_cold
from .one_onset_readings import read_from_one_onset
from .open_anomaly import OpenAnomaly
from .same_moment import read_with
from .same_onset import same_onset
from .told_device import told_device
from .told_heat import told_heat
from .told_unchanged import told_unchanged

if TYPE_CHECKING:
    from .already_told import AlreadyTold


@dataclass(frozen=True, slots=True)
class Question:
    """A new anomaly, and what the tracker knows as it opens."""

    anomaly: OpenAnomaly
    open_now: Sequence[OpenAnomaly]
    now: datetime
    entities: Mapping[str, EntityState] | None
    ended: Sequence[OpenAnomaly]  # told, over, not answered
    transitions: Sequence[Transition]
    start: StartSpan | None = None  # Home Assistant's last start (``ha_start``)
    # The (meter, level) pairs the home showed move together (``cause_and_effect``).
    linked: Collection[tuple[str, str]] = ()


@dataclass(frozen=True, slots=True)
class Same:
    """The answer of a row: the trouble is one already told.

    ``acknowledged``: the new anomaly starts acknowledged (its trouble was). ``shown_in``:
    the told anomaly whose notification shows it as a part. ``consequence_of``: that
    anomaly, acknowledged with it later too (``AlreadyTold.consequence_of``).
    """

    acknowledged: bool
    shown_in: str = ""
    consequence_of: str = ""


@dataclass(frozen=True, slots=True)
class Row:
    """One reason two findings are one trouble."""

    name: str
    test: Callable[[AlreadyTold, Question], Same | None]
    holds_a_hazard: bool = False
    holds_somebody_inside: bool = False
    # The test reads the watched entities: without them it cannot say (always news).
    needs_entities: bool = True


def _told_heat(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    if sources := told_heat(q.anomaly, q.open_now, q.entities):
        # A hot room where a told fire burns or a told device runs hot: acknowledged
        # with it, now or when the homeowner acknowledges it.
        first = sources[0].signature
        return Same(any(s.acknowledged for s in sources), first, first)
    return None


def _stopped_heat_source(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    if failures := stopped_heat_source(q.anomaly, q.open_now, q.entities):
        return Same(any(f.acknowledged for f in failures), failures[0].signature)
    return None


def _failing_from_told_source(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    if source := failing_from_told_source(q.anomaly, q.open_now, q.entities):
        return Same(source.acknowledged, source.signature)
    return None


def _acknowledged(told: AlreadyTold, q: Question) -> Same | None:
    hold = told.acknowledged_hold
    if hold.covers(q.anomaly, q.open_now, q.now, q.entities, q.transitions):
        return Same(True)
    return None


def _aftermath(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    # A reading settling after an acknowledged problem there is over.
    return Same(True) if told.aftermaths.covers(q.anomaly, q.entities) else None


def _hazard_answer(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    hazard = answers_a_told_hazard(
        q.anomaly, q.open_now, q.now, q.entities, q.transitions, ended=q.ended
    )
    if not hazard:
        return None
    # What the household did about a hazard it was told: shown; the door of the room
    # somebody lay still in, left open by whoever came once it was over: nothing to tell.
    return Same(rescued(q.anomaly, hazard, q.ended), hazard, hazard)


def _at_the_hazard_room(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    # Somebody come to the room of a told hazard still found (the leak still wet): its help.
    return _part(told, at_the_hazard_room(q.anomaly, q.open_now, q.now, q.entities))


def _hazard_source(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    # A load running on where a hazard is told: its likely source (the pump by its leak).
    return _part(told, hazard_it_runs_by(q.anomaly, q.open_now, q.entities))


def _told_unchanged(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    situation = told_unchanged(
        q.anomaly,
        (*q.open_now, *q.ended),
        q.entities,
        q.now,
        told.drawing_on,
        staying_off=told.staying_off,
    )
    if situation is None:
        return None
    # One over is not read as the incident any more.
    return Same(False, situation.signature if situation.ended is None else "")


def _part(told: AlreadyTold, source: OpenAnomaly | None) -> Same | None:
    """Part of an incident told and open: acknowledged with it (its root, if it is itself
    part of another)."""
    if source is None:
        return None
    root = told.consequence_of.get(source.signature, source.signature)
    return Same(source.acknowledged, root, root)


def _told_device(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    return _part(told, told_device(q.anomaly, q.open_now, q.entities))


def _cause_or_effect(told: AlreadyTold, q: Question) -> Same | None:
    return _part(told, cause_or_effect(q.anomaly, q.open_now, q.linked))


def _same_onset(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    return _part(told, same_onset(q.anomaly, q.open_now, q.entities, q.start))


def _read_with(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    return _part(told, read_with(q.anomaly, q.open_now, q.entities, q.now))


def _away_stay(told: AlreadyTold, q: Question) -> Same | None:
    stayed = told.away_stays.continues(q.anomaly, q.now)
    return None if stayed is None else Same(stayed)


def _heat_spell(told: AlreadyTold, q: Question) -> Same | None:
    spell = told.heat_spells.continues(q.anomaly, q.now, q.open_now, q.entities)
    return None if spell is None else Same(spell)


def _failing_where_cold(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    cold = failing_where_told_cold(q.anomaly, (*q.open_now, *q.ended), q.now, q.entities)
    if cold is None or cold.ended is None:
        return _part(told, cold)
    return Same(False)  # its room still as cold: shown, not pushed


def _one_onset_readings(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    return _part(told, read_from_one_onset(q.anomaly, q.open_now, q.entities, q.now, q.start))


def _handled_during_hazard(told: AlreadyTold, q: Question) -> Same | None:
    assert q.entities is not None
    hazards = told.acknowledged_hold.seen.values()
    return (
        Same(True)
        if handled_during_hazard(q.anomaly, q.open_now, hazards, q.now, q.entities)
        else None
    )


# In order: the first row that answers decides.
SAME_TROUBLE: tuple[Row, ...] = (
    # A room hot where a told fire burns, or beside a device told running hot.
    # (A room too hot is a hazard of its own at medium: here a told fire's heat.)
    Row("its heat", _told_heat, holds_a_hazard=True),
    # A meter that feeds a told failing heating, stopped (the burner), and the reverse.
    Row("the heating's stopped source", _stopped_heat_source),
    Row("heating failing from its told source", _failing_from_told_source),
    # The same thing as, or a consequence of, a problem the homeowner acknowledged.
    Row("acknowledged", _acknowledged, needs_entities=False),
    Row("settling after an acknowledged problem", _aftermath),
    # What the household did about a hazard it was told (the door opened to air it; with
    # motion, only of whoever was at the hazard before the door opened: ``at_the_hazard``).
    Row("answer to a told hazard", _hazard_answer, holds_somebody_inside=True),
    # A door or motion in the room of a told hazard still found: somebody come to it.
    Row("somebody at a told hazard", _at_the_hazard_room, holds_somebody_inside=True),
    # A load left running in a told hazard's room (the pump by the leak at its coupling).
    Row("a load by a told hazard", _hazard_source),
    # The devices of a told situation, unchanged since (the lock still unlocked).
    Row("told and unchanged", _told_unchanged),
    # A device of a told incident (the pump and the tank it fills).
    Row("a device of the incident", _told_device),
    # A meter and the level it moves, learned from the home (the pump and its tank).
    Row("its cause or effect", _cause_or_effect, needs_entities=False),
    # Devices that took their words at one moment (one act of one person).
    Row("one act", _same_onset),
    # Readings of one kind gone off the same way in one analysis (two tanks low).
    Row("read with it", _read_with),
    # A further sign of a stay of somebody untracked while everybody is away.
    Row("the stay", _away_stay, holds_somebody_inside=True, needs_entities=False),
    # A heating failure seen by several checks, and the cold it leaves.
    # (A room close to freezing, no graver than medium: the told failure's cold.)
    Row("the heat spell", _heat_spell, holds_a_hazard=True, needs_entities=False),
    # Heating failing while a room told cooling below its band lasts: one heat loss.
    Row("the heat loss told", _failing_where_cold),
    # Readings that changed at one moment, found by one analysis (the pump dry, the
    # tank empty).
    Row("one onset", _one_onset_readings),
    # The household at the door while a hazard it acknowledged goes on (the fitter).
    Row("handling an acknowledged hazard", _handled_during_hazard),
)


def _somebody_inside(anomaly: OpenAnomaly) -> bool:
    return any(rule in INTRUSION_RULES for rule in anomaly.rules)


def same_trouble(told: AlreadyTold, question: Question) -> Same | None:
    """The answer of the first row that finds ``question.anomaly`` (just opened) one
    trouble with what was told; None when it is news (told)."""
    anomaly = question.anomaly
    hazard, inside = anomaly.hazard, _somebody_inside(anomaly)
    for row in SAME_TROUBLE:
        if (
            (hazard and not row.holds_a_hazard)
            or (inside and not row.holds_somebody_inside)
            or (row.needs_entities and question.entities is None)
        ):
            continue
        if (same := row.test(told, question)) is not None:
            return same
    return None
