"""Somebody not back home when they always are, their phone dark (``not_back_as_usual``).

Sets 35 and 36: a 14-year-old home from school by 14:20 on every school day does not
come back on a Thursday, her phone off at 15:10; a boy not home at 17:45, his phone off at
18:20; a 13-year-old due back from the pandal, his phone dead at 22:35. None was told.
Here a small family in Torino: the daughter leaves at 07:30 and is home by 14:15 from
Monday to Thursday, by 18:50 on Fridays (volleyball); her father leaves at 05:30 and is
home by 14:30.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from custom_components.anomaly_monitor.core.baselines.day_returns import DayReturns
from custom_components.anomaly_monitor.core.baselines.home_baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.not_back import not_back_as_usual
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    EntityInfo,
    EntityState,
    Finding,
    Transition,
)

from .core_factories import environment, observe_all, window

ZONE = ZoneInfo("Europe/Rome")
TEEN = "person.giulia"
FATHER = "person.marco"
HALL = "binary_sensor.hall_motion"
MONDAY = datetime(2026, 11, 30, tzinfo=ZONE)  # a Monday
THURSDAY = MONDAY + timedelta(days=10)
FRIDAY = MONDAY + timedelta(days=11)


def _at(day: datetime, hours: float) -> datetime:
    return day + timedelta(hours=hours)


def _fortnight(until: datetime) -> tuple[HomeBaselines, list[Transition]]:
    """Every school day up to ``until``'s: out in the morning, back in the afternoon; the
    weekends at home. What was learned, and the persons' changes (for the window)."""
    baselines = HomeBaselines(ZONE)
    baselines.describe([EntityInfo(p, p.partition(".")[2].title()) for p in (TEEN, FATHER)])
    baselines.watching([TEEN, FATHER], MONDAY)
    events: list[tuple[datetime, str, str]] = [(MONDAY, TEEN, "home"), (MONDAY, FATHER, "home")]
    day = MONDAY
    while day.date() < until.date():
        if day.weekday() < 5:
            back = 18.75 if day.weekday() == 4 else 14.0 + (day.day % 3) * 5 / 60
            events += [
                (_at(day, 7.5), TEEN, "not_home"),
                (_at(day, back), TEEN, "home"),
                (_at(day, 5.5), FATHER, "not_home"),
                (_at(day, 14.4), FATHER, "home"),
            ]
        day += timedelta(days=1)
    return baselines, observe_all(baselines, events)


def _today(
    day: datetime,
    now: datetime,
    *,
    dark_at: datetime | None,
    left: float = 7.5,
    father_back: bool = True,
    last_move: datetime | None = None,
) -> list[Finding]:
    """``day``: the daughter out since ``left``, her phone unknown from ``dark_at`` (None:
    it still reports); her father out from 05:30 and home at 14:24 (``father_back``);
    judged at ``now``."""
    baselines, past = _fortnight(day)
    today = [
        Transition(_at(day, 5.5), FATHER, "not_home"),
        Transition(_at(day, left), TEEN, "not_home"),
    ]
    if father_back:
        today.append(Transition(_at(day, 14.4), FATHER, "home"))
    if dark_at is not None:
        today.append(Transition(dark_at, TEEN, "unknown"))
    if last_move is not None:  # the hall's sensor sees the last one up go to bed
        baselines.describe_one(EntityInfo(HALL, "Hall motion", device_class="motion"))
        moment = last_move - timedelta(hours=3)  # the evening up, until ``last_move``
        while moment <= last_move:
            today += [Transition(moment, HALL, "on"), Transition(moment, HALL, "off")]
            moment += timedelta(minutes=20)
    today.sort(key=lambda change: change.when)
    for change in today:
        baselines.observe(change.when, change.entity_id, change.state)
    baselines.advance(now)
    teen = [c for c in today if c.entity_id == TEEN][-1]
    father = [c for c in today if c.entity_id == FATHER][-1]
    states = [
        EntityState(EntityInfo(TEEN, "Giulia"), teen.state, last_changed=teen.when),
        EntityState(EntityInfo(FATHER, "Marco"), father.state, last_changed=father.when),
    ]
    env = environment(now, persons_home=1 if father_back else 0)
    return list(not_back_as_usual(HomeView(window(states, env, past[-40:] + today)), baselines))


