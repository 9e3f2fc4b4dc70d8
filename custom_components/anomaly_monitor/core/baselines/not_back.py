"""Somebody not back home when they always are, and their phone gone dark.

A person who went out as on other days (``day_returns``: outings that began at about the
same time of day) is still out ``LATE_BY`` past the latest return of every such outing
learned on days like today, and their phone stopped reporting while they were out (the
person reads ``unknown`` or ``unavailable`` for ``DARK_FOR`` at least). A 14-year-old home
from school by 14:20 on every Thursday learned, not back at 15:20 and her phone off
since 15:10; a boy back by 18:00 every school day, his phone off at 18:20. Late alone
is an evening out (an adult at the pub, a father kept at work: their phones still say
where they are); a phone that dies while at home or at the usual hours is a battery.
Both together are what a parent would ring round about. The phone still saying "away"
with the household asleep is not read as dark (tried in session 43: a girl's dead battery
told, and four adults' late nights, festival nights among them, told as well).

A child of the household (``profile_minors``: the profile gives an age under 18 after
their name) is judged with the phone still reporting: a dead battery often keeps the last
place. Their outing is read first against their own habit for this kind of day and hour
(``day_returns.habit_return``: four outings or more on weekdays, or on weekends, begun
about then, not made with another tracked person): volleyball camp every weekday morning,
home by 12:30 at the latest, not back at 13:30; a 15-year-old back by 23:40 from weekday
evenings out, not back at 00:40. Outings made with the family (out and home together) are
not the child's: two festival nights out with their mother to 01:45 would keep every later
night quiet (nor are they read by the two readings that follow). Without such a habit, an
outing begun at an hour one of their own began near is read against the latest they were
ever back, by the clock, on every day learned (``day_returns.latest_ever``, a week at
least): a 13-year-old home by 18:30 at the latest on every day of a fortnight, out at a
friend's since 14:00 and not back at 19:30 (read by the weekday alone, a teenager's first
Friday out is told). An evening out like none learned (begun from 17:00 and before the
night's 23:00: a 15-year-old's first Saturday party, only school days learned) is read
against the latest they were ever back at night on their own
(``day_returns.latest_at_night``): a child under ``YOUNG_UNTIL`` is not out into the night
(23:00 when never back later, a week learned; midnight with two days to six), not back at
midnight; an older teenager never out past midnight, a week learned, not back at 01:00.
One begun at night is the night rules' (``went_out_at_night`` tells it as it begins): a
child never out at night on their own (``night_presence.never_out``) was told as they went,
by whichever door, and is not told again hours on (a 16-year-old out at 23:40 told then,
and again at 03:27 by her lateness, was one night out told twice); with nothing of their
own like it, it is read against the latest they were ever back from any outing, the
family's too. Not judged: a child who left with another tracked person
(``day_returns.left_with_others``: the family out together, the parents' phones home a
minute before theirs), nor as another person comes in
(``day_returns.others_just_back``: the father's phone home a minute before his son's, back
from the festival together). With nobody home, a child is judged while everybody else out
left apart from them for an outing like their usual ones, not an hour past its latest
return (at work: the mother rings round from the office); else the family may be out
together, met up later (the parents out since the morning and not back at 20:00 on a
Friday: off to the summer house straight from work and school).

An adult, or a child with the phone dark, is judged while somebody tracked is home to miss
them: with the whole household out, they may all be away together (a family's trip,
started on a holiday morning), and nobody waits.
Not judged: an outing longer than ``day_returns.MAX_OUTING`` (a trip away for days), a
person seen going out and back on fewer than ``MIN_DAYS`` days. An evening out begun at
an hour none learned began near (a girl's first Friday night out, from 17:00) is judged
by the latest this person was ever back at night (``day_returns.latest_at_night``): home
by 00:05 on every day learned, not back at 01:05, her phone dark. Severity high, not
critical: it is told at once, as a question to the household (most late children are at
a friend's).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity
from ..occupancy import UNKNOWN_PRESENCE, Occupancy
from ..profile_minors import minor_ages
from .clock import local
from .day_returns import MAX_OUTING, MIN_EVER_DAYS, DayReturns, UsualReturn
from .home_baselines import HomeBaselines
from .night_presence import DEAD_OF_NIGHT_ENDS, never_out
from .night_uses import PERSON_NIGHT_FROM

# Past the latest return learned by this much, somebody is late (not a bus missed).
LATE_BY = timedelta(hours=1)
# A phone unknown longer than a flicker (``night_presence.FLICKER``, a network lost a
# moment) has gone dark.
DARK_FOR = timedelta(minutes=15)
# Days a person must have been seen going out and coming back before their return is known
# (two: with the phone dark as well, one more day learned would only tell a day later).
MIN_DAYS = 2
# A child younger than this, a week learned (``MIN_EVER_DAYS``), is not out on their own
# into the night (``PERSON_NIGHT_FROM``, 23:00) on an evening like none learned: a
# 14-year-old's first Saturday night out, only school days seen, not back at midnight. With
# two days to six, not past midnight: a handful of school days says nothing of a weekend's
# night (a 15-year-old's first Saturday, due at 00:30, read against his weekday 23:22). An
# older teenager's may go on past midnight (a 17-year-old's first night out, back at 01:53,
# was quiet): midnight, a week learned.
YOUNG_UNTIL = 16

NOT_BACK_AS_USUAL = FindingKind("not_back_as_usual", AnomalyType.SAFETY_HAZARD, Severity.HIGH)


def not_back_as_usual(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A person out far past every return learned for this outing, their phone dark.

    Magnitude: minutes past the latest return learned.
    """
    occupied = home.occupancy is Occupancy.OCCUPIED
    returns = baselines.usual.night.returns
    now = home.end
    persons = home.of("person")
    children = minor_ages(home.window.profile, (p.info.name for p in persons))
    for person in persons:
        began = returns.out_since.get(person.entity_id)
        if began is None or not timedelta(0) < now - began <= MAX_OUTING:
            continue
        dark = _dark_since(home, person)
        if dark is not None and (dark < began or now - dark < DARK_FOR):
            dark = None
        if dark is not None and occupied and returns.days_out(person.entity_id) >= MIN_DAYS:
            usual = returns.usual_return(person.entity_id, began) or returns.latest_at_night(
                person.entity_id, began
            )
        elif dark is None and person.info.name.strip() in children:
            if _told_going_out(baselines, person.entity_id, began):
                continue  # told as they went out (``went_out_before_midnight``)
            young = children[person.info.name.strip()] < YOUNG_UNTIL
            usual = _child_usual(returns, person.entity_id, began, now, occupied, young=young)
        else:
            continue
        if usual is None or now < usual.by + LATE_BY:
            continue
        yield NOT_BACK_AS_USUAL.finding(
            evidence=(person.entity_id,),
            reasoning=_reasoning(person, usual, began, dark, baselines),
            recommendation="Call them, or the people they were with, to know where they are.",
            magnitude=round((now - usual.by).total_seconds() / 60, 1),
            subject=person.entity_id,
        )


