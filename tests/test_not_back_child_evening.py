"""A child's evening out unlike any learned, and a household away together after work
(``not_back_as_usual``, child path).

Sets 41, 42 and 38: a 14-, 15- and 16-year-old's first Friday or Saturday evening out of
the record (a party, the correfoc), due before midnight and home after one or two, their
phones still saying "away"; nothing learned began in the evening, so no return was read
and none was told. And a 13-year-old told "not back" at 20:05 on the Friday the family
left for the summer house straight from work and school: the parents, out since the
morning like every weekday, were read as "at work" hours after their working day ended.
Here a family: the father out 06:55-16:45 and the mother 07:40-17:15 on weekdays, the
daughter at school 07:50-15:30 on weekdays; never out in the evening before.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition

from .core_factories import observe_all
from .family_outings import judged_not_back, learned_family

ZONE = ZoneInfo("Europe/Stockholm")
CHILD = "person.elsa"
FATHER = "person.johan"
MOTHER = "person.sara"
NAMES = {CHILD: "Elsa", FATHER: "Johan", MOTHER: "Sara"}
MONDAY = datetime(2027, 8, 23, tzinfo=ZONE)
FRIDAY = MONDAY + timedelta(days=11)  # the second Friday
PROFILE = "Johan, Sara, Elsa (14, har mobil) och Vincent (8, ingen mobil)."


def _at(day: datetime, hours: float) -> datetime:
    return day + timedelta(hours=hours)


def _weekday(day: datetime) -> list[tuple[datetime, str, str]]:
    """The parents at work and the daughter at school, all home by 17:15."""
    return [
        (_at(day, 6.92), FATHER, "not_home"),
        (_at(day, 16.75), FATHER, "home"),
        (_at(day, 7.67), MOTHER, "not_home"),
        (_at(day, 17.25), MOTHER, "home"),
        (_at(day, 7.83), CHILD, "not_home"),
        (_at(day, 15.5), CHILD, "home"),
    ]


def _learned(
    until: datetime, family_nights: tuple[datetime, ...] = (), early_out: datetime | None = None
) -> tuple[HomeBaselines, list[Transition]]:
    """Their weekdays up to ``until``'s; nobody ever out in the evening on their own (on
    ``family_nights`` all three out together, 21:00 to 01:45; on ``early_out`` the
    daughter out alone 04:30 to 05:30)."""
    events: list[tuple[datetime, str, str]] = []
    if early_out is not None:
        events += [(_at(early_out, 4.5), CHILD, "not_home"), (_at(early_out, 5.5), CHILD, "home")]
    for night in family_nights:
        for person in NAMES:
            events += [(_at(night, 21.0), person, "not_home"), (_at(night, 25.75), person, "home")]
    day = MONDAY
    while day.date() < until.date():
        if day.weekday() < 5:
            events += _weekday(day)
        day += timedelta(days=1)
    return learned_family(ZONE, NAMES, MONDAY, events)


def _judged(
    now: datetime,
    outs: list[tuple[datetime, str, str]],
    day: datetime = FRIDAY,
    *,
    profile: str = PROFILE,
    family_nights: tuple[datetime, ...] = (),
    early_out: datetime | None = None,
) -> list:
    """Judged at ``now`` after ``day``'s ``outs`` (when, person, state)."""
    baselines, past = _learned(day, family_nights, early_out)
    today = observe_all(baselines, outs)
    last = {t.entity_id: t for t in today}
    states = [
        EntityState(
            EntityInfo(entity, name),
            last[entity].state if entity in last else "home",
            last_changed=last[entity].when if entity in last else day,
        )
        for entity, name in NAMES.items()
    ]
    return judged_not_back(baselines, now, states, [*past[-20:], *today], profile)


def _evening_out(
    now: datetime, left: float = 19.0, day: datetime = FRIDAY, profile: str = PROFILE
) -> list:
    """Her school day as usual, then out to a party at ``left`` on ``day``; her parents
    home."""
    return _judged(now, [*_weekday(day), (_at(day, left), CHILD, "not_home")], day, profile=profile)


OLDER = "Johan, Sara, Elsa (17, har mobil) och Vincent (8, ingen mobil)."


def test_an_older_teenagers_first_evening_out_is_told_an_hour_past_midnight() -> None:
    # Fails before: no outing of hers began in the evening, so no return was read.
    findings = _evening_out(_at(FRIDAY, 25.05), profile=OLDER)
    assert [f.rule for f in findings] == ["not_back_as_usual"]
    assert findings[0].evidence == (CHILD,)
    assert "out since 19:00; on the 9 other days learned" in findings[0].reasoning
    assert "went out, never back after midnight." in findings[0].reasoning


def test_an_older_teenagers_first_evening_out_is_not_told_before_one() -> None:
    assert _evening_out(_at(FRIDAY, 23.5), profile=OLDER) == []
    assert _evening_out(_at(FRIDAY, 24.9), profile=OLDER) == []


def test_five_school_days_say_nothing_of_an_older_teenagers_nights() -> None:
    """The second Monday: five school days learned, no weekend among them; for a
    17-year-old a week is wanted (her first night out may be allowed past midnight)."""
    monday = MONDAY + timedelta(days=7)
    assert _evening_out(_at(monday, 25.5), day=monday, profile=OLDER) == []
    tuesday = monday + timedelta(days=1)  # six days: still not a week
    assert _evening_out(_at(tuesday, 25.5), day=tuesday, profile=OLDER) == []
    wednesday = tuesday + timedelta(days=1)
    told = _evening_out(_at(wednesday, 25.5), day=wednesday, profile=OLDER)
    assert [f.rule for f in told] == ["not_back_as_usual"]


