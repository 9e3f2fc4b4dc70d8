"""A child not back, their phone still reporting "away" (``not_back_as_usual``).

Set 39: a 13-year-old at a friend's birthday on a Saturday afternoon, due at 21:00, her
battery dead (the tracker keeps "away"), home at 23:47; a 16-year-old due at 23:00 after a
birthday, home at 02:40; set 37: a 16-year-old's Friday night out, home at 02:10. None was
told: the rule wanted the phone dark. Late alone is an adult's evening out; for a person the
household profile gives a child's age, the latest they were ever back, by the clock, on
every day learned is what is read. Here a family in Köln: the daughter at school from 07:25
to 15:30 (17:30 on Tuesdays and Thursdays, handball), at a friend's on Saturday 14:00-18:30.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.day_returns import DayReturns
from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Transition
from custom_components.anomaly_monitor.core.profile_minors import minors_named

from .family_outings import judged_not_back, learned_family

ZONE = ZoneInfo("Europe/Berlin")
CHILD = "person.lina"
MOTHER = "person.aylin"
MONDAY = datetime(2026, 2, 9, tzinfo=ZONE)
SATURDAY = MONDAY + timedelta(days=12)  # the second Saturday
PROFILE = "Jens, Aylin, Lina (13, hat ein Handy) und Ben (7, kein Handy)."


def _at(day: datetime, hours: float) -> datetime:
    return day + timedelta(hours=hours)


def _learned(until: datetime) -> tuple[HomeBaselines, list[Transition]]:
    """Her days up to ``until``'s; her mother home all along."""
    events: list[tuple[datetime, str, str]] = []
    day = MONDAY
    while day.date() < until.date():
        weekday = day.weekday()
        if weekday < 5:
            back = 17.5 if weekday in (1, 3) else 15.5
            events += [(_at(day, 7.4), CHILD, "not_home"), (_at(day, back), CHILD, "home")]
        elif weekday == 5:
            events += [(_at(day, 14.0), CHILD, "not_home"), (_at(day, 18.5), CHILD, "home")]
        day += timedelta(days=1)
    return learned_family(ZONE, {CHILD: "Lina", MOTHER: "Aylin"}, MONDAY, events)


def _judged(
    now: datetime,
    *,
    profile: str = PROFILE,
    left: float = 14.0,
    day: datetime = SATURDAY,
    mother_with_her: float | None = None,
) -> list:
    """She is out since ``left``; with ``mother_with_her``, her mother left two minutes
    after her and was home again at that hour."""
    baselines, past = _learned(day)
    out = Transition(_at(day, left), CHILD, "not_home")
    baselines.observe(out.when, CHILD, "not_home")
    if mother_with_her is not None:
        baselines.observe(_at(day, left + 2 / 60), MOTHER, "not_home")
        baselines.observe(_at(day, mother_with_her), MOTHER, "home")
    states = [
        EntityState(EntityInfo(CHILD, "Lina"), "not_home", last_changed=out.when),
        EntityState(EntityInfo(MOTHER, "Aylin"), "home", last_changed=MONDAY),
    ]
    return judged_not_back(baselines, now, states, [*past[-20:], out], profile)


def test_a_child_out_later_than_on_any_day_learned_is_told_with_the_phone_reporting() -> None:
    # Fails before: the phone never went dark, so nothing was told until she came home.
    findings = _judged(_at(SATURDAY, 19.6))
    assert [f.rule for f in findings] == ["not_back_as_usual"]
    assert findings[0].evidence == (CHILD,)
    assert "back by 18:30 at the latest" in findings[0].reasoning
    assert "child's age" in findings[0].reasoning
    # Her other days out, as for an adult with the phone dark (today's outing not among them).
    assert "other days learned that" in findings[0].reasoning


def test_a_child_out_with_the_family_whose_phone_comes_home_last_is_not_late() -> None:
    """Set 28 d: the whole family out for a holiday lunch from 10:50, home at 19:35; the
    parents' phones report home a minute before the boy's."""
    assert _judged(_at(SATURDAY, 19.6), mother_with_her=19.55) == []


def test_not_yet_an_hour_past_the_latest_return() -> None:
    assert _judged(_at(SATURDAY, 19.4)) == []


def test_an_adult_late_with_the_phone_reporting_is_an_evening_out() -> None:
    """The same days, the profile gives no age: a parent kept at a party is not told."""
    assert _judged(_at(SATURDAY, 22.0), profile="Jens, Aylin, Lina und Ben.") == []


def test_an_outing_begun_at_an_hour_none_began_near_is_not_read_against_her_days() -> None:
    """Out at 22:30 (never out then): the latest return learned says nothing of it."""
    assert _judged(_at(SATURDAY, 23.9), left=22.5) == []


def test_fewer_than_a_week_learned_is_not_her_days() -> None:
    """Three school days learned: no habit yet (``habit_return`` needs four), no week."""
    thursday = MONDAY + timedelta(days=3)
    assert _judged(_at(thursday, 19.0), left=7.4, day=thursday) == []


def test_latest_ever_reads_every_day_and_the_hour_it_began() -> None:
    returns = DayReturns(ZONE)
    for day in range(8):
        when = MONDAY + timedelta(days=day)
        returns.moved(CHILD, _at(when, 7.5), left=True)
        returns.moved(CHILD, _at(when, 17.5 if day == 1 else 15.5), left=False)
    usual = returns.latest_ever(CHILD, _at(MONDAY + timedelta(days=9), 8.0))
    assert usual is not None
    assert usual.by == _at(MONDAY + timedelta(days=9), 17.5)
    assert returns.latest_ever(CHILD, _at(MONDAY + timedelta(days=9), 20.0)) is None


def test_the_profile_names_children_by_the_age_after_their_name() -> None:
    profile = (
        "Karim (42) part à 4h45, Inès (16 ans, a son téléphone), Jordan 15, high school; "
        "Tarik 7:40 to school; Boris (20); Minh (15 tuổi); Graeme 9-1 on weekdays."
    )
    names = ["Karim", "Inès", "Jordan", "Tarik", "Boris", "Minh", "Nadia", "Graeme"]
    assert minors_named(profile, names) == {"Inès", "Jordan", "Minh"}
    assert minors_named("", names) == frozenset()
    assert minors_named("Ann (9", ["Ann (9", "An"]) == frozenset()  # a name is text, not a pattern