def test_a_girl_not_back_on_a_thursday_her_phone_dark_is_told() -> None:
    # Fails before: nothing read when a person comes home; her absence was nobody's news.
    findings = _today(THURSDAY, _at(THURSDAY, 15.5), dark_at=_at(THURSDAY, 15 + 10 / 60))
    assert [f.rule for f in findings] == ["not_back_as_usual"]
    finding = findings[0]
    assert finding.evidence == (TEEN,)
    assert "Thursdays" in finding.reasoning
    assert "back by 14:05" in finding.reasoning  # her school days, not Friday's volleyball
    assert "15:10" in finding.reasoning
    assert finding.severity.value == "high"


def test_one_thursday_learned_says_the_weekdays_it_was_read_with() -> None:
    """One Thursday in the fortnight: its return is read with the school days' (never
    earlier than their middle one), and the words say so; "1 outing learned" alone read
    as a habit of one day (walk 43: "on Saturdays back by 17:29 (1 outing learned…)")."""
    findings = _today(THURSDAY, _at(THURSDAY, 15.5), dark_at=_at(THURSDAY, 15 + 10 / 60))
    assert "(8 weekday outings learned that began about then, 1 of them on a Thursday)" in (
        findings[0].reasoning
    )
    assert "1 outing learned" not in findings[0].reasoning


def test_with_the_whole_household_out_nobody_waits() -> None:
    """Her father not home either: they may be away together (a trip begun that morning)."""
    at = _at(THURSDAY, 15.5)
    assert _today(THURSDAY, at, dark_at=_at(THURSDAY, 15 + 10 / 60), father_back=False) == []


def test_late_but_her_phone_still_reporting_is_an_afternoon_out() -> None:
    assert _today(THURSDAY, _at(THURSDAY, 17.0), dark_at=None) == []


def test_dark_but_not_yet_past_her_return_and_the_hour() -> None:
    """Her phone off at 14:10: she may be on the bus; 14:55 is not an hour past 14:00."""
    assert _today(THURSDAY, _at(THURSDAY, 14 + 55 / 60), dark_at=_at(THURSDAY, 14 + 10 / 60)) == []


def test_on_fridays_she_is_back_later() -> None:
    """Fridays she is home by 18:50: at 17:00 with her phone off she is at volleyball."""
    assert _today(FRIDAY, _at(FRIDAY, 17.0), dark_at=_at(FRIDAY, 16.0)) == []


def test_a_phone_off_for_minutes_is_a_flicker() -> None:
    assert _today(THURSDAY, _at(THURSDAY, 16.0), dark_at=_at(THURSDAY, 15.95)) == []


def test_an_outing_begun_at_an_hour_none_began_near_is_not_judged() -> None:
    """Out at 12:00 (never learned then): nobody knows when she is back from that."""
    findings = _today(THURSDAY, _at(THURSDAY, 19.0), dark_at=_at(THURSDAY, 16.0), left=12.0)
    assert findings == []


def test_one_weekday_home_early_does_not_make_it_late_ever_after() -> None:
    """One Tuesday home at 12:00 (a half day); the other school days by 14:05: the
    Tuesday after reads 14:05, not 12:00."""
    returns = DayReturns(ZONE)
    for day in range(4):  # Monday to Thursday
        returns.moved(TEEN, _at(MONDAY + timedelta(days=day), 7.5), left=True)
        back = 12.0 if day == 1 else 14 + 5 / 60
        returns.moved(TEEN, _at(MONDAY + timedelta(days=day), back), left=False)
    tuesday = MONDAY + timedelta(days=8)
    usual = returns.usual_return(TEEN, _at(tuesday, 7.5))
    assert usual is not None
    assert (usual.kind, usual.by) == ("Tuesdays", _at(tuesday, 14 + 5 / 60))


def test_a_trip_away_for_days_is_not_late() -> None:
    returns = DayReturns(ZONE)
    returns.moved(TEEN, _at(MONDAY, 8), left=True)
    returns.moved(TEEN, _at(MONDAY, 8) + timedelta(days=2), left=False)
    assert returns.outings == {}  # not a day's outing
    assert returns.usual_return(TEEN, _at(THURSDAY, 8)) is None


def test_outings_are_stored_and_old_storage_loads() -> None:
    baselines, _ = _fortnight(THURSDAY)
    baselines.observe(_at(THURSDAY, 7.5), TEEN, "not_home")
    returns = baselines.usual.night.returns
    stored = HomeBaselines.from_dict(baselines.as_dict(), ZONE).usual.night.returns
    assert stored.outings == returns.outings
    assert stored.out_since == returns.out_since
    usual = stored.usual_return(TEEN, _at(THURSDAY, 7.5))
    assert usual is not None
    assert usual.kind == "Thursdays"
    old = baselines.as_dict()
    del old["usual_use"]["day_returns"]  # stored before outings were kept
    assert HomeBaselines.from_dict(old, ZONE).usual.night.returns.outings == {}