def _child_usual(
    returns: DayReturns, person: str, began: datetime, now: datetime, occupied: bool, *, young: bool
) -> UsualReturn | None:
    """When a child out on their own is due: their habit for this kind of day and hour, else
    the latest they were ever back from an outing of their own, else (an evening out like
    none learned) the latest they were ever back at night on their own (midnight for one
    never out past it, a week learned; 23:00 for a ``young`` child with a week, midnight
    with two days to six), else the latest they were ever back from any outing, the
    family's too; None when not judged (out with the family, the family away together,
    somebody just in who may have come home with them)."""
    if returns.left_with_others(person, began) or returns.others_just_back(person, now):
        return None
    if not occupied and not returns.others_at_their_usual(person, began, now, LATE_BY):
        return None
    usual = returns.habit_return(person, began) or returns.latest_ever(person, began, alone=True)
    if usual is None and local(began, returns.zone).hour < PERSON_NIGHT_FROM:
        # An evening out like none learned, begun while the household is up; one begun
        # at night is told as it begins (``went_out_at_night``), not again an hour on. An
        # older teenager: against midnight, a week learned at least (five school days say
        # nothing of their weekend nights); a young one is not out into the night.
        usual = returns.latest_at_night(
            person, began, MIN_EVER_DAYS, alone=True, night_from=_night_from(young)
        )
        if usual is None and young:  # fewer days: no weekend night of theirs seen yet
            usual = returns.latest_at_night(person, began, MIN_DAYS, alone=True)
    # Nothing of their own reads it (an outing begun at night, only the family's nights
    # out began near it): how late the household's own nights went, theirs among them.
    return usual or returns.latest_ever(person, began)


