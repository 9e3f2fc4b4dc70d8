"""A child not back from an outing they make every weekday (``not_back_as_usual``, child path).

Set 41: a 13-year-old at volleyball camp every weekday morning, home by 12:30, at a friend's
pool instead with her phone dead, the parents at work (the home empty); a 15-year-old back
by 23:00 on weekday evenings, out until 02:40, after two festival nights out with the family
(back at 01:00 and 01:45) had made every later night "as usual"; and a 14-year-old told "not
back" as his father came in the door with him from the festival they were at together. Here a
family: the father out 06:55-16:45 and the mother 07:40-17:15 on weekdays, the daughter at
camp 08:40-12:30 on weekdays; one weekday evening she and her mother were out together until
01:45.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.day_returns import DayReturns
from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition

from .core_factories import observe_all
from .family_outings import judged_not_back, learned_family

ZONE = ZoneInfo("America/Chicago")
CHILD = "person.brooklyn"
FATHER = "person.tyler"
MOTHER = "person.jenna"
NAMES = {CHILD: "Brooklyn", FATHER: "Tyler", MOTHER: "Jenna"}
MONDAY = datetime(2027, 8, 9, tzinfo=ZONE)
TUESDAY = MONDAY + timedelta(days=8)  # the second Tuesday
PROFILE = "Tyler, Jenna, Brooklyn (13, has a phone) and Mason (8, no phone)."


def _at(day: datetime, hours: float) -> datetime:
    return day + timedelta(hours=hours)


def _learned(until: datetime) -> tuple[HomeBaselines, list[Transition]]:
    """Their weekdays up to ``until``'s; on the first Wednesday evening the daughter and her
    mother out together from 20:30 to 01:45."""
    events: list[tuple[datetime, str, str]] = []
    day = MONDAY
    while day.date() < until.date():
        if day.weekday() < 5:
            events += [
                (_at(day, 6.92), FATHER, "not_home"),
                (_at(day, 16.75), FATHER, "home"),
                (_at(day, 7.67), MOTHER, "not_home"),
                (_at(day, 17.25), MOTHER, "home"),
                (_at(day, 8.67), CHILD, "not_home"),
                (_at(day, 12.5), CHILD, "home"),
            ]
        if day == MONDAY + timedelta(days=2):
            for person in (CHILD, MOTHER):
                events += [(_at(day, 20.5), person, "not_home"), (_at(day, 25.75), person, "home")]
        day += timedelta(days=1)
    return learned_family(ZONE, NAMES, MONDAY, events)


def _judged(
    now: datetime,
    *,
    parents_left: float = 6.92,
    mother_back: float | None = None,
) -> list:
    """The daughter out since 08:45 on the second Tuesday; the parents out since
    ``parents_left``; with ``mother_back``, her mother home again at that hour."""
    baselines, past = _learned(TUESDAY)
    outs = [
        (_at(TUESDAY, parents_left), FATHER, "not_home"),
        (_at(TUESDAY, parents_left + 0.75), MOTHER, "not_home"),
        (_at(TUESDAY, 8.75), CHILD, "not_home"),
    ]
    if mother_back is not None:
        outs.append((_at(TUESDAY, mother_back), MOTHER, "home"))
    today = observe_all(baselines, outs)
    mother = "home" if mother_back is not None else "not_home"
    states = [
        EntityState(EntityInfo(CHILD, "Brooklyn"), "not_home", last_changed=today[2].when),
        EntityState(EntityInfo(FATHER, "Tyler"), "not_home", last_changed=today[0].when),
        EntityState(EntityInfo(MOTHER, "Jenna"), mother, last_changed=today[-1].when),
    ]
    return judged_not_back(baselines, now, states, [*past[-20:], *today], PROFILE)


def test_a_child_not_back_from_her_weekday_habit_is_told_with_the_parents_at_work() -> None:
    # Fails before: nobody tracked was home (the rule waited for somebody home), and the
    # latest she was ever back (01:45, out with her mother) kept every day quiet.
    findings = _judged(_at(TUESDAY, 13.6))
    assert [f.rule for f in findings] == ["not_back_as_usual"]
    assert findings[0].evidence == (CHILD,)
    assert "on the 6 weekdays learned" in findings[0].reasoning
    assert "back by 12:30 at the latest" in findings[0].reasoning


def test_not_yet_an_hour_past_her_habit() -> None:
    assert _judged(_at(TUESDAY, 13.4)) == []


def test_the_family_out_at_an_hour_none_of_theirs_began_may_be_together() -> None:
    """The parents left at 10:30 (never out then on a weekday), the home empty: a day out
    together, met up later; nobody is waiting for her."""
    assert _judged(_at(TUESDAY, 14.0), parents_left=10.5) == []


def test_not_told_as_somebody_comes_in_who_may_be_with_her() -> None:
    """Her mother's phone home two minutes ago: her own may report the way home next."""
    assert _judged(_at(TUESDAY, 13.6), mother_back=13.57) == []
    assert [f.rule for f in _judged(_at(TUESDAY, 13.9), mother_back=13.57)] == ["not_back_as_usual"]


def test_the_habit_is_her_own_outings_of_that_kind_of_day() -> None:
    returns = DayReturns(ZONE)
    for day in range(4):
        when = MONDAY + timedelta(days=day)
        returns.moved(CHILD, _at(when, 8.7), left=True)
        returns.moved(CHILD, _at(when, 12.5), left=False)
    wednesday = MONDAY + timedelta(days=2)
    for person in (CHILD, MOTHER):  # an evening out together is the family's, not hers
        returns.moved(person, _at(wednesday, 10.0), left=True)
        returns.moved(person, _at(wednesday, 25.75), left=False)
    monday = MONDAY + timedelta(days=7)
    usual = returns.habit_return(CHILD, _at(monday, 8.7))
    assert usual is not None
    assert (usual.by, usual.days, usual.kind) == (_at(monday, 12.5), 4, "weekdays")
    assert returns.habit_return(CHILD, _at(monday + timedelta(days=5), 8.7)) is None  # Saturday
    fewer = DayReturns(ZONE)
    fewer.outings[CHILD] = returns.outings[CHILD][:3]
    assert fewer.habit_return(CHILD, _at(monday, 8.7)) is None