def test_a_young_teenager_is_not_out_into_the_night() -> None:
    """The 14-year-old's first Friday evening out, nine school days learned: told an hour
    past 23:00, not before (fails before: midnight at any age)."""
    assert _evening_out(_at(FRIDAY, 23.9)) == []
    told = _evening_out(_at(FRIDAY, 24.05))
    assert [f.rule for f in told] == ["not_back_as_usual"]
    assert "on the 9 other days learned" in told[0].reasoning
    assert "never back after 23:00" in told[0].reasoning


def test_a_young_teenager_with_a_few_school_days_learned_is_not_out_past_midnight() -> None:
    """Three school days learned say nothing of a weekend's night: midnight, told at 01:00
    (fails before: a week of days was wanted at any age); nothing learned, nothing read."""
    thursday = MONDAY + timedelta(days=3)
    assert _evening_out(_at(thursday, 24.9), day=thursday) == []
    told = _evening_out(_at(thursday, 25.05), day=thursday)
    assert [f.rule for f in told] == ["not_back_as_usual"]
    assert "on the 3 other days learned" in told[0].reasoning
    assert "never back after midnight" in told[0].reasoning
    assert _evening_out(_at(MONDAY, 25.5), day=MONDAY) == []


def test_the_familys_festival_nights_are_not_hers() -> None:
    """A Saturday and a Sunday out with her parents to 01:45 (the fireworks) do not make her own
    Friday party due at 01:45: the 17-year-old is told an hour past midnight (fails before:
    02:45)."""
    nights = (MONDAY + timedelta(days=5), MONDAY + timedelta(days=6))
    outs = [*_weekday(FRIDAY), (_at(FRIDAY, 19.0), CHILD, "not_home")]
    told = _judged(_at(FRIDAY, 25.05), outs, profile=OLDER, family_nights=nights)
    assert [f.rule for f in told] == ["not_back_as_usual"]
    assert "never back after midnight" in told[0].reasoning
    assert _judged(_at(FRIDAY, 24.9), outs, profile=OLDER, family_nights=nights) == []


def test_her_own_late_night_moves_a_young_teenagers_limit() -> None:
    """Her own Saturday at a friend's to 00:30 (not with the family): the 14-year-old's next
    evening out is due by 00:30, told at 01:30, not at midnight."""
    saturday = MONDAY + timedelta(days=5)
    outs = [*_weekday(FRIDAY), (_at(FRIDAY, 19.0), CHILD, "not_home")]
    baselines_events = [
        (_at(saturday, 19.0), CHILD, "not_home"),
        (_at(saturday, 24.5), CHILD, "home"),
    ]
    assert _judged(_at(FRIDAY, 25.4), [*baselines_events, *outs]) == []
    told = _judged(_at(FRIDAY, 25.55), [*baselines_events, *outs])
    assert "back by 00:30 at the latest" in told[0].reasoning


def test_an_outing_begun_at_night_is_left_to_the_night_rules() -> None:
    """Out at 23:30: told as it begins by ``went_out_at_night``, not again at 01:00."""
    assert _evening_out(_at(FRIDAY, 25.5), left=23.5) == []
    assert [f.rule for f in _evening_out(_at(FRIDAY, 25.5), left=22.9)] == ["not_back_as_usual"]


def test_parents_long_past_their_working_day_are_not_at_work() -> None:
    """Everybody out since the morning as on a weekday, nobody back by 20:05: the family
    met up after work for a weekend away; nobody is waiting for her."""
    outs = [
        (_at(FRIDAY, 6.92), FATHER, "not_home"),
        (_at(FRIDAY, 7.67), MOTHER, "not_home"),
        (_at(FRIDAY, 7.9), CHILD, "not_home"),
    ]
    # Fails before: the parents out since the morning read "at work" at any hour.
    assert _judged(_at(FRIDAY, 20.1), outs) == []
    # Within their working day they are at work, and she is an hour past school.
    told = _judged(_at(FRIDAY, 16.6), outs)
    assert [f.rule for f in told] == ["not_back_as_usual"]


def test_a_night_outing_with_only_the_familys_nights_like_it_reads_them() -> None:
    """Out on her own at 23:30, nothing of her own begun near it, and out at night on her
    own once before (04:30, a run): the night rules do not tell her going out; the
    family's nights out to 01:45 are all that says how late this household's nights go;
    told an hour past them."""
    nights = (MONDAY + timedelta(days=5), MONDAY + timedelta(days=6))
    early = MONDAY + timedelta(days=2)
    outs = [*_weekday(FRIDAY), (_at(FRIDAY, 23.5), CHILD, "not_home")]
    assert _judged(_at(FRIDAY, 26.7), outs, family_nights=nights, early_out=early) == []
    told = _judged(_at(FRIDAY, 26.8), outs, family_nights=nights, early_out=early)
    assert [f.rule for f in told] == ["not_back_as_usual"]
    assert "back by 01:45 at the latest" in told[0].reasoning


def test_a_child_never_out_at_night_is_not_told_again_hours_after_going_out() -> None:
    """Never out at night on her own, out at 23:30: told as she went (the night rules:
    ``went_out_before_midnight``), not again at 02:48 by her lateness (a second notice of
    one night out)."""
    nights = (MONDAY + timedelta(days=5), MONDAY + timedelta(days=6))
    outs = [*_weekday(FRIDAY), (_at(FRIDAY, 23.5), CHILD, "not_home")]
    assert _judged(_at(FRIDAY, 26.8), outs, family_nights=nights) == []
