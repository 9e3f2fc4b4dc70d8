"""What this home does every day did not happen (core, no Home Assistant): a panel armed
in stay mode every night is not armed tonight. Learned from the home's own days; the ids
say nothing of what the entities are for."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.daily_routines import DailyRoutines
from custom_components.anomaly_monitor.core.baselines.routine_missed import (
    routine_missed,
    routine_missed_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState

from .core_factories import entity, environment, window

DAY0 = datetime(2026, 7, 6, tzinfo=UTC)  # a Monday
PANEL = "alarm_control_panel.partition_1"
LOCK = "lock.zone_4"
PERSON = "person.a"
INFOS = [EntityInfo(PANEL, "Partition 1", area="Passage"), EntityInfo(LOCK, "Zone 4")]
# Armed between 22:30 and 23:10 (a different minute each night), off at 05:35.
ARMED_AT = [22 * 60 + 30 + (day * 17) % 41 for day in range(40)]
Night = Callable[[int], bool]


def _every_night(_: int) -> bool:
    return True


def lived(
    days: int, armed: Night = _every_night, away: frozenset[int] = frozenset()
) -> HomeBaselines:
    """``days`` days of a home whose panel is armed at bedtime (when ``armed(day)``) and
    whose front lock is locked all day but for a few minutes' use; the ticks in between.
    ``away``: days on which everybody is out from 20:00 to 06:00."""
    baselines = HomeBaselines(UTC)
    baselines.describe(INFOS)
    events: list[tuple[datetime, str, str]] = []
    for day in range(days):
        start = DAY0 + timedelta(days=day)
        if day in away:
            events.append((start + timedelta(hours=20), PERSON, "not_home"))
            events.append((start + timedelta(hours=30), PERSON, "home"))
        elif armed(day):
            events.append((start + timedelta(minutes=ARMED_AT[day]), PANEL, "armed_night"))
        events.append((start + timedelta(hours=29, minutes=35), PANEL, "disarmed"))
        events.append((start + timedelta(hours=8), LOCK, "unlocked"))
        events.append((start + timedelta(hours=8, minutes=5), LOCK, "locked"))
    events.sort()
    baselines.observe(DAY0, PERSON, "home")
    moment, index, until = DAY0, 0, DAY0 + timedelta(days=days, hours=23)
    while moment <= until:
        while index < len(events) and events[index][0] <= moment:
            baselines.observe(*events[index])
            index += 1
        baselines.advance(moment)
        moment += timedelta(minutes=5)
    return baselines


def panel(state: str, changed: datetime) -> EntityState:
    return _since(entity(PANEL, state, area="Passage"), changed)


def _since(state: EntityState, when: datetime) -> EntityState:
    from dataclasses import replace

    return replace(state, last_changed=when)


def at(now: datetime, *states: EntityState, home: int = 1) -> HomeView:
    return HomeView(window(states, environment(now, persons_home=home)))


def test_a_panel_armed_every_night_and_not_tonight_is_told_once_past_its_usual_time() -> None:
    """Armed by 23:10 on each of 12 nights; tonight it stays disarmed: at 23:30 (within
    the margin) nothing, at 00:15 told, saying what is usual. Fails before: no rule judged
    an absence of a learned daily routine."""
    baselines = lived(12, armed=lambda day: day < 12)
    tonight = DAY0 + timedelta(days=12)
    disarmed = panel("disarmed", tonight + timedelta(hours=5, minutes=35))
    assert (
        list(routine_missed(at(tonight + timedelta(hours=23, minutes=30), disarmed), baselines))
        == []
    )
    [finding] = routine_missed(at(tonight + timedelta(hours=24, minutes=15), disarmed), baselines)
    assert finding.rule == "routine_missed"
    assert finding.evidence == (PANEL,)
    assert "is armed by 23:15 on 12 of the last 12 days" in finding.reasoning
    assert "it reads disarmed" in finding.reasoning
    # Armed late, at 23:50: the routine happened; nothing to tell at 00:15.
    baselines.observe(tonight + timedelta(hours=23, minutes=50), PANEL, "armed_night")
    armed = panel("armed_night", tonight + timedelta(hours=23, minutes=50))
    assert (
        list(routine_missed(at(tonight + timedelta(hours=24, minutes=15), armed), baselines)) == []
    )


def test_disarmed_again_after_arming_is_not_armed_at_its_usual_time() -> None:
    """Armed at 22:40, disarmed at 23:05 and left so: not armed at the time it always is."""
    baselines = lived(12, armed=lambda day: day < 12)
    tonight = DAY0 + timedelta(days=12)
    baselines.observe(tonight + timedelta(hours=22, minutes=40), PANEL, "armed_night")
    baselines.observe(tonight + timedelta(hours=23, minutes=5), PANEL, "disarmed")
    now = tonight + timedelta(hours=24, minutes=20)
    baselines.advance(now)
    disarmed = panel("disarmed", tonight + timedelta(hours=23, minutes=5))
    [finding] = routine_missed(at(now, disarmed), baselines)
    assert finding.evidence == (PANEL,)


def test_quiet_at_a_cold_start_while_away_and_for_a_state_kept_all_day() -> None:
    """Five nights learned are too few; a home empty tonight expects no bedtime (it was
    never learned armed while empty); a lock locked all day but for its use has no
    routine arrival to miss."""
    few = lived(5, armed=lambda day: day < 5)
    night = DAY0 + timedelta(days=5, hours=24, minutes=30)
    assert list(routine_missed(at(night, panel("disarmed", night)), few)) == []
    baselines = lived(12, armed=lambda day: day < 12)
    late = DAY0 + timedelta(days=12, hours=24, minutes=30)
    assert list(routine_missed(at(late, panel("disarmed", late), home=0), baselines)) == []
    unlocked = _since(entity(LOCK, "unlocked"), DAY0 + timedelta(days=12, hours=14))
    noon = DAY0 + timedelta(days=12, hours=16)
    assert list(routine_missed(at(noon, unlocked), baselines)) == []


def test_a_routine_the_home_has_stopped_is_told_once_then_no_longer_expected() -> None:
    """Never armed from night 12 on: told that night; the next nights it is not, since
    the routine no longer held on each of the last nights (the new normal)."""
    stopped = lived(15, armed=lambda day: day < 12)
    for day in (13, 14):
        now = DAY0 + timedelta(days=day, hours=24, minutes=15)
        disarmed = panel("disarmed", now - timedelta(hours=2))
        assert list(routine_missed(at(now, disarmed), stopped)) == [], day


def test_nights_away_are_no_nights_the_routine_was_missed() -> None:
    """Two nights away among twelve: at home tonight, the routine of the other ten holds."""
    baselines = lived(12, away=frozenset({3, 7}))
    tonight = DAY0 + timedelta(days=12)
    now = tonight + timedelta(hours=24, minutes=15)
    assert len(list(routine_missed(at(now, panel("disarmed", now)), baselines))) == 1


def test_the_learned_days_survive_storage_and_garbage_is_dropped() -> None:
    baselines = lived(12)
    again = HomeBaselines.from_dict(baselines.as_dict(), UTC)
    assert again.routines.slots == baselines.routines.slots
    assert again.routines.watched == baselines.routines.watched
    broken = DailyRoutines.from_dict({"day": 1, "watched": "x", "slots": {PANEL: "1,2"}}, UTC)
    assert broken.slots == {}


def test_a_weekday_missed_a_week_before_is_a_weekly_exception() -> None:
    """Not armed on the Sunday night of week one (out late at the family's): 12 of 13 days
    held, but this weekday missed it a week before, so this Sunday is no missed routine;
    on the Monday after, every day but that Sunday held: told."""
    baselines = lived(13, armed=lambda day: day != 6)
    now = DAY0 + timedelta(days=13, hours=24, minutes=15)
    assert list(routine_missed(at(now, panel("disarmed", now)), baselines)) == []
    monday = lived(14, armed=lambda day: day not in (6, 14))
    now = DAY0 + timedelta(days=14, hours=24, minutes=15)
    assert len(list(routine_missed(at(now, panel("disarmed", now)), monday))) == 1


def test_the_analysis_is_due_when_the_usual_time_and_its_margin_have_passed() -> None:
    """At 23:30 with the panel still disarmed, the next analysis is due at 00:00 (its
    usual 23:15 and 45 min), not at whichever periodic one comes next; none is due for
    a panel already armed."""
    baselines = lived(12)
    tonight = DAY0 + timedelta(days=12)
    now = tonight + timedelta(hours=23, minutes=30)
    disarmed = panel("disarmed", tonight + timedelta(hours=5, minutes=35))
    due = tonight + timedelta(hours=24)
    assert routine_missed_due(at(now, disarmed), baselines) == due
    assert list(routine_missed(at(due - timedelta(minutes=1), disarmed), baselines)) == []
    assert len(list(routine_missed(at(due + timedelta(seconds=1), disarmed), baselines))) == 1
    armed = panel("armed_night", tonight + timedelta(hours=22, minutes=50))
    assert routine_missed_due(at(now, armed), baselines) is None
    assert routine_missed_due(at(now, disarmed), None) is None
