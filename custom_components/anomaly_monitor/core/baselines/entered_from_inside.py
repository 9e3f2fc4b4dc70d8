"""An entrance opened by somebody the home shows inside, before anything is learned.

On a fresh install nothing is known of the home's life while the trackers are away, so
the away judge (``away_judge.judge_entry``) is not asked and an entrance used in the
empty home is pushed at once. But part of what it asks needs nothing learned: whether
the person who opened it was already inside (``somebody_in.opened_from_inside``: a sign
of somebody moving before it, nobody gone out since), here within ``MOMENTS`` before it
or still moving as it opened (a pet's hourly round, not known yet as a pet's, is no sign
of who opened the door), or an inner contact's complete use within ``INSIDE_REACH``
before it (``inner_signs``: the bathroom door that rests open shut and reopened; a pet
does not shut doors or open drawers). A grandmother without a phone stepping out onto the roof
terrace, a carer opening the door to the courier: the home itself shows them inside
before the door moves. An intruder cannot be inside before coming in: an entry into a
quiet home (nothing moved inside before it, or whoever moved went out) is pushed as
before, and so is a door opened by whoever came in by another entrance of the empty home
before (a burglar in by the window, out by the door: a cupboard or a fridge this home
uses from inside, ``inside_doors``, is nobody's way in), and so is one in a home with pets
in the profile, whose motion is no person's until the home has been learned empty
(``somebody_in`` counts none).

Only while the visit goes on (opened within ``STILL_ABOUT``, or somebody moving about
since): an entrance left so with nobody about is judged as before.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..models import Finding
from ..occupancy import presence_of
from .away_judge import _armed, _someone_about
from .away_spans import (
    STILL_ABOUT,
    VISIT_REACH,
    Span as _Span,
    empty_spans as _empty_spans,
    entrances as _entrances,
    used as _used,
    within as _within,
)
from .home_baselines import HomeBaselines
from .inside_doors import first_used_inside, used_inside
from .inside_walk import INSIDE_REACH
from .somebody_in import (
    contact_signs,
    is_motion,
    opened_from_inside,
)
from .spell_record import spell_signs, states_only
from .ways_in import is_opening

# Nothing is learned of what moves here yet (a dog the profile does not name moves every
# hour): only somebody seen moving this soon before the door opened, or still moving as it
# opened (a grandfather in the toilet behind its door), is taken to open it.
MOMENTS = timedelta(minutes=5)
# An entrance used this soon before the door is the same passage (the key, then the door).
PASSAGE = timedelta(minutes=1)


def _moving_at(home: HomeView, when: datetime) -> bool:
    """A motion sensor shows somebody at ``when``: it turned on before and not off since
    (for a safety check's window, at the window's end: it reads on now)."""
    if states_only(home):
        return when == home.end and any(
            is_motion(home, s.entity_id) and s.state.lower() == "on" for s in home.states.values()
        )
    for entity_id in home.history:
        if not is_motion(home, entity_id):
            continue
        before = [c.state.lower() for c in home.changes(entity_id) if c.when <= when]
        if before and before[-1] == "on":
            return True
    return False


def _seen_before(
    home: HomeView, baselines: HomeBaselines, when: datetime, door: str | None = None
) -> bool:
    """Somebody moved inside within ``MOMENTS`` before ``when``, or was moving then, or used
    an inner contact (``inner_signs``; not for a ``door`` whose lock stayed locked)."""
    if _used_inside_before(home, baselines, when, door):
        return True
    if states_only(home):
        signs = spell_signs(baselines)
        return any(
            when - MOMENTS <= at <= when and is_motion(home, e) for at, e in signs
        ) or _moving_at(home, when)
    for entity_id in home.history:
        if is_motion(home, entity_id) and any(
            when - MOMENTS <= c.when <= when for c in home.changes(entity_id)[1:]
        ):
            return True
    return _moving_at(home, when)


def _used_inside_before(
    home: HomeView, baselines: HomeBaselines, when: datetime, door: str | None = None
) -> bool:
    """An inner contact's complete use (``inner_signs``: the bathroom door that rests open
    shut and reopened) within ``INSIDE_REACH`` before ``when``: a person, never a pet, was
    inside then (not for a ``door`` whose lock stayed locked: forced)."""
    contacts = contact_signs(baselines, home, (when, door) if door else None)
    return any(when - INSIDE_REACH <= at <= when for at in contacts)


def _came_in_before(
    home: HomeView, baselines: HomeBaselines, spans: list[_Span], when: datetime
) -> bool:
    """An entrance was used earlier in the empty home with nobody seen inside before it:
    whoever moves inside since may have come in by it (a burglar through the window,
    out by the door). Not before the last tracker left, as the window shows it (the
    window's span takes it all for empty within the leaving grace): nobody came into an
    empty home then."""
    left = _went_out_in_window(home)
    return any(
        used < when - PASSAGE
        and _within(spans, used)
        and (left is None or used > left)
        and not _seen_before(home, baselines, used, entity_id)
        for entity_id in _entrances(home, baselines)
        if not _looked_into(home, baselines, entity_id)
        for used in _used(home, baselines, entity_id)
    )


def _went_out_in_window(home: HomeView) -> datetime | None:
    """When the last tracker the window shows leave did (from home, or its first report in
    the window; a tracker's flicker, unknown and away again, is nobody leaving)."""
    left: datetime | None = None
    for state in home.presence_entities:
        before: bool | None = True  # the window's first report: a departure if away
        for change in home.changes(state.entity_id):
            where = presence_of(change.state)
            if where is False and before is True and (left is None or change.when > left):
                left = change.when
            before = where
    return left


def _looked_into(home: HomeView, baselines: HomeBaselines, entity_id: str) -> bool:
    """A contact this home uses from inside (a fridge, a cupboard: ``inside_doors``),
    learned or read from its first uses: nobody comes in by it."""
    return used_inside(baselines.inside, entity_id) or first_used_inside(baselines, home, entity_id)


def opened_by_somebody_inside(finding: Finding, baselines: HomeBaselines, home: HomeView) -> bool:
    """Whether the entrance ``finding`` tells was last used in the empty home by
    somebody already inside, whose visit goes on."""
    if any(home.domain(e) == "alarm_control_panel" and _armed(home, e) for e in finding.evidence):
        return False  # the alarm is armed: the homeowner said nobody is in
    # The window's own spans (the spell's only for a safety check's): an earlier use the
    # window's span left out, a tracker's flicker before it, is not asked about here.
    spans = _empty_spans(home, baselines if states_only(home) else None)
    entrances = [e for e in finding.evidence if is_opening(home, e)]
    uses = sorted(
        (when, e) for e in entrances for when in _used(home, baselines, e) if _within(spans, when)
    )
    if not uses:
        return False
    when = uses[-1][0]
    if _came_in_before(home, baselines, spans, when):
        return False
    visiting = home.end - when <= STILL_ABOUT or (
        home.end - when <= VISIT_REACH and _someone_about(home, baselines)
    )
    inside = opened_from_inside(baselines, home, when, uses[-1][1]) if visiting else None
    if inside is None:
        return False
    return (
        when - inside.last_sign <= MOMENTS
        or _moving_at(home, when)
        or _used_inside_before(home, baselines, when, uses[-1][1])
    )