def test_damaged_outings_are_dropped() -> None:
    returns = DayReturns(ZONE)
    returns.load({"outings": {TEEN: "1,2", FATHER: "739950,455,845"}, "out_since": {TEEN: "x"}})
    assert returns.outings == {FATHER: [(739950, 455, 845)]}
    assert returns.out_since == {}


def _night_out(
    now: datetime, *, dark_at: datetime | None, last_move: datetime | None = None
) -> list[Finding]:
    """Thursday night: the daughter out at 20:00 (no evening outing learned: every day
    learned she was home by midnight), judged at ``now``."""
    return _today(THURSDAY, now, dark_at=dark_at, left=20.0, last_move=last_move)


def test_out_past_every_night_learned_her_phone_dark_is_told() -> None:
    # Fails before: an outing begun at an hour none learned began near was not judged.
    findings = _night_out(_at(THURSDAY, 25.5), dark_at=_at(THURSDAY, 23.5))
    assert [f.rule for f in findings] == ["not_back_as_usual"]
    # The days counted are her other days out (walk 45: "each of the 12 days learned" read
    # as leaving out the day tonight's outing began).
    assert (
        "on the 8 other days learned that person.giulia went out, back by 00:00 at the latest"
        in findings[0].reasoning
    )
    assert "phone stopped reporting at 23:30" in findings[0].reasoning


def test_out_at_night_not_yet_an_hour_past_her_latest() -> None:
    assert _night_out(_at(THURSDAY, 24.75), dark_at=_at(THURSDAY, 23.5)) == []


def test_out_at_night_her_phone_reporting_and_nobody_known_asleep_is_not_told() -> None:
    """Nothing seen going to rest after she left (no motion here): her phone says where
    she is, nobody known to be asleep."""
    assert _night_out(_at(THURSDAY, 26.0), dark_at=None) == []


def test_her_phone_still_saying_away_is_not_read_as_dark_however_asleep_the_house() -> None:
    """Her phone still says away (a dead battery may keep the last place); her father went
    to bed at 22:30, after she left. Read as dark, it told four adults' late nights (a
    festival, back at dawn with a friend) for one girl's dead battery: not read so."""
    assert _night_out(_at(THURSDAY, 25.5), dark_at=None, last_move=_at(THURSDAY, 22.5)) == []


def test_only_an_evening_out_is_read_against_the_nights() -> None:
    """Her father off at 04:30 for an early shift, or at 10:00 with a bag for the week at
    the shack: no evening out, however late it runs."""
    returns = DayReturns(ZONE)
    for day in range(6):
        returns.moved(FATHER, _at(MONDAY + timedelta(days=day), 7.0), left=True)
        returns.moved(FATHER, _at(MONDAY + timedelta(days=day), 15.0), left=False)
    assert returns.latest_at_night(FATHER, _at(THURSDAY, 4.5)) is None  # no evening out
    # Nor one begun in the morning: not back by night, it may be a trip away for the week.
    assert returns.latest_at_night(FATHER, _at(THURSDAY, 10.0)) is None
    evening = returns.latest_at_night(FATHER, _at(THURSDAY, 21.0))
    assert evening is not None
    assert evening.by == _at(THURSDAY, 24.0)
    assert returns.latest_at_night(FATHER, _at(MONDAY, 21.0)) is not None
    few = DayReturns(ZONE)
    few.moved(FATHER, _at(MONDAY, 7.0), left=True)
    few.moved(FATHER, _at(MONDAY, 15.0), left=False)
    assert few.latest_at_night(FATHER, _at(THURSDAY, 21.0)) is None  # one day: not known


def test_a_day_outing_not_back_by_night_with_the_household_asleep_is_not_told() -> None:
    """Out since 07:30 (school days back by 14:05), not back at 01:30, her phone still
    reporting, her father asleep since 22:30: a day that ran on (a night shift, a party
    after work), not an evening out later than ever; the phone says where she is."""
    # Fails with the household's sleep read for every outing (sets 26, 27, 29, 31: 6 FAs).
    at = _at(THURSDAY, 25.5)
    assert _today(THURSDAY, at, dark_at=None, last_move=_at(THURSDAY, 22.5)) == []