def _told_going_out(baselines: HomeBaselines, person: str, began: datetime) -> bool:
    """A child never out at night on their own who went out at night (from 23:00 to
    ``DEAD_OF_NIGHT_ENDS``) was told as they went (``went_out_before_midnight``,
    ``went_out_at_night``): the same night out is not told again hours on."""
    hour = local(began, baselines.zone).hour
    at_night = hour >= PERSON_NIGHT_FROM or hour < DEAD_OF_NIGHT_ENDS
    return at_night and bool(never_out(baselines, [person], began, frozenset({person})))


def _night_from(young: bool) -> int:
    """The hour a child's evening out like none learned is read from, with a week learned:
    the night's for a young one, midnight for an older teenager."""
    return PERSON_NIGHT_FROM if young else 24


def _dark_since(home: HomeView, person: EntityState) -> datetime | None:
    """Since when the person's phone has stopped reporting (None: it reports)."""
    if person.state.strip().lower() not in UNKNOWN_PRESENCE:
        return None
    changes = home.changes(person.entity_id)
    since = person.last_changed
    for change in reversed(changes):
        if change.state.strip().lower() not in UNKNOWN_PRESENCE:
            break
        since = change.when
    return since


def _reasoning(
    person: EntityState,
    usual: UsualReturn,
    began: datetime,
    dark: datetime | None,
    baselines: HomeBaselines,
) -> str:
    zone = baselines.zone
    left, by = local(began, zone), local(usual.by, zone)
    later = " the next day" if by.date() != left.date() else ""
    outings = "outing" if usual.days == 1 else "outings"
    learned = f"{usual.days} {outings} learned that began about then"
    if usual.among:  # one weekday's, read with its kind's: "3 weekend outings, 1 of them"
        learned = (
            f"{usual.among} {usual.among_kind} outings learned that began about then, "
            f"{usual.days} of them on a {usual.kind.removesuffix('s')}"
        )
    name = person.entity_id
    # The days counted are the other days learned that they went out (walk 45: "each of
    # the 12 days learned" read as leaving out the day tonight's outing began).
    if dark is None and usual.kind in ("weekdays", "weekends"):  # a child's habit
        days, back = f"{usual.kind} learned that {name} went out about then on their own", later
    else:
        days, back = f"other days learned that {name} went out", ""
    returned = f"back by {by:%H:%M}{back} at the latest"
    if dark is None and usual.kind == "nights":  # a child's evening out like none learned
        after = by.hour * 60 + by.minute
        night = "midnight" if not after else f"{by:%H:%M}"
        returned = (
            f"never back after {night}"
            if after in (0, PERSON_NIGHT_FROM * 60)
            else f"back by {by:%H:%M}{later} at the latest"
        )
    latest = f"{name} is not home: out since {left:%H:%M}; on the {usual.days} {days}, {returned}. "
    if dark is None:  # a child of the household, read against their own days
        return latest + (
            f"The household profile gives {name} a child's age; their phone still reports "
            "them away."
        )
    if usual.kind == "nights":
        told = latest
    else:
        told = (
            f"{name} is not home: out since {left:%H:%M}, and on {usual.kind} back by "
            f"{by:%H:%M}{later} ({learned}). "
        )
    return told + f"{name}'s phone stopped reporting at {local(dark, zone):%H:%M}."
